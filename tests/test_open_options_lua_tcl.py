"""The opening options Python has reach the core from Lua and Tcl as well: `memory`
(`-memory`), `index` (`-index`) and `min_latency` (`-minlatency`), with the same checks.
Expected values: the persisted index's files (written or not, whatever EARL_INDEX says),
the controlled logical clock's bound (a receive at least its send + min_latency), Python's
answer for the same options, and the error messages naming the option."""
import pytest

import earl
from alog_traces import write_alog
from test_tcl_common import LIBRARY, interp

LAG = [  # loc 1 receives at 60 us a message sent at 100 us (its clock lags)
    "-3 0 0 2 0 0",
    "-13 0 1 2 0 0 main",
    "1 0 0 0 0 10",
    "-101 0 0 1 0 100 5 8",
    "1 1 0 0 0 20",
    "-101 1 0 0 0 30 7 8",
    "-102 0 0 1 0 50 7 8",
    "-102 1 0 0 0 60 5 8",
    "2 1 0 0 0 70",
    "2 0 0 0 0 120",
]
MIN_LATENCY = 25e-6

LUA_TIMES = "local t = {} while e:next() do t[#t + 1] = e:event().time end return t"
TCL_TIMES = "set t {}; while {[e next]} {e event a; lappend t $a(time)}; set t"


@pytest.fixture
def lua():
    return pytest.importorskip("earl.lua").runtime()


@pytest.fixture
def tcl():
    if LIBRARY is None:
        pytest.skip("no Tcl extension")
    return interp()


@pytest.fixture
def index_dir(tmp_path, monkeypatch):
    directory = tmp_path / "indexes"
    monkeypatch.setenv("EARL_INDEX_DIR", str(directory))
    monkeypatch.setenv("EARL_INDEX_MIN_BYTES", "0")
    return directory


def index_files(directory):
    return sorted(p.name for p in directory.iterdir()) if directory.exists() else []


def python_times(path, **options):
    trace = earl.EventTrace(str(path), progress=lambda f: None, **options)
    return [trace.event(p)["time"] for p in range(1, len(trace) + 1)]


def lua_times(lua, path, options):
    lua.globals().path = str(path)
    lua.execute(f"e = EventTrace{{file=path, {options}}}")
    return list(lua.execute(LUA_TIMES).values())


def tcl_times(tcl, path, options):
    tcl.tk.call("set", "path", str(path))
    tcl.eval(f"EventTrace e -file $path {options}")
    try:
        return [float(x) for x in tcl.eval(TCL_TIMES).split()]
    finally:
        tcl.eval("rename e {}")


def test_min_latency_bounds_the_corrected_receive(tmp_path, lua, tcl):
    path = write_alog(tmp_path, LAG)
    expected = python_times(path, time_correct=True, min_latency=MIN_LATENCY)
    send, receive = expected[3], expected[6]  # tag 5: sent at position 4, received at 7
    assert receive >= send + MIN_LATENCY - 1e-12
    assert expected != python_times(path, time_correct=True)  # the bound moved something
    assert lua_times(lua, path, f"time_correct=true, min_latency={MIN_LATENCY!r}") == expected
    assert tcl_times(tcl, path, f"-timecorrect 1 -minlatency {MIN_LATENCY!r}") == pytest.approx(expected, rel=1e-12)


def test_index_option_writes_or_skips_the_persisted_index(tmp_path, index_dir, monkeypatch, lua, tcl):
    path = write_alog(tmp_path, LAG)
    monkeypatch.setenv("EARL_INDEX", "1")  # the option overrules the environment
    lua_times(lua, path, "index=false")
    tcl_times(tcl, path, "-index 0")
    assert index_files(index_dir) == []
    monkeypatch.setenv("EARL_INDEX", "0")
    recorded = python_times(path, index=False)
    assert lua_times(lua, path, "index=true") == recorded
    written = index_files(index_dir)
    assert len(written) == 1
    for name in written:
        (index_dir / name).unlink()
    assert tcl_times(tcl, path, "-index 1") == pytest.approx(recorded, rel=1e-12)
    assert len(index_files(index_dir)) == 1


def test_a_small_memory_budget_answers_as_the_default(tmp_path, lua, tcl):
    from earl.generate import generate
    path = tmp_path / "run.alog"
    generate(str(path), events=6000, locations=4, seed=5, truth_path=str(tmp_path / "t.json"))
    small = earl.EventTrace(str(path), bdist=50, memory=16384, progress=lambda f: None)
    assert small.bookmarks()["bdist"] > 50  # this budget widens bdist
    expected = python_times(path)
    lua.globals().path = str(path)
    lua.execute("e = EventTrace{file=path, bdist=50, memory=16384}")
    probes = [len(expected), 1, len(expected) // 2, 7]
    got = [lua.execute(f"return e:event({p}).time") for p in probes]
    assert got == [expected[p - 1] for p in probes]
    tcl.tk.call("set", "path", str(path))
    tcl.eval("EventTrace e -file $path -bdist 50 -memory 16384")
    got = [float(tcl.eval(f"e event a {p}; set a(time)")) for p in probes]
    assert got == pytest.approx([expected[p - 1] for p in probes], rel=1e-12)
    tcl.eval("rename e {}")


@pytest.mark.parametrize("options, message", [
    ("memory=0", "memory must be a positive number of bytes"),
    ("memory=1.5", "memory must be an integer"),
    ("index=1", "index must be a boolean"),
    ("min_latency=-1", "min_latency must be a number of seconds >= 0"),
    ("min_latency='x'", "min_latency must be a number"),
    ("memroy=5", "unknown option 'memroy'"),
])
def test_lua_bad_options_name_the_option(tmp_path, lua, options, message):
    path = write_alog(tmp_path, LAG)
    lua.globals().path = str(path)
    with pytest.raises(Exception, match=message):
        lua.execute(f"EventTrace{{file=path, {options}}}")


@pytest.mark.parametrize("options, message", [
    ("-memory 0", "-memory must be a positive integer"),
    ("-memory lots", "-memory must be a positive integer"),
    ("-index maybe", 'expected boolean value but got "maybe"'),
    ("-minlatency -1", "-minlatency must be a number of seconds >= 0"),
    ("-minlatency x", "-minlatency must be a number"),
])
def test_tcl_bad_options_name_the_option(tmp_path, tcl, options, message):
    import tkinter
    path = write_alog(tmp_path, LAG)
    tcl.tk.call("set", "path", str(path))
    with pytest.raises(tkinter.TclError, match=message):
        tcl.eval(f"EventTrace e -file $path {options}")
