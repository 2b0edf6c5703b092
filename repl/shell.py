"""One input of the REPL, whatever reads it (prompt_toolkit or a pipe): a `:` command or
code in the current language. Results go to `out` (in colour on a terminal), errors to
`err` as one line, and the session goes on."""
import sys

from prompt_toolkit import print_formatted_text
from prompt_toolkit.formatted_text import FormattedText

from earl import EarlError
from earl.progress import ProgressBar
from earl.repl import commands
from earl.repl.render import STYLE, Text, plain


# An exit inside a search expression (:find, / in :view) cannot end the session.
EXIT_REFUSED = "exit is disabled in the REPL: use :quit (or Ctrl-D)"
CLOSED = "the trace is closed: what reads it fails from here on; :quit (or Ctrl-D) ends the session"


class Shell:
    """`colour`: print with STYLE (a terminal); `located`: prefix command errors with the
    input's file and line (scripted sessions); `full_screen`: the live view, where a
    terminal offers one."""

    def __init__(self, session, out=None, err=None, colour=False, located=False,
                 full_screen=None, width=None):
        self.session = session
        self.out = sys.stdout if out is None else out
        self.err = sys.stderr if err is None else err
        self.colour = colour
        self.located = located
        self._full_screen = full_screen
        self._width = width
        self.errors = 0
        self.exit_status = None  # set when code typed at the prompt exits

    # ------------------------------------------------------------------ input
    def is_complete(self, text):
        """True when `text` can run: a command, or complete code in the current language
        (an open block or bracket waits for more lines)."""
        stripped = text.strip()
        if not stripped or stripped.startswith(":"):
            return True
        return self.session.evaluator().is_complete(text)

    def handle(self, text, origin=("<input>", 1)):
        """Runs one input; returns False when the session should end (:quit, or code that
        exits: exit(), sys.exit(n), raise SystemExit(n), os.exit(n), Tcl's exit n, which
        set exit_status, as they end Python's, Lua's and tclsh's own REPLs)."""
        stripped = text.strip()
        if not stripped:
            return True
        was_closed = self.session.closed
        try:
            if stripped.startswith(":"):
                result = commands.dispatch(self, stripped[1:])
                if result is commands.QUIT:
                    return False
                if result is not None:
                    self.show(result)
            else:
                try:
                    shown = self.session.evaluator().evaluate(text, origin)
                except SystemExit as stop:
                    self.exit_status = self._status(stop.code)
                    return False
                if shown is not None:
                    self.out.write(shown + "\n")
        except SystemExit:  # an exit inside a command's expression (:find): refused
            self.error((f"{origin[0]}:{origin[1]}: " if self.located else "") + EXIT_REFUSED)
        except KeyboardInterrupt:
            self.error("interrupted")
        except EarlError as error:
            where = f"{origin[0]}:{origin[1]}: " if self.located and stripped.startswith(":") else ""
            self.error(where + str(error))
        finally:
            self.out.flush()
            self.session.sync()
            if self.session.closed and not was_closed:  # said once, not an error of the input
                self.err.write(CLOSED + "\n")
                self.err.flush()
        return True

    def _status(self, code):
        """The exit status of SystemExit(code), by Python's rule: None is 0, an integer
        itself, anything else is printed and is 1."""
        if code is None or isinstance(code, int):
            return int(code or 0)
        self.err.write(f"{code}\n")
        return 1

    # ------------------------------------------------------------------ output
    def show(self, fragments):
        fragments = list(fragments)
        if self.colour:
            print_formatted_text(FormattedText(fragments), style=STYLE, file=self.out, end="")
        else:
            self.out.write(plain(fragments))

    def error(self, message):
        self.errors += 1
        line = " ".join(message.split("\n"))  # one line, whatever the language said
        if self.colour:
            print_formatted_text(FormattedText([("class:error", line)]), style=STYLE, file=self.err)
        else:
            self.err.write(line + "\n")
        self.err.flush()

    def progress(self, what):
        """A progress display for long work (a bar on a terminal after half a second)."""
        return ProgressBar(f"{what}: Ctrl-C stops", stream=self.err)

    def width(self):
        """The columns a picture may use: the terminal's, less a margin for labels."""
        if self._width:
            return self._width
        import shutil

        return max(20, min(200, shutil.get_terminal_size((100, 24)).columns - 10))

    def full_screen(self):
        if self._full_screen is None:
            raise commands.CommandError(":view needs a terminal (stdin and stdout a TTY)")
        self._full_screen()


def summary(trace):
    """What the REPL says when it opens a trace: `earl info`'s description (16 locations
    named at most) and how to go on."""
    from earl.info import describe

    text = Text().line(describe(trace, shown_locations=16))
    return text.line("Type :help for the commands; e is the trace, ev the event at the iterator.", "dim")
