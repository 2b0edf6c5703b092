"""The Score-P traces ../shared/traces/ping-pong-otf2 and ping-pong-otf2-papi opened with
earl.EventTrace, checked against the official PyPI `otf2` reader used as an independent
reader (tests/otf2_reference.py applies docs/api-contract.md "OTF2" to what it reads):
counts per record kind, definitions, times, the merge order, inclusive time of main from
enterptr, every receive matched to the right send, every attribute, stack and queue at every
position and in random access orders on small bdist/hsize."""
import random
from collections import Counter

import pytest

pytest.importorskip("otf2")

import earl  # noqa: E402
from otf2_archives import PING_PONG, PING_PONG_PAPI, SHARED_TRACES  # noqa: E402
from otf2_reference import (Otf2Reference, check_event, check_position,  # noqa: E402
                            check_static, inclusive_time_from_records, random_walk)

pytestmark = pytest.mark.skipif(not PING_PONG.exists(),
                                reason=f"shared traces not found in {SHARED_TRACES}")

MAIN = "int main(int, char**)"
TRACES = {"ping-pong-otf2": PING_PONG, "ping-pong-otf2-papi": PING_PONG_PAPI}
_refs = {}


def reference(name):
    if name not in _refs:
        _refs[name] = Otf2Reference.load(TRACES[name])
    return _refs[name]


@pytest.fixture(params=sorted(TRACES))
def trace_name(request):
    return request.param


# ----------------------------------------------------------------------------------------
# the reference itself (no EARL): what ../shared/traces/README.md states
def test_reference_reads_what_the_readme_states():
    ref = reference("ping-pong-otf2")
    assert sum(ref.record_counts.values()) == 120
    assert ref.record_counts == Counter(Enter=42, Leave=42, MpiSend=16, MpiRecv=16,
                                        ProgramBegin=2, ProgramEnd=2)
    assert ref.locsyms == ["MPI Rank 0 / Master thread", "MPI Rank 1 / Master thread"]
    assert ref.m == 120 and ref.problems()["unmatched_recv"]["count"] == 0
    papi = reference("ping-pong-otf2-papi")
    assert papi.record_counts["Metric"] > 0
    # one EARL event per metric member
    members = sum(len(r.values) for stream in papi.records_per_location
                  for _, r in stream if type(r).__name__ == "Metric")
    assert papi.m == sum(papi.record_counts.values()) - papi.record_counts["Metric"] + members


# ----------------------------------------------------------------------------------------
def test_counts_per_record_kind(Otf2Trace, trace_name):
    """EARL type counts against the official reader's record counts, record by record."""
    ref = reference(trace_name)
    tr = Otf2Trace(str(TRACES[trace_name]))
    got = Counter(ev["type"] for ev in tr)
    rc = ref.record_counts
    metric_members = sum(len(r.values) for stream in ref.records_per_location
                         for _, r in stream if type(r).__name__ == "Metric")
    want = Counter(enter=rc["Enter"], exit=rc["Leave"], send=rc["MpiSend"] + rc["MpiIsend"],
                   recv=rc["MpiRecv"] + rc["MpiIrecv"], program_begin=rc["ProgramBegin"],
                   program_end=rc["ProgramEnd"], metric=metric_members)
    assert set(rc) <= {"Enter", "Leave", "MpiSend", "MpiIsend", "MpiRecv", "MpiIrecv",
                       "ProgramBegin", "ProgramEnd", "Metric"}
    assert got == +want
    assert len(tr) == sum(want.values())
    if trace_name == "ping-pong-otf2":
        assert got == Counter(enter=42, exit=42, send=16, recv=16, program_begin=2,
                              program_end=2)
        assert len(tr) == 120
    else:
        assert got["metric"] == 3 * rc["Metric"]       # PAPI_TOT_CYC, PAPI_L2_TCM, ...


def test_definitions(Otf2Trace, trace_name):
    ref = reference(trace_name)
    tr = Otf2Trace(str(TRACES[trace_name]))
    check_static(tr, ref, trace_name)
    assert tr.nrlocs() == 2
    assert tr.locsym(0) == "MPI Rank 0 / Master thread"
    assert tr.locsym(1) == "MPI Rank 1 / Master thread"
    assert MAIN in tr.regions() and "MPI_Send" in tr.regions() and "MPI_Recv" in tr.regions()
    assert tr.group(MAIN) == "COMPILER" and tr.group("MPI_Send") == "MPI"
    assert set(tr.regions("MPI")) == {r for r in ref.regions if ref.region_group[r] == "MPI"}
    assert tr.regions("COMPILER") == [MAIN]
    with pytest.raises(earl.EarlError):
        tr.group("no such region")
    with pytest.raises(earl.EarlError):
        tr.locsym(2)


def test_times_per_location_are_ticks_minus_offset_over_resolution(Otf2Trace, trace_name):
    """Per location, the EARL times in order are exactly (ts - offset) / resolution of the
    official records (a metric record gives one time per member)."""
    ref = reference(trace_name)
    tr = Otf2Trace(str(TRACES[trace_name]))
    per_loc = [[] for _ in range(ref.nrlocs)]
    for ev in tr:
        per_loc[ev["loc"]].append(ev["time"])
    for loc, stream in enumerate(ref.records_per_location):
        want = []
        for ts, r in stream:
            name = type(r).__name__
            if name in ("MpiCollectiveBegin", "MpiCollectiveEnd"):
                continue
            copies = len(r.values) if name == "Metric" else 1
            want += [(ts - ref.offset) / ref.resolution] * copies
        assert per_loc[loc] == want, f"location {loc}"
    assert min(ev["time"] for ev in tr) == 0.0        # Score-P's offset is the first stamp


def test_global_order_is_the_merge_rule(Otf2Trace, trace_name):
    """Timestamps never decrease; equal timestamps come by location number; every event
    equals the reference (merge of the per-location streams)."""
    ref = reference(trace_name)
    tr = Otf2Trace(str(TRACES[trace_name]))
    prev = None
    for pos, ev in enumerate(tr, start=1):
        key = (ref.ticks[pos], ev["loc"])
        if prev is not None:
            assert key >= prev, f"event {pos} out of merge order"
        prev = key
        check_event(ev, ref.event(pos), f"{trace_name} event {pos}")


def test_inclusive_time_of_main(Otf2Trace, trace_name):
    """Per location: sum over the exits of main of time - time(enterptr), against the same
    sum from the official reader's Enter/Leave records."""
    ref = reference(trace_name)
    tr = Otf2Trace(str(TRACES[trace_name]))
    got = [0.0] * tr.nrlocs()
    count = 0
    for ev in tr:
        if ev["type"] == "exit" and ev["region"] == MAIN:
            enter = tr.event(ev["enterptr"])
            assert enter["type"] == "enter" and enter["region"] == MAIN
            assert enter["loc"] == ev["loc"]
            got[ev["loc"]] += ev["time"] - enter["time"]
            count += 1
    assert count == 2
    want = inclusive_time_from_records(ref, MAIN)
    assert got == pytest.approx(want, rel=1e-12, abs=1e-15)
    assert all(w > 0.1 for w in want)


def test_every_receive_matched_to_the_right_send(Otf2Trace, trace_name):
    """Every receive points to a send with the matching source, destination, tag and
    communicator, FIFO per (src, dest, tag, com), never later than the receive."""
    ref = reference(trace_name)
    tr = Otf2Trace(str(TRACES[trace_name]))
    sends, recvs = {}, {}
    for ev in tr:
        if ev["type"] == "send":
            sends.setdefault((ev["loc"], ev["dest"], ev["tag"], ev["com"]), []).append(ev["pos"])
        elif ev["type"] == "recv":
            key = (ev["src"], ev["loc"], ev["tag"], ev["com"])
            recvs.setdefault(key, []).append(ev)
            s = tr.event(ev["sendptr"]) if ev["sendptr"] else None
            assert s is not None and s["type"] == "send", f"recv {ev['pos']}: no send"
            assert (s["loc"], s["dest"], s["tag"], s["com"], s["len"]) == \
                (ev["src"], ev["loc"], ev["tag"], ev["com"], ev["len"])
            assert s["pos"] < ev["pos"] and s["time"] <= ev["time"]
    assert sum(len(v) for v in recvs.values()) == 16
    for key, rs in recvs.items():
        assert [r["sendptr"] for r in rs] == sends[key][:len(rs)], f"FIFO for {key}"
    world = {e["com"] for e in tr if e["type"] in ("send", "recv")}
    assert len(world) == 1            # MPI_COMM_WORLD's OTF2 id
    assert tr.queue(-1, -1, len(tr)) == []
    assert tr.problems() == ref.problems()


def test_every_position_state(Otf2Trace, trace_name):
    ref = reference(trace_name)
    tr = Otf2Trace(str(TRACES[trace_name]), bdist=7, hsize=3)
    for pos in range(ref.m, -1, -1):
        check_position(tr, ref, pos, ctx=trace_name)


def test_metric_events(Otf2Trace):
    ref = reference("ping-pong-otf2-papi")
    tr = Otf2Trace(str(PING_PONG_PAPI))
    metrics = [ev for ev in tr if ev["type"] == "metric"]
    assert {m["metric"] for m in metrics} == {"PAPI_TOT_CYC", "PAPI_L2_TCM", "PAPI_BR_MSP"}
    assert all(type(m["value"]) is int for m in metrics)     # PAPI counters are UINT64
    assert [m["pos"] for m in metrics] == \
        [p for p in range(1, ref.m + 1) if ref.event(p)["type"] == "metric"]
    assert all(list(m) == ["pos", "loc", "time", "type", "enterptr", "metric", "value"]
               for m in metrics)


def test_open_by_anchor_and_by_directory(Otf2Trace, trace_name):
    anchor = TRACES[trace_name]
    a = Otf2Trace(str(anchor))
    d = Otf2Trace(str(anchor.parent))            # holds traces.otf2, MANIFEST.md, scorep.cfg
    e = Otf2Trace(str(anchor), format="otf2")
    assert a.format() == d.format() == e.format() == "otf2"
    assert len(a) == len(d) == len(e)
    assert list(a) == list(d) == list(e)
    assert a.regions() == d.regions() and a.nrlocs() == d.nrlocs()


@pytest.mark.parametrize("bdist", [0, 1, 3, 1000])
@pytest.mark.parametrize("hsize", [1, 4, 1000])
def test_random_access(Otf2Trace, trace_name, bdist, hsize):
    ref = reference(trace_name)
    tr = Otf2Trace(str(TRACES[trace_name]), bdist=bdist, hsize=hsize)
    ctx = f"[{trace_name} bdist={bdist} hsize={hsize}]"
    rnd = random.Random(f"{trace_name}{bdist}{hsize}")
    order = list(range(ref.m + 1))
    rnd.shuffle(order)
    for pos in order:
        check_position(tr, ref, pos, locs=[rnd.randrange(ref.nrlocs)], ctx=ctx)
    random_walk(tr, ref, rnd, 150, earl.EarlError, ctx)


def test_numpy_export(Otf2Trace, trace_name):
    ref = reference(trace_name)
    tr = Otf2Trace(str(TRACES[trace_name]))
    arr = tr.to_numpy()
    types, regions = tr.types(), tr.regions()
    assert len(arr) == ref.m
    for row in arr:
        e = ref.event(int(row["pos"]))
        assert (int(row["loc"]), float(row["time"]), types[row["type"]], int(row["enterptr"])) \
            == (e["loc"], e["time"], e["type"], e["enterptr"])
        assert int(row["region"]) == (regions.index(e["region"]) if "region" in e else -1)
        if e["type"] in ("send", "recv"):
            peer = e["dest"] if e["type"] == "send" else e["src"]
            assert (int(row["peer"]), int(row["tag"]), int(row["com"]), int(row["len"])) == \
                (peer, e["tag"], e["com"], e["len"])
        if e["type"] == "recv":
            assert int(row["sendptr"]) == e["sendptr"]
