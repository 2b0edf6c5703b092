"""Time order as a checked property (issue 12, part 2): problems() counts `time_order`
(time going backwards on a location, or far outside the span the trace declares) and
`clock_condition` (a receive before its send, an N-to-N collective's exit before its
last enter); the global order stays well defined (both OTF2 reading paths agree); `earl
info` shows both. The traces are written here by hand (ALOG text, OTF2 through the PyPI
writer); the expected positions are worked out in the comments, and the random traces of
the reference models (tests/time_reference.py) check the same rules on many more.
"""
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

import earl
from alog_traces import write_alog

otf2_archives = pytest.importorskip("otf2_archives")
from otf2_archives import UNDEF_RANK, ArchiveWriter, T  # noqa: E402
from otf2.enums import CollectiveOp, Paradigm  # noqa: E402
from otf2_reference import Otf2Reference  # noqa: E402

NONE = {"count": 0, "first": []}


def problems(path, **kw):
    return earl.EventTrace(path, progress=lambda f: None, **kw).problems()


def events_of(trace):
    return [trace.event(p) for p in range(1, len(trace) + 1)]


# ------------------------------------------------------------------ ALOG
def test_alog_receive_before_its_send(tmp_path):
    path = write_alog(tmp_path, [
        "-3 0 0 2 0 0",
        "-102 1 0 0 0 10 5 8",   # 1 recv tag 5 at 10 us: the first receive on 0->1 tag 5
        "-101 0 0 1 0 20 5 8",   # 2 ... whose send (the first send on 0->1 tag 5) is at 20
        "-101 0 0 1 0 30 6 8",   # 3 send tag 6
        "-102 1 0 0 0 40 6 8",   # 4 recv tag 6: after its send, fine
        "-102 1 0 0 0 50 5 8",   # 5 the second recv tag 5: no second send, not a clock problem
    ])
    found = problems(path)
    assert found["clock_condition"] == {"count": 1, "first": [1]}
    assert found["unmatched_recv"] == {"count": 1, "first": [1]}   # 5 got send 2 from the queue
    assert found["time_order"] == NONE


def test_alog_unsorted_input_is_ordered_and_not_a_time_order_problem(tmp_path):
    # ALOG's contract orders unsorted files by time, so no location goes backwards.
    path = write_alog(tmp_path, ["-13 0 1 2 0 0 main", "1 0 0 0 0 30", "2 0 0 0 0 10",
                                 "1 1 0 0 0 20", "2 1 0 0 0 25"])
    t = earl.EventTrace(path, progress=lambda f: None)
    assert [e["time"] for e in events_of(t)] == [1e-05, 2e-05, 2.5e-05, 3e-05]
    assert t.problems()["time_order"] == NONE


# ------------------------------------------------------------------ OTF2
def _two_ranks(directory, name):
    aw = ArchiveWriter(directory, name, 1000)
    a, = aw.process("MPI Rank 0")
    b, = aw.process("MPI Rank 1")
    aw.comm_locations([a, b])
    world = aw.comm("MPI_COMM_WORLD", [a, b])
    return aw, aw.ev(a), aw.ev(b), world


def damage_timestamp(anchor, location_id, old, new):
    """Overwrites the timestamp `old` of a location's event file with `new`, as damage in
    transfer would (libotf2's writer refuses timestamps that go backwards). OTF2 stores a
    timestamp as 8 raw bytes in the writer's byte order (little-endian here)."""
    events = Path(anchor).with_suffix("") / f"{location_id}.evt"
    data = events.read_bytes()
    was = struct.pack("<Q", old)
    assert data.count(was) == 1
    events.write_bytes(data.replace(was, struct.pack("<Q", new)))


def write_backwards(directory):
    """Location 0's third record goes back in time (25 damaged into 15, after 20).
    Merged order: 1 a@10, 2 b@12, 3 a@20, 4 a@15 (backwards), 5 a@30, 6 b@40."""
    aw, a, b, _ = _two_ranks(directory, "backwards")
    r = aw.region("main")
    a.enter(T(10), r)
    a.leave(T(20), r)
    a.enter(T(25), r)
    a.leave(T(30), r)
    b.enter(T(12), r)
    b.leave(T(40), r)
    anchor = aw.close()
    damage_timestamp(anchor, aw.locations[0]._ref, T(25), T(15))
    return anchor


def write_flipped_bit(directory):
    """Bit 43 of location 0's first leave flipped (T(20) has it clear): 2^43 + 10 ticks
    after the first event, 8.8e9 s, where the clock properties declare 40 ms.
    Merged order: 1 a@10, 2 b@12, 3 b@50, 4 a@2^43+20 (outside), 5 a@30, 6 a@40."""
    aw, a, b, _ = _two_ranks(directory, "flipped")
    r = aw.region("main")
    a.enter(T(10), r)
    a.leave(T(20), r)
    a.enter(T(30), r)
    a.leave(T(40), r)
    b.enter(T(12), r)
    b.leave(T(50), r)
    anchor = aw.close()
    assert not T(20) & 2 ** 43
    damage_timestamp(anchor, aw.locations[0]._ref, T(20), T(20) ^ 2 ** 43)
    return anchor


def write_clock_violations(directory):
    """Merged order (ticks = ms):
     1 a enter main @0       2 b enter main @1
     3 b recv tag 3 @25 (its send comes at 30: clock condition; unmatched for the state)
     4 a send tag 3 @30
     5 a enter Allreduce @40  6 a exit Allreduce @42 (before b's enter @45: clock condition)
     7 b enter Allreduce @45  8 b exit Allreduce @47
     9 a enter Bcast @60     10 a exit Bcast @62 (root a: it may leave before b enters)
    11 b enter Bcast @63     12 b exit Bcast @65
    13 a exit main @100      14 b exit main @101"""
    aw, a, b, world = _two_ranks(directory, "clocks")
    main = aw.region("main")
    allreduce = aw.region("MPI_Allreduce", paradigm=Paradigm.MPI)
    bcast = aw.region("MPI_Bcast", paradigm=Paradigm.MPI)
    a.enter(T(0), main)
    b.enter(T(1), main)
    b.mpi_recv(T(25), 0, world, 3, 8)
    a.mpi_send(T(30), 1, world, 3, 8)
    for e, start in ((a, 40), (b, 45)):
        e.enter(T(start), allreduce)
        e.mpi_collective_begin(T(start))
        e.mpi_collective_end(T(start + 1), CollectiveOp.ALLREDUCE, world, UNDEF_RANK, 8, 8)
        e.leave(T(start + 2), allreduce)
    for e, start in ((a, 60), (b, 63)):
        e.enter(T(start), bcast)
        e.mpi_collective_begin(T(start))
        e.mpi_collective_end(T(start + 1), CollectiveOp.BCAST, world, 0, 8, 8)
        e.leave(T(start + 2), bcast)
    a.leave(T(100), main)
    b.leave(T(101), main)
    return aw.close()


@pytest.fixture(params=[True, False], ids=["cached", "direct"])
def cache(request):
    return request.param


def test_time_going_backwards_on_a_location(tmp_path, cache):
    anchor = write_backwards(tmp_path)
    t = earl.EventTrace(anchor, cache=cache, progress=lambda f: None)
    assert [(e["loc"], e["time"]) for e in events_of(t)] == [
        (0, 0.0), (1, 0.002), (0, 0.01), (0, 0.005), (0, 0.02), (1, 0.03)]
    assert t.problems()["time_order"] == {"count": 1, "first": [4]}
    assert t.problems()["clock_condition"] == NONE
    assert t.problems() == Otf2Reference.load(anchor).problems()


def test_a_timestamp_far_outside_the_declared_span(tmp_path, cache):
    anchor = write_flipped_bit(tmp_path)
    t = earl.EventTrace(anchor, cache=cache, progress=lambda f: None)
    assert [e["loc"] for e in events_of(t)] == [0, 1, 1, 0, 0, 0]
    assert t.event(4)["time"] == (2 ** 43 + 10) / 1000
    # Only the damaged record: the next one of location 0 (30) is compared with 10, not 2^43.
    assert t.problems()["time_order"] == {"count": 1, "first": [4]}
    assert t.problems() == Otf2Reference.load(anchor).problems()


def test_the_analysis_counts_time_order_and_never_goes_negative(tmp_path):
    """`earl analyze` reports the reader's time_order (issue 22, class 7: it showed a
    negative time and no problem) and analyses an out-of-order event at the latest
    in-order time of its location (model/location_time_order.h, the reader's rule)."""
    backwards = write_backwards(tmp_path / "b")
    report = earl.analysis.analyze(str(backwards))
    assert {k: v for k, v in report.problems.items() if v} == {"time_order": 1}
    # a: main 10..20, then main entered at 15 (analysed at 20) until 30: 10 + 10 ticks;
    # b: main 12..40: 28 ticks (1 tick = 1 ms)
    assert sorted((c.location, round(c.value, 12)) for c in report.raw["values"]["time"]) == [
        (0, 0.02), (1, 0.028)]
    flipped = write_flipped_bit(tmp_path / "f")
    report = earl.analysis.analyze(str(flipped))
    assert {k: v for k, v in report.problems.items() if v} == {"time_order": 1}
    # a: main 10..(2^43+20, analysed at 10) and 30..40: 0 + 10 ticks; b: 12..50: 38 ticks
    assert sorted((c.location, round(c.value, 12)) for c in report.raw["values"]["time"]) == [
        (0, 0.01), (1, 0.038)]
    cli = subprocess.run([sys.executable, "-m", "earl.cli", "analyze", str(backwards)],
                         capture_output=True, text=True)
    assert cli.returncode == 0 and "problems: time_order 1" in cli.stdout
    assert "0.048000 s in total" in cli.stdout


def test_clock_condition_violations_between_locations(tmp_path, cache):
    anchor = write_clock_violations(tmp_path)
    t = earl.EventTrace(anchor, cache=cache, progress=lambda f: None)
    kinds = [(e["loc"], e["type"], e.get("region")) for e in events_of(t)]
    assert kinds[2:6] == [(1, "recv", None), (0, "send", None), (0, "enter", "MPI_Allreduce"),
                          (0, "exit", "MPI_Allreduce")]
    assert t.event(6)["root"] == -1 and t.event(10)["root"] == 0
    found = t.problems()
    assert found["clock_condition"] == {"count": 2, "first": [3, 6]}
    assert found["unmatched_recv"] == {"count": 1, "first": [3]}
    assert found["time_order"] == NONE
    assert found == Otf2Reference.load(anchor).problems()


def test_both_reading_paths_give_one_global_order(tmp_path):
    for write in (write_backwards, write_flipped_bit, write_clock_violations):
        anchor = write(tmp_path / write.__name__)
        cached = earl.EventTrace(anchor, cache=True, progress=lambda f: None)
        direct = earl.EventTrace(anchor, cache=False, progress=lambda f: None)
        assert events_of(cached) == events_of(direct)
        assert cached.problems() == direct.problems()


def test_earl_info_shows_both(tmp_path):
    anchor = write_clock_violations(tmp_path / "c")
    backwards = write_backwards(tmp_path / "b")
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent))
    shown = subprocess.run([sys.executable, "-m", "earl.cli", "info", str(anchor), str(backwards)],
                           capture_output=True, text=True, env=env, timeout=300)
    assert shown.returncode == 0, shown.stderr
    assert "  clock condition: 2 (first at 3, 6)\n" in shown.stdout
    assert "  time order: 1 (first at 4)\n" in shown.stdout
