"""Names that are not UTF-8, and error objects that are not strings, in Lua and Tcl
(issue 22, class 8). lupa decodes Lua strings as strict UTF-8, so printing such a name
from Lua failed with a codec error under `earl run` and ended the REPL session with a
traceback; an error object whose __tostring fails gave a traceback under `earl run` and
an empty message in the REPL. Now `earl run` prints the bytes they are (as `earl` prints
names everywhere), messages show them as \\xNN, and every error object gives one line."""
import subprocess
import sys
from pathlib import Path

import pytest

import earl
import earl.lua
from conformance_cases import load_cases
from earl.repl.languages import EvaluationError

EARL = str(Path(sys.executable).with_name("earl"))
# Region 1 is "ma\xffin": byte 0xff is never part of UTF-8.
NAME = b"ma\xffin"


@pytest.fixture(scope="module")
def bad(tmp_path_factory):
    path = tmp_path_factory.mktemp("foreign") / "bad.alog"
    path.write_bytes(load_cases("receive_order")["trace"].encode().replace(b"solid main", b"solid " + NAME))
    return str(path)


def earl_run(tmp_path, bad, name, text):
    script = tmp_path / name
    script.write_text(text)
    return subprocess.run([EARL, "run", str(script), bad], capture_output=True, timeout=60), str(script)


def test_lua_print_and_write_give_the_bytes(tmp_path, bad):
    result, _ = earl_run(tmp_path, bad, "names.lua", "local e = EventTrace(arg[1])\n"
                         "print(e:event(1).region, 'x')\nio.write(e:event(1).region, '\\n')\n"
                         "io.stderr:write(e:event(1).region, '\\n')\n")
    # stdout: the bytes; stderr: \xNN, as earl's messages there
    assert (result.returncode, result.stdout, result.stderr) == (0, NAME + b"\tx\n" + NAME + b"\n", b"ma\\xffin\n")


ERROR_OBJECTS = {
    "a name in the message": ('error("bad " .. EventTrace(arg[1]):event(1).region)', "bad ma\\xffin", True),
    "__tostring fails": ('error(setmetatable({}, {__tostring = function() error("boom", 0) end}))',
                         "(error object is a table value; its __tostring failed: boom)", False),
    "__tostring gives a table": ('error(setmetatable({}, {__tostring = function() return {} end}))',
                                 None, False),
    "a table without __tostring": ("error({})", "(error object is a table value)", False),
    "a boolean": ("error(false)", "(error object is a boolean value)", False),
}


@pytest.mark.parametrize("case", ERROR_OBJECTS)
def test_lua_error_objects_give_one_line(tmp_path, bad, case):
    code, message, located = ERROR_OBJECTS[case]
    result, script = earl_run(tmp_path, bad, "fails.lua", code + "\n")
    err = result.stderr.decode()
    assert result.returncode == 1 and result.stdout == b""
    assert err.count("\n") == 1 and err.startswith("earl: ") and "Traceback" not in err
    if message is None:  # Lua's own words for a __tostring that gives no string
        assert "'__tostring' must return a string" in err
    else:
        assert err == f"earl: {script + ':1: ' if located else ''}{message}\n"


def test_lua_run_api_raises_the_same_one_line(tmp_path, bad):
    script = tmp_path / "api.lua"
    script.write_text('error("bad " .. EventTrace(arg[1]):event(1).region)\n')
    with pytest.raises(earl.EarlError) as caught:
        earl.lua.run(script, [bad])
    assert str(caught.value) == f"{script}:1: bad ma\\xffin"


def test_repl_lua_shows_escaped_names_and_messages_and_goes_on(bad, capsys):
    from earl.repl.lang_lua import Evaluator

    lua = Evaluator(earl.EventTrace(bad))
    assert lua.evaluate("e:event(1).region") == "ma\\xffin"
    assert lua.evaluate("e:regions()") == '{"ma\\xffin", "MPI_Send", "MPI_Recv"}'
    assert lua.evaluate("print(e:event(1).region)") is None
    assert capsys.readouterr().out == "ma\\xffin\n"  # pytest's stream takes no surrogate escapes
    for code, message in [('error("bad " .. e:event(1).region, 0)', "bad ma\\xffin"),
                          ('error(setmetatable({}, {__tostring = function() error("boom", 0) end}))',
                           "(error object is a table value; its __tostring failed: boom)"),
                          ("error({})", "(error object is a table value)")]:
        with pytest.raises(EvaluationError) as caught:
            lua.evaluate(code)
        assert str(caught.value) == message
    assert lua.evaluate("1 + 1") == "2"  # the session goes on
    search = lua.searcher('error("no " .. ev.region, 0)')
    with pytest.raises(EvaluationError, match=r"^no ma\\xffin \(at event 1\)$"):
        search(1, 5, 1)
    lua.evaluate('_G["g\\xff"] = 1')
    assert "g\\xff" in lua.global_names()


def test_tcl_puts_gives_the_bytes_and_messages_escape_them(tmp_path, bad):
    result, script = earl_run(tmp_path, bad, "names.tcl", "EventTrace e -file [lindex $argv 0]\n"
                              "e event ev 1\nputs $ev(region)\nerror \"bad $ev(region)\"\n")
    assert result.returncode == 1 and result.stdout == NAME + b"\n"
    assert result.stderr.decode() == f"earl: {script}:4: bad ma\\xffin\n"
