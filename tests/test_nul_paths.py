"""A NUL byte in a path is one error naming the argument (issue 22, class 9), never a cut
path: the operating system reads a path up to its first NUL, so `EventTrace('a.alog\\0x')`
opened `a.alog`. One rule (cpp/model/path_check.h) that every binding's path conversion
calls; messages never hold a NUL themselves (the message once was just "a")."""
import re

import pytest

import earl
from earl import _core
from earl.analysis.report import analyze
from earl.convert import convert
from earl.generate import generate

from alog_traces import write_alog
from test_tcl_common import LIBRARY, interp

TRACE = ["-3 0 0 1 0 0", "-13 0 1 2 0 0 black:solid main", "1 0 0 0 0 5", "2 0 0 0 0 7"]


def refused(what, path):
    shown = path.replace("\0", "\\0")
    return "^" + re.escape(f"{what} '{shown}' contains a NUL byte, which no path can hold") + "$"


@pytest.fixture
def trace(tmp_path):
    return write_alog(tmp_path, TRACE, "a.alog")


def test_python_api_refuses_a_nul_in_every_path(trace, tmp_path):
    cut = trace + "\0x"  # what the OS would read is the real trace
    with pytest.raises(earl.EarlError, match=refused("file", cut)):
        earl.EventTrace(cut)
    with pytest.raises(earl.EarlError, match=refused("file", cut)):
        earl.EventTrace(cut.encode())
    with pytest.raises(earl.EarlError, match=refused("input", cut)):
        convert(cut, str(tmp_path / "out.alog"))
    out = str(tmp_path / "out.alog")
    with pytest.raises(earl.EarlError, match=refused("output", trace + "\0x")):
        convert(trace, trace + "\0x")  # would have truncated the input itself
    with pytest.raises(earl.EarlError, match=refused("path", out + "\0x")):
        generate(out + "\0x", events=100)
    with pytest.raises(earl.EarlError, match=refused("truth_path", out + "\0t")):
        generate(out, truth_path=out + "\0t", events=100)
    with pytest.raises(earl.EarlError, match=refused("file", cut)):
        analyze(cut)
    report = analyze(trace)
    for write in (report.write_html, report.write_cube):
        with pytest.raises(earl.EarlError, match=refused("output", out + "\0x")):
            write(out + "\0x")
    with pytest.raises(earl.EarlError, match=refused("path", cut)):
        _core.remove_index(cut)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.alog"]  # nothing written, nothing cut
    assert open(trace).read().splitlines() == TRACE


def test_lua_refuses_a_nul_in_the_trace_path(trace):
    lua = pytest.importorskip("earl.lua").runtime()
    lua.globals().path = trace
    for call in ("EventTrace(path .. '\\0x')", "EventTrace{file = path .. '\\0x'}"):
        ok, message = lua.execute(f"return pcall(function() return {call} end)")
        assert not ok
        # Lua adds where the call was ([string "<python>"]:1: ), as for every error
        assert message.endswith(f": EventTrace: file '{trace}\\0x' contains a NUL byte, which no path can hold")


def test_tcl_refuses_a_nul_in_the_trace_path(trace):
    if LIBRARY is None:
        pytest.skip("no Tcl extension")
    tcl = interp()
    tcl.tk.call("set", "path", trace)
    for command, what in (("EventTrace t -file", "EventTrace: -file"), ("earl open", "earl open: file")):
        assert tcl.eval(f'catch {{{command} "$path\\0x"}} message') == "1"
        assert tcl.eval("set message") == f"{what} '{trace}\\0x' contains a NUL byte, which no path can hold"


def test_an_error_message_never_ends_at_a_nul(trace):
    """Every EarlError shows a NUL it carries as \\0: a C string of it would end there (a
    region asked for by a name with a NUL said only "unknown region 'ma")."""
    with earl.EventTrace(trace, index=False) as opened:
        with pytest.raises(earl.EarlError) as raised:
            opened.group("ma\0in")
    assert "'ma\\0in'" in str(raised.value) and "\0" not in str(raised.value)
