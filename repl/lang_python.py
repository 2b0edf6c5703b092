"""Python in the REPL: code runs in one namespace holding e, ev, EventTrace, P2Statistic
and earl; a bare expression shows its repr, as Python's own REPL does."""
import ast
import builtins
import codeop

import earl
from earl.repl.languages import EvaluationError


# What Python raises where a filter uses a missing attribute's None as a value (None >
# 1000, None.startswith(...)): for an event that lacks the attribute, no match. Anything
# else (a NameError, a ZeroDivisionError, a TypeError between values it has) is an error.
NONE_FAILURES = (TypeError, AttributeError)


class FilterEvent(dict):
    """The event a filter (`:find`, `/` in :view) sees as ev: an attribute its type
    lacks reads None, as a missing field is nil in Lua, and `missed` notes that one
    was read. (A search gives the plain event first, the fast way, and this only to an
    event where that raised KeyError: the same answer, as reading no missing key the
    two are the same.)"""
    missed = False

    def __missing__(self, key):
        self.missed = True
        return None


class _Leave:
    """exit and quit at the prompt: calling one raises SystemExit, which the shell refuses
    (only :quit ends the session); shown bare, it says how to leave."""

    def __repr__(self):
        return "use :quit (or Ctrl-D) to leave the REPL"

    def __call__(self, code=None):
        raise SystemExit(code)


class Evaluator:
    name = "python"

    def __init__(self, trace):
        self.trace = trace
        self.namespace = {"__name__": "__console__", "__builtins__": builtins, "earl": earl,
                          "EventTrace": earl.EventTrace, "P2Statistic": earl.P2Statistic,
                          "e": trace, "ev": None, "exit": _Leave(), "quit": _Leave()}
        self._searched = 0

    def set_event(self, event):
        self.namespace["ev"] = event

    def is_complete(self, source):
        """False while a block is open (Python's own rule: a compound statement ends with
        an empty line); input with a syntax error is complete (evaluating reports it)."""
        try:
            return codeop.compile_command(source, "<input>", "single") is not None
        except (SyntaxError, ValueError, OverflowError):
            return True

    def evaluate(self, source, origin=("<input>", 1)):
        """Runs `source`; returns the repr of a final bare expression (None when there is
        nothing to show). `origin` is (file name, line of the first line) for messages."""
        filename, first_line = origin
        try:
            tree = ast.parse(source, filename, "exec")
        except (SyntaxError, ValueError) as error:
            raise EvaluationError(_syntax_message(error, filename, first_line)) from None
        ast.increment_lineno(tree, first_line - 1)
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        value = None
        try:
            if tree.body:
                exec(compile(tree, filename, "exec"), self.namespace)
            if last is not None:
                expression = ast.Expression(last.value)
                value = eval(compile(expression, filename, "eval"), self.namespace)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as error:
            raise EvaluationError(_located(error, filename)) from None
        if value is None:
            return None
        self.namespace["_"] = value
        return repr(value)

    def searcher(self, expression):
        """A function (first, last, step) -> the first position in range(first, last,
        step) (last included) where `expression` over ev is true, else 0."""
        try:
            code = compile(expression, "<find>", "eval")
        except (SyntaxError, ValueError) as error:
            raise EvaluationError(_syntax_message(error, "<find>", 1)) from None
        namespace, event = self.namespace, self.trace.event

        def search(first, last, step):
            for pos in range(first, last + step, step):
                self._searched = pos
                try:
                    namespace["ev"] = plain = event(pos)
                    try:
                        if eval(code, namespace):
                            return pos
                    except KeyError:
                        # again, as a filter sees events: what the event lacks reads None
                        namespace["ev"] = shown = FilterEvent(plain)
                        try:
                            if eval(code, namespace):
                                return pos
                        except NONE_FAILURES:
                            if not shown.missed:
                                raise
                except (KeyboardInterrupt, SystemExit):
                    raise
                except BaseException as error:
                    raise EvaluationError(f"{_located(error, '<find>')} (at event {pos})") from None
            return 0

        return search

    def last_searched(self):
        """The position the last search examined last (also when it was interrupted)."""
        return self._searched

    def run_script(self, path, args):
        from earl.run_script import run_python_as_main

        try:
            run_python_as_main(path, args)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as error:
            raise EvaluationError(_located(error, path)) from None

    def method_names(self):
        return sorted(name for name in dir(self.trace) if not name.startswith("_"))

    def global_names(self):
        return sorted(set(self.namespace) | set(dir(builtins)))


def _syntax_message(error, filename, first_line):
    if isinstance(error, SyntaxError) and error.lineno:
        line = error.lineno + first_line - 1
        return f"{filename}:{line}: SyntaxError: {error.msg}"
    return f"{filename}:{first_line}: {type(error).__name__}: {error}"


def _located(error, filename):
    """file:line: Type: message, with the line of the innermost frame in `filename` (the
    user's input or script), never a frame inside EARL."""
    line = None
    tb = error.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    if isinstance(error, SyntaxError) and error.filename == filename and error.lineno:
        line = error.lineno
    where = f"{filename}:{line}: " if line else f"{filename}: "
    text = str(error)
    return f"{where}{type(error).__name__}: {text}" if text else f"{where}{type(error).__name__}"
