"""Event expressions: `ev.type == "send" and ev.dest == 3` in Python or Lua.

The core (cpp/query) parses the subset both languages share and tests it on the compact
events at scan speed; anything else is evaluated here, in its language, once per event of
the window (Python: compiled once; Lua: one chunk in a lupa runtime). Both paths give the
same events: an attribute the event does not have is an absent value that equals nothing
but None (== false, != true, orderings false), in Python as in the native test. The
rules and their reasons: docs/cli.md, "earl list".
"""
from earl import _core
from earl._core import EarlError

LANGUAGES = ("python", "lua")
# Events scanned per call into the core: small enough that Ctrl-C is seen at once. Where
# the events found are read again (as dicts, or to test them in their language), a batch
# spans fewer events than the trace's history window (hsize, 1000 by default), so that
# reading them again finds them there instead of decoding from a bookmark.
SCAN = 1 << 16
SCAN_READ_AGAIN = 256


class _Absent:
    """An attribute the event does not have (or data1/data2 holding no value). It equals
    only None and itself (`ev.data1 == None` holds where data1 holds no value, as
    `ev.data1 == nil` in Lua)."""
    __slots__ = ()

    def __eq__(self, other):
        return other is None or other is self

    def __ne__(self, other):
        return not self.__eq__(other)

    def __lt__(self, other):
        return False

    __le__ = __gt__ = __ge__ = __lt__

    def __bool__(self):
        return False

    def __hash__(self):
        return 0

    def __repr__(self):
        return "absent"


ABSENT = _Absent()
# ev.duration of an exit: its time minus its enter's (the core's Predicate::kDuration).
DURATION = "duration"
_NAMES = frozenset(_core.attribute_names()) | {DURATION}


class Event:
    """`ev` of a Python expression: an event dict read as ev.tag or ev["tag"], and
    ev.duration of an exit."""
    __slots__ = ("_event", "_trace")

    def __init__(self, event, trace=None):
        self._event = event
        self._trace = trace

    def __getattr__(self, name):
        if name == DURATION:
            return self._duration()
        value = self._event.get(name)
        if value is None:
            if name not in _NAMES:
                raise AttributeError(f"no event has an attribute {name!r}")
            return ABSENT
        return value

    __getitem__ = __getattr__

    def _duration(self):
        event = self._event
        if event["type"] != "exit" or not event["enterptr"] or self._trace is None:
            return ABSENT
        return event["time"] - self._trace.event(event["enterptr"])["time"]


def python_code(expression, name, line, column, message=None):
    """The expression compiled once. A syntax error: EarlError of message(line, column,
    text) (default "NAME: line L, column C: text") with Python's position, or where Python
    gives none (as at the end of the text) line and column, where the subset stopped."""
    try:
        return compile(expression, f"<{name}>", "eval")
    except SyntaxError as error:
        if error.lineno and error.offset:
            line, column = error.lineno, error.offset
        if message is None:
            raise EarlError(f"{name}: line {line}, column {column}: {error.msg}") from None
        raise EarlError(message(line, column, error.msg)) from None


def _python_test(expression, what, line, column):
    code = python_code(expression, what, line, column)
    namespace = {"__builtins__": __builtins__}

    def test(trace, pos):
        namespace["ev"] = Event(trace.event(pos), trace)
        try:
            return bool(eval(code, namespace))
        except Exception as error:
            raise EarlError(f"{what}: {type(error).__name__}: {error} (at event {pos})") from None
    return test


def lua_test(trace, expression, name, line, column):
    """test(pos) of a Lua expression over the trace, made by the Lua module's
    earl._expression_test (bindings/lua/lua_selection.cpp): one Lua runtime per call,
    sharing the C++ trace. A syntax error: EarlError "NAME: line L, column C: ..."."""
    import earl.lua
    runtime = earl.lua.runtime()
    shared = earl.lua.share(trace, runtime)
    make = runtime.eval("package.loaded.earl._expression_test")
    LuaError = earl.lua._lua54().LuaError
    try:
        test = make(shared, expression, name, line, column)
    except LuaError as error:
        raise EarlError(earl.lua._first_line(error)) from None

    def run(pos):
        try:
            return test(shared.event(shared, pos))
        except LuaError as error:  # a runtime error of the expression: "NAME:LINE: ..."
            text = earl.lua._first_line(error)
            if text.startswith(name + ":"):
                line, _, text = text[len(name) + 1:].partition(": ")
                text = f"line {line}: {text}"
            raise EarlError(f"{name}: {text} (at event {pos})") from None
    return run


def selection(trace, expression=None, language="python", first=None, last=None, locations=(),
              what="expression"):
    """The core's Selection of trace and a test for the events it cannot test itself
    (None where it tests all). `what` names the expression in error messages."""
    if language not in LANGUAGES:
        raise EarlError(f"unknown expression language {language!r} (python or lua)")
    for loc in locations:
        if not isinstance(loc, int) or not 0 <= loc < trace.nrlocs():
            raise EarlError(f"location {loc!r} is not in this trace (it has {trace.nrlocs()})")
    try:
        chosen = _core.Selection(trace._ticket(), expression, language, first, last, list(locations))
    except EarlError as error:
        if not str(error).startswith("line "):  # a bound or a location, not the expression
            raise
        raise EarlError(f"{what}: {error}") from None
    if chosen.native:
        return chosen, None
    # rest: the expression, or where the core tests some operands of a top-level `and`,
    # the others (the tested ones written as True, positions unchanged)
    if language == "python":
        return chosen, _python_test(chosen.rest, what, chosen.line, chosen.column)
    test = lua_test(trace, chosen.rest, what, chosen.line, chosen.column)
    return chosen, lambda _trace, pos: test(pos)


class Selected:
    """An iterator over selected events (as dicts, as EventTrace.event gives them), or
    their positions with `positions=True`. `native`: True where the core tested the
    expression itself, "partial" where it tested some operands of a top-level `and` and
    the language only the others on the events they select, False where the language
    tested it all; where not True, `reason` says what the core met first (line, column)."""

    def __init__(self, trace, expression=None, language="python", first=None, last=None,
                 locations=(), what="expression", positions=False):
        self._trace = trace
        self._chosen, self._test = selection(trace, expression, language, first, last,
                                             locations, what)
        self.native = "partial" if self._chosen.partial else self._chosen.native
        self.reason = "" if self._chosen.native else (
            f"line {self._chosen.line}, column {self._chosen.column}: {self._chosen.reason}")
        self.first, self.last = self._chosen.first, self._chosen.last
        self._items = self._scan(positions)

    def _scan(self, positions):
        trace, chosen, test = self._trace, self._chosen, self._test
        scan = SCAN if positions and test is None else SCAN_READ_AGAIN
        while not chosen.done:
            for pos in chosen.batch(scan):
                if test is None or test(trace, pos):
                    yield pos if positions else trace.event(pos)

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._items)
