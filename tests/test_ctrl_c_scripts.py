"""Ctrl-C stops Lua and Tcl as it stops Python (issue 22, class 4): `earl run` of an
endless loop, with and without trace calls in it and with a pcall/catch around its body,
ends within a second of SIGINT with exit 130 and the one line "earl: interrupted"; so
does a Python script running the loop through earl.lua's lupa runtime or earl.tcl's
tkinter interpreter, which stay usable afterwards. (Before, the loops still ran 8 s
after SIGINT: Lua and Tcl hold the thread, and Python's handler never ran.)"""
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import earl

EARL = str(Path(sys.executable).with_name("earl"))
# Time allowed from SIGINT to the end of the process (the loop stops within a second).
LIMIT = 1.5

LUA_LOOPS = {
    "plain": 'print("started") while true do end',
    "trace calls in pcall": (
        'local e = EventTrace(arg[1]) print("started") '
        'while true do pcall(function() e:reset() while e:next() do local ev = e:event() end end) end'),
    "coroutine": ('print("started") local co = coroutine.wrap(function() while true do end end) '
                  'while true do pcall(co) end'),
}
TCL_LOOPS = {
    "plain": 'puts started; while 1 {}',
    "trace calls in catch": (
        'EventTrace e -file [lindex $argv 0]; puts started\n'
        'while 1 {catch {e reset; while {[e next]} {e event ev}}}'),
}


@pytest.fixture(scope="module")
def trace(tmp_path_factory):
    path = tmp_path_factory.mktemp("ctrl-c") / "run.alog"
    subprocess.run([EARL, "gen", "-q", "-n", "2", "-e", "2000", str(path)], check=True)
    return str(path)


def interrupted(command, tmp_path):
    """Starts `command`, sends SIGINT once it printed "started", returns (seconds until
    it ended, exit code, stdout after "started", stderr)."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=env, cwd=tmp_path)
    # a script that never says "started" must not hang the suite
    guard = threading.Timer(30, process.kill)
    guard.start()
    try:
        assert process.stdout.readline() == "started\n", process.stderr.read()
        time.sleep(0.2)  # well inside the loop
        sent = time.monotonic()
        process.send_signal(signal.SIGINT)
        code = process.wait(timeout=10)
        took = time.monotonic() - sent
    finally:
        guard.cancel()
        process.kill()
        process.wait()
    return took, code, process.stdout.read(), process.stderr.read()


def assert_stopped(outcome, rest=""):
    took, code, out, err = outcome
    assert (code, err, out) == (130, "earl: interrupted\n", rest)
    assert took < LIMIT


@pytest.mark.parametrize("loop", LUA_LOOPS)
def test_earl_run_lua(tmp_path, trace, loop):
    script = tmp_path / "loop.lua"
    script.write_text(LUA_LOOPS[loop])
    assert_stopped(interrupted([EARL, "run", str(script), trace], tmp_path))


@pytest.mark.parametrize("loop", TCL_LOOPS)
def test_earl_run_tcl(tmp_path, trace, loop):
    script = tmp_path / "loop.tcl"
    script.write_text(TCL_LOOPS[loop])
    assert_stopped(interrupted([EARL, "run", str(script), trace], tmp_path))


# Through the Python API: the loop in a runtime/interpreter the script made; after the
# interrupt the same one still answers, then the script lets the interrupt end it.
PYTHON_LUA = """
import sys, earl.lua
lua = earl.lua.runtime()
try:
    lua.execute('local e = EventTrace(...) print("started") while true do e:next() end', sys.argv[1])
except KeyboardInterrupt:
    print(lua.execute("return 6 * 7"))
    raise
"""
PYTHON_TCL = """
import sys, earl.tcl
tcl = earl.tcl.interpreter()
tcl.tk.call("set", "path", sys.argv[1])
try:
    with earl.tcl.interruptible(tcl):
        tcl.eval('EventTrace e -file $path; puts started; while 1 {catch {e next}}')
except KeyboardInterrupt:
    with earl.tcl.interruptible(tcl):  # ready again
        print(tcl.eval("expr {6 * 7}"))
    raise
"""


@pytest.mark.parametrize("program", [PYTHON_LUA, PYTHON_TCL], ids=["lupa", "tkinter"])
def test_python_api(tmp_path, trace, program):
    script = tmp_path / "loop.py"
    script.write_text(program)
    assert_stopped(interrupted([EARL, "run", str(script), trace], tmp_path), rest="42\n")


# In the REPL: a SIGINT (sent by the loop itself, as a terminal would on Ctrl-C) stops an
# endless loop with "interrupted", and the session goes on in the same language.
def test_repl_lua_and_tcl_loops_stop_and_the_session_goes_on(tmp_path):
    from repl_driver import Driver, small_trace

    repl = Driver(small_trace(tmp_path))
    try:
        interrupt = lambda: os.kill(os.getpid(), signal.SIGINT)  # noqa: E731
        repl.session.evaluator("lua").lua.globals().interrupt = interrupt
        repl.session.evaluator("tcl").tcl.createcommand("interrupt", interrupt)
        out, err = repl.lines(
            ":lang lua", "local i = 0 while true do i = i + 1 if i == 1000 then interrupt() end end",
            "while true do pcall(function() for i = 1, 100 do e:next() end end) interrupt() end", "6 * 7",
            ":lang tcl", "set i 0; while 1 {incr i; if {$i == 1000} interrupt}",
            "while 1 {catch {e next}; interrupt}", "expr {6 * 7}")
        assert err == ["interrupted"] * 4
        assert [line for line in out if line == "42"] == ["42", "42"]
    finally:
        repl.close()


def test_a_ctrl_c_python_handled_does_not_cancel_the_next_tcl_evaluation(tmp_path):
    # The SIGINT handler marks Tcl's async handler whatever runs; a Ctrl-C that arrived
    # while Python ran (at the REPL's prompt) is consumed when the next evaluation starts.
    from repl_driver import small_trace
    from earl.repl.lang_tcl import Evaluator

    tcl = Evaluator(earl.EventTrace(small_trace(tmp_path)))
    with pytest.raises(KeyboardInterrupt):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(1)
    assert tcl.evaluate("expr {6 * 7}") == "42"
    with pytest.raises(KeyboardInterrupt):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(1)
    assert earl.tcl.run(_script(tmp_path, "puts [expr {6 * 7}]"), []) is None


def _script(tmp_path, text):
    path = tmp_path / "after.tcl"
    path.write_text(text)
    return path
