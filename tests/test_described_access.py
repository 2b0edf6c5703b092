"""Reading through a description works as for native formats: pipit's CSV layout read to
events worked out by hand (unsorted rows, both timestamp columns), random access equal to
the scan, and the persisted index built, loaded, and rebuilt when the description changes."""
import random
from pathlib import Path

import pytest

import earl
from alog_traces import random_alog
from described_helpers import events_of, scanned

SHIPPED = Path(earl.__file__).parent / "descriptions"

PIPIT_CSV = """Timestamp (ns), Event Type, Name, Process, Thread
0, Enter, main(), 0, 0
1000, Enter, foo(), 0, 0
500, Enter, main(), 1, 0
3000, Instant, checkpoint, 1, 0
2500, Leave, foo(), 0, 0
3000, Enter, MPI_Send, 0, 0
4000, Leave, MPI_Send, 0, 0
9000, Leave, main(), 1, 0
10000, Leave, main(), 0, 0
"""

# By hand: rows in time order (stable: file order for the two at 3000 ns), ns / 1e9.
PIPIT_EXPECTED = [
    ("enter", 0, 0.0, "main()"), ("enter", 1, 5e-7, "main()"), ("enter", 0, 1e-6, "foo()"),
    ("exit", 0, 2.5e-6, "foo()"), ("checkpoint", 1, 3e-6, None), ("enter", 0, 3e-6, "MPI_Send"),
    ("exit", 0, 4e-6, "MPI_Send"), ("exit", 1, 9e-6, "main()"), ("exit", 0, 1e-5, "main()"),
]


def test_pipit_csv_by_hand(tmp_path):
    path = tmp_path / "foo-bar.csv"
    path.write_text(PIPIT_CSV)
    with earl.EventTrace(str(path), format="described:pipit_csv") as trace:
        got = [(e["type"], e["loc"], e["time"], e.get("region")) for e in events_of(trace)]
        assert got == PIPIT_EXPECTED
        assert trace.nrlocs() == 2
        # enterptr as worked out by hand: the exit of foo() at 2.5 us closes position 3.
        assert trace.event(4)["enterptr"] == 3


def test_pipit_csv_seconds_column(tmp_path):
    path = tmp_path / "s.csv"
    path.write_text("Timestamp (s), Event Type, Name, Process\n0, Enter, main(), 0\n"
                    "1.5, Enter, foo(), 0\n2.25, Leave, foo(), 0\n100, Leave, main(), 0\n")
    with earl.EventTrace(str(path), format="described:pipit_csv") as trace:
        assert [e["time"] for e in events_of(trace)] == [0.0, 1.5, 2.25, 100.0]


def test_pipit_csv_without_a_needed_column(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("Timestamp (ns), Event Type, Name\n0, Enter, main()\n")
    with pytest.raises(earl.EarlError, match=r"bad\.csv: line 1: the header names no column 'Process'"):
        earl.EventTrace(str(path), format="described:pipit_csv")


@pytest.mark.parametrize("unsorted", [None, "shuffled"])
def test_random_access_equals_scan(tmp_path, unsorted):
    path = random_alog(11, max_events=400, min_events=300, unsorted=unsorted).write(tmp_path)
    with earl.EventTrace(path, format="described:alog", bdist=16, hsize=8) as trace:
        forward = scanned(trace)
        order = list(range(1, len(trace) + 1))
        random.Random(5).shuffle(order)
        for p in order:
            assert trace.event(p) == forward[p - 1]


def test_persisted_index_is_built_loaded_and_goes_stale(tmp_path, index_dir):
    path = random_alog(4, max_events=300, min_events=200, unsorted="swaps").write(tmp_path)
    description = tmp_path / "mine.toml"
    description.write_text((SHIPPED / "alog.toml").read_text())
    fmt = f"described:{description}"
    with earl.EventTrace(path, format=fmt) as first:
        assert first.index_info()["state"] == "built", first.index_info()
        events = events_of(first)
    with earl.EventTrace(path, format=fmt) as again:
        assert again.index_info()["state"] == "loaded", again.index_info()
        assert events_of(again) == events
    # A changed description is a changed trace: the index is rebuilt, not trusted.
    description.write_text(description.read_text() + "\n# changed\n")
    with earl.EventTrace(path, format=fmt) as changed:
        assert changed.index_info()["state"] == "rebuilt", changed.index_info()
        assert "mine.toml" in changed.index_info()["note"]
        assert events_of(changed) == events


def test_pipit_csv_threads_are_locations(tmp_path):
    path = tmp_path / "threads.csv"
    path.write_text("Timestamp (ns), Event Type, Name, Process, Thread\n"
                    "0, Enter, main(), 1, 0\n10, Enter, work, 1, 1\n20, Enter, main(), 0, 0\n"
                    "30, Leave, work, 1, 1\n40, Leave, main(), 1, 0\n50, Leave, main(), 0, 0\n")
    with earl.EventTrace(str(path), format="described:pipit_csv") as trace:
        # Pairs numbered in order of first appearance: (1,0) 0, (1,1) 1, (0,0) 2.
        assert [e["loc"] for e in events_of(trace)] == [0, 1, 2, 1, 0, 2]
        assert [trace.locsym(loc) for loc in range(3)] == [
            "process 1 thread 0", "process 1 thread 1", "process 0 thread 0"]
        # The exit of work on thread 1 closes its own enter, not main() on thread 0.
        assert trace.event(4)["enterptr"] == 2


def test_info_describe_is_format_described(tmp_path):
    import json
    import subprocess
    import sys
    trace = random_alog(9, max_events=60, min_events=40)
    path = trace.write(tmp_path)
    run = lambda *args: subprocess.run([sys.executable, "-m", "earl.cli", *args], capture_output=True,
                                       text=True, env=dict(__import__("os").environ, EARL_INDEX="0"))
    by_option = run("info", "--json", "--describe", "alog", path)
    by_format = run("info", "--json", "-f", "described:alog", path)
    assert by_option.returncode == 0, by_option.stderr
    a, b = json.loads(by_option.stdout), json.loads(by_format.stdout)
    assert a == b
    assert a["events"] == trace.n_events
    assert a["format"] == f"described:{SHIPPED / 'alog.toml'}"
    listed = run("describe", "--list").stdout.split()
    assert listed == ["alog", "pipit_csv", "sample_binary"]


REGEX_DESCRIPTION = r'''[format]
name = "log"
kind = "text"
[text]
comment = "//"
[[field]]
name = "verb"
type = "string"
[[field]]
name = "rank"
type = "int"
[[field]]
name = "ms"
type = "time"
unit = "ms"
[[field]]
name = "what"
type = "string"
[[field]]
name = "size"
type = "uint"
when = { field = "what", values = ["msg"] }
[records]
key = "verb"
unmatched = "skip"
[[record]]
name = "begin"
match = "begin"
event = "enter"
location = "rank"
time = "ms"
region = "what"
[[record]]
name = "end"
match = "end"
event = "exit"
location = "rank"
time = "ms"
region = "what"
[[record]]
name = "note"
regex = '^rank (\d+) says "([^"]*)" at (\d+) us$'
event = "other"
type = { text = "note" }
location = "r"
time = "t"
data1 = "text"
[[record.field]]
name = "r"
type = "int"
group = 1
[[record.field]]
name = "text"
type = "string"
group = 2
[[record.field]]
name = "t"
type = "time"
unit = "us"
group = 3
'''


def test_token_and_regex_records_with_a_conditional_field(tmp_path):
    (tmp_path / "log.toml").write_text(REGEX_DESCRIPTION)
    (tmp_path / "run.log").write_text(
        "// a log\nbegin 0 1 compute\nbegin 1 2 msg 512\nrank 1 says \"hello there\" at 2500 us\n"
        "end 1 3 msg 512\nunknown words here\nend 0 4 compute\n")
    with earl.EventTrace(str(tmp_path / "run.log"), format=f"described:{tmp_path / 'log.toml'}") as trace:
        events = events_of(trace)
    # By hand: ms / 1e3 and us / 1e6; the unknown line is skipped; "msg" takes a size token.
    assert [(e["type"], e["loc"], e["time"], e.get("region", e.get("data1"))) for e in events] == [
        ("enter", 0, 0.001, "compute"), ("enter", 1, 0.002, "msg"), ("note", 1, 0.0025, "hello there"),
        ("exit", 1, 0.003, "msg"), ("exit", 0, 0.004, "compute")]


@pytest.mark.parametrize("script, text", [
    ("t.lua", 'local e = EventTrace{file=arg[1], format="described:alog"}\nprint(e:nrlocs(), #e)\n'),
    ("t.tcl", "EventTrace e -file [lindex $argv 0] -format described:alog\nputs [e nrlocs]\n"),
])
def test_lua_and_tcl_read_described_traces(tmp_path, script, text):
    import subprocess
    import sys
    trace = random_alog(21, max_events=50, min_events=30, max_locs=3)
    path = trace.write(tmp_path)
    with earl.EventTrace(path, format="alog") as native:
        want = [str(native.nrlocs())] + ([str(len(native))] if script.endswith(".lua") else [])
    (tmp_path / script).write_text(text)
    done = subprocess.run([sys.executable, "-m", "earl.cli", "run", str(tmp_path / script), path],
                          capture_output=True, text=True)
    if done.returncode and "not available" in done.stderr:
        pytest.skip(done.stderr.strip())
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == want
