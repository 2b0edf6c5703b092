"""`earl analyze`'s text output: rows that print as zero hidden (--all shows them), the tree
kept whole above what is shown, counts with their noun in the right number, piped output
that never wraps, a terminal's width respected, --top checked."""
import fcntl
import io
import json
import os
import pty
import re
import struct
import subprocess
import sys
import termios

import pytest

import earl
from earl.analysis import Report
from earl.analysis.terminal import console_for, render

ANALYZE = [sys.executable, "-m", "earl.cli", "analyze"]


@pytest.fixture(scope="module")
def trace(tmp_path_factory):
    from earl.generate import generate
    path = tmp_path_factory.mktemp("text") / "run.alog"
    generate(path, locations=3, events=3000, seed=5, late_sender_rate=0.4,
             out_of_order_rate=0.3, imbalance_rate=0.3, barrier_every=2)
    return path


def analyze_text(*args, env=None):
    done = subprocess.run(ANALYZE + [str(a) for a in args], capture_output=True, text=True,
                          timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout


def tree_rows(text):
    """{metric: its row's words} of the metric table (the lines before the first blank)."""
    ids = [m["id"] for m in earl.analysis.metrics()]
    rows = {}
    for line in text.split("\n\n")[0].splitlines()[2:]:
        words = re.sub(r"^[\s│├└─]+", "", line).split()
        if words and words[0] in ids:
            rows[words[0]] = words
    return rows


def hand_result(cells, instances=None, locations=("",)):
    """An EngineResult (report_schema) written by hand: one region "main", one call path,
    `cells` {metric: value} at location 0 and `instances` {pattern: count}."""
    metrics = earl.analysis.metrics()
    return {"file": "hand", "format": "alog", "events": 10, "messages": 0,
            "collective_instances": 0, "clock_jumps": 0, "time_corrected": False,
            "regions": ["main"], "locations": list(locations), "callpaths": [(-1, 0)],
            "values": {m["id"]: [(0, 0, cells[m["id"]])] if m["id"] in cells else []
                       for m in metrics},
            "instances": {m["id"]: (instances or {}).get(m["id"], 0)
                          for m in metrics if m["pattern"]},
            "problems": {}, "traffic": [], "worst": []}


def rendered(report, **options):
    out = io.StringIO()
    render(report, console_for(out), **options)
    return out.getvalue()


def test_rows_that_print_as_zero_are_hidden_and_counted(trace):
    saved = json.loads(analyze_text(trace, "--json"))
    metrics = {m["id"]: m for m in saved["metrics"]}
    entries = dict(saved["profile"], **saved["patterns"])

    def says_something(m):
        unit = metrics[m]["unit"]
        text = f"{entries[m]['total']:.6f}" if unit == "sec" else f"{entries[m]['total']:.0f}"
        return float(text) != 0 or entries[m].get("instances", 0) > 0

    expected = set()
    for m in filter(says_something, metrics):   # and every ancestor of such a row
        while m is not None:
            expected.add(m)
            m = metrics[m]["parent"]
    assert 0 < len(expected) < len(metrics)
    text = analyze_text(trace)
    rows = tree_rows(text)
    assert set(rows) == expected
    hidden = len(metrics) - len(expected)
    assert f"({hidden} metrics with nothing found hidden; --all shows them)" in text
    for m in expected:   # each row's value as the JSON has it, to the microsecond
        unit = metrics[m]["unit"]
        value = f"{entries[m]['total']:.6f}" if unit == "sec" else f"{entries[m]['total']:.0f}"
        assert rows[m][1:3] == [value, "s" if unit == "sec" else unit], m
        if metrics[m]["pattern"]:
            assert rows[m][-1] == str(entries[m]["instances"])

    everything = analyze_text(trace, "--all")
    assert list(tree_rows(everything)) == list(metrics)      # tree order: parents first
    assert "hidden" not in everything


def test_a_parent_of_a_row_with_a_value_stays_and_draws_the_tree():
    # Only a grandchild of late sender has a value: the path to it stays, nothing else.
    report = Report(hand_result({"mpi_lswo_different": 0.25, "time": 1.0},
                                {"mpi_lswo_different": 1}))
    text = rendered(report)
    assert list(tree_rows(text)) == ["time", "execution", "mpi", "mpi_communication",
                                     "mpi_point2point", "mpi_latesender", "mpi_latesender_wo",
                                     "mpi_lswo_different"]
    lines = text.splitlines()
    assert lines[2].startswith("time ")
    assert lines[3].startswith("└── execution ")
    assert lines[9].startswith("                        └── mpi_lswo_different ")
    hidden = len(report.metrics) - 8
    assert f"({hidden} metrics with nothing found hidden; --all shows them)" in text


def test_values_below_the_printed_precision_count_as_zero():
    report = Report(hand_result({"time": 1.0, "mpi_latesender": 4e-7, "mpi_barrier_wait": 6e-7},
                                {"mpi_latesender": 0, "mpi_barrier_wait": 1}))
    rows = tree_rows(rendered(report))
    assert "mpi_latesender" not in rows            # 0.000000 s and no instance
    assert rows["mpi_barrier_wait"][1] == "0.000001"


def test_counts_take_their_noun_in_the_right_number():
    one = Report(hand_result({"time": 1.0, "mpi_latesender": 0.5, "mpi_barrier_wait": 0.25},
                             {"mpi_latesender": 1, "mpi_barrier_wait": 2}))
    text = rendered(one)
    assert text.startswith("hand (alog): 10 events, 1 location, 1.000000 s in total")
    assert "mpi_latesender: 0.500000 s, 1 instance\n" in text
    assert "mpi_barrier_wait: 0.250000 s, 2 instances\n" in text
    two = Report(hand_result({"time": 1.0}, locations=("a", "b")))
    assert "10 events, 2 locations" in rendered(two)


def test_piped_output_never_wraps(trace):
    narrow = dict(os.environ, COLUMNS="30")
    text = analyze_text(trace, "--all", env=narrow)
    assert "\x1b[" not in text
    assert not [l for l in text.splitlines() if l.endswith(" ")]   # no padding left at the end
    saved = json.loads(analyze_text(trace, "--json"))
    # every row of the tree, every pattern heading and location list is one line
    assert len(tree_rows(text)) == len(saved["metrics"])
    for metric, entry in saved["patterns"].items():
        if entry["total"] < 5e-7:
            continue
        n = entry["instances"]
        assert re.search(rf"^{metric}: {entry['total']:.6f} s, {n} instances?$", text, re.M)
        worst = sorted(entry["by_location"].items(), key=lambda kv: -kv[1])[:5]
        listed = ", ".join(f"{saved['locations'][loc]} {v:.6f} s" for loc, v in worst)
        assert f"\n  worst locations: {listed}\n" in text.split(f"\n{metric}: ", 1)[1]
    assert max(len(l) for l in text.splitlines()) > 30


def test_a_terminal_gets_colour_and_its_own_width(trace):
    """`earl analyze` on a real pseudo-terminal 60 columns wide: rich fits it."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 60, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
    env["TERM"] = "xterm-256color"
    proc = subprocess.Popen(ANALYZE + [str(trace), "--all"], stdout=follower,
                            stderr=subprocess.PIPE, env=env)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:        # the terminal closed: the command is done
            break
        if not chunk:
            break
        chunks.append(chunk)
    assert proc.wait(timeout=120) == 0, proc.stderr.read()
    os.close(leader)
    text = b"".join(chunks).decode()
    assert "\x1b[" in text                                  # colour on a terminal
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text).replace("\r", "")
    lines = [l for l in plain.splitlines() if l.strip()]
    assert "mpi_latesender" in plain
    assert max(len(l) for l in lines) <= 60


@pytest.mark.parametrize("value", ["-3", "0", "x", "2.5"])
def test_top_must_be_a_positive_whole_number(trace, value):
    done = subprocess.run(ANALYZE + [str(trace), "--top", value], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("usage: earl analyze")
    assert f"earl analyze: error: argument --top: must be a positive whole number, got '{value}'" \
        in done.stderr


def test_top_limits_call_paths_and_locations_and_says_how_many_more(trace):
    text = analyze_text(trace, "--top", "1")
    saved = json.loads(analyze_text(trace, "--json"))
    barrier = saved["patterns"]["mpi_barrier_wait"]
    assert len(barrier["by_location"]) == 3
    section = text.split("mpi_barrier_wait: ", 1)[1].split("\n\n")[0]
    worst = max(barrier["by_location"].items(), key=lambda kv: kv[1])
    assert re.search(rf"worst locations: rank {worst[0]} {worst[1]:.6f} s, and 2 more$",
                     section, re.M)
