"""`earl convert TRACE out.json --wait-states` (cpp/convert/wait_annotations.cpp, the Chrome
writer's annotate()): the analysis' wait states as slices on a track beside each location.
The reference is the generator's ground truth, worked out from the events it wrote and
independent of the analysis: each injected late sender (receiver, when its MPI_Recv began,
how long it waited) must be one "Late Sender" slice, read from the JSON with Python's json."""
import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest

import earl
from earl.convert import convert
from earl.generate import generate
from gen_truth_checks import callpath
from script_checks import have_otf2

EARL_CLI = str(Path(sys.executable).with_name("earl"))
GEN = dict(locations=4, events=8000, seed=3, late_sender_rate=0.3, imbalance_rate=0.3,
           out_of_order_rate=0.2, barrier_every=3)


def load(path):
    data = gzip.decompress(path.read_bytes()) if path.name.endswith(".gz") else path.read_bytes()
    return json.loads(data)["traceEvents"]


def tracks(events):
    """(pid, tid) -> thread name, and location -> (pid, tid) by the locations' sort index."""
    names, place = {}, {}
    for e in events:
        if e["ph"] == "M" and e["name"] == "thread_name":
            names[e["pid"], e["tid"]] = e["args"]["name"]
        if e["ph"] == "M" and e["name"] == "thread_sort_index":
            place.setdefault(e["args"]["sort_index"], (e["pid"], e["tid"]))
    return names, place


def wait_slices(events):
    return [e for e in events if e["ph"] == "X" and e.get("cat") == "wait state"]


@pytest.fixture(scope="module", params=[
    pytest.param(("alog", {}), id="alog"),
    pytest.param(("otf2", dict(threads=2, seed=7)), id="otf2-threads",
                 marks=pytest.mark.skipif(not have_otf2(), reason="no OTF2 support"))])
def generated(request, tmp_path_factory):
    fmt, extra = request.param
    src = tmp_path_factory.mktemp("waits") / f"run.{fmt}"
    truth = generate(src, format=fmt, **dict(GEN, **extra))
    assert truth["late_sender_count"] > 0 and not truth["truncated"]["late_senders"]
    return src, truth


@pytest.mark.parametrize("name", ["out.json", "out.json.gz"])
def test_late_sender_slices_are_the_injected_late_senders(generated, tmp_path, name):
    src, truth = generated
    out = tmp_path / name
    summary = convert(src, out, wait_states=True)
    assert summary["wait_states_left_out"] == 0
    events = load(out)
    slices = wait_slices(events)
    assert summary["wait_states_written"] == len(slices)
    names, place = tracks(events)
    # The locations' own tracks are numbered 0..n-1 by their sort index; each wait-state
    # track is in its location's process, named after the location's thread (locations
    # that never wait have none).
    track_of = {}
    for loc in range(earl.EventTrace(str(src)).nrlocs()):
        pid, tid = place[loc]
        track = [key for key, text in names.items()
                 if key[0] == pid and text == names[pid, tid] + " wait states"]
        assert len(track) <= 1
        track_of.update({key: loc for key in track})
    assert {(e["pid"], e["tid"]) for e in slices} <= track_of.keys()
    got = sorted((track_of[e["pid"], e["tid"]], round(e["ts"], 3), round(e["dur"], 3))
                 for e in slices if e["name"] == "Late Sender")
    expected = sorted((late["dest"], round(late["recv_enter"] * 1e6, 3), round(late["wait"] * 1e6, 3))
                      for late in truth["late_senders"])
    assert got == expected
    for e in slices:
        if e["name"] == "Late Sender":
            assert e["args"]["metric"] == "mpi_latesender"
            assert e["args"]["callpath"] == callpath(truth, "main/step/exchange/MPI_Recv")
            assert e["args"]["idle"] == pytest.approx(e["dur"] * 1e-6, abs=1e-12)


def test_slices_on_a_track_nest_or_follow(generated, tmp_path):
    """Perfetto draws a track's X slices as a stack: each must end before the next begins
    or lie inside it."""
    src, _ = generated
    out = tmp_path / "out.json"
    convert(src, out, wait_states=True)
    by_track = {}
    for e in wait_slices(load(out)):
        by_track.setdefault((e["pid"], e["tid"]), []).append((e["ts"], -e["dur"]))
    assert by_track
    for spans in by_track.values():
        open_ends = []
        for ts, minus_dur in sorted(spans):
            while open_ends and open_ends[-1] <= ts:
                open_ends.pop()
            end = ts - minus_dur
            assert not open_ends or end <= open_ends[-1]
            open_ends.append(end)


def test_the_limit_keeps_the_longest_and_says_how_many_it_cut(generated, tmp_path):
    src, _ = generated
    convert(src, tmp_path / "all.json", wait_states=True)
    every = sorted((e["dur"] for e in wait_slices(load(tmp_path / "all.json"))), reverse=True)
    summary = convert(src, tmp_path / "ten.json", wait_states=True, wait_states_limit=10)
    ten = sorted((e["dur"] for e in wait_slices(load(tmp_path / "ten.json"))), reverse=True)
    assert summary["wait_states_written"] == 10
    assert summary["wait_states_left_out"] == len(every) - 10
    assert ten == every[:10]
    none = convert(src, tmp_path / "none.json", wait_states=True, wait_states_limit=0)
    assert none["wait_states_written"] == 0 and none["wait_states_left_out"] == len(every)
    assert wait_slices(load(tmp_path / "none.json")) == []


@pytest.mark.parametrize("limit,error", [(-1, earl.EarlError), (2.5, TypeError), ("10", TypeError)])
def test_a_bad_limit_is_refused_naming_it(tmp_path, limit, error):
    src = tmp_path / "calm.json"
    src.write_text(json.dumps([{"ph": "X", "name": "main", "ts": 0, "dur": 100, "pid": 1, "tid": 1}]))
    with pytest.raises(error, match="wait_states_limit"):
        convert(src, tmp_path / "out.json", wait_states=True, wait_states_limit=limit)
    assert not (tmp_path / "out.json").exists()


def test_a_trace_without_waits_gets_no_slices(tmp_path):
    src = tmp_path / "calm.json"
    src.write_text(json.dumps([
        {"ph": "X", "name": "main", "ts": 0, "dur": 100, "pid": 1, "tid": 1},
        {"ph": "X", "name": "work", "ts": 10, "dur": 50, "pid": 1, "tid": 1},
        {"ph": "X", "name": "main", "ts": 0, "dur": 90, "pid": 2, "tid": 2},
    ]))
    summary = convert(src, tmp_path / "out.json", wait_states=True)
    assert summary["wait_states_written"] == 0 and summary["wait_states_left_out"] == 0
    events = load(tmp_path / "out.json")
    assert wait_slices(events) == []
    assert not any(e["ph"] == "M" and e["args"].get("name", "").endswith("wait states") for e in events)


def test_other_outputs_refuse_the_option(generated, tmp_path):
    src, _ = generated
    out = tmp_path / "out.alog"
    with pytest.raises(earl.EarlError, match="--wait-states"):
        convert(src, out, wait_states=True)
    assert not out.exists()
    cli = subprocess.run([EARL_CLI, "convert", str(src), str(out), "--wait-states"],
                         capture_output=True, text=True)
    assert cli.returncode != 0 and "--wait-states" in cli.stderr
    assert not out.exists()


def test_the_command_writes_and_reports_them(generated, tmp_path):
    src, truth = generated
    out = tmp_path / "out.json"
    cli = subprocess.run([EARL_CLI, "convert", str(src), str(out), "--wait-states"],
                         capture_output=True, text=True)
    assert cli.returncode == 0, cli.stderr
    written = len(wait_slices(load(out)))
    assert written >= truth["late_sender_count"]
    assert "%d wait states written as slices" % written in cli.stdout


def test_earl_reads_the_locations_back_first(generated, tmp_path):
    """The wait-state tracks sort after every location, so EARL's reader numbers the
    locations as they were and the tracks after them."""
    src, _ = generated
    convert(src, tmp_path / "plain.json")
    convert(src, tmp_path / "waits.json", wait_states=True)
    plain = earl.EventTrace(str(tmp_path / "plain.json"))
    waits = earl.EventTrace(str(tmp_path / "waits.json"))
    n = plain.nrlocs()
    assert [waits.locsym(l) for l in range(n)] == [plain.locsym(l) for l in range(n)]
    waiting = {(e["pid"], e["tid"]) for e in wait_slices(load(tmp_path / "waits.json"))}
    assert waits.nrlocs() == n + len(waiting)
    assert all(waits.locsym(l).endswith(" wait states") for l in range(n, waits.nrlocs()))
