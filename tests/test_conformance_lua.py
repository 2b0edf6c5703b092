"""The conformance cases of tests/conformance/ (shared with Python and Tcl) through the Lua
mapping in lupa (EventTrace or P2Statistic as `e`): `e:method(args)` per operation, `size`
as #e, nil positions as false."""
import pytest

import earl
from conformance_cases import NONE, NOTHING, POSITION_METHODS, Failure, cases, run, write_trace

pytest.importorskip("lupa.lua54")
import earl.lua  # noqa: E402

try:
    earl.lua.module_path()
except earl.EarlError as error:
    pytest.skip(f"no Lua module in this build: {error}", allow_module_level=True)

PREFIX = '[string "<python>"]:1: '   # errors name the chunk that called


def lua_literal(value):
    if isinstance(value, (int, float)):
        return repr(value)
    return '"' + value.replace('"', '\\"') + '"'


def neutral(lua, value, expected):
    """A Lua answer in the shape `expected` has: tables become lists or dicts."""
    if lua.eval("type")(value) != "table":
        return value
    if isinstance(expected, list):
        n = value["n"] if value["n"] is not None else len(value)
        return [neutral(lua, value[i], e) for i, e in zip(range(1, n + 1), expected + [None] * n)]
    expected = expected if isinstance(expected, dict) else {}
    return {k: neutral(lua, v, expected.get(k)) for k, v in value.items()}


def answer(lua, method, args, expected):
    code = "#e" if method == "size" else f"e:{method}({', '.join(map(lua_literal, args))})"
    outcome = lua.execute(f"return pcall(function() return {code} end)")
    ok, got = outcome if isinstance(outcome, tuple) else (outcome, None)   # no value returned
    if not ok:
        # that errors name the calling line is Lua's own test (test_lua_mapping)
        return Failure(got[len(PREFIX):] if got.startswith(PREFIX) else got)
    if got is None:
        return False if method in POSITION_METHODS else NOTHING
    got = neutral(lua, got, expected)
    if method == "values":
        return [NONE if v is None else v for v in got]
    return got


@pytest.mark.parametrize("trace, ops", cases())
def test_case(tmp_path, trace, ops):
    lua = earl.lua.runtime()
    if trace is None:
        lua.execute("e = P2Statistic()")
        run(ops, lambda method, args, expected: answer(lua, method, args, expected), None)
        return
    lua.globals().path = path = write_trace(tmp_path, trace)
    lua.execute("e = EventTrace(path)")
    run(ops, lambda method, args, expected: answer(lua, method, args, expected), path)
    lua.execute("e:close()")
