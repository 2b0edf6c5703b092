"""`earl run SCRIPT ARGS...`: runs an EARL script the way the interpreter would."""
import argparse
import os
import runpy
import sys

from earl import EarlError

HELP = "run an EARL script: earl run SCRIPT TRACE..."


def configure(parser):
    parser.add_argument("script")
    parser.add_argument("arguments", nargs=argparse.REMAINDER)


def run(args):
    script = args.script
    if not os.path.isfile(script):
        raise EarlError(f"{script}: no such script")
    if not script.endswith(".py"):
        raise EarlError(f"{script}: only Python scripts (.py) are supported so far")
    saved_argv = sys.argv
    sys.argv = [script] + list(args.arguments)
    try:
        runpy.run_path(script, run_name="__main__")
    finally:
        sys.argv = saved_argv
    return 0
