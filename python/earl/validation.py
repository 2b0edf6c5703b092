"""Validation of a trace (CHECKTRACE and VARUS): earl.check(trace, rules=None).

The standard checks and the rules run in one pass in the core (cpp/query/checker.h);
rule expressions outside the common subset of Python and Lua are tested here, in their
language, on the events the core hands back. Kinds and the rules file: docs/cli.md,
"earl check".
"""
import os
import re

from earl import _core
from earl._core import EarlError
from earl.query import SCAN, SCAN_READ_AGAIN, Event, lua_test, python_code

RULE_KEYS = ("name", "language", "when", "assert")


class Rules(list):
    """Rules read from a TOML file: dicts with name, language, when, assert; `where`
    maps (rule index, key) to the (line, column) its value starts at in `path`."""

    def __init__(self, rules, path=None, where=None):
        super().__init__(rules)
        self.path = path
        self.where = where or {}

    def locate(self, index, key, line, column):
        """(name, line, column) of line/column inside the expression: in the file, or
        in the expression where the rules come from no file."""
        if self.path is None or (index, key) not in self.where:
            return f"rule {index + 1} ({self[index]['name']}): {key}", line, column
        start_line, start_column = self.where[(index, key)]
        if line == 1:
            return self.path, start_line, start_column + column - 1
        return self.path, start_line + line - 1, column

    def message(self, index, key, line, column, text):
        name, line, column = self.locate(index, key, line, column)
        return f"{name}: line {line}, column {column}: {text}"


def load_rules(path):
    """Reads a rules file (TOML, [[rule]] tables) with the core's reader
    (cpp/query/rules_file.h, as Lua and Tcl read it); EarlError naming the file, line,
    column."""
    rules, where = [], {}
    for index, rule in enumerate(_core.load_rules(path)):
        rules.append({key: rule[key] for key in RULE_KEYS})
        for key in ("when", "assert"):
            if rule[f"{key}_at"] is not None:
                where[(index, key)] = tuple(rule[f"{key}_at"])
    return Rules(rules, path, where)


class _RuleTests:
    """The tests of the rule parts the core cannot test, in their languages."""

    def __init__(self, trace, rules, fallbacks):
        self.trace, self.rules, self.tests = trace, rules, {}
        for index, parts in enumerate(fallbacks):
            for key, part in parts.items():
                if part is not None:
                    self.tests[(index, key)] = self._compile(index, key, part)

    def _compile(self, index, key, part):
        """part["rest"]: the part, or where the core tests operands of its top-level `and`,
        the others (the tested ones written as true, positions unchanged)."""
        rule, line, column = self.rules[index], part["line"], part["column"]
        if rule["language"] == "python":
            return python_code(part["rest"], f"rule {rule['name']}", line, column,
                               lambda line, column, text: self.rules.message(index, key, line, column, text))
        # Lua names no column: the column is where the common subset stopped reading.
        return lua_test(self.trace, part["rest"], *self.rules.locate(index, key, line, column))

    def _holds(self, index, key, pos, namespace):
        test = self.tests.get((index, key))
        if test is None:
            return True  # the core tested it (when) or there is none
        try:
            if self.rules[index]["language"] == "python":
                if "ev" not in namespace:
                    namespace["ev"] = Event(self.trace.event(pos), self.trace)
                return bool(eval(test, namespace))
            return bool(test(pos))
        except EarlError:
            raise
        except Exception as error:
            raise EarlError(f"rule {self.rules[index]['name']}: {key}: {type(error).__name__}: "
                            f"{error} (at event {pos})") from None

    def violation(self, index, pos, fails=False):
        """The violation of rule `index` at pos, or None where it holds. `fails`: the core
        found the assertion false; where the core tests it whole (no test here), `fails`
        is its verdict."""
        namespace = {"__builtins__": __builtins__}
        if not self._holds(index, "when", pos, namespace):
            return None
        rule = self.rules[index]
        if not fails:
            if (index, "assert") not in self.tests or self._holds(index, "assert", pos, namespace):
                return None
        event = self.trace.event(pos)
        return {"kind": "rule", "pos": pos, "loc": event["loc"], "time": event["time"],
                "message": f"rule {rule['name']}: {rule['assert']} is false", "rule": index}


def _rules_of(rules):
    if rules is None:
        return Rules([])
    if isinstance(rules, (str, bytes, os.PathLike)):
        return load_rules(os.fsdecode(rules))
    if isinstance(rules, Rules):
        return rules
    listed = []
    for index, rule in enumerate(rules):
        listed.append({"name": rule.get("name", f"rule {index + 1}"),
                       "language": rule.get("language", "python"),
                       "when": rule.get("when", ""), "assert": rule["assert"]})
    return Rules(listed)


def violations(trace, rules=None):
    """Yields the violations of trace (an open earl.EventTrace) in the order the pass finds
    them: the standard checks, then rules (a rules file's path or a list of dicts with
    name, language, when, assert). Each is a dict: kind, pos, loc, time, message, rule
    (the rule's index, None for a standard check)."""
    rules = _rules_of(rules)
    tuples = [(r["name"], r["when"], r["assert"], r["language"]) for r in rules]
    try:
        checker = _core.Checker(trace._ticket(), tuples)
    except EarlError as error:
        raise _located(rules, error) from None
    tests = _RuleTests(trace, rules, checker.fallbacks())
    scan = SCAN_READ_AGAIN if tests.tests else SCAN  # pending events are read again
    while not checker.done:
        found, pending = checker.batch(scan)
        yield from found
        for index, pos, fails in pending:
            failed = tests.violation(index, pos, fails)
            if failed is not None:
                yield failed
    yield from checker.finish()


def _located(rules, error):
    """The core's "rule N (NAME): when: line L, column C: ..." in the file's coordinates."""
    found = re.match(r"rule (\d+) \(.*?\): (when|assert): line (\d+), column (\d+): (.*)", str(error), re.S)
    if not found:
        return error
    index, key = int(found.group(1)) - 1, found.group(2)
    return EarlError(rules.message(index, key, int(found.group(3)), int(found.group(4)),
                                   found.group(5)))


def check(trace, rules=None):
    """All violations of trace (an earl.EventTrace or a path) sorted by position: see
    violations()."""
    if isinstance(trace, (str, bytes, os.PathLike)):
        from earl.trace import EventTrace
        with EventTrace(trace) as opened:
            return check(opened, rules)
    return sorted(violations(trace, rules), key=lambda v: (v["pos"], v["kind"]))
