"""The EARL 2.0 Tcl mapping of EventTrace, what only Tcl has (the rules every language
shares are the conformance cases of tests/conformance/, run in Tcl by
tests/test_conformance_tcl.py), on a hand-worked trace, through tkinter.Tcl() and through
tclsh8.6: `EventTrace e -file f ...`, `e event arr ?pos?` filling the caller's array, Tcl's
text for numbers and missing values, errors that name the argument in Tcl's words, the
spec loop, and `rename e {}`."""
import pytest

import earl

from conformance_cases import load_cases
from test_tcl_common import as_list, error_of, interp, needs_extension, needs_tclsh, tclsh_eval

pytestmark = needs_extension

# The hand-worked trace of tests/conformance/receive_order.toml (two locations, 1 named
# "worker"; regions main, MPI_Send and MPI_Recv; a type of the trace's own, marker; location
# 1 receiving tag 2 before tag 1), whose cases tests/test_conformance_tcl.py runs: here what
# only Tcl has. Positions: 3 enter MPI_Recv, 4 enter MPI_Send, 5 send tag 1, 10 recv tag 2,
# 12 marker, 13 enter MPI_Recv, 14 recv tag 1.
HAND = load_cases("receive_order")["trace"]


@pytest.fixture
def tcl(hand):
    t = interp()
    t.tk.call("set", "path", hand)
    t.eval("EventTrace e -file $path")
    return t


def array(tcl, name):
    words = as_list(tcl, tcl.eval(f"array get {name}"))
    return dict(zip(words[::2], words[1::2]))


# ------------------------------------------------------------------ A2 construction
def test_constructor_returns_the_handle_and_takes_every_option(hand):
    t = interp()
    t.tk.call("set", "path", hand)
    assert t.eval("EventTrace e -file $path") == "e"
    assert t.eval("EventTrace f -file $path -format alog -bdist 3 -hsize 2") == "f"
    assert t.eval("f format") == "alog" and t.eval("f size") == "17"
    # bdist 0 = only the start bookmark; random access still works
    assert t.eval("EventTrace g -file $path -bdist 0; g event a 17") == "17"


@pytest.mark.parametrize("command, message", [
    ("EventTrace", 'wrong # args: should be "EventTrace handle -file file ?-format format? ?-bdist n? ?-hsize n? ?-cache boolean? ?-memory bytes? ?-index boolean? ?-timecorrect boolean? ?-minlatency seconds? ?-strict boolean?"'),
    ("EventTrace x", "EventTrace: -file is required, as in EventTrace e -file run.otf2"),
    ("EventTrace x -format alog", "EventTrace: -file is required, as in EventTrace e -file run.otf2"),
    ("EventTrace x -file $path -bdist", 'wrong # args: should be "EventTrace handle -file file ?-format format? ?-bdist n? ?-hsize n? ?-cache boolean? ?-memory bytes? ?-index boolean? ?-timecorrect boolean? ?-minlatency seconds? ?-strict boolean?"'),
    ("EventTrace x -file $path -bdist many", 'EventTrace: -bdist must be a nonnegative integer (got "many")'),
    ("EventTrace x -file $path -bdist -1", 'EventTrace: -bdist must be a nonnegative integer (got "-1")'),
    ("EventTrace x -file $path -hsize 0", 'EventTrace: -hsize must be a positive integer (got "0")'),
    ("EventTrace x -file $path -colour red", 'bad option "-colour": must be -file, -format, -bdist, -hsize, -cache, -memory, -index, -timecorrect, -minlatency, or -strict'),
    ("EventTrace e -file $path", 'EventTrace: a command named "e" already exists'),
    ("EventTrace set -file $path", 'EventTrace: a command named "set" already exists'),
])
def test_constructor_errors_name_the_argument(tcl, command, message):
    assert error_of(tcl, command).startswith(message)
    assert tcl.eval("info commands x") == ""


def test_an_unknown_format_is_named_with_the_known_ones(tcl):
    message = error_of(tcl, "EventTrace x -file $path -format vampir")
    assert message.endswith("unknown format 'vampir' (known formats: %s)" % ", ".join(earl._core.known_formats()))


def test_a_missing_file_is_named(tcl):
    assert "/no/such/trace.alog" in error_of(tcl, "EventTrace x -file /no/such/trace.alog")
    assert tcl.eval("set errorCode").startswith("EARL")


# ------------------------------------------------------------------ A3/A4 events
def test_event_fills_the_callers_array_and_returns_the_position(tcl):
    # times as Tcl writes a double: the shortest text that reads back the same
    assert tcl.eval("e event ev 5") == "5"
    assert array(tcl, "ev") == {"pos": "5", "loc": "0", "time": "1.1e-5", "type": "send",
                                "enterptr": "4", "dest": "1", "tag": "1", "com": "-1", "len": "100"}
    tcl.eval("e event ev 10")
    assert array(tcl, "ev") == {"pos": "10", "loc": "1", "time": "1.6e-5", "type": "recv",
                                "enterptr": "3", "src": "0", "tag": "2", "com": "-1", "len": "50",
                                "sendptr": "8"}
    tcl.eval("e event ev 12")
    # data2 absent: Tcl has no null, so it is the empty string
    assert array(tcl, "ev") == {"pos": "12", "loc": "0", "time": "1.8e-5", "type": "marker",
                                "enterptr": "1", "data1": "42", "data2": ""}


def test_event_in_a_procedure_fills_its_local_array(tcl):
    tcl.eval("proc f {} { e event local 3; return [list $local(region) [info exists ::local]] }")
    assert as_list(tcl, tcl.eval("f")) == ["MPI_Recv", "0"]


def test_event_through_upvar_and_in_a_namespace(tcl):
    tcl.eval("namespace eval ns { variable a }")
    tcl.eval("proc g {name} { upvar 1 $name x; e event x 4 }")
    tcl.eval("namespace eval ns { ::g a }")
    assert tcl.eval("set ns::a(region)") == "MPI_Send"


def test_an_array_reused_holds_only_the_new_events_attributes(tcl):
    tcl.eval("e event ev 10; set ev(mine) kept")
    tcl.eval("e event ev 1")
    assert sorted(array(tcl, "ev")) == sorted(["pos", "loc", "time", "type", "enterptr", "region", "mine"])
    assert tcl.eval("set ev(mine)") == "kept"


def test_event_into_a_scalar_is_a_tcl_error(tcl):
    tcl.eval("set s 1")
    assert error_of(tcl, "e event s 1") == "can't set \"s(pos)\": variable isn't array"


def test_variable_traces_see_each_assignment(tcl):
    tcl.eval("set seen {}; trace add variable ev write {apply {{a k op} {lappend ::seen $k}}}")
    tcl.eval("e event ev 2")
    assert as_list(tcl, tcl.eval("set seen")) == ["pos", "loc", "time", "type", "enterptr", "region"]


def test_times_are_doubles_that_arithmetic_uses_exactly(tcl):
    tcl.eval("e event a 14; e event b 13")
    assert float(tcl.eval("expr {$a(time) - $b(time)}")) == 2e-05 - 1.9e-05


# ------------------------------------------------------------------ A6 missing events
@pytest.mark.parametrize("command, message", [
    ("e event ev", "no event at the iterator: it stands at 0 (call next or jump first)"),
    ("e attributes", "no event at the iterator: it stands at 0 (call next or jump first)"),
    ("e values", "no event at the iterator: it stands at 0 (call next or jump first)"),
    ("e event ev 0", "no event at position 0"),
    ("e event ev 18", "no event at position 18"),
    ("e values 18", "no event at position 18"),
    ("e event ev -1", "no event at position -1 (positions are numbered from 1)"),
    ("e event ev fifth", 'e event: pos must be an integer (got "fifth")'),
    ("e attributes 2.5", 'e attributes: pos must be an integer (got "2.5")'),
    ("e event", 'wrong # args: should be "e event arr ?pos?"'),
    ("e event ev 1 2", 'wrong # args: should be "e event arr ?pos?"'),
    ("e frobnicate", 'bad method "frobnicate": must be event, next, prev'),
    ("e", 'wrong # args: should be "e method ?arg ...?"'),
])
def test_event_access_errors(tcl, command, message):
    assert error_of(tcl, command).startswith(message)
    assert tcl.eval("array exists ev") == "0"


# ------------------------------------------------------------------ A7/A8 state
@pytest.mark.parametrize("command, message", [
    ("e stack x", 'e stack: loc must be an integer (got "x")'),
    ("e queue 0", 'wrong # args: should be "e queue src dest ?pos?"'),
    ("e queue 0 y 3", 'e queue: dest must be an integer (got "y")'),
])
def test_state_errors(tcl, command, message):
    assert error_of(tcl, command).startswith(message)


# ------------------------------------------------------------------ A9-A13 the iterator
def test_jump_errors(tcl):
    assert error_of(tcl, "e jump last") == 'e jump: pos must be an integer (got "last")'
    assert error_of(tcl, "e jump") == 'wrong # args: should be "e jump pos"'


def test_the_spec_loop_visits_every_event(tcl):
    assert tcl.eval("set n 0; while {[e next]} {e event ev; incr n}; set n") == "17"
    assert tcl.eval("set ev(pos)") == "17"


# ------------------------------------------------------------------ A14-A17 definitions
@pytest.mark.parametrize("command, message", [
    ("e locsym me", 'e locsym: loc must be an integer (got "me")'),
    ("e nrlocs 1", 'wrong # args: should be "e nrlocs"'),
])
def test_definition_errors(tcl, command, message):
    assert error_of(tcl, command) == message


# ------------------------------------------------------------------ A18 deletion
def test_rename_frees_the_command(tcl):
    tcl.eval("rename e {}")
    assert error_of(tcl, "e next") == 'invalid command name "e"'
    # the name is free again
    assert tcl.eval("EventTrace e -file $path; e next") == "1"


def test_close_closes_it_for_good(tcl):
    tcl.eval("e next; e close")
    assert tcl.eval("e closed") == "1"
    for command in ("e next", "e event ev 1", "e stack 0 1", "e nrlocs"):
        assert error_of(tcl, command) == "the trace is closed"


# ------------------------------------------------------------------ the same in tclsh
@needs_tclsh
def test_tclsh_gives_the_same_answers(tmp_path, hand):
    script = """
EventTrace e -file [lindex $argv 0]
puts [e next]
e event ev 10
puts [lsort [array get ev]]
puts [e stack 1 3]
puts [e queue -1 -1 9]
puts "[e jump 0] [e iterator] [e prev] [e jump 17] [e next]"
puts [catch {e event ev 99} m]:$m
puts [catch {e jump x} m]:$m
rename e {}
puts [catch {e next} m]:$m
"""
    out = tclsh_eval(tmp_path, script, hand).splitlines()
    tcl = interp()
    tcl.tk.call("set", "path", hand)
    tcl.eval("EventTrace e -file $path; e next; e event ev 10")
    assert out == [
        "1",
        tcl.eval("lsort [array get ev]"),
        "2 3",
        "5 8",
        "0 1 0 17 0",
        "1:no event at position 99 (the trace has 17 events, numbered from 1)",
        '1:e jump: pos must be an integer (got "x")',
        '1:invalid command name "e"',
    ]
