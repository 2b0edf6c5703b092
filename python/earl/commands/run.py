"""`earl run SCRIPT ARGS...`: the face of earl.run_script."""
import argparse
import os

from earl import EarlError
from earl.run_script import LANGUAGES, RUNNERS, language_of

HELP = "run an EARL script (Python, Lua or Tcl) in this process: earl run SCRIPT TRACE..."


def configure(parser):
    parser.add_argument("--lang", choices=sorted(set(LANGUAGES.values())),
                        help="the script's language (default: from its extension or #! line)")
    parser.add_argument("script")
    parser.add_argument("arguments", nargs=argparse.REMAINDER)


def run(args):
    script = args.script
    if not os.path.isfile(script):
        raise EarlError(f"{script}: no such script")
    RUNNERS[args.lang or language_of(script)](script, args.arguments)
    return 0
