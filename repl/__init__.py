"""`earl repl [TRACE]`: walk a trace interactively in Python, Lua or Tcl.

This module is only the command's face (the command line imports it when it builds its
parser); the REPL itself is imported when the command runs:

    session.py     the trace, its iterator and the moves (back, marks, time)
    languages.py   the languages' table; lang_python/lang_lua/lang_tcl their evaluators
    commands.py    the `:` commands, one table (help, completion and dispatch read it)
    shell.py       one input -> a command or code, output and one-line errors
    render.py      event, stacks, queue, where;  timeline.py  the text timeline
    scripted.py    stdin not a terminal: line by line, no colour
    interactive.py prompt_toolkit: history, suggestions, completion (completion.py),
                   toolbar, highlighting;  view.py  the full-screen live view
    demo_trace.py  the built-in demo trace, generated on the fly
"""
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
    parser.add_argument("--format", default=None, help="trace format (default: detect)")
    parser.add_argument("--no-cache", action="store_true",
                        help="read OTF2 directly instead of through EARL's event cache in $TMPDIR")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="do not print the trace's summary at the start")


def run(args):
    from earl.repl.main import main

    return main(args)
