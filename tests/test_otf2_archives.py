"""OTF2 archives written in the test with the official PyPI `otf2` writer
(tests/otf2_archives.py), opened with earl.EventTrace and checked against the official
reader plus the contract's mapping (tests/otf2_reference.py), and by hand-derived facts:
communicators whose ranks are permuted against the locations, OTF2 location ids out of
definition order, archives not named traces.otf2, several threads per process with
fork/join and thread locks, collective exits, one-sided transfers, parameters, metrics with
several members, records EARL keeps as types of their own, random access on small
bdist/hsize, a multi-chunk archive, and bad input (run in subprocesses so that a crash
fails one test, not the run)."""
import json
import random
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("otf2")

import earl  # noqa: E402
import earl.generate  # noqa: E402
import otf2_archives as A  # noqa: E402
from otf2_archives import T, ArchiveWriter  # noqa: E402
from otf2_reference import (ANY, Otf2Reference, check_event, check_position,  # noqa: E402
                            check_static, random_walk)

HERE = Path(__file__).resolve().parent


# ----------------------------------------------------------------------------------------
# the written archives, once per session
@pytest.fixture(scope="session")
def archives(tmp_path_factory):
    """name -> (anchor, facts, reference)."""
    out = {}
    base = tmp_path_factory.mktemp("otf2 archives")       # a space in the path
    for name, fn in [("permuted", A.write_permuted_ranks), ("threads", A.write_threads),
                     ("rma", A.write_rma), ("others", A.write_other_records)]:
        d = base / name
        d.mkdir()
        res = fn(d)
        anchor, facts = res if isinstance(res, tuple) else (res, {})
        out[name] = (anchor, facts, Otf2Reference.load(anchor))
    for seed in range(4):
        d = base / f"random{seed}"
        d.mkdir()
        anchor = A.random_archive(d, seed, n_steps=250 + 50 * seed, nprocs=2 + seed % 3,
                                  nthreads=1 + seed % 2)
        out[f"random{seed}"] = (anchor, {}, Otf2Reference.load(anchor))
    return out


ALL = ["permuted", "threads", "rma", "others", "random0", "random1", "random2", "random3"]


def opened(Otf2Trace, archives, name, **kw):
    anchor, facts, ref = archives[name]
    return Otf2Trace(str(anchor), **kw), facts, ref


def expected_count(ref):
    """Nothing dropped: every record is one event, except MpiCollectiveBegin/End (none)
    and Metric (one per member)."""
    n = 0
    for stream in ref.records_per_location:
        for _, r in stream:
            name = type(r).__name__
            if name == "Metric":
                n += len(r.values)
            elif name not in ("MpiCollectiveBegin", "MpiCollectiveEnd"):
                n += 1
    return n


# ----------------------------------------------------------------------------------------
# hand-derived facts
def test_permuted_ranks_translate_to_locations(Otf2Trace, archives):
    tr, f, ref = opened(Otf2Trace, archives, "permuted")
    world, sub = f["world"], f["sub"]
    assert tr.nrlocs() == 4
    assert [tr.locsym(i) for i in range(4)] == [f"MPI Rank {i} / Master thread"
                                                 for i in range(4)]
    evs = list(tr)
    # time 0: the four enters of main in location-number (definition) order, although the
    # OTF2 location ids are 7, 2, 40, 13
    assert [(e["type"], e["loc"]) for e in evs[:4]] == [("enter", i) for i in range(4)]
    sends = [e for e in evs if e["type"] == "send"]
    recvs = [e for e in evs if e["type"] == "recv"]
    # 0 -> 3 with tags 5 and 6 on the world communicator (world rank 2 = location 3)
    assert [(s["loc"], s["dest"], s["tag"], s["com"]) for s in sends[:2]] == \
        [(0, 3, 5, f["world_id"]), (0, 3, 6, f["world_id"])]
    assert world[2] == 3
    # location 3 receives tag 6 first: it takes the second send
    r6, r5 = recvs[0], recvs[1]
    assert (r6["loc"], r6["src"], r6["tag"], r6["sendptr"]) == (3, 0, 6, sends[1]["pos"])
    assert (r5["loc"], r5["src"], r5["tag"], r5["sendptr"]) == (3, 0, 5, sends[0]["pos"])
    # the sub-communicator: rank 0 = location 3 sends to rank 1 = location 1 (isend/irecv)
    assert sub == [3, 1]
    s = sends[2]
    assert (s["loc"], s["dest"], s["tag"], s["com"], s["len"]) == (3, 1, 9, f["sub_id"], 64)
    r = recvs[2]
    assert (r["loc"], r["src"], r["com"], r["sendptr"]) == (1, 3, f["sub_id"], s["pos"])
    # equal timestamps: the receive on location 1 precedes the send on location 2
    r, s = recvs[3], sends[3]
    assert r["time"] == s["time"] and r["pos"] == s["pos"] - 1
    assert r["sendptr"] == 0 and (r["src"], s["dest"]) == (2, 1)
    assert tr.queue(2, 1, len(tr)) == [s["pos"]]
    assert tr.problems()["unmatched_recv"] == {"count": 1, "first": [r["pos"]]}
    # collective exits: broadcast rooted at world rank 3 = location 1; barrier without root
    bcast = [e for e in evs if e["type"] == "exit" and e["region"] == "MPI_Bcast"]
    assert [list(e) for e in bcast] == [["pos", "loc", "time", "type", "enterptr", "region",
                                         "com", "root", "sent", "recvd", "collbegin",
                                         "collend"]] * 4
    assert [(e["loc"], e["com"], e["root"], e["sent"], e["recvd"]) for e in bcast] == \
        [(0, 0, 1, 0, 16), (1, 0, 1, 16, 0), (2, 0, 1, 0, 16), (3, 0, 1, 0, 16)]
    assert world[3] == 1
    barrier = [e for e in evs if e["type"] == "exit" and e["region"] == "MPI_Barrier"]
    assert [e["root"] for e in barrier] == [-1] * 4
    # the MpiCollectiveBegin/End times (ticks of 1 ns): the barrier begins at 60 and ends at
    # 61, one tick before its Leave at 62; the broadcast on location l ends with its Leave
    assert [(e["collbegin"], e["collend"], e["time"]) for e in barrier] == [(60 / 1e9, 61 / 1e9, 62 / 1e9)] * 4
    assert [(e["collbegin"], e["collend"]) for e in bcast] == [(50 / 1e9, (51 + l) / 1e9) for l in range(4)]
    for e in bcast + barrier:
        assert tr.event(e["enterptr"])["region"] == e["region"]
    plain = [e for e in evs if e["type"] == "exit" and e["region"] in ("main", "MPI_Send")]
    assert all(list(e) == ["pos", "loc", "time", "type", "enterptr", "region"] for e in plain)
    # nothing else than the records: no event for MpiCollectiveBegin/End
    assert len(tr) == expected_count(ref) == 38


def test_threads_fork_join_locks_metrics_parameters(Otf2Trace, archives):
    tr, _, ref = opened(Otf2Trace, archives, "threads")
    assert tr.nrlocs() == 6
    assert tr.locsym(1) == "MPI Rank 0 / OMP thread 1"
    assert tr.locsym(5) == "MPI Rank 1 / OMP thread 2"
    evs = list(tr)
    for proc, master in ((0, 0), (1, 3)):
        mine = [e for e in evs if e["loc"] == master]
        forks = [e for e in mine if e["type"] == "fork"]
        joins = [e for e in mine if e["type"] == "join"]
        assert len(forks) == 2 and len(joins) == 3
        assert all(list(e) == ["pos", "loc", "time", "type", "enterptr"] for e in forks)
        # the first join closes the nested (innermost) fork, the second the outer one,
        # the third finds no open fork
        assert [j["forkptr"] for j in joins] == [forks[1]["pos"], forks[0]["pos"], 0]
        pb = next(e for e in mine if e["type"] == "program_begin")
        assert (pb["data1"], pb["data2"]) == ("/bin/app", 3)
        pe = next(e for e in mine if e["type"] == "program_end")
        assert (pe["data1"], pe["data2"]) == (proc * 3, None)
        params = {e["type"]: (e["data1"], e["data2"]) for e in mine
                  if e["type"].startswith("parameter")}
        assert params == {"parameter_int": ("iterations", -42),
                          "parameter_unsigned_int": ("bytes", 2 ** 40),
                          "parameter_string": ("phase", "init")}
        metric = [(e["metric"], e["value"]) for e in mine if e["type"] == "metric"]
        assert metric == [("PAPI_TOT_CYC", 123456789), ("delta", -5), ("watts", 2.5)]
        assert [type(v) for _, v in metric] == [int, int, float]
    # thread locks: lockptr = the previous alock/rlock of the same lock on any location
    locks = [e for e in evs if e["type"] in ("alock", "rlock")]
    last = {}
    for e in locks:
        assert list(e) == ["pos", "loc", "time", "type", "enterptr", "lockid", "lockptr"]
        assert e["lockptr"] == last.get(e["lockid"], 0)
        last[e["lockid"]] = e["pos"]
    assert {e["lockid"] for e in locks} == {1, 2}
    assert len({e["loc"] for e in locks if e["lockid"] == 1}) == 4   # across threads
    # a worker thread's metric members: one event each, same time, consecutive
    w = [e for e in evs if e["loc"] == 2 and e["type"] == "metric"]
    assert [e["pos"] for e in w] == list(range(w[0]["pos"], w[0]["pos"] + 3))
    assert len({e["time"] for e in w}) == 1
    assert tr.groups() == ["COMPILER", "OPENMP", "USER", "PTHREAD"]
    assert tr.group("critical") == "PTHREAD"
    assert len(tr) == expected_count(ref)


def test_one_sided_transfers(Otf2Trace, archives):
    tr, f, ref = opened(Otf2Trace, archives, "rma")
    ranks, win, win2 = f["ranks"], f["win"], f["win2"]
    evs = list(tr)
    by = lambda t: [e for e in evs if e["type"] == t]   # noqa: E731
    puts, gets = by("put_1ts"), by("get_1to")
    assert [list(e) for e in puts + gets] == \
        [["pos", "loc", "time", "type", "enterptr", "win", "rmaid", "peer", "len"]] * 4
    # window-comm rank r is location ranks[r]: puts from location 0 to locations 1 and 2
    assert [(p["loc"], p["win"], p["rmaid"], p["peer"], p["len"]) for p in puts] == \
        [(0, win, 11, 1, 1024), (0, win, 12, 2, 512)]
    assert [(g["loc"], g["win"], g["rmaid"], g["peer"], g["len"]) for g in gets] == \
        [(0, win2, 11, 1, 256), (1, win, 11, 2, 64)]
    ends = [e for e in evs if e["type"] in ("put_1te", "get_1te")]
    assert all(list(e) == ["pos", "loc", "time", "type", "enterptr", "win", "rmaid", "peer",
                           "len", "startptr"] for e in ends)
    # completions out of order; same matching id on another window / location
    got = [(e["type"], e["loc"], e["startptr"]) for e in ends]
    assert got == [("get_1te", 1, gets[1]["pos"]), ("put_1te", 0, puts[1]["pos"]),
                   ("get_1te", 0, gets[0]["pos"]), ("put_1te", 0, puts[0]["pos"])]
    for e in ends:
        start = tr.event(e["startptr"])
        assert (e["win"], e["rmaid"], e["peer"], e["len"]) == \
            (start["win"], start["rmaid"], start["peer"], start["len"])
    locks = by("wlock") + by("wunlock")
    # an exclusive lock requested (RmaRequestLock), acquired (RmaAcquireLock), released
    assert [(e["type"], e["loc"], e["win"], e["peer"], e["exclusive"], e["request"]) for e in locks] == \
        [("wlock", 1, win, 2, 1, 1), ("wlock", 1, win, 2, 1, 0), ("wunlock", 1, win, 2, None, None)]
    assert all(list(e) == ["pos", "loc", "time", "type", "enterptr", "win", "peer", "exclusive",
                           "request"] for e in locks)
    assert ranks == [1, 2, 0]
    others = {"rma_win_create", "rma_win_destroy", "rma_sync", "rma_wait_change",
              "rma_atomic", "rma_op_test", "rma_try_lock", "rma_collective_begin",
              "rma_collective_end"}
    assert others | {"rma_group_sync"} <= set(tr.types())
    for e in evs:
        if e["type"] in others:
            assert list(e) == ["pos", "loc", "time", "type", "enterptr", "data1", "data2"]
    # RmaGroupSync names the window communicator's group: its members in rank order
    syncs = by("rma_group_sync")
    assert [e["loc"] for e in syncs] == [0, 1, 2]
    for e in syncs:
        assert list(e) == ["pos", "loc", "time", "type", "enterptr", "data1", "data2", "group"]
        assert (e["data1"], e["data2"]) == (1, win)   # RmaSyncLevel.PROCESS
        assert tr.members(e["group"]) == ranks
    # RmaCollectiveEnd does not make the next Leave a collective exit
    fence = [e for e in evs if e["type"] == "exit" and e["region"] == "MPI_Win_fence"]
    assert all(list(e) == ["pos", "loc", "time", "type", "enterptr", "region"] for e in fence)
    assert len(tr) == expected_count(ref)


def test_other_records_are_types_of_their_own(Otf2Trace, archives):
    tr, _, ref = opened(Otf2Trace, archives, "others")
    evs = list(tr)
    types = [e["type"] for e in evs]
    for t in ["program_begin", "measurement_on_off", "buffer_flush", "mpi_request_test",
              "mpi_request_cancelled", "metric", "program_end", "thread_create",
              "thread_begin", "thread_wait", "thread_end", "thread_task_create",
              "thread_task_switch", "thread_task_complete", "comm_create", "comm_destroy",
              "non_blocking_collective_request", "non_blocking_collective_complete"]:
        assert t in types and t in tr.types(), t
    data = {e["type"]: (e["data1"], e["data2"]) for e in evs if e["loc"] == 0
            and e["type"] not in ("enter", "exit", "measurement_on_off", "metric")}
    assert data == {"program_begin": ("prog", 0), "buffer_flush": (5 / 10 ** 9, None),
                    "mpi_request_test": (31, None), "mpi_request_cancelled": (32, None),
                    "program_end": (-1, None)}
    assert [e["data1"] for e in evs if e["type"] == "measurement_on_off"] == ["off", "on"]
    # a region name defined twice is one region; paradigm UNKNOWN
    assert tr.regions() == ["compute", "unknown paradigm", "MPI_Allreduce"]
    assert tr.groups() == ["USER", "UNKNOWN", "MPI"]
    enters = [e for e in evs if e["type"] == "enter" and e["loc"] == 0]
    assert [e["region"] for e in enters[:2]] == ["compute", "compute"]
    # metric of a MetricInstance; a metric between MpiCollectiveEnd and its Leave
    metric = [(e["metric"], e["value"]) for e in evs if e["type"] == "metric"]
    assert metric == [("single", 0.5), ("single", 1.25)]
    allred = [e for e in evs if e["type"] == "exit" and e["region"] == "MPI_Allreduce"]
    assert [(e["com"], e["root"], e["sent"], e["recvd"]) for e in allred] == [(0, -1, 4, 8)]
    # mismatched exit and exit on an empty stack are counted, nothing is dropped
    assert tr.problems() == ref.problems()
    assert ref.problems()["mismatched_exit"]["count"] == 1
    assert ref.problems()["exit_on_empty_stack"]["count"] == 1
    assert len(tr) == expected_count(ref) == sum(ref.record_counts.values()) - 2


def test_unknown_record_is_kept(Otf2Trace, tmp_path):
    """MpiProbe is OTF2 3.1: an older libotf2 reports it as an unknown record. It still
    becomes an event (its own snake_case type), not dropped."""
    anchor = A.write_unknown_record(tmp_path)
    tr = Otf2Trace(str(anchor))
    assert len(tr) == 3
    ev = tr.event(2)
    assert ev["type"] in ("mpi_probe", "unknown")
    assert (ev["loc"], ev["time"], ev["enterptr"]) == (0, 0.001, 1)
    assert ev["type"] in tr.types()
    assert tr.event(3)["enterptr"] == 1


@pytest.mark.parametrize("name", ALL)
def test_nothing_dropped(Otf2Trace, archives, name):
    tr, _, ref = opened(Otf2Trace, archives, name)
    assert len(tr) == expected_count(ref) == ref.m


# ----------------------------------------------------------------------------------------
# the whole archive against the reference
@pytest.mark.parametrize("name", ALL)
def test_every_event_and_state(Otf2Trace, archives, name):
    tr, _, ref = opened(Otf2Trace, archives, name)
    check_static(tr, ref, name)
    for pos in range(ref.m + 1):
        check_position(tr, ref, pos, ctx=name)
    for pos, ev in enumerate(tr, start=1):
        check_event(ev, ref.event(pos), f"{name} iteration {pos}")


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("bdist,hsize", [(0, 1), (1, 1), (1, 4), (3, 1), (3, 4), (3, 1000),
                                         (1000, 1), (1000, 4), (0, 1000)])
def test_random_access(Otf2Trace, archives, name, bdist, hsize):
    tr, _, ref = opened(Otf2Trace, archives, name, bdist=bdist, hsize=hsize)
    ctx = f"[{name} bdist={bdist} hsize={hsize}]"
    rnd = random.Random(f"{name}/{bdist}/{hsize}")
    order = list(range(ref.m + 1))
    rnd.shuffle(order)
    for pos in order:                                 # random order, random locations
        check_position(tr, ref, pos, locs=[rnd.randrange(ref.nrlocs)], ctx=ctx)
    for pos in range(ref.m, 0, -1):                   # backwards, the iterator untouched
        check_event(tr.event(pos), ref.event(pos), f"{ctx} backwards {pos}")
    random_walk(tr, ref, rnd, 120, earl.EarlError, ctx)


@pytest.mark.parametrize("name", ["permuted", "threads", "rma", "random0", "random2"])
def test_numpy_export(Otf2Trace, archives, name):
    """to_numpy agrees with the reference on the fields every event has, the region of
    enters and exits, and the message fields of sends and receives."""
    tr, _, ref = opened(Otf2Trace, archives, name)
    types, regions = tr.types(), tr.regions()
    first, last = (2, ref.m - 1) if ref.m > 3 else (1, ref.m)
    arr = tr.to_numpy(first, last)
    assert [int(p) for p in arr["pos"]] == list(range(first, last + 1))
    for row in arr:
        e = ref.event(int(row["pos"]))
        assert (int(row["loc"]), float(row["time"]), types[row["type"]],
                int(row["enterptr"])) == (e["loc"], e["time"], e["type"], e["enterptr"]), e
        assert int(row["region"]) == (regions.index(e["region"]) if "region" in e else -1), e
        if e["type"] in ("send", "recv"):
            peer = e["dest"] if e["type"] == "send" else e["src"]
            assert (int(row["peer"]), int(row["tag"]), int(row["com"]), int(row["len"])) == \
                (peer, e["tag"], e["com"], e["len"]), e
        if e["type"] == "recv":
            assert int(row["sendptr"]) == e["sendptr"], e


def test_two_instances_interleaved(Otf2Trace, archives):
    anchor, _, ref = archives["random1"]
    a = Otf2Trace(str(anchor), bdist=5, hsize=2)
    b = Otf2Trace(str(anchor), bdist=0, hsize=7)
    ra, rb = random.Random(1), random.Random(2)
    ca = random_walk(a, ref, ra, 1, earl.EarlError, "[a]")
    cb = random_walk(b, ref, rb, 1, earl.EarlError, "[b]")
    for _ in range(20):
        ca = random_walk(a, ref, ra, 8, earl.EarlError, "[a]", cur=ca)
        cb = random_walk(b, ref, rb, 8, earl.EarlError, "[b]", cur=cb)
    a.close()
    with pytest.raises(earl.EarlError):
        a.event(1)
    random_walk(b, ref, rb, 20, earl.EarlError, "[b after a closed]", cur=cb)


def multichunk_archive(directory):
    """~70k events, two 256 KiB chunks per location (OTF2's smallest chunk size)."""
    anchor = A.random_archive(directory, 5, n_steps=60000, nprocs=2, nthreads=1,
                              chunk_size=256 * 1024)
    assert all(p.stat().st_size > 256 * 1024 for p in (Path(directory) / "rand5").glob("*.evt"))
    return anchor


def in_subprocess(function, *args):
    """Run tests/test_otf2_archives.py's `function(*args)` in a fresh interpreter (a crash
    fails the calling test, not the run); returns what it printed after 'RESULT '."""
    code = ("import sys, json; sys.path.insert(0, sys.argv[1]); import test_otf2_archives as t; "
            f"print('RESULT ' + json.dumps(t.{function}(*sys.argv[2:])))")
    proc = subprocess.run([sys.executable, "-c", code, str(HERE)] + [str(a) for a in args],
                          capture_output=True, text=True, timeout=300)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
    assert proc.returncode == 0 and lines, \
        f"{function}{args} failed or crashed (exit {proc.returncode}):\n{proc.stderr[-3000:]}"
    return json.loads(lines[-1][len("RESULT "):])


def _cache_flag(text):
    """The `cache` argument from its str() (subprocess arguments are strings)."""
    if text not in ("True", "False"):
        raise ValueError(f"cache flag {text!r} is neither 'True' nor 'False'")
    return text == "True"


def _first_event_then_close(anchor, cache):
    tr = earl.EventTrace(anchor, cache=_cache_flag(cache))
    out = [tr.event(1), tr.event(len(tr)), tr.event(1)]
    tr.close()
    return out


def test_multichunk_archive_back_to_the_start(Otf2Trace, otf2_cache, tmp_path):
    """Opening scans every location to its end; event(1) then goes back to the first record
    of the location, in the first chunk. Must neither crash nor corrupt memory."""
    anchor = A.write_long(tmp_path)
    assert (tmp_path / "long" / "0.evt").stat().st_size > 2 * 256 * 1024
    got = in_subprocess("_first_event_then_close", anchor, otf2_cache)
    assert got == [{"pos": 1, "loc": 0, "time": 0.0, "type": "enter", "enterptr": 0,
                    "region": "main"},
                   {"pos": 80000, "loc": 0, "time": 79.999, "type": "exit", "enterptr": 79999,
                    "region": "main"},
                   {"pos": 1, "loc": 0, "time": 0.0, "type": "enter", "enterptr": 0,
                    "region": "main"}]


def _large_check(anchor, cache):
    ref = Otf2Reference.load(anchor)
    m = ref.m
    for bdist, hsize in ((1000, 4), (37, 1)):
        tr = earl.EventTrace(anchor, bdist=bdist, hsize=hsize, cache=_cache_flag(cache))
        ctx = f"[large cache={cache} bdist={bdist} hsize={hsize}]"
        check_static(tr, ref, ctx)
        rnd = random.Random(bdist)
        probes = [m, 1, m // 2, m - 1, 2] + [rnd.randint(1, m) for _ in range(150)]
        for pos in probes:
            check_position(tr, ref, pos, ctx=ctx)
        random_walk(tr, ref, rnd, 80, earl.EarlError, ctx)
        if bdist == 1000:
            for pos, ev in enumerate(tr, start=1):
                check_event(ev, ref.event(pos), f"{ctx} iteration {pos}")
        tr.close()
    return m


def test_large_multichunk_archive(Otf2Trace, otf2_cache, tmp_path):
    """Random access over a ~70k-event archive with two chunks per location: bookmarks
    restore every location reader's position across chunk boundaries, forwards and
    backwards (run in a subprocess)."""
    anchor = multichunk_archive(tmp_path)
    assert in_subprocess("_large_check", anchor, otf2_cache) > 60000


# ----------------------------------------------------------------------------------------
# naming, opening, clock
def test_archive_names_and_directories(Otf2Trace, archives, tmp_path):
    for name in ("permuted", "threads", "rma"):
        anchor, _, ref = archives[name]
        assert anchor.name != "traces.otf2"
        by_anchor = Otf2Trace(str(anchor))
        by_dir = Otf2Trace(str(anchor.parent))
        assert by_anchor.format() == by_dir.format() == "otf2"
        assert len(by_anchor) == len(by_dir) == ref.m
        assert list(by_anchor) == list(by_dir)
    # the same archive moved under a name with spaces and non-ASCII characters
    src, _, ref = archives["threads"]
    dest = tmp_path / "mes traces é"
    shutil.copytree(src.parent, dest)
    tr = Otf2Trace(str(dest / src.name))
    assert len(tr) == ref.m and tr.format() == "otf2"


def test_format_detection(Otf2Trace, archives, tmp_path):
    anchor, _, ref = archives["permuted"]
    assert Otf2Trace(str(anchor), format="otf2").format() == "otf2"
    with pytest.raises(earl.EarlError):
        Otf2Trace(str(anchor), format="alog")
    # detected from content: an ALOG text named *.otf2 is ALOG
    alog = tmp_path / "looks_like.otf2"
    alog.write_text("-13 0 1 2 0 0 main\n1 0 0 0 0 10\n2 0 0 0 0 20\n")
    tr = Otf2Trace(str(alog))
    assert tr.format() == "alog" and len(tr) == 2


@pytest.mark.parametrize("offset,first", [(A.T(-1000), 1.0), (A.T(3), -0.003)])
def test_time_is_relative_to_the_clock_offset(Otf2Trace, tmp_path, offset, first):
    """time = (timestamp - global offset) / resolution, also when the offset is not the
    first timestamp (events before it have negative times)."""
    aw = ArchiveWriter(tmp_path, "clock", 1000)
    a, = aw.process("P0")
    b, = aw.process("P1")
    r = aw.region("main")
    aw.ev(a).enter(T(0), r)
    aw.ev(a).leave(T(10), r)
    aw.ev(b).enter(T(5), r)
    aw.ev(b).leave(T(6), r)
    anchor = aw.close(clock_offset=offset)
    ref = Otf2Reference.load(anchor)
    assert ref.offset == offset
    tr = Otf2Trace(str(anchor))
    assert [e["time"] for e in tr] == [first, first + 0.005, first + 0.006, first + 0.01] \
        == [ref.event(p)["time"] for p in range(1, 5)]


def test_location_without_events_and_empty_archive(Otf2Trace, tmp_path):
    aw = ArchiveWriter(tmp_path / "one", "idle")
    a, = aw.process("P0")
    b, c = aw.process("P1", ["Master thread", "idle thread"])
    r = aw.region("main")
    aw.ev(a).enter(T(0), r)
    aw.ev(a).leave(T(1), r)
    aw.ev(c).enter(T(2), r)
    aw.ev(c).leave(T(3), r)
    anchor = aw.close()
    ref = Otf2Reference.load(anchor)
    tr = Otf2Trace(str(anchor))
    check_static(tr, ref, "idle location")
    assert tr.nrlocs() == 3 and [e["loc"] for e in tr] == [0, 0, 2, 2]
    assert tr.stack(1, 4) == [] and tr.queue(1, -1, 4) == []
    assert tr.locsym(2) == "P1 / idle thread"
    aw = ArchiveWriter(tmp_path / "two", "nothing")
    aw.process("P0")
    aw.region("main")
    anchor = aw.close()
    tr = Otf2Trace(str(anchor))
    assert len(tr) == 0 and tr.nrlocs() == 1 and tr.format() == "otf2"
    assert tr.next() == 0 and tr.stack(0, 0) == [] and tr.queue(-1, -1, 0) == []
    with pytest.raises(earl.EarlError):
        tr.event(1)


def test_rewritten_archive_is_read_again(Otf2Trace, tmp_path):
    """An archive rewritten in place (same names) is not read from stale state."""
    d = tmp_path / "re"
    A.write_tiny(d, "run", nevents=6)
    t1 = Otf2Trace(str(d / "run.otf2"), bdist=4)
    assert len(t1) == 36 and t1.event(30)["type"] in ("enter", "exit", "send", "recv")
    t1.close()
    shutil.rmtree(d)
    A.write_tiny(d, "run", nevents=9)
    t2 = Otf2Trace(str(d / "run.otf2"), bdist=4)
    ref = Otf2Reference.load(d / "run.otf2")
    assert len(t2) == 54 == ref.m
    for p in (54, 30, 1):
        check_event(t2.event(p), ref.event(p), f"rewritten {p}")


def test_unsigned_64_bit_values_are_exact(Otf2Trace, tmp_path):
    """UINT64 record fields above 2**63 (parameter, metric, message length, request id) are
    the Python int the record holds, not a wrapped negative number."""
    aw = ArchiveWriter(tmp_path, "big")
    a, = aw.process("P0")
    b, = aw.process("P1")
    aw.comm_locations([a, b])
    world = aw.comm("MPI_COMM_WORLD", [a, b])
    p = aw.d.parameter("u", parameter_type=A.ParameterType.UINT64)
    mc = aw.d.metric_class([aw.d.metric_member("counter", value_type=A.Type.UINT64)])
    e = aw.ev(a)
    e.parameter_unsigned_int(T(0), p, 2 ** 64 - 1)
    e.metric(T(1), mc, [2 ** 63 + 5])
    e.mpi_isend(T(2), 1, world, 2 ** 32 - 1, 2 ** 64 - 2, 2 ** 64 - 3)
    e.mpi_isend_complete(T(3), 2 ** 64 - 3)
    anchor = aw.close()
    ref = Otf2Reference.load(anchor)
    tr = Otf2Trace(str(anchor))
    assert [ref.event(1)["data2"], ref.event(2)["value"]] == [2 ** 64 - 1, 2 ** 63 + 5]
    errors = []
    for pos in range(1, 5):
        try:
            check_event(tr.event(pos), ref.event(pos), f"event {pos}")
        except AssertionError as err:
            errors.append(str(err))
    assert not errors, "\n".join(errors)


# ----------------------------------------------------------------------------------------
# bad input, each open in a subprocess: EarlError naming the archive, never a crash
PROBE = r"""
import json, sys
sys.path.insert(0, sys.argv[2])
import earl
try:
    t = earl.EventTrace(sys.argv[1], cache={"True": True, "False": False}[sys.argv[3]],
                        strict={"True": True, "False": False}[sys.argv[4]])
    n = 0
    for ev in t:
        n += 1
    out = {"kind": "ok", "events": n, "len": len(t),
           "damaged": [d["message"] for d in t.problems().get("damaged", {}).get("locations", [])]}
except earl.EarlError as e:
    out = {"kind": "EarlError", "message": str(e)}
except Exception as e:
    out = {"kind": type(e).__name__, "message": str(e)}
print("RESULT " + json.dumps(out))
"""


def probe_open(path, cache, strict=True):
    """Open `path` with cache=`cache` and read every event, in a fresh interpreter."""
    proc = subprocess.run([sys.executable, "-c", PROBE, str(path), str(HERE), str(cache), str(strict)],
                          capture_output=True, text=True, timeout=120)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
    assert proc.returncode == 0 and lines, \
        f"opening {path} crashed (exit {proc.returncode}): {proc.stderr[-2000:]}"
    return json.loads(lines[-1][len("RESULT "):])


def _evt(d):
    return sorted((d / "run").glob("*.evt"))[0]


def _truncate(path, keep):
    data = path.read_bytes()
    path.write_bytes(data[:keep(len(data))])


def _garble(path, start, length, byte=None):
    data = bytearray(path.read_bytes())
    rnd = random.Random(7)
    for i in range(start, min(start + length, len(data))):
        data[i] = rnd.randrange(256) if byte is None else byte
    path.write_bytes(bytes(data))


BAD = {
    "truncated evt": lambda d: _truncate(_evt(d), lambda n: n // 2),
    "empty evt": lambda d: _evt(d).write_bytes(b""),
    "missing evt": lambda d: _evt(d).unlink(),
    "missing location directory": lambda d: shutil.rmtree(d / "run"),
    "garbage in evt": lambda d: _garble(_evt(d), 20, 40),
    "0xff in evt": lambda d: _garble(_evt(d), 10, 10 ** 6, 0xFF),
    "zeros in evt": lambda d: _garble(_evt(d), 10, 10 ** 6, 0x00),
    "truncated anchor": lambda d: _truncate(d / "run.otf2", lambda n: 20),
    "garbage anchor": lambda d: _garble(d / "run.otf2", 0, 10 ** 6),
    "empty anchor": lambda d: (d / "run.otf2").write_bytes(b""),
    "missing def": lambda d: (d / "run.def").unlink(),
    "truncated def": lambda d: _truncate(d / "run.def", lambda n: n // 2),
    "garbage in def": lambda d: _garble(d / "run.def", 30, 60),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_archive(Otf2Trace, otf2_cache, tmp_path, case):
    d = tmp_path / "bad"
    anchor = A.write_tiny(d, "run")
    assert probe_open(anchor, otf2_cache)["kind"] == "ok"
    BAD[case](d)
    for path in (anchor, d):
        got = probe_open(path, otf2_cache)
        assert got["kind"] == "EarlError", f"{case}, opening {path}: {got}"
        assert str(path) in got["message"], f"{case}: the message does not name {path}: {got}"
        # Without strict, a damaged event file is read up to the damage and reported;
        # damaged definitions or anchor stay an error.
        got = probe_open(path, otf2_cache, strict=False)
        if "evt" in case or "location directory" in case:
            damaged = 2 if "location directory" in case else 1  # every location's file, or one
            assert got["kind"] == "ok" and len(got["damaged"]) == damaged, f"{case}, opening {path}: {got}"
            assert all(m.startswith(f"{path}: location ") for m in got["damaged"]), got
        else:
            assert got["kind"] == "EarlError" and str(path) in got["message"], f"{case}, opening {path}: {got}"


def test_empty_directory(Otf2Trace, otf2_cache, tmp_path):
    got = probe_open(tmp_path, otf2_cache)
    assert got["kind"] == "EarlError" and str(tmp_path) in got["message"], got


def test_directory_with_two_anchors(Otf2Trace, otf2_cache, tmp_path):
    A.write_tiny(tmp_path, "first")
    A.write_tiny(tmp_path, "second")
    got = probe_open(tmp_path, otf2_cache)
    assert got["kind"] == "EarlError", got
    msg = got["message"]
    assert str(tmp_path) in msg and "first.otf2" in msg and "second.otf2" in msg, msg
    assert probe_open(tmp_path / "first.otf2", otf2_cache)["kind"] == "ok"


def test_directory_with_anchor_but_no_archive(Otf2Trace, otf2_cache, tmp_path):
    """A directory holding only an OTF2 anchor (its .def and event directory elsewhere)."""
    A.write_tiny(tmp_path / "full", "run")
    (tmp_path / "only").mkdir()
    shutil.copy(tmp_path / "full" / "run.otf2", tmp_path / "only" / "run.otf2")
    got = probe_open(tmp_path / "only", otf2_cache)
    assert got["kind"] == "EarlError" and str(tmp_path / "only") in got["message"], got


def _corrupt_reference(kind):
    from otf2 import definitions as D

    def build(aw, ea, world, region):
        if kind == "rank outside the communicator":
            ea.enter(T(0), region)
            ea.mpi_send(T(1), 99, world, 0, 8)
            ea.leave(T(2), region)
        elif kind == "undefined region":
            ghost = D.Region(aw.d._regions, 999, "ghost")       # never defined
            ea.enter(T(0), ghost)
            ea.leave(T(1), ghost)
        elif kind == "undefined communicator":
            ghost = D.Comm(aw.d._comms, 77, "ghost", group=world.group)
            ea.mpi_send(T(0), 1, ghost, 0, 8)
    return build


# What the trace shows of each corrupt record: (position on location 0, attribute, value).
REFERRING_TO_NOTHING = {
    "rank outside the communicator": [(2, "dest", -1)],
    "undefined region": [(1, "region", "region 999"), (2, "region", "region 999")],
    "undefined communicator": [(1, "dest", -1)],
}


@pytest.mark.parametrize("kind", sorted(REFERRING_TO_NOTHING))
def test_record_referring_to_nothing(Otf2Trace, otf2_cache, tmp_path, kind):
    """A record referring to something the archive does not define (a rank its
    communicator lacks, an undefined region or communicator) is a problem of a real
    trace: it is counted with its position and shown as -1 or "region N", never a crash
    and never a made-up location (DESIGN.md section 1: count and report)."""
    aw = ArchiveWriter(tmp_path, "corrupt", 1000)
    a, = aw.process("P0")
    b, = aw.process("P1")
    aw.comm_locations([a, b])
    world = aw.comm("MPI_COMM_WORLD", [a, b])
    region = aw.region("main")
    _corrupt_reference(kind)(aw, aw.ev(a), world, region)
    aw.ev(b).enter(T(0), region)
    aw.ev(b).leave(T(1), region)
    anchor = aw.close()
    probe_open(anchor, otf2_cache)  # in a subprocess first: a crash fails only this test
    trace = Otf2Trace(anchor)
    expected = REFERRING_TO_NOTHING[kind]
    on_location_0 = [ev for ev in trace if ev["loc"] == 0]
    for index, attribute, value in expected:
        assert on_location_0[index - 1][attribute] == value, (kind, on_location_0)
    positions = sorted(on_location_0[index - 1]["pos"] for index, _, _ in expected)
    assert trace.problems()["unresolved_reference"] == {"count": len(expected),
                                                        "first": positions}
    # the analysis reports what the reader counts (issue 22, class 7)
    assert earl.analysis.analyze(str(anchor)).problems["unresolved_reference"] == len(expected)


def test_no_event_is_a_made_up_location(Otf2Trace, archives):
    """Across all written archives, every location-valued attribute is a location."""
    for name in ALL:
        tr, _, ref = opened(Otf2Trace, archives, name)
        n = tr.nrlocs()
        for ev in tr:
            for k in ("loc", "dest", "src", "peer"):
                if k in ev:
                    assert 0 <= ev[k] < n, (name, ev)
            if "root" in ev:
                assert -1 <= ev["root"] < n, (name, ev)
            for k in ("data1", "data2"):
                if k in ev:
                    assert ev[k] is None or type(ev[k]) in (int, float, str), (name, ev)
                    assert ref.event(ev["pos"])[k] is ANY or ev[k] == ref.event(ev["pos"])[k]


def test_reference_counts_match_the_writer(archives):
    """Self-check of the helpers (no EARL): the official reader reads back what was written
    and the reference numbers every event."""
    _, _, ref = archives["permuted"]
    assert ref.loc_ids == [7, 2, 40, 13]
    assert ref.record_counts == Counter(Enter=14, Leave=14, MpiSend=3, MpiRecv=3, MpiIsend=1,
                                        MpiIrecv=1, MpiIrecvRequest=1, MpiIsendComplete=1,
                                        MpiCollectiveBegin=8, MpiCollectiveEnd=8)
    for name in ALL:
        _, _, ref = archives[name]
        assert [ref.event(p)["pos"] for p in range(1, ref.m + 1)] == list(range(1, ref.m + 1))
        assert ref.m == expected_count(ref)
    kinds = Counter()
    for name in ALL:
        kinds.update(archives[name][2].type_counts())
    for t in ("send", "recv", "fork", "join", "alock", "rlock", "put_1ts", "put_1te",
              "get_1to", "get_1te", "wlock", "wunlock", "metric", "parameter_int",
              "parameter_string", "parameter_unsigned_int", "mpi_isend_complete",
              "mpi_irecv_request", "measurement_on_off"):
        assert kinds[t] > 0, t
    problems = Counter()
    for name in ALL:
        for k, v in archives[name][2].problems().items():
            problems[k] += v["count"]
    assert all(problems[k] > 0 for k in ("unmatched_recv", "exit_on_empty_stack",
                                         "mismatched_exit"))



def _all_events(anchor, cache):
    trace = earl.EventTrace(str(anchor), cache=cache, index=False)
    return [trace.event(pos) for pos in range(1, len(trace) + 1)]


@pytest.mark.parametrize("first", [0, 2, 5])
def test_a_chunk_header_numbering_the_records_wrongly_fails_a_seek_never_gives_another_event(tmp_path, first):
    # libotf2 reads records in order without their chunk header's numbers, but seeks by
    # them: with the first record numbered `first` instead of 1, OTF2_EvtReader_Seek to
    # record N lands on record N + 1 - first. EARL must notice, not hand out that event.
    anchor = tmp_path / "traces.otf2"
    earl.generate.generate(str(anchor), locations=2, events=60, seed=1, truth_path=str(tmp_path / "truth.json"))
    undamaged = _all_events(anchor, cache=False)
    events = tmp_path / "traces" / "0.evt"
    data = bytearray(events.read_bytes())
    # The chunk header: type, byte order, then first and last event number (8 bytes each).
    assert int.from_bytes(data[2:10], "little") == 1
    data[2:10] = first.to_bytes(8, "little")
    events.write_bytes(bytes(data))
    # Read in order, both ways, the records are what they were.
    assert _all_events(anchor, cache=False) == undamaged
    assert _all_events(anchor, cache=True) == undamaged
    # Backwards with a bookmark before every event, each event is reached by a seek.
    seeking = earl.EventTrace(str(anchor), cache=False, bdist=1, hsize=1, index=False)
    with pytest.raises(earl.EarlError) as raised:
        for pos in range(len(seeking), 0, -1):
            assert seeking.event(pos) == undamaged[pos - 1]
    assert str(raised.value).startswith(f"{anchor}: location 0: event record ")
