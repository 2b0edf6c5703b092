"""`earl list`: its three output styles parsed back and compared with a plain loop over
the trace's events; windows by position and time, locations, columns; `| head`."""
import csv
import io
import json

import pytest

import earl
from earl.cli import main as earl_main
from earl.generate import generate


@pytest.fixture(scope="module", params=["run.alog", "run.otf2", "run.otf", "run.clog2", "run.json", "run.elg"])
def path(request, tmp_path_factory):
    path = tmp_path_factory.mktemp("list") / request.param
    try:
        generate(str(path), events=600, locations=3, seed=5)
    except earl.EarlError as error:
        pytest.skip(str(error))
    return str(path)


@pytest.fixture(scope="module")
def events(path):
    with earl.EventTrace(path) as trace:
        return [trace.event(pos) for pos in range(1, len(trace) + 1)]


def run(capsys, *argv):
    assert earl_main(["list", *argv]) == 0
    return capsys.readouterr().out


def test_jsonl_is_every_attribute_of_each_selected_event(path, events, capsys):
    out = run(capsys, path, "--where", 'ev.type == "send" and ev.dest == 1', "--as", "jsonl")
    assert [json.loads(line) for line in out.splitlines()] == [
        e for e in events if e["type"] == "send" and e["dest"] == 1]


def test_csv_columns(path, events, capsys):
    out = run(capsys, path, "--as", "csv", "--columns", "pos,time,region", "--loc", "0,2",
              "--from", "10", "--to", "400")
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["pos", "time", "region"]
    expected = [e for e in events if e["loc"] in (0, 2) and 10 <= e["pos"] <= 400]
    assert [int(r[0]) for r in rows[1:]] == [e["pos"] for e in expected]
    assert [float(r[1]) for r in rows[1:]] == [e["time"] for e in expected]
    assert [r[2] for r in rows[1:]] == [e.get("region", "") for e in expected]


def test_table_is_aligned_and_complete(path, events, capsys):
    out = run(capsys, path, "--where", 'ev.type == "enter"', "--lang", "lua")
    lines = out.splitlines()
    assert lines[0].split()[:4] == ["pos", "loc", "time", "type"]
    rows = [line.split() for line in lines[1:]]
    expected = [e for e in events if e["type"] == "enter"]
    assert [int(r[0]) for r in rows] == [e["pos"] for e in expected]
    assert all(r[3] == "enter" for r in rows)
    assert [r[4] for r in rows] == [f"region={e['region']}" for e in expected]
    # the first column is right-aligned: every line's pos ends at the same column
    ends = {len(line) - len(line.lstrip()) + len(line.split()[0]) for line in lines[1:]}
    assert len(ends) == 1


def test_time_window(path, events, capsys):
    t0, t1 = events[99]["time"], events[299]["time"]
    out = run(capsys, path, "--from", f"{t0!r}s", "--to", f"{t1!r}s", "--as", "jsonl",
              "--columns", "pos")
    assert [json.loads(line)["pos"] for line in out.splitlines()] == [
        e["pos"] for e in events if t0 <= e["time"] <= t1]


@pytest.mark.parametrize("argv, message", [
    (["--where", "ev.type =="], "--where: line 1, column 11"),
    (["--from", "1.5 s"], "argument --from: expected a position"),
    (["--loc", "7"], "location 7 is not in this trace"),
    (["--loc", "18446744073709551616"], "location 18446744073709551616 is not in this trace"),
])
def test_errors(path, capsys, argv, message):
    assert earl_main(["list", path, *argv]) == (2 if argv[0] == "--from" else 1)
    assert message in capsys.readouterr().err
