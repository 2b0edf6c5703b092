"""The `earl` command line."""
import sys


def main(argv=None):
    print("earl: command line not built yet", file=sys.stderr)
    return 2
