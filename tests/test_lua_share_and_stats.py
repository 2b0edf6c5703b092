"""One C++ trace held by Python and Lua at once (earl.lua.share), and P2Statistic in Lua
(conformance section B) with states moved between the two languages."""
import math
import random
import statistics

import pytest

import earl

pytest.importorskip("lupa.lua54")
import earl.lua  # noqa: E402

try:
    earl.lua.module_path()
except earl.EarlError as error:
    pytest.skip(f"no Lua module in this build: {error}", allow_module_level=True)


@pytest.fixture(scope="module")
def trace_path(tmp_path_factory):
    from earl.generate import generate

    path = tmp_path_factory.mktemp("lua-share") / "share.alog"
    generate(path, locations=3, events=2000, seed=3)
    return str(path)


@pytest.fixture
def lua():
    return earl.lua.runtime()


# ------------------------------------------------------------------ share()
def test_share_moves_one_iterator_from_both_sides(lua, trace_path):
    py = earl.EventTrace(trace_path)
    lua.globals().t = earl.lua.share(py, lua)
    py.next()
    py.next()
    assert lua.eval("t:iterator()") == 2
    assert lua.eval("t:next()") == 3
    assert py.iterator == 3 and py.event()["pos"] == 3
    assert lua.eval("t:jump(500)") == 500
    assert py.event() == {**py.event(500)} and py.iterator == 500
    py.prev()
    assert lua.eval("t:event().pos") == 499
    lua.execute("t:reset()")
    assert py.iterator == 0
    # a loop that alternates languages visits every event once
    seen = []
    while py.next():
        seen.append(py.iterator)
        if lua.eval("t:next()"):
            seen.append(lua.eval("t:iterator()"))
    assert seen == list(range(1, len(py) + 1))
    py.close()


def test_share_sees_the_same_events(lua, trace_path):
    with earl.EventTrace(trace_path) as py:
        lua.globals().t = earl.lua.share(py, lua)
        for pos in (1, 2, 77, len(py)):
            expected = {k: v for k, v in py.event(pos).items() if v is not None}
            assert dict(lua.eval(f"t:event({pos})").items()) == expected


def test_close_in_either_language_closes_both(lua, trace_path):
    py = earl.EventTrace(trace_path)
    lua.globals().t = earl.lua.share(py, lua)
    py.close()
    ok, message = lua.execute("return pcall(t.next, t)")
    assert ok is False and message == "the trace is closed"
    assert lua.eval("tostring(t)") == "EventTrace (closed)"

    py = earl.EventTrace(trace_path)
    lua.globals().t = earl.lua.share(py, lua)
    lua.execute("t:close()")
    assert py.closed
    with pytest.raises(earl.EarlError, match="the trace is closed"):
        py.next()


def test_lua_collection_leaves_the_python_trace_open(lua, trace_path):
    with earl.EventTrace(trace_path) as py:
        lua.globals().t = earl.lua.share(py, lua)
        lua.execute("t:jump(10); t = nil; collectgarbage(); collectgarbage()")
        assert py.iterator == 10 and py.next() == 11
    # and the other way round: Lua keeps the trace alive after Python let go of it
    py = earl.EventTrace(trace_path)
    lua.globals().t = earl.lua.share(py, lua)
    size = len(py)
    del py
    assert lua.eval("#t") == size and lua.eval("t:next()") == 1


def test_share_errors(lua, trace_path):
    with pytest.raises(earl.EarlError, match="share: trace must be an earl.EventTrace, got str"):
        earl.lua.share("trace.alog", lua)
    py = earl.EventTrace(trace_path)
    py.close()
    with pytest.raises(earl.EarlError, match="the trace is closed"):
        earl.lua.share(py, lua)


def test_share_into_the_default_runtime(trace_path):
    with earl.EventTrace(trace_path) as py:
        lt = earl.lua.share(py)
        assert lt.next(lt) == 1 and py.iterator == 1


# ------------------------------------------------------------------ P2Statistic (B1-B5)
def values(n, seed=1):
    rng = random.Random(seed)
    return [rng.lognormvariate(0, 1) for _ in range(n)]


def lua_stat(lua, data, name="p"):
    lua.globals().data = lua.table_from(data)
    lua.execute(f"{name} = P2Statistic(); for _, x in ipairs(data) do {name}:add(x) end")


def test_b2_b5_exact_statistics_against_independent_values(lua):
    data = values(1000)
    lua_stat(lua, data)
    assert lua.eval("p:count()") == 1000 and lua.eval("math.type(p:count())") == "integer"
    assert lua.eval("p:min()") == min(data)
    assert lua.eval("p:max()") == max(data)
    assert math.isclose(lua.eval("p:sum()"), math.fsum(data), rel_tol=1e-12)
    assert math.isclose(lua.eval("p:mean()"), statistics.fmean(data), rel_tol=1e-12)
    assert math.isclose(lua.eval("p:var()"), statistics.variance(data), rel_tol=1e-9)
    # P^2 estimates lie near the true quantiles of 1000 values
    q = statistics.quantiles(data, n=4)
    for method, truth in zip(("q25", "med", "q75"), q):
        assert abs(lua.eval(f"p:{method}()") - truth) < 0.1 * truth
    lua.execute("p:reset()")
    assert lua.eval("p:count()") == 0


def test_b1_b3_state_rebuilds_an_identical_object(lua):
    lua_stat(lua, values(300, seed=2))
    lua.execute("s = p:state(); c = P2Statistic(s)")
    assert lua.eval("#s") == 13
    assert list(lua.eval("s").values()) == list(lua.eval("c:state()").values())
    lua.globals().more = lua.table_from(values(200, seed=3))
    lua.execute("for _, x in ipairs(more) do p:add(x); c:add(x) end")
    assert list(lua.eval("p:state()").values()) == list(lua.eval("c:state()").values())
    assert lua.eval("tostring(c)").startswith("P2Statistic(count=500, mean=")


def test_states_move_between_python_and_lua(lua):
    first, second = values(123, seed=4), values(456, seed=5)
    py = earl.P2Statistic()
    for x in first:
        py.add(x)
    # Python -> Lua, then both continue with the same values
    lua.globals().s = lua.table_from(py.state())
    lua.globals().more = lua.table_from(second)
    lua.execute("p = P2Statistic(s); for _, x in ipairs(more) do p:add(x) end")
    for x in second:
        py.add(x)
    lua_state = list(lua.eval("p:state()").values())
    assert lua_state == py.state()                       # bit for bit
    # Lua -> Python
    back = earl.P2Statistic(lua_state)
    for method in ("count", "q25", "med", "q75", "min", "max", "mean", "sum", "var"):
        assert getattr(back, method)() == lua.eval(f"p:{method}()") == getattr(py, method)()
    # and a Lua object built from scratch equals Python's built from the same values
    lua_stat(lua, first + second, name="fresh")
    assert list(lua.eval("fresh:state()").values()) == py.state()


def test_p2_argument_errors(lua):
    cases = {
        "P2Statistic({1, 2, 'x'})": "P2Statistic: state item 3 (q1) is not a number (got string)",
        "P2Statistic('abc')": "P2Statistic: state must be a table of numbers (got string)",
        "P2Statistic({1, 2, 3})":
            "P2Statistic: bad state: expected 13 numbers (count, q0..q4, n0..n4, sum, m2), got 3",
        "P2Statistic():add('1')": "P2Statistic:add: x must be a number (got string)",
        "P2Statistic():add(math.huge)": "P2Statistic.add: value inf is not a finite number",
        "P2Statistic().add(5)":
            "P2Statistic:add: call it as a method, p:add(...) (got integer where the statistic belongs)",
        "P2Statistic():add_many({1, true})": "P2Statistic:add_many: values item 2 is not a number (got boolean)",
    }
    for code, expected in cases.items():
        ok, message = lua.execute(f"return pcall(function() return {code} end)")
        assert not ok, code
        assert message.split(": ", 1)[1] == expected, code
    # a failed add leaves the object unchanged; add_many is all or nothing
    lua.execute("p = P2Statistic(); p:add(1); pcall(p.add, p, 1/0); pcall(p.add_many, p, {2, 0/0})")
    assert lua.eval("p:count()") == 1
    lua.execute("p:add_many({2, 3})")
    assert lua.eval("p:count()") == 3 and lua.eval("p:sum()") == 6.0


# ------------------------------------------------------------------ threads
THREADS_SCRIPT = """
import sys, threading, earl, earl.lua
path = sys.argv[1]
py = earl.EventTrace(path)
lua = earl.lua.runtime()
lua.globals().t = earl.lua.share(py, lua)
expected = {p: py.event(p)["time"] for p in range(1, len(py) + 1)}
errors = []
def python_side():
    try:
        for _ in range(3):
            for p in range(1, len(py) + 1, 7):
                assert py.event(p)["time"] == expected[p]
    except Exception as error:
        errors.append(error)
worker = threading.Thread(target=python_side)
worker.start()
# Lua waits for the trace's lock with the GIL released (lupa releases it while Lua runs),
# so the Python thread, which needs the GIL while it holds the lock, is never stuck.
times = lua.eval("function(n) local out = {} for r = 1, 3 do for p = 1, n, 5 do "
                 "out[#out + 1] = t:event(p).time end end return out end")(len(py))
worker.join()
got = list(times.values())
want = [expected[p] for _ in range(3) for p in range(1, len(py) + 1, 5)]
assert got == want and not errors, (len(got), len(want), errors)
print("ok")
"""


def test_python_and_lua_threads_share_one_trace_without_deadlock(trace_path):
    import subprocess
    import sys

    # A child process, so that a deadlock fails the test (timeout) instead of hanging it.
    done = subprocess.run([sys.executable, "-c", THREADS_SCRIPT, trace_path],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
