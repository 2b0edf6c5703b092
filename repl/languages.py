"""The languages the REPL speaks: one row each (its evaluator, its pygments lexer), the one
table the commands, the completion and the highlighting read. (Which file extension is
which language is earl.shipped_scripts' table, the one `:run` and `earl run` use.)

An evaluator holds one interpreter with the session's trace shared into it as `e` (the
same C++ trace in every language: one iterator) and `ev`, the event at the iterator, set
by the session after every move. It evaluates what the user types (a bare expression
shows its value, as the language's own REPL would), compiles `:find` predicates into a
search that runs in the language itself, runs scripts, and names its methods and
globals for completion. Errors are EvaluationError: one line naming the input's line.
"""
import importlib
from collections import namedtuple

from earl import EarlError

Language = namedtuple("Language", "name module lexer")

LANGUAGES = {
    "python": Language("python", "earl.repl.lang_python", "PythonLexer"),
    "lua": Language("lua", "earl.repl.lang_lua", "LuaLexer"),
    "tcl": Language("tcl", "earl.repl.lang_tcl", "TclLexer"),
}
NAMES = tuple(LANGUAGES)


class EvaluationError(EarlError):
    """The user's code failed; the message is one line (file:line: what went wrong)."""


def start(name, trace):
    """A new evaluator of language `name` with `trace` shared into it as `e`."""
    module = importlib.import_module(LANGUAGES[name].module)
    return module.Evaluator(trace)


def lexer(name):
    """The pygments lexer class for language `name`."""
    import pygments.lexers

    return getattr(pygments.lexers, LANGUAGES[name].lexer)
