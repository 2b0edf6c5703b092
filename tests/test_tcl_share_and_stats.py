"""One C++ trace held by Python and Tcl at once (earl.tcl.share), and P2Statistic in Tcl
(conformance section B, both dialects) with states moved between Python, Tcl (2.0 and
1998) and Lua, giving identical results."""
import random
import statistics

import pytest

import earl
import earl.tcl
from test_tcl_common import as_list, error_of, interp, needs_extension

pytestmark = needs_extension


@pytest.fixture(scope="module")
def trace_path(tmp_path_factory):
    from earl.generate import generate

    path = tmp_path_factory.mktemp("tcl-share") / "share.alog"
    generate(path, locations=3, events=2000, seed=3)
    return str(path)


@pytest.fixture
def tcl():
    return interp()


# ------------------------------------------------------------------ share()
def test_share_moves_one_iterator_from_both_sides(tcl, trace_path):
    py = earl.EventTrace(trace_path)
    name = earl.tcl.share(py, tcl)
    assert name == "::earl::shared0"
    py.next()
    py.next()
    assert tcl.eval(f"{name} iterator") == "2"
    assert tcl.eval(f"{name} next") == "3"
    assert py.event()["pos"] == 3
    assert tcl.eval(f"{name} jump 100") == "100"
    assert py.next() == 101
    tcl.eval(f"{name} reset")
    assert py.prev() == 0 and tcl.eval(f"{name} event ev 7") == "7"


def test_share_sees_the_same_events(tcl, trace_path):
    py = earl.EventTrace(trace_path)
    name = earl.tcl.share(py, tcl, name="t")
    assert name == "t"
    for pos in (1, 50, 999, len(py)):
        got, want = as_list(tcl, tcl.eval(f"t values {pos}")), py.values(pos)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert (float(g) == w) if isinstance(w, float) else (g == str(w))
    # the spec's loop over the shared trace ends where Python's iterator ends
    assert tcl.eval("set n 0; while {[t next]} {t event ev; incr n}; set n") == str(len(py))
    assert py.next() == 0 and py.event()["pos"] == len(py)


def test_close_in_either_language_closes_both(tcl, trace_path):
    py = earl.EventTrace(trace_path)
    earl.tcl.share(py, tcl, name="t")
    py.close()
    assert error_of(tcl, "t next") == "the trace is closed"
    py = earl.EventTrace(trace_path)
    earl.tcl.share(py, tcl, name="u")
    tcl.eval("u close")
    with pytest.raises(earl.EarlError, match="closed"):
        py.next()


def test_rename_leaves_the_python_trace_open(tcl, trace_path):
    py = earl.EventTrace(trace_path)
    earl.tcl.share(py, tcl, name="t")
    tcl.eval("t jump 10; rename t {}")
    assert py.next() == 11
    # and Python letting go leaves the Tcl command working
    earl.tcl.share(py, tcl, name="t")
    del py
    assert tcl.eval("t next") == "12"


def test_share_errors(tcl, trace_path):
    with pytest.raises(earl.EarlError, match="share: trace must be an earl.EventTrace, got str"):
        earl.tcl.share("run.otf2", tcl)
    py = earl.EventTrace(trace_path)
    earl.tcl.share(py, tcl, name="t")
    with pytest.raises(earl.EarlError, match='a command named "t" already exists'):
        earl.tcl.share(py, tcl, name="t")
    py.close()
    with pytest.raises(earl.EarlError, match="closed"):
        earl.tcl.share(py, tcl)
    assert "ticket" in error_of(tcl, "earl::_adopt 12345")


def test_share_into_the_default_interpreter(trace_path):
    py = earl.EventTrace(trace_path)
    name = earl.tcl.share(py)
    py.jump(5)
    assert earl.tcl._default_interpreter().eval(f"{name} iterator") == "5"


# ------------------------------------------------------------------ P2Statistic, 2.0
def test_b1_b2_b5_exact_statistics_against_independent_values(tcl):
    rng = random.Random(4)
    values = [rng.uniform(-5, 50) for _ in range(200)]
    assert tcl.eval("P2Statistic p") == "p"
    for x in values:
        tcl.eval(f"p add {x!r}")
    assert tcl.eval("p count") == "200"
    assert float(tcl.eval("p min")) == min(values) and float(tcl.eval("p max")) == max(values)
    assert float(tcl.eval("p sum")) == pytest.approx(sum(values), rel=1e-12)
    assert float(tcl.eval("p mean")) == pytest.approx(statistics.fmean(values), rel=1e-12)
    assert float(tcl.eval("p var")) == pytest.approx(statistics.variance(values), rel=1e-9)
    q25, med, q75 = (float(tcl.eval(f"p {q}")) for q in ("q25", "med", "q75"))
    assert q25 < med < q75
    cuts = statistics.quantiles(values, n=4)
    assert med == pytest.approx(cuts[1], abs=3) and q25 == pytest.approx(cuts[0], abs=3)
    tcl.eval("p reset")
    assert tcl.eval("p count") == "0" and error_of(tcl, "p min")


def test_answers_are_tcl_doubles(tcl):
    # B4/B5 themselves are conformance cases (tests/conformance/p2statistic.toml)
    tcl.eval("P2Statistic p")
    tcl.eval("p add 3")
    assert tcl.eval("p var") == "0.0"                     # one value: 0.0 in the 2.0 mappings
    assert tcl.eval("p mean") == "3.0"
    assert error_of(tcl, "p med")
    for x in (1, 5, 2, 4):
        tcl.eval(f"p add {x}")
    assert [tcl.eval(f"p {q}") for q in ("q25", "med", "q75")] == ["2.0", "3.0", "4.0"]


def test_b1_b3_state_rebuilds_an_identical_object(tcl):
    tcl.eval("P2Statistic p; foreach x {5 1 4 1 5 9 2 6 5 3 5} {p add $x}")
    state = as_list(tcl, tcl.eval("p state"))
    assert len(state) == 13
    assert tcl.eval("P2Statistic q [p state]") == "q"
    for x in (8, 9, 7, 9, 3, 2):
        tcl.eval(f"p add {x}; q add {x}")
    assert tcl.eval("p state") == tcl.eval("q state")
    for method in ("q25", "med", "q75", "min", "max", "mean", "sum", "var", "count"):
        assert tcl.eval(f"p {method}") == tcl.eval(f"q {method}")


@pytest.mark.parametrize("command, message", [
    ("P2Statistic", 'wrong # args: should be "P2Statistic handle ?state?"'),
    ("P2Statistic p {1 2 3}", "state"),
    ("P2Statistic p {0 0 0 0 0 0 1 2 3 4 5 0 zero}", 'P2Statistic: state item 13 (m2) is not a number (got "zero")'),
    ("P2Statistic p \"{\"", 'P2Statistic: state must be a list of 13 numbers (got "{")'),
    ("P2Statistic set", 'P2Statistic: a command named "set" already exists'),
    ("P2Statistic p; p add many", 'p add: x must be a number (got "many")'),
    ("P2Statistic p; p add", 'wrong # args: should be "p add x"'),
    ("P2Statistic p; p add Inf", "P2Statistic.add: value inf is not a finite number"),
    ("P2Statistic p; p median", 'bad method "median": must be add, count, reset, state'),
])
def test_p2_argument_errors(tcl, command, message):
    assert message in error_of(tcl, command)


def test_rename_frees_a_statistic(tcl):
    tcl.eval("P2Statistic p; p add 1; rename p {}")
    assert error_of(tcl, "p count") == 'invalid command name "p"'


# ------------------------------------------------------------------ states between languages
def feed(values):
    py = earl.P2Statistic()
    for x in values:
        py.add(x)
    return py


def tcl_list(values):
    return " ".join(repr(float(v)) for v in values)


def test_states_move_between_python_and_both_tcl_dialects(tcl):
    rng = random.Random(11)
    first = [rng.lognormvariate(0, 1) for _ in range(57)]
    second = [rng.lognormvariate(0, 1) for _ in range(31)]
    py = feed(first)
    # Python -> Tcl 2.0 -> Tcl 1998 -> Python, adding the same values on every side
    tcl.eval(f"P2Statistic p {{{tcl_list(py.state())}}}")
    assert [float(v) for v in as_list(tcl, tcl.eval("p state"))] == py.state()
    tcl.eval(f"earl stat so {tcl.eval('p state')}")
    for x in second:
        py.add(x)
        tcl.eval(f"p add {x!r}; so addval {x!r}")
    assert [float(v) for v in as_list(tcl, tcl.eval("p state"))] == py.state()
    assert [float(v) for v in as_list(tcl, tcl.eval("so print"))] == py.state()
    back = earl.P2Statistic([float(v) for v in as_list(tcl, tcl.eval("so print"))])
    for method in ("q25", "med", "q75", "min", "max", "mean", "sum", "var"):
        assert float(tcl.eval(f"p {method}")) == getattr(back, method)() == getattr(py, method)()


def test_states_move_between_tcl_and_lua():
    pytest.importorskip("lupa.lua54")
    import earl.lua

    try:
        lua = earl.lua.runtime()
    except earl.EarlError as error:
        pytest.skip(f"no Lua module: {error}")
    tcl = interp()
    rng = random.Random(12)
    values = [rng.uniform(0, 1e6) for _ in range(40)]
    more = [rng.uniform(0, 1e6) for _ in range(25)]
    tcl.eval("P2Statistic p")
    for x in values:
        tcl.eval(f"p add {x!r}")
    state = [float(v) for v in as_list(tcl, tcl.eval("p state"))]
    lua.execute("state = ...; q = P2Statistic(state)", lua.table_from(state))
    for x in more:
        tcl.eval(f"p add {x!r}")
        lua.execute("q:add(...)", x)
    from_lua = list(lua.eval("q:state()").values())
    assert [float(v) for v in as_list(tcl, tcl.eval("p state"))] == from_lua
    # and back: Lua's state rebuilds a 1998 statistic printing the same numbers
    tcl.eval(f"earl stat so {tcl_list(from_lua)}")
    assert [float(v) for v in as_list(tcl, tcl.eval("so print"))] == from_lua
    assert float(tcl.eval("p med")) == lua.eval("q:med()")


# ------------------------------------------------------------------ threads
THREADS_SCRIPT = """
import sys, threading, earl, earl.tcl
path = sys.argv[1]
py = earl.EventTrace(path)
tcl = earl.tcl.interpreter()
name = earl.tcl.share(py, tcl, "t")
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
# tkinter releases the GIL while Tcl runs, so a Tcl command waiting for the trace's lock
# never blocks the Python thread that holds it.
script = ("set out {}; for {set r 0} {$r < 3} {incr r} {for {set p 1} {$p <= %d} {incr p 5} "
          "{t event ev $p; lappend out $ev(time)}}; set out" % len(py))
got = [float(x) for x in tcl.tk.splitlist(tcl.tk.call("eval", script))]
worker.join()
want = [expected[p] for _ in range(3) for p in range(1, len(py) + 1, 5)]
assert got == want and not errors, (len(got), len(want), errors)
print("ok")
"""


def test_python_and_tcl_threads_share_one_trace_without_deadlock(trace_path):
    import subprocess
    import sys

    # A child process, so that a deadlock fails the test (timeout) instead of hanging it.
    done = subprocess.run([sys.executable, "-c", THREADS_SCRIPT, trace_path],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
