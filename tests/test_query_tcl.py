"""`e select expr arr body` in Tcl: the same events as a plain Python loop; break and
continue as in foreach; expressions outside the common subset are refused with their
line and column."""
import pytest

import earl
from earl.generate import generate
from test_tcl_common import LIBRARY, error_of, interp

pytestmark = pytest.mark.skipif(LIBRARY is None, reason="no Tcl extension")


@pytest.fixture(scope="module")
def path(tmp_path_factory):
    path = tmp_path_factory.mktemp("tcl-select") / "run.alog"
    generate(str(path), events=1500, locations=3, seed=9)
    return str(path)


def test_select_runs_the_body_for_each_selected_event(path):
    with earl.EventTrace(path) as trace:
        expected = [e["pos"] for e in trace if e["type"] == "send" and e["dest"] == 2]
    tcl = interp()
    tcl.tk.call("set", "path", path)
    tcl.eval("EventTrace e -file $path")
    found = tcl.eval('set found {}; e select {ev.type == "send" and ev.dest == 2} ev '
                     '{lappend found $ev(pos)}; set found')
    assert [int(p) for p in tcl.tk.splitlist(found)] == expected
    # break after two, continue skips the body's rest
    found = tcl.eval('set found {}; e select {ev.type == "send" and ev.dest == 2} ev '
                     '{if {[llength $found] == 2} break; lappend found $ev(pos); continue; '
                     'lappend found x}; set found')
    assert [int(p) for p in tcl.tk.splitlist(found)] == expected[:2]


def test_select_refuses_what_the_core_cannot_test(path):
    tcl = interp()
    tcl.tk.call("set", "path", path)
    tcl.eval("EventTrace e -file $path")
    assert error_of(tcl, "e select {ev.time * 2 > 1} ev {}").startswith(
        "e select: line 1, column 9: ")
