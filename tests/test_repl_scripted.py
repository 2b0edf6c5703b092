"""`earl repl TRACE < commands`: the REPL with stdin not a terminal reads commands line by
line, without prompts or colour, so a session's output can be diffed. Run as a user runs
it (a subprocess of the installed `earl` command) on the Score-P ping-pong trace.

The expected values were worked out by hand from the trace: `earl info` (2 locations,
"MPI Rank 0/1 / Master thread", 120 events) and its events listed with the Python API
(`for ev in EventTrace(...)`, which test_otf2_reader checks against the official OTF2
reader). The program: rank 0 sends 16 KiB..2 MiB to rank 1 with tag 10, rank 1 answers
with tag 20 (communicator 1); the trace's README says 16 MpiSend records. In the listing:
- 22 is rank 1's first receive (at 0.193691633 s, 16384 bytes), matched by send 18;
  it happens in MPI_Recv entered at 19 (0.193677293 s), inside main entered at 2.
- after 19, rank 0 is in main (5, 0.000336980 s) > MPI_Send (17, 0.193668225 s), and
  send 18 is the one message in flight (received at 22).
- event 40 is at 0.193784514 s and 41 at 0.193810524 s: the first at or after 0.1938 s
  is 41 (rank 1 enters MPI_Recv).
- the receives after 41 are 44 (65536 bytes, send 43), 50, ...: the first with >= 65536
  bytes is 44; the first send to rank 0 after it is 47 (tag 20); the last receive
  before 47 is 44 again.
- at 44 rank 0 is in main (5) > MPI_Send (42, exited at 48).
- after 103 the 2 MiB send 102 (0 -> 1) is in flight; none from 1 to 0.
"""
import subprocess
import sys
from pathlib import Path

import pytest

import earl
from script_checks import SCOREP, have_otf2

PING_PONG = SCOREP / "ping-pong-otf2" / "traces.otf2"
EARL = str(Path(sys.executable).with_name("earl"))

needs_ping_pong = pytest.mark.skipif(not (have_otf2() and PING_PONG.exists()),
                                     reason="no OTF2 support or no Score-P trace")

COMMANDS = """\
:jump 22
:send
:back
:up
:stack
:queue
:time 0.1938
:find ev["type"] == "recv" and ev["len"] >= 65536
:lang lua
ev.sendptr
:find ev.type == "send" and ev.dest == 0
:lang tcl
set ev(tag)
:rfind $ev(type) eq "recv"
:lang python
sum(1 for ev in e if ev["type"] == "send"), e.stack(0)
:where
:jump 103
:queue 0 1
:queue 1 0
for loc in range(e.nrlocs()):
    print(loc, e.locsym(loc))

:jump 121
:nosuch
"""

EXPECTED = """\
 22  0.193691633  loc 1   recv   src=0 tag=10 com=1 len=16384 sendptr=18
 18  0.193672585  loc 0   send   dest=1 tag=10 com=1 len=16384
 22  0.193691633  loc 1   recv   src=0 tag=10 com=1 len=16384 sendptr=18
 19  0.193677293  loc 1   enter  MPI_Recv
stacks after event 19:
loc 0  MPI Rank 0 / Master thread
    5  0.000336980  int main(int, char**)
   17  0.193668225  MPI_Send
loc 1  MPI Rank 1 / Master thread
    2  0.000030083  int main(int, char**)
   19  0.193677293  MPI_Recv
1 message in flight after event 19
 18  0.193672585  loc 0   send   dest=1 tag=10 com=1 len=16384
 41  0.193810524  loc 1   enter  MPI_Recv
 44  0.193851130  loc 1   recv   src=0 tag=10 com=1 len=65536 sendptr=43
language: lua
43
 47  0.193852445  loc 1   send   dest=0 tag=20 com=1 len=65536
language: tcl
20
 44  0.193851130  loc 1   recv   src=0 tag=10 com=1 len=65536 sendptr=43
language: python
(16, [5, 42])
at
 44  0.193851130  loc 1   recv   src=0 tag=10 com=1 len=65536 sendptr=43
  loc 0  int main(int, char**) > MPI_Send  since 0.193825568  [MPI Rank 0 / Master thread]
* loc 1  int main(int, char**) > MPI_Recv  since 0.193810524  [MPI Rank 1 / Master thread]
0 messages in flight
103  0.197951493  loc 1   enter  MPI_Recv
1 message in flight from 0 to 1 after event 103
102  0.197614142  loc 0   send   dest=1 tag=10 com=1 len=2097152
0 messages in flight from 1 to 0 after event 103
0 MPI Rank 0 / Master thread
1 MPI Rank 1 / Master thread
"""


def run_repl(args, stdin):
    return subprocess.run([EARL, "repl", *args], input=stdin, capture_output=True, text=True,
                          timeout=120)


@needs_ping_pong
def test_a_scripted_session_on_the_score_p_ping_pong_trace():
    done = run_repl(["-q", str(PING_PONG)], COMMANDS)
    assert done.stdout == EXPECTED
    lines = COMMANDS.splitlines()
    assert done.stderr.splitlines() == [
        f"<stdin>:{lines.index(':jump 121') + 1}: position 121 is not an event: the trace "
        "has events 1..120",
        f"<stdin>:{lines.index(':nosuch') + 1}: unknown command :nosuch (:help lists the "
        "commands)"]
    assert done.returncode == 1  # an input failed
    assert "\x1b[" not in done.stdout + done.stderr  # no colour, no terminal control


@needs_ping_pong
def test_the_summary_and_a_clean_session(tmp_path):
    done = run_repl([str(PING_PONG)], ":next\n:quit\n:next\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    assert out[:7] == [f"file:      {PING_PONG}", "format:    otf2", "events:    120",
                       "time:      0.000000 s .. 0.199604 s (0.199604 s)", "locations: 2",
                       "     0  MPI Rank 0 / Master thread", "     1  MPI Rank 1 / Master thread"]
    assert "problems:  none" in out
    assert out[-2].startswith("Type :help")
    assert out[-1].split()[:5] == ["1", "0.000000000", "loc", "1", "program_begin"]  # :quit ended it


def test_code_spanning_lines_and_errors_naming_stdin_lines(tmp_path):
    trace = tmp_path / "t.alog"
    trace.write_text("-3 0 0 2 0 0\n-13 0 1 2 0 0 c:p work\n1 0 0 0 0 5\n1 1 0 0 0 6\n"
                     "2 0 0 0 0 7\n2 1 0 0 0 9\n")
    done = run_repl(["-q", str(trace)],
                    "total = 0\nwhile e.next():\n    total += 1\n\ntotal\n"
                    "def broken(:\n:lang lua\nfor i = 1, 2 do\n  print(i)\nend\nx = = 1\n"
                    ":lang tcl\nputs [e size]\nputs [\n")
    assert done.stdout.splitlines() == ["4", "language: lua", "1", "2", "language: tcl", "4"]
    assert done.stderr.splitlines() == [
        "<stdin>:6: SyntaxError: invalid syntax",   # ran when the command after it came
        "<stdin>:11: unexpected symbol near '='",
        "<stdin>:14: missing close-bracket"]        # unfinished at the end: run, reported


def test_without_a_trace_the_demo_trace_is_generated(tmp_path):
    """The demo trace is EARL's generator with the options of demo_trace.OPTIONS: the same
    options written here give the event count the REPL reports."""
    from earl.repl.demo_trace import OPTIONS
    from earl.generate import generate

    import earl
    fmt = "otf2" if have_otf2() else "alog"
    same = tmp_path / f"same.{fmt}"
    generate(same, format=fmt, **OPTIONS)
    events = len(earl.EventTrace(same, progress=lambda f: None))
    done = run_repl([], "len(e), e.nrlocs(), e.format()\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == f"({events}, {OPTIONS['locations']}, '{fmt}')"
    assert f"events:    {events}" in done.stdout


def test_view_needs_a_terminal_and_bad_traces_are_earl_errors(tmp_path):
    done = run_repl(["-q", str(tmp_path / "missing.alog")], ":next\n")
    assert done.returncode == 1 and done.stderr.startswith("earl: ")
    assert "missing.alog" in done.stderr and "Traceback" not in done.stderr
    trace = tmp_path / "t.alog"
    trace.write_text("-3 0 0 1 0 0\n-13 0 1 2 0 0 c:p work\n1 0 0 0 0 5\n2 0 0 0 0 7\n")
    done = run_repl(["-q", str(trace)], ":view\n")
    assert done.stderr == "<stdin>:1: :view needs a terminal (stdin and stdout a TTY)\n"


def first_position(path, matches, after=0):
    """The first event after `after` where `matches(event)` holds: a plain loop over the
    Python API, independent of the REPL's searches."""
    with earl.EventTrace(str(path)) as trace:
        return next(ev["pos"] for ev in trace if ev["pos"] > after and matches(ev))


@needs_ping_pong
def test_the_readme_filters_skip_events_without_the_attribute():
    """`:find ev["len"] > 1000` and `/ev["region"] == "MPI_Finalize"` (docs/repl.md's
    examples) in each language: the events before the first match lack the attribute
    (the trace starts with program_begin and enters) and are simply no match."""
    big = first_position(PING_PONG, lambda ev: ev.get("len", 0) > 1000)
    final = first_position(PING_PONG, lambda ev: ev.get("region") == "MPI_Finalize")
    later = first_position(PING_PONG, lambda ev: ev.get("region") == "MPI_Finalize", final)
    done = run_repl(["-q", str(PING_PONG)],
                    ':find ev["len"] > 1000\n:jump 1\n:find ev["region"] == "MPI_Finalize"\n'
                    ":lang lua\n:jump 1\n:find ev.len > 1000\n"
                    ':find ev.region == "MPI_Finalize"\n'
                    ":lang tcl\n:jump 1\n:find $ev(len) > 1000\n"
                    f":jump {final}\n:find $ev(region) eq \"MPI_Finalize\"\n")
    assert done.stderr == "" and done.returncode == 0
    found = [int(line.split()[0]) for line in done.stdout.splitlines()
             if not line.startswith("language")]
    assert found == [big, 1, final, 1, big, final, 1, big, final, later]


def test_exit_in_any_language_does_not_end_a_scripted_session(tmp_path):
    """Event 6 of the small trace exits MPI_Send: in Tcl, `$ev(type)` there shows "exit"
    (it used to run Tcl's exit and end the session with status 0). Only :quit ends."""
    from repl_driver import small_trace

    done = run_repl(["-q", small_trace(tmp_path)],
                    ":lang tcl\n:jump 6\n$ev(type)\nexit\n:lang lua\nos.exit(0)\n"
                    ":lang python\nexit()\n:next\n:quit\n:next\n")
    out = done.stdout.splitlines()
    assert out[0] == "language: tcl" and out[1].split()[:5] == ["6", "0.000022000", "loc", "0", "exit"]
    assert out[2:5] == ["exit", "language: lua", "language: python"]
    assert out[5].split()[0] == "7" and len(out) == 6  # :next ran; the one after :quit did not
    refused = "exit is disabled in the REPL: use :quit (or Ctrl-D)"
    assert done.stderr.splitlines() == [f"<stdin>:{line}: {refused}" for line in (4, 6, 8)]
    assert done.returncode == 1  # inputs were refused


def test_a_mistyped_command_gets_did_you_mean(tmp_path):
    from repl_driver import small_trace

    done = run_repl(["-q", small_trace(tmp_path)], ":nxt\n:next\n:lang lau\n")
    assert done.stdout.split()[0] == "1"  # the session went on: :next ran
    assert done.stderr.splitlines() == ["<stdin>:1: unknown command :nxt (did you mean :next?)",
                                        "<stdin>:3: unknown language 'lau' (did you mean lua?)"]


@needs_ping_pong
def test_run_finds_shipped_scripts_by_name_in_the_session_language(tmp_path):
    """Each shipped wasted_time names itself when its trace cannot be opened, so the
    message says which one ran: without an extension, the one in the session's language;
    patterns/late_sender exists in Python and Lua only, so Tcl mode runs the Python one.
    On the trace, :run wasted_time prints what `earl run` prints for the same script."""
    missing = tmp_path / "missing.otf2"
    expected = subprocess.run([EARL, "run", "wasted_time.py", str(PING_PONG)],
                              capture_output=True, text=True, timeout=120)
    assert expected.returncode == 0 and "sec wasted" in expected.stdout
    done = run_repl(["-q", str(PING_PONG)],
                    f":run wasted_time\n:run wasted_time {missing}\n:lang lua\n"
                    f":run wasted_time {missing}\n:run wasted_time.tcl {missing}\n:lang tcl\n"
                    f":run wasted_time {missing}\n:run patterns/late_sender {missing}\n"
                    ":run wasted_tme\n")
    assert done.stdout == expected.stdout + "language: lua\nlanguage: tcl\n"
    cannot = f"{missing}: cannot open: No such file or directory"
    err = done.stderr.splitlines()
    assert err[0] == f"<stdin>:2: wasted_time.py: {cannot}"
    assert err[1:5] == [f"wasted_time.lua: {cannot}", "<stdin>:4: wasted_time exited with 1",
                        f"wasted_time.tcl: {cannot}", "<stdin>:5: wasted_time.tcl exited with 1"]
    assert err[5:7] == [f"wasted_time.tcl: {cannot}", "<stdin>:7: wasted_time exited with 1"]
    assert err[7].startswith("<stdin>:8: ") and "late_sender.py:" in err[7] and cannot in err[7]
    assert err[8] == ("<stdin>:9: :run: no such script: wasted_tme (earl scripts lists the "
                      "shipped ones; did you mean wasted_time?)")


@needs_ping_pong
def test_run_of_a_python_script_that_imports_its_neighbour():
    """patterns/collectives.py imports late_sender from its own folder, as `python SCRIPT`
    allows: :run gives it the same sys.path as `earl run`, so both print the same."""
    expected = subprocess.run([EARL, "run", "patterns/collectives.py", str(PING_PONG)],
                              capture_output=True, text=True, timeout=120)
    assert expected.returncode == 0 and expected.stdout, expected.stderr
    done = run_repl(["-q", str(PING_PONG)], ":run patterns/collectives\n")
    assert done.stderr == "" and done.stdout == expected.stdout
