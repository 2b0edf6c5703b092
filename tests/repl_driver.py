"""What the REPL tests share: a small ALOG trace whose every value is known by
construction, and a driver that types keys into the real prompt_toolkit front end through
a pipe (prompt_toolkit's create_pipe_input, output to a DummyOutput) and returns what the
REPL printed."""
import contextlib
import io

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

import earl
from earl.repl import interactive
from earl.repl.session import Session

# Three locations; times in microseconds. By construction (DESIGN.md section 1):
#   pos  time  loc  event
#     1    10    0  enter main
#     2    11    1  enter main
#     3    12    2  enter main
#     4    20    0  enter MPI_Send
#     5    21    0  send to 1, tag 7, len 64
#     6    22    0  exit MPI_Send                  (enterptr 4)
#     7    30    0  enter MPI_Send
#     8    31    0  send to 2, tag 8, len 128
#     9    32    0  exit MPI_Send                  (enterptr 7)
#    10    40    1  enter MPI_Recv                 (enterptr 2)
#    11    41    1  recv from 0, tag 7, len 64     (enterptr 10, sendptr 5)
#    12    42    1  exit MPI_Recv
#    13    50    2  enter MPI_Recv                 (enterptr 3)
#    14    60    2  recv from 0, tag 8, len 128    (enterptr 13, sendptr 8)
#    15    61    2  exit MPI_Recv
#    16    70    0  exit main
#    17    71    1  exit main
#    18    72    2  exit main
# Messages in flight: send 5 after events 5..10, send 8 after events 8..13.
SMALL_TRACE = """\
-3 0 0 3 0 0
-13 0 1 2 0 0 red:solid main
-13 0 3 4 0 0 green:solid MPI_Send
-13 0 5 6 0 0 blue:solid MPI_Recv
-15 0 0 0 0 0 rank zero
-15 1 0 0 0 0 rank one
-15 2 0 0 0 0 rank two
1 0 0 0 0 10
1 1 0 0 0 11
1 2 0 0 0 12
3 0 0 0 0 20
-101 0 0 1 0 21 7 64
4 0 0 0 0 22
3 0 0 0 0 30
-101 0 0 2 0 31 8 128
4 0 0 0 0 32
5 1 0 0 0 40
-102 1 0 0 0 41 7 64
6 1 0 0 0 42
5 2 0 0 0 50
-102 2 0 0 0 60 8 128
6 2 0 0 0 61
2 0 0 0 0 70
2 1 0 0 0 71
2 2 0 0 0 72
"""

ENTER, DOWN, UP, RIGHT, LEFT = "\r", "\x1b[B", "\x1b[A", "\x1b[C", "\x1b[D"
PAGE_DOWN, PAGE_UP, CTRL_C, CTRL_D, TAB = "\x1b[6~", "\x1b[5~", "\x03", "\x04", "\t"


def small_trace(directory):
    path = directory / "small.alog"
    path.write_text(SMALL_TRACE)
    return str(path)


class Driver:
    """A REPL session on a trace, typed into through a pipe."""

    def __init__(self, path, language="python"):
        self.trace = earl.EventTrace(path)
        self.session = Session(self.trace, language)

    def type(self, keys, quiet=True, status=0):
        """Types `keys` (then Ctrl-D, which ends the prompt loop); returns (stdout,
        stderr) of the REPL, whose exit status must be `status`."""
        out, err = io.StringIO(), io.StringIO()
        # what user code prints goes to sys.stdout, as the REPL's own output does
        with create_pipe_input() as pipe, contextlib.redirect_stdout(out), \
                contextlib.redirect_stderr(err):
            pipe.send_text(keys + CTRL_D)
            code = interactive.run(self.session, quiet=quiet, input=pipe, output=DummyOutput(),
                                   out=out, err=err)
        assert code == status, (code, err.getvalue())
        return out.getvalue(), err.getvalue()

    def lines(self, *inputs):
        """Each input followed by Enter; returns (stdout lines, stderr lines)."""
        out, err = self.type("".join(text + ENTER for text in inputs))
        return out.splitlines(), err.splitlines()

    def close(self):
        self.trace.close()
