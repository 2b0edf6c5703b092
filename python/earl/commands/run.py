"""`earl run SCRIPT ARGS...`: the face of earl.run_script."""
import argparse
import sys

from earl.run_script import RUNNERS, ScriptFailed
from earl.shipped_scripts import LANGUAGES, find_script, language_of

HELP = "run an EARL script (Python, Lua or Tcl) in this process: earl run SCRIPT TRACE..."
DESCRIPTION = ("Run SCRIPT with ARGS (a path, or the name of a shipped script, with or "
               "without its extension: `earl scripts` lists them). The language comes from "
               "--lang, else from the extension, else from a #! line naming earl, tclsh or "
               "wish (Tcl). A shipped name without extension runs the Python script unless "
               "--lang names another language.")


def configure(parser):
    parser.add_argument("--lang", choices=LANGUAGES,
                        help="the script's language (default: from its extension or #! line)")
    parser.add_argument("script", metavar="SCRIPT")
    parser.add_argument("arguments", nargs=argparse.REMAINDER, metavar="ARGS")


def run(args):
    script = find_script(args.script, args.lang)
    try:
        RUNNERS[language_of(script, args.lang)](script, args.arguments)
    except ScriptFailed as failed:
        sys.stderr.write(failed.report)
        return 1
    return 0
