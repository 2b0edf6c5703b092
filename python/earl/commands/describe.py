"""`earl describe`: format descriptions (docs/formats.md#described-formats): a commented
template to start from, and checking a description before reading traces with it."""
import sys

from earl import _core
from earl.described import FOLDER, shipped

HELP = "describe a trace format in TOML: print a commented template, check a description"
DESCRIPTION = """\
A text or binary trace format EARL has no reader for can be described in a page of TOML
and then read by every EARL tool: -f described:DESC.toml, --describe DESC.toml, or
format="described:DESC.toml" in Python. --template prints a commented description to
start from (every key it may use); --check validates descriptions and prints what each
defines. Shipped descriptions are found by short name (described:alog)."""


def configure(parser):
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--template", action="store_true",
                      help="print a commented description to start from")
    what.add_argument("--check", nargs="+", metavar="DESC",
                      help="check these descriptions (paths, or short names of shipped ones) "
                           "and print what each defines")
    what.add_argument("--list", action="store_true",
                      help="list the shipped descriptions' short names")


def _path(name):
    """A shipped description's file for a short name; else the name as a path."""
    return str(FOLDER / f"{name}.toml") if name in shipped() else name


def run(args):
    if args.template:
        sys.stdout.write((FOLDER / "template.toml").read_text(encoding="utf-8"))
    elif args.list:
        for name in shipped():
            print(name)
    else:
        for index, name in enumerate(args.check):
            if index:
                print()
            sys.stdout.write(_core.check_description(_path(name)))
    return 0
