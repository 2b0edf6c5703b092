"""One table of open options (cpp/trace/open_options.h): Python, Lua and Tcl accept exactly
its options, under its names, with its defaults. The expected table below is written out by
hand from DESIGN.md section 3 and the options' documentation; the defaults that cannot be
asked for directly in Lua and Tcl (bdist) are observed through the persisted index, whose
key holds the bdist a trace was scanned with: an index written by Python with the default
bdist is loaded unchanged by a Lua or Tcl open with the default, rewritten by one with
another bdist."""
import inspect

import pytest

import earl
from earl import _core
from alog_traces import write_alog
from test_open_options_lua_tcl import lua, tcl  # noqa: F401  (fixtures)
from test_tcl_common import error_of

# name: (Tcl flag, 1998 Tcl flag, default, environment variable, a valid value)
EXPECTED = {
    "format": ("-format", "-format", None, None, "alog"),
    "bdist": ("-bdist", "-mark", 10000, None, 7),
    "hsize": ("-hsize", "-hist", 1000, None, 3),
    "cache": ("-cache", None, None, "EARL_CACHE", False),
    "memory": ("-memory", None, None, "EARL_MEMORY", 1 << 20),
    "index": ("-index", None, None, "EARL_INDEX", False),
    "time_correct": ("-timecorrect", None, False, None, True),
    "min_latency": ("-minlatency", None, 0.0, None, 0.001),
    "strict": ("-strict", None, False, None, True),
}
POSITIONAL = ["format", "bdist", "hsize", "cache", "memory", "index"]  # after the file

TRACE = ["-3 0 0 2 0 0", "-13 0 1 2 0 0 main",
         "1 0 0 0 0 10", "1 1 0 0 0 20", "2 1 0 0 0 70", "2 0 0 0 0 120"]


def lua_literal(value):
    return {True: "true", False: "false"}.get(value, repr(value)) if not isinstance(value, str) else f'"{value}"'


def tcl_literal(value):
    return {True: "1", False: "0"}.get(value, str(value)) if not isinstance(value, str) else value


@pytest.fixture
def path(tmp_path):
    return write_alog(tmp_path, TRACE)


def test_the_core_table_is_the_expected_one():
    rows = _core.open_options()
    assert [row["name"] for row in rows] == list(EXPECTED)
    for row in rows:
        tcl_flag, tcl98_flag, default, env, _ = EXPECTED[row["name"]]
        assert (row["tcl"], row["tcl98"], row["default"], row["env"]) == (tcl_flag, tcl98_flag, default, env)
        assert row["help"] and "\n" not in row["help"]
    assert [row["name"] for row in rows if row["positional"]] == POSITIONAL


def test_python_signature_is_the_table():
    parameters = list(inspect.signature(earl.EventTrace).parameters.values())
    names = [p.name for p in parameters]
    # Python's progress callable keeps its place after EARL 2.0's format, bdist, hsize.
    assert names == ["file", "format", "bdist", "hsize", "progress", "cache", "memory", "index",
                     "time_correct", "min_latency", "strict"]
    for p in parameters[1:]:
        if p.name == "progress":
            continue
        assert p.default == EXPECTED[p.name][2], p.name
        positional = p.kind == inspect.Parameter.POSITIONAL_OR_KEYWORD
        assert positional == (p.name in POSITIONAL), p.name


def test_python_accepts_every_option_and_nothing_else(path):
    for name, (_, _, _, _, value) in EXPECTED.items():
        trace = earl.EventTrace(path, progress=lambda f: None, **{name: value})
        assert len(trace) == 4, name
    trace = earl.EventTrace(path, "alog", 7, 3, None, False, 1 << 20, False)  # all positional
    assert trace.bookmarks()["bdist"] == 7
    with pytest.raises(TypeError, match="unexpected keyword argument 'bsize'"):
        earl.EventTrace(path, bsize=3)
    with pytest.raises(TypeError):
        earl.EventTrace(path, "alog", 7, 3, None, False, 1 << 20, False, True)  # time_correct is keyword-only


def test_python_defaults_take_effect(path):
    trace = earl.EventTrace(path, progress=lambda f: None)
    assert trace.bookmarks()["bdist"] == 10000
    assert trace.time_correction() is None


def test_lua_accepts_every_option_and_names_them(path, lua):
    lua.globals().path = path
    for name, (_, _, _, _, value) in EXPECTED.items():
        assert lua.execute(f"local e = EventTrace{{file=path, {name}={lua_literal(value)}}} "
                           "local n = 0 while e:next() do n = n + 1 end return n") == 4, name
    positional = ", ".join(lua_literal(EXPECTED[name][4]) for name in POSITIONAL)
    assert lua.execute(f"return EventTrace(path, {positional}):next()") == 1
    with pytest.raises(Exception) as caught:
        lua.execute("EventTrace{file=path, bsize=3}")
    assert "(the options are file, " + ", ".join(EXPECTED) + ")" in str(caught.value)


def test_tcl_accepts_every_option_and_names_them(path, tcl):
    tcl.tk.call("set", "path", path)
    for name, (flag, _, _, _, value) in EXPECTED.items():
        tcl.eval(f"EventTrace x -file $path {flag} {tcl_literal(value)}")
        assert tcl.eval("set n 0; while {[x next]} {incr n}; set n") == "4", name
        tcl.eval("rename x {}")
    flags = [EXPECTED[name][0] for name in EXPECTED]
    message = error_of(tcl, "EventTrace x -file $path -bsize 3")
    assert message == 'bad option "-bsize": must be -file, ' + ", ".join(flags[:-1]) + ", or " + flags[-1]
    old = [(EXPECTED[name][1], EXPECTED[name][4]) for name in EXPECTED if EXPECTED[name][1]]
    tcl.eval("earl open $path t98 " + " ".join(f"{flag} {tcl_literal(value)}" for flag, value in old))
    message = error_of(tcl, "earl open $path t99 -bsize 3")
    assert message == 'bad option "-bsize": must be ' + ", ".join(f for f, _ in old[:-1]) + ", or " + old[-1][0]


def index_stamp(directory):
    files = sorted(directory.iterdir())
    assert len(files) == 1
    info = files[0].stat()
    return files[0].name, info.st_ino, info.st_mtime_ns


def test_lua_and_tcl_default_bdist_is_the_tables(path, tmp_path, monkeypatch, lua, tcl):
    directory = tmp_path / "indexes"
    monkeypatch.setenv("EARL_INDEX_DIR", str(directory))
    earl.EventTrace(path, index=True, progress=lambda f: None)  # bdist 10000
    written = index_stamp(directory)
    lua.globals().path = path
    lua.execute("EventTrace{file=path, index=true}:next()")
    tcl.tk.call("set", "path", path)
    tcl.eval("EventTrace x -file $path -index 1; x next; rename x {}")
    assert index_stamp(directory) == written  # loaded, not rebuilt: the same bdist
    lua.execute("EventTrace{file=path, index=true, bdist=7}:next()")
    assert index_stamp(directory) != written  # another bdist: rebuilt (a new file)
