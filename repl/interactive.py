"""The REPL on a terminal, through prompt_toolkit: history kept between sessions (in the
user's data directory) with suggestions from it, completion (completion.py), input over
several lines while a block is open, highlighting by the current language's pygments
lexer, and the toolbar showing where the iterator stands."""
import os
import sys

from prompt_toolkit import PromptSession
from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
from prompt_toolkit.history import FileHistory, InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.lexers import DynamicLexer, PygmentsLexer

from earl.repl import languages, view
from earl.repl.completion import ReplCompleter
from earl.repl.render import STYLE
from earl.repl.shell import Shell, summary
from earl.repl.toolbar import prompt, toolbar


def history_path():
    """$XDG_DATA_HOME/earl/repl_history (default ~/.local/share/earl/repl_history)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "earl", "repl_history")


def _history(err):
    path = history_path()
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as error:
        err.write(f"earl repl: history not kept: cannot write {path}: {error.strerror}\n")
        return InMemoryHistory()
    return FileHistory(path)


def _key_bindings(shell):
    bindings = KeyBindings()

    @bindings.add("enter")
    def _enter(event):
        """Enter runs the input once it is complete; inside an open block it starts a new
        line (indented like the last one, one level deeper after a Python ':')."""
        buffer = event.current_buffer
        state = buffer.complete_state
        if state is not None and state.current_completion is not None:
            buffer.apply_completion(state.current_completion)
            return
        if shell.is_complete(buffer.text):
            buffer.validate_and_handle()
            return
        line = buffer.document.current_line
        before_line = buffer.text[:len(buffer.text) - len(line)]
        if not line.strip() and buffer.document.is_cursor_at_the_end and \
                shell.is_complete(before_line):  # an empty line ends the block
            buffer.text = before_line
            buffer.validate_and_handle()
            return
        indent = line[:len(line) - len(line.lstrip())]
        if line.rstrip().endswith(":") and shell.session.language == "python":
            indent += "    "
        buffer.insert_text("\n" + indent)

    return bindings


def run(session, quiet=False, input=None, output=None, out=None, err=None):
    """Reads inputs until :quit, Ctrl-D or code that exits (its status is returned);
    `input`/`output` are prompt_toolkit's (tests pass a pipe and a dummy), `out`/`err`
    where results and errors go."""
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    shell = Shell(session, out, err, colour=out.isatty(),
                  full_screen=lambda: view.run(session, input=input, output=output))
    if not quiet:
        shell.show(summary(session.trace))
    lexers = {name: PygmentsLexer(languages.lexer(name)) for name in languages.NAMES}
    prompt_session = PromptSession(
        history=_history(err), auto_suggest=AutoSuggestFromHistory(),
        completer=ReplCompleter(session), complete_while_typing=False,
        lexer=DynamicLexer(lambda: lexers[session.language]),
        bottom_toolbar=lambda: toolbar(session), style=STYLE, multiline=True,
        key_bindings=_key_bindings(shell), prompt_continuation=_continuation,
        input=input, output=output)
    while True:
        try:
            text = prompt_session.prompt(lambda: prompt(session))
        except KeyboardInterrupt:  # Ctrl-C at the prompt drops the line, as in Python
            continue
        except EOFError:
            break
        if not shell.handle(text):
            break
    return shell.exit_status or 0


def _continuation(width, line_number, wrap_count):
    return "." * (width - 1) + " "
