"""`earl convert` carries one-sided epochs (puts with their completions, window locks with
their requests, window-collective calls), thread teams (fork/join) and non-blocking requests
between the formats that hold them (OTF2, EPILOG), and counts by type what a format without
them (ALOG) drops.

The reference is the generator writing each format directly (independent of convert): a
generated OTF2 trace converted to EPILOG must read back event for event as the same
program generated as EPILOG, and vice versa, where the two models agree."""
from collections import Counter

import pytest

import earl
import earl.convert
import earl.generate
import epilog_traces as E

needs_otf2 = pytest.mark.skipif("otf2" not in earl._core.generator_formats(),
                                reason="this EARL was built without libotf2")

SHAPES = {
    "fence": dict(locations=3, events=1500, seed=11, rma_every=2, rma_puts=3),
    "locks": dict(locations=4, events=1500, seed=12, lock_every=2),
    "threads": dict(locations=3, events=1500, seed=13, threads=3),
    "nonblocking": dict(locations=4, events=1500, seed=14, nonblocking=True),
    "all": dict(locations=4, events=2500, seed=15, threads=2, rma_every=2, lock_every=3,
                nonblocking=True, permute_ranks=True),
}

# What OTF2 holds and EPILOG (as EARL writes it) does not: program records, the request
# records of non-blocking calls, and a lock's request before its acquisition.
OTF2_ONLY = {"program_begin", "program_end", "mpi_irecv_request", "mpi_isend_complete"}


def events(path):
    with earl.EventTrace(str(path)) as tr:
        return [tr.event(p) for p in range(1, len(tr) + 1)]


def otf2_only(e):
    return e["type"] in OTF2_ONLY or (e["type"] == "wlock" and e.get("request") == 1)


def without(evs, leave_out):
    """The events not left out, their positions and the pointers among them renumbered."""
    kept = [e for e in evs if not leave_out(e)]
    new_pos = {e["pos"]: i for i, e in enumerate(kept, 1)}
    out = []
    for e in kept:
        e = dict(e)
        for key, value in e.items():
            if key == "pos" or (key.endswith("ptr") and value):
                e[key] = new_pos[value]  # KeyError: a pointer to a left-out event
        out.append(e)
    return out


def generated(tmp_path, fmt, shape):
    path = tmp_path / ("gen." + {"otf2": "otf2", "epilog": "elg", "alog": "alog"}[fmt])
    earl.generate.generate(str(path), format=fmt, **shape)
    return path


@needs_otf2
@pytest.mark.parametrize("name", sorted(SHAPES))
def test_otf2_to_epilog_equals_generated_epilog(tmp_path, name):
    shape = SHAPES[name]
    otf2, elg = generated(tmp_path, "otf2", shape), generated(tmp_path, "epilog", shape)
    out = tmp_path / "converted.elg"
    summary = earl.convert.convert(str(otf2), str(out))
    ref, mine = events(elg), events(out)
    # Every event, every attribute, every pointer (enterptr, sendptr, startptr, forkptr,
    # ...) at the same position: the generated EPILOG file has exactly these.
    assert mine == ref
    kinds = Counter(e["type"] for e in ref)
    if shape.get("rma_every"):
        assert kinds["put_1ts"] == kinds["put_1te"] > 0
    if shape.get("lock_every"):
        assert kinds["wlock"] == kinds["wunlock"] > 0
    if shape.get("threads", 1) > 1:
        assert kinds["fork"] == kinds["join"] > 0
    # Dropped: only what EPILOG has no record of, counted from the input itself.
    # (A lock request counts as a dropped wlock.)
    source = Counter(e["type"] for e in events(otf2) if otf2_only(e))
    assert dict(summary["dropped"]) == dict(source)
    assert dict(summary["refused"]) == {}
    assert summary["events_written"] == summary["events_read"] - sum(source.values())


@needs_otf2
@pytest.mark.parametrize("name", sorted(SHAPES))
def test_epilog_to_otf2_equals_generated_otf2(tmp_path, name):
    shape = SHAPES[name]
    otf2, elg = generated(tmp_path, "otf2", shape), generated(tmp_path, "epilog", shape)
    out = tmp_path / "converted.otf2"
    summary = earl.convert.convert(str(elg), str(out))
    assert dict(summary["dropped"]) == {} and dict(summary["refused"]) == {}
    assert summary["frame_events_added"] == 0  # the masters' own MPI_Init; threads are threads
    ref = without(events(otf2), otf2_only)
    mine = events(out)
    assert not [e for e in mine if otf2_only(e)]
    # EPILOG's receive record has no length: the receive takes its send's (kLengthFromSend)
    assert mine == ref
    if shape.get("rma_every"):
        # The window calls' own OTF2 records come back from EPILOG's window-collective exits.
        assert Counter(e["type"] for e in mine)["rma_collective_end"] > 0


@needs_otf2
def test_threads_stay_threads_of_their_process(tmp_path):
    shape = SHAPES["all"]
    elg = generated(tmp_path, "epilog", shape)
    out = tmp_path / "converted.otf2"
    earl.convert.convert(str(elg), str(out))
    with earl.EventTrace(str(out)) as tr:
        names = [tr.locsym(loc) for loc in range(tr.nrlocs())]
    # EARL's EPILOG names threads "rank p" (the master) and "rank p thread k"; OTF2 output
    # keeps them as threads of process "rank p".
    assert names == [n for p in range(4) for n in (f"rank {p} / Master thread",
                                                   f"rank {p} / rank {p} thread 1")]


@needs_otf2
def test_converted_epilog_file_holds_the_records(tmp_path):
    # The tests' own reader (tests/epilog_traces.py) parses the converted file: one record
    # per put, completion, lock, fork, join and window-collective exit of the OTF2 input.
    shape = SHAPES["all"]
    otf2 = generated(tmp_path, "otf2", shape)
    out = tmp_path / "converted.elg"
    earl.convert.convert(str(otf2), str(out))
    version, order, records = E.parse(out.read_bytes())
    counted = Counter(t for t, _ in records)
    source = Counter(e["type"] for e in events(otf2))
    acquired = sum(1 for e in events(otf2) if e["type"] == "wlock" and e["request"] == 0)
    assert counted[E.MPI_PUT_1TS] == source["put_1ts"] > 0
    assert counted[E.MPI_PUT_1TE] == source["put_1te"]
    assert counted[E.MPI_WIN_LOCK] == acquired > 0
    assert counted[E.MPI_WIN_UNLOCK] == source["wunlock"]
    assert counted[E.OMP_FORK] == source["fork"] > 0
    assert counted[E.OMP_JOIN] == source["join"]
    assert counted[E.MPI_WINCOLLEXIT] == source["rma_collective_end"] > 0
    assert counted[E.MPI_WIN] == 1
    # 4 processes of 2 threads: thread t of process p is location 2p + t.
    threads = sorted(v for t, v in records if t == E.THREAD)
    assert [(tid, pid) for tid, pid, _ in threads] == sorted((t, p) for p in range(4) for t in range(2))


@needs_otf2
def test_alog_counts_what_it_drops_by_type(tmp_path):
    shape = SHAPES["all"]
    otf2 = generated(tmp_path, "otf2", shape)
    out = tmp_path / "converted.alog"
    summary = earl.convert.convert(str(otf2), str(out))
    source = Counter(e["type"] for e in events(otf2)
                     if e["type"] not in ("enter", "exit", "send", "recv"))
    # ALOG has no one-sided, thread, request or program records: every such event of the
    # input is counted under its type, nothing refused, nothing else lost.
    assert dict(summary["dropped"]) == dict(source)
    assert {"put_1ts", "put_1te", "wlock", "wunlock", "fork", "join",
            "rma_collective_begin", "mpi_irecv_request"} <= set(source)
    assert dict(summary["refused"]) == {}
    assert summary["events_written"] == summary["events_read"] - sum(source.values())
    core = [(e["loc"], e["time"], e["type"]) for e in events(otf2)
            if e["type"] in ("enter", "exit", "send", "recv")]
    assert sorted((e["loc"], e["time"], e["type"]) for e in events(out)) == sorted(core)


def test_epilog_to_epilog_keeps_window_calls(tmp_path):
    # A hand-written EPILOG trace (tests' own writer): a fence whose exit is an
    # MPI_WINCOLLEXIT stays one through convert; the plain exit stays plain.
    f = E.ElgFile()
    for sid, text in enumerate(["main", "MPI_Win_fence", "USER", "MPI"]):
        f.string(sid, text)
    for loc in range(2):
        f.process(loc, E.NO_ID)
        f.thread(0, loc, E.NO_ID)
        f.location(loc, loc, 0)
    f.region(0, 0, 2)
    f.region(1, 1, 3)
    f.comm(0, [0, 1])
    f.win(5, 0)
    for loc in range(2):
        f.enter(loc, 1.0, 0)
    for loc in range(2):
        f.enter(loc, 2.0, 1)
    for loc in range(2):
        f.wincollexit(loc, 3.0, 5)
    f.exit(0, 4.0)
    f.exit(1, 4.0)
    src = tmp_path / "hand.elg"
    src.write_bytes(f.data())
    out = tmp_path / "out.elg"
    summary = earl.convert.convert(str(src), str(out))
    assert summary["events_written"] == summary["events_read"] == 8
    _, _, records = E.parse(out.read_bytes())
    exits = [t for t, _ in records if t in (E.EXIT, E.MPI_WINCOLLEXIT)]
    assert exits == [E.MPI_WINCOLLEXIT, E.MPI_WINCOLLEXIT, E.EXIT, E.EXIT]
    assert events(out) == events(src)


@pytest.mark.parametrize("fmt", ["otf2", "epilog"])
def test_same_format_round_trip_is_identical(tmp_path, fmt):
    if fmt == "otf2" and "otf2" not in earl._core.generator_formats():
        pytest.skip("this EARL was built without libotf2")
    src = generated(tmp_path, fmt, SHAPES["all"])
    out = tmp_path / ("again." + ("otf2" if fmt == "otf2" else "elg"))
    summary = earl.convert.convert(str(src), str(out))
    assert dict(summary["dropped"]) == {} and dict(summary["refused"]) == {}
    assert summary["events_written"] == summary["events_read"]
    assert events(out) == events(src)


def test_what_no_writer_event_holds_is_dropped_by_type(tmp_path):
    # Gets, thread locks and a put whose completion names an undefined origin: by hand
    # (tests' own writer), 2 processes (rank 1 = location 1).
    f = E.ElgFile()
    for sid, text in enumerate(["main", "USER"]):
        f.string(sid, text)
    for loc in range(2):
        f.process(loc, E.NO_ID)
        f.thread(0, loc, E.NO_ID)
        f.location(loc, loc, 0)
    f.region(0, 0, 1)
    f.comm(0, [0, 1])
    f.win(0, 0)
    f.enter(0, 1.0, 0)
    f.enter(1, 1.0, 0)
    f.get_1to(0, 2.0, 7)              # get 7 of 0 from 1
    f.get_1ts(1, 2.5, 0, 0, 7, 64)
    f.get_1te(0, 3.0, 1, 0, 7)
    f.lock(0, 3.5, 4, True)
    f.lock(0, 3.6, 4, False)
    f.put_1ts(0, 4.0, 1, 0, 9, 32)    # put 9 of 0 to 1, ended on the target
    f.put_1te(1, 4.5, 0, 0, 9)
    f.put_1te(1, 4.6, 0, 0, 10)       # ends a put never started
    f.exit(0, 5.0)
    f.exit(1, 5.0)
    src = tmp_path / "hand.elg"
    src.write_bytes(f.data())
    out = tmp_path / "out.elg"
    summary = earl.convert.convert(str(src), str(out))
    assert dict(summary["dropped"]) == {"get_1to": 1, "get_1ts": 1, "get_1te": 1, "alock": 1, "rlock": 1}
    assert dict(summary["refused"]) == {"put completion without its put": 1}
    assert summary["events_read"] == 12 and summary["events_written"] == 6
    got = [(e["loc"], e["time"], e["type"]) + tuple(e.get(k) for k in ("peer", "rmaid", "len"))
           for e in events(out)]
    assert got == [(0, 1.0, "enter", None, None, None), (1, 1.0, "enter", None, None, None),
                   (0, 4.0, "put_1ts", 1, 9, 32), (1, 4.5, "put_1te", 0, 9, 0),
                   (0, 5.0, "exit", None, None, None), (1, 5.0, "exit", None, None, None)]
