"""`earl repl`: open the trace (or the demo trace), print its summary, then read inputs
from a terminal (interactive.py) or from a pipe (scripted.py)."""
import contextlib
import sys

import earl
from earl.open_arguments import keywords
from earl.index import note_new_index
from earl.repl import scripted
from earl.repl.demo_trace import demo_trace
from earl.repl.session import Session
from earl.repl.shell import Shell, summary


def is_terminal():
    return sys.stdin.isatty() and sys.stdout.isatty()


def main(args):
    with contextlib.ExitStack() as stack:
        path = args.trace
        if path is None:
            path = stack.enter_context(demo_trace())
        trace = stack.enter_context(earl.EventTrace(path, **keywords(args)))
        note_new_index(trace)
        session = Session(trace, args.lang)
        if is_terminal():
            from earl.repl import interactive

            return interactive.run(session, quiet=args.quiet)
        shell = Shell(session, located=True)
        if not args.quiet:
            shell.show(summary(trace))
        return scripted.run(shell, sys.stdin)
