"""A Tcl command EARL made stays alive for the whole of each call of it (issue 22, class
3): a script that a call runs (a variable trace on the array `e event` writes, a read
trace on earl_precision) may rename the command away, close its trace, delete its
namespace or its interpreter, and the call still ends with its answer, never a crash
(before the fix `rename t {}` from a write trace freed the trace object under `event`:
tclsh died of SIGSEGV). Each case runs in its own tclsh8.6, so a crash fails only it."""
import pytest

from test_tcl_common import needs_tclsh, tclsh_eval

pytestmark = needs_tclsh

# Event 2 of tests/conformance/receive_order.toml: location 1 enters main at time 0.
EVENT2 = "enterptr 0 loc 1 pos 2 region main time 0.0 type enter"
EVENT2_98 = "com {} data {} dest {} enterptr -1 group All len {} node 1 num 2 region main sendptr {} src {} tag {} time 0.000000000 type enter"


def run(tmp_path, hand, text):
    """Runs `text` after `set path HAND`; returns its stdout lines."""
    return tclsh_eval(tmp_path, f"set path {{{hand}}}\n" + text).splitlines()


# What a write trace on ev does, in one go: `catch` because the trace runs again for each
# element written after the first.
DELETIONS = {
    "rename": "catch {rename t {}}",
    "close": "t close",
    "namespace": "catch {namespace delete ::earl}",
}

SORTED_ARRAY = "puts [lsort -stride 2 [array get ev]]"


@pytest.mark.parametrize("how", DELETIONS)
def test_event_survives_a_write_trace_that_deletes_or_closes_the_trace(tmp_path, hand, how):
    name = "::earl::t" if how == "namespace" else "t"
    script = DELETIONS[how].replace(" t ", f" {name} ").replace("{rename t", f"{{rename {name}")
    lines = run(tmp_path, hand, f"""
EventTrace {name} -file $path
trace add variable ev write {{{script} ;#}}
puts [{name} event ev 2]
{SORTED_ARRAY}
puts [llength [info commands {name}]]
""")
    assert lines[0] == "2"
    assert lines[1] == EVENT2
    # the command is gone after a rename or the namespace's deletion, kept after close
    assert lines[2] == ("1" if how == "close" else "0")


@pytest.mark.parametrize("method", ["set ev 2", "setnext ev", "set ev 2 -fetchonly"])
def test_1998_reads_survive_a_write_trace_that_renames_the_trace(tmp_path, hand, method):
    lines = run(tmp_path, hand, f"""
set t [earl open $path]
if {{"{method}" eq "setnext ev"}} {{$t get 1}}
trace add variable ev write {{catch {{rename $t {{}}}} ;#}}
puts [$t {method}]
{SORTED_ARRAY}
puts [llength [info commands $t]]
""")
    assert lines == ["2", EVENT2_98, "0"]


def test_1998_close_from_a_write_trace_during_set(tmp_path, hand):
    # close deletes the command; the second close (the trace runs again) finds it gone
    lines = run(tmp_path, hand, """
set t [earl open $path]
trace add variable ev write {catch {$t close} ;#}
puts [$t set ev 2]
puts [llength [info commands $t]]
""")
    assert lines == ["2", "0"]


def test_read_trace_on_earl_precision_deleting_the_object(tmp_path, hand):
    # The 1998 reads and statistics read earl_precision, whose read trace runs a script.
    lines = run(tmp_path, hand, """
set t [earl open $path]
set so [earl stat]
$so addval 1.5
set earl_precision 3
trace add variable earl_precision read {catch {rename $t {}} ;#}
puts [$t get 2]
trace add variable earl_precision read {catch {rename $so {}} ;#}
puts [$so mean]
puts [llength [info commands $t]][llength [info commands $so]]
""")
    assert lines == ["num 2 node 1 time 0.000 type enter enterptr -1 region main group All",
                     "1.500", "00"]


def test_deleting_the_interpreter_from_inside_a_call(tmp_path, hand):
    lines = run(tmp_path, hand, """
interp create child
child eval [list set path $path]
interp alias child kill {} interp delete child
child eval {
  package require earl
  EventTrace t -file $path
  trace add variable ev write {kill ;#}
}
puts [catch {child eval {t event ev 2}} message]
puts [interp exists child]
""")
    # the call ends (with whatever error Tcl gives a deleted interpreter), tclsh goes on
    assert lines[-1] == "0"
