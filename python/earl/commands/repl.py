"""`earl repl [TRACE]`: the face of earl.repl (the REPL itself is imported only when the
command runs: DESIGN.md section 5)."""
from earl import open_arguments

HELP = "walk a trace interactively: step, jump, stacks, queues, search (Python, Lua, Tcl)"
DESCRIPTION = ("Open TRACE (without one: a small generated demo trace) in an interactive shell. "
               "`:help` lists the commands; anything else is code in the current language, "
               "with the trace as `e` and the event at the iterator as `ev`. With stdin not a "
               "terminal, commands are read line by line (scripted sessions).")


def configure(parser):
    from earl.repl.languages import NAMES

    parser.add_argument("trace", nargs="?", metavar="TRACE",
                        help="the trace (default: a generated demo trace)")
    parser.add_argument("--lang", choices=NAMES, default="python",
                        help="the language of code typed at the prompt (default: python)")
    open_arguments.add_format(parser)
    open_arguments.add_reading(parser)
    open_arguments.add_correction(parser)
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="do not print the trace's summary at the start")


def run(args):
    from earl.repl.main import main

    return main(args)
