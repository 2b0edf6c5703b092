"""The Lua mapping of EventTrace (DESIGN.md section 3), what only Lua has: the rules every
language shares are the conformance cases of tests/conformance/, run in Lua by
tests/test_conformance_lua.py.

Lua runs in this process through lupa (earl.lua.runtime()) and, where a `lua5.4` is
installed, as a standalone interpreter loading the same module with `require "earl"`.
Answers are checked against the Python mapping of the same trace and, where they can be
worked out, against values written down by hand.
"""
import os
import shutil
import subprocess
import sys

import pytest

import earl

lupa = pytest.importorskip("lupa.lua54")
import earl.lua  # noqa: E402

try:
    earl.lua.module_path()
except earl.EarlError as error:
    pytest.skip(f"no Lua module in this build: {error}", allow_module_level=True)

LUA = shutil.which("lua5.4")
needs_lua = pytest.mark.skipif(LUA is None, reason="no standalone lua5.4 installed")
from conformance_cases import load_cases  # noqa: E402
from script_checks import SCOREP  # noqa: E402


# The hand-worked trace of tests/conformance/overtaking_tags.toml, whose cases
# tests/test_conformance_lua.py runs: 11 events on two locations (1 named "receiver"),
# regions main and work; 3 enter work, 4 send tag 7, 5 send tag 8, 6 marker (data1 42, no
# data2), 7 recv tag 8 (overtakes), 9 recv tag 7. Here: what only Lua has.
HAND = load_cases("overtaking_tags")["trace"]


@pytest.fixture(scope="module")
def hand(tmp_path_factory):
    path = tmp_path_factory.mktemp("lua-hand") / "hand.alog"
    path.write_text(HAND)
    return str(path)


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    from earl.generate import generate

    path = tmp_path_factory.mktemp("lua-gen") / "gen.alog"
    generate(path, locations=3, events=3000, seed=5)
    return str(path)


@pytest.fixture
def lua():
    return earl.lua.runtime()


def opened(lua, path, name="e"):
    lua.globals().path = path
    lua.execute(f"{name} = EventTrace(path)")
    return lua


def error_of(lua, code):
    """The message of the Lua error `code` raises, caught in Lua (no Python traceback)."""
    ok, message = lua.execute(f"return pcall(function() {code} end)")
    assert ok is False, f"no error from: {code}"
    # Errors name the position of the Lua code that called; here that is the test's chunk.
    prefix = '[string "<python>"]:1: '
    assert message.startswith(prefix), message
    return message[len(prefix):]


def as_list(table):
    return [table[i] for i in range(1, len(table) + 1)]


def as_dict(table):
    return dict(table.items())


# ------------------------------------------------------------------ A1, A2: opening
def test_a1_a2_constructor_forms(lua, hand):
    lua.globals().path = hand
    lua.execute("""
        a = EventTrace(path)
        b = EventTrace{file = path, format = "alog", bdist = 3, hsize = 2}
        c = EventTrace(path, "alog", 0, 1)
        d = EventTrace{file = path, cache = false}""")
    for name in "abcd":
        assert lua.eval(f"#{name}") == 11
        assert lua.eval(f"{name}:format()") == "alog"
    # small bdist/hsize still give the same events as the defaults, far jumps included
    assert lua.eval("b:event(11).time") == lua.eval("a:event(11).time") == 10e-6
    assert lua.eval("c:event(2).loc") == 1


def test_constructor_errors_name_the_argument(lua, hand, tmp_path):
    lua.globals().path = hand
    assert "file must be a string (got no value)" in error_of(lua, "EventTrace()")
    assert "file must be a string (got integer)" in error_of(lua, "EventTrace(5)")
    assert "file is required" in error_of(lua, "EventTrace{format = 'alog'}")
    assert "unknown option 'bsize'" in error_of(lua, "EventTrace{file = path, bsize = 3}")
    assert "bdist must be an integer (got string)" in error_of(lua, "EventTrace{file = path, bdist = 'x'}")
    assert "bdist must be a nonnegative integer, got -1" in error_of(lua, "EventTrace{file = path, bdist = -1}")
    assert "hsize must be a positive integer, got 0" in error_of(lua, "EventTrace(path, nil, 10, 0)")
    assert "cache must be a boolean (got integer)" in error_of(lua, "EventTrace{file = path, cache = 1}")
    missing = str(tmp_path / "missing.alog")
    lua.globals().missing = missing
    assert missing in error_of(lua, "EventTrace(missing)")
    # The same message as Python's EarlError.
    with pytest.raises(earl.EarlError) as raised:
        earl.EventTrace(missing)
    assert str(raised.value) == error_of(lua, "EventTrace(missing)")


# ------------------------------------------------------------------ A3-A5: events
def test_a3_a4_events_equal_python_dicts(lua, generated):
    opened(lua, generated)
    lua.execute("""
        events = {}
        while e:next() do events[#events + 1] = e:event() end""")
    with earl.EventTrace(generated) as py:
        assert lua.eval("#events") == len(py) > 1000
        for pos in range(1, len(py) + 1):
            expected = {k: v for k, v in py.event(pos).items() if v is not None}
            got = as_dict(lua.eval(f"events[{pos}]"))
            assert got == expected, pos
            assert type(got["time"]) is float and type(got["pos"]) is int


def test_a3_a_missing_value_is_nil_and_integers_stay_integers(lua, hand):
    opened(lua, hand)
    # data2 is none: nil in Lua, so the key is absent
    assert lua.eval("e:event(6).data2") is None
    assert lua.eval("math.type(e:event(6).data1)") == "integer"


def test_a5_values_count_the_hole_nil_leaves(lua, hand):
    opened(lua, hand)
    # the hole data2 leaves is counted by n, as table.pack does
    assert lua.eval("e:values(6).n") == 7 and lua.eval("e:values(6)[7]") is None


# ------------------------------------------------------------------ A6: missing events
def test_a6_positions_must_be_integers(lua, hand):
    opened(lua, hand)
    for method in ("event", "attributes", "values"):
        assert error_of(lua, f"e:{method}()") == \
            "no event at the iterator: it stands at 0 (call next() or jump() first)"
        assert error_of(lua, f"e:{method}('3')") == \
            f"EventTrace:{method}: pos must be an integer (got string)"
        assert error_of(lua, f"e:{method}(2.5)") == \
            f"EventTrace:{method}: pos must be an integer (got 2.5)"
    # A float with an integer value is a position, as Lua converts it.
    assert lua.eval("e:event(2.0).pos") == 2


# ------------------------------------------------------------------ A7, A8: state
def test_a7_stack_tables_are_1_based(lua, hand):
    opened(lua, hand)
    lua.execute("e:jump(5)")
    assert lua.eval("e:stack(0)[1]") == 1 and lua.eval("e:stack(0)[2]") == 3
    assert lua.eval("e:stack(0)[0]") is None
    assert error_of(lua, "e:stack()") == "EventTrace:stack: loc must be an integer (got no value)"


def test_a8_queue_arguments(lua, hand):
    opened(lua, hand)
    assert error_of(lua, "e:queue(0)") == "EventTrace:queue: dest must be an integer (got no value)"


# ------------------------------------------------------------------ A9-A13: the iterator
def test_a10_a12_the_end_is_nil_for_while_loops(lua, hand):
    opened(lua, hand)
    lua.execute("count = 0; while e:next() do count = count + 1 end")
    assert lua.eval("count") == 11
    assert lua.eval("e:next()") is None                         # nil, not 0 (0 is true in Lua)
    lua.execute("back = 0; while e:prev() do back = back + 1 end")
    assert lua.eval("back") == 10 and lua.eval("e:prev()") is None


def test_a11_jump_arguments(lua, hand):
    opened(lua, hand)
    assert lua.eval("e:jump(12)") is None
    assert error_of(lua, "e:jump()") == "EventTrace:jump: pos must be an integer (got no value)"
    assert error_of(lua, "e:jump('x')") == "EventTrace:jump: pos must be an integer (got string)"


# ------------------------------------------------------------------ A14-A17: definitions
def test_a14_a17_definition_arguments(lua, hand):
    opened(lua, hand)
    assert error_of(lua, "e:group()") == "EventTrace:group: region must be a string (got no value)"
    assert lua.eval("math.type(e:locsym(0))") == "integer"


def test_definitions_equal_python_on_scorep(lua):
    path = SCOREP / "ping-pong-otf2-papi" / "traces.otf2"
    if "otf2" not in earl._core.known_formats() or not path.exists():
        pytest.skip("no OTF2 support or no Score-P trace")
    opened(lua, str(path))
    with earl.EventTrace(str(path)) as py:
        assert as_list(lua.eval("e:types()")) == py.types()
        assert as_list(lua.eval("e:groups()")) == py.groups()
        assert as_list(lua.eval("e:regions()")) == py.regions()
        for group in py.groups():
            lua.globals().g = group
            assert as_list(lua.eval("e:regions(g)")) == py.regions(group)
        assert [lua.eval(f"e:locsym({i})") for i in range(py.nrlocs())] == \
            [py.locsym(i) for i in range(py.nrlocs())]
        lua.execute("program_begin = e:event(1)")
        assert lua.eval("program_begin.type") == "program_begin"
        assert lua.eval("program_begin.data1") == py.event(1)["data1"]
        for pos in range(1, len(py) + 1):
            expected = {k: v for k, v in py.event(pos).items() if v is not None}
            assert as_dict(lua.eval(f"e:event({pos})")) == expected


# ------------------------------------------------------------------ A18: closing, collection
def test_a18_close_and_use_after_close(lua, hand):
    opened(lua, hand)
    assert lua.eval("tostring(e)") == f"EventTrace: {hand} (alog, 11 events, 2 locations)"
    assert lua.eval("e:closed()") is False
    lua.execute("e:close()")
    assert lua.eval("e:closed()") is True
    assert lua.eval("tostring(e)") == "EventTrace (closed)"
    for call in ("e:next()", "e:event(1)", "e:stack(0, 1)", "e:file()", "e:types()", "#e"):
        assert error_of(lua, f"local x = {call}") == "the trace is closed", call
    lua.execute("e:close()")                                    # closing twice is harmless


def test_to_be_closed_variable(lua, hand):
    lua.globals().path = hand
    lua.execute("""
        do
          local t <close> = EventTrace(path)
          kept = t
          first = t:next()
        end""")
    assert lua.eval("first") == 1
    assert lua.eval("kept:closed()") is True


def open_fds():
    return len(os.listdir("/proc/self/fd"))


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc")
def test_a18_collection_frees_the_trace(lua, hand):
    lua.globals().path = hand
    lua.execute("collectgarbage()")
    before = open_fds()
    lua.execute("traces = {}; for i = 1, 20 do traces[i] = EventTrace(path); traces[i]:next() end")
    assert open_fds() >= before + 20                           # each holds its file open
    lua.execute("traces = nil; collectgarbage(); collectgarbage()")
    assert open_fds() == before


def test_methods_need_the_colon(lua, hand):
    opened(lua, hand)
    assert error_of(lua, "e.next()") == \
        "EventTrace:next: call it as a method, e:next(...) (got no value where the trace belongs)"
    assert error_of(lua, "e.event(3)") == \
        "EventTrace:event: call it as a method, e:event(...) (got integer where the trace belongs)"
    assert error_of(lua, "e.stack(P2Statistic(), 0)").startswith("EventTrace:stack: call it as a method")


def test_errors_carry_the_script_line(tmp_path, hand, capsys):
    script = tmp_path / "broken.lua"
    script.write_text("local e = EventTrace(arg[1])\nprint(e:next())\nprint(e:event(99))\n")
    with pytest.raises(earl.EarlError) as raised:
        earl.lua.run(script, [hand])
    assert str(raised.value) == \
        f"{script}:3: no event at position 99 (the trace has 11 events, numbered from 1)"
    assert capsys.readouterr().out == "1\n"


def test_run_sets_arg_and_varargs(tmp_path, capsys):
    script = tmp_path / "args.lua"
    script.write_text("print(arg[0], #arg, arg[1], arg[2], select('#', ...), ...)\n"
                      "io.write('no newline', 1, 2.5)\n")
    earl.lua.run(script, ["a b", 7])
    assert capsys.readouterr().out == f"{script}\t2\ta b\t7\t2\ta b\t7\nno newline12.5"


def test_run_os_exit_and_syntax_errors(tmp_path):
    script = tmp_path / "exit.lua"
    script.write_text("os.exit(3)\nprint('not reached')\n")
    with pytest.raises(SystemExit) as raised:
        earl.lua.run(script)
    assert raised.value.code == 3
    script.write_text("os.exit(true)\n")
    earl.lua.run(script)                                         # success: returns
    script.write_text("x = = 1\n")
    with pytest.raises(earl.EarlError, match=rf"^{script}:1: unexpected symbol"):
        earl.lua.run(script)
    with pytest.raises(earl.EarlError, match="cannot open"):
        earl.lua.run(tmp_path / "missing.lua")


def test_runtime_globals_and_require(lua):
    assert lua.eval("type(EventTrace)") == "function"
    assert lua.eval("type(P2Statistic)") == "function"
    assert lua.eval("require('earl').EventTrace == EventTrace") is True


# ------------------------------------------------------------------ standalone Lua
@needs_lua
def test_standalone_lua_requires_the_same_module(hand, generated):
    code = ("require 'earl'\n"
            "local e = EventTrace(arg[1])\n"
            "local n, last = 0, nil\n"
            "while e:next() do local ev = e:event(); n = n + 1; last = ev end\n"
            "print(n, last.pos, last.type, #e:stack(0, 3), e:next(), e:locsym(1), tostring(e))\n"
            "print(pcall(e.event, e, 0))\n")
    env = dict(os.environ, LUA_CPATH=earl.lua.cpath() + ";;")
    for path in (hand, generated):
        out = subprocess.run([LUA, "-", path], input=code, capture_output=True, text=True,
                             env=env, timeout=120)
        assert out.returncode == 0, out.stderr
        with earl.EventTrace(path) as py:
            n = len(py)
            last = py.event(n)
            first_line = (f"{n}\t{n}\t{last['type']}\t{len(py.stack(0, 3))}\tnil\t{py.locsym(1)}\t"
                          f"EventTrace: {path} ({py.format()}, {n} events, {py.nrlocs()} locations)")
            assert out.stdout.splitlines() == [
                first_line, f"false\tno event at position 0 (the trace has {n} events, numbered from 1)"]


@needs_lua
def test_standalone_lua_reports_errors_at_the_line(hand):
    env = dict(os.environ, LUA_CPATH=earl.lua.cpath() + ";;")
    code = "require 'earl'\nlocal e = EventTrace(arg[1])\ne:jump(2)\ne:stack('x')\n"
    out = subprocess.run([LUA, "-", hand], input=code, capture_output=True, text=True, env=env,
                         timeout=60)
    assert out.returncode == 1
    assert "stdin:4: EventTrace:stack: loc must be an integer (got string)" in out.stderr


def test_cpath_command():
    out = subprocess.run([sys.executable, "-m", "earl.lua", "--cpath"], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0
    assert out.stdout.strip() == earl.lua.cpath()
    assert os.path.isfile(out.stdout.strip().replace("?", "earl"))
