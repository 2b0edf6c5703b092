"""The wait-state analysis (cpp/analysis, earl.analyze, `earl analyze`) against values
worked out independently: the generator's ground truth, small traces whose severities are
computed by hand in the comments, the Score-P ping-pong traces read with the official OTF2
reader (tests/otf2_reference.py) and the formulas applied here, and broken traces whose
problems are counted."""
import json
import subprocess
import sys

import pytest

import earl
from alog_traces import write_alog
from analysis_archives import (active_target_archive, late_post_in_put_archive, lock_archive,
                               otf2_two_ranks)
from script_checks import have_otf2

US = 1e-6
needs_otf2 = pytest.mark.skipif(not have_otf2(), reason="no OTF2 support")


def approx(x):
    return pytest.approx(x, abs=1e-9)


# ----------------------------------------------------------------- generated ground truth
GEN_CASES = [
    pytest.param(("alog", dict()), id="alog-ring"),
    pytest.param(("alog", dict(pattern="neighbors", locations=5, seed=4)), id="alog-neighbors"),
    pytest.param(("otf2", dict(permute_ranks=True)), id="otf2-permuted", marks=needs_otf2),
    pytest.param(("otf2", dict(threads=2, seed=7)), id="otf2-threads", marks=needs_otf2),
]


@pytest.fixture(scope="module", params=GEN_CASES)
def generated(request, tmp_path_factory):
    from earl.generate import generate
    fmt, extra = request.param
    options = dict(locations=4, events=8000, seed=3, late_sender_rate=0.3, imbalance_rate=0.3,
                   out_of_order_rate=0.2, barrier_every=3)
    options.update(extra)
    path = tmp_path_factory.mktemp("gen") / f"run.{fmt}"
    truth = generate(path, format=fmt, **options)
    return earl.analyze(path, progress=lambda f: None), truth


def test_late_senders_are_the_injected_ones(generated):
    report, truth = generated
    assert truth["late_sender_count"] > 0 and not truth["truncated"]["late_senders"]
    assert report.total("mpi_latesender") == approx(truth["late_sender_wait_total"])
    assert report.instances("mpi_latesender") == truth["late_sender_count"]
    expected = {}
    for late in truth["late_senders"]:
        expected[late["dest"]] = expected.get(late["dest"], 0.0) + late["wait"]
    got = {loc: v for loc, v in report.by_location("mpi_latesender").items()}
    assert got.keys() == expected.keys()
    for loc, wait in expected.items():
        assert got[loc] == approx(wait)
    assert set(report.by_callpath("mpi_latesender")) == {"main/step/exchange/MPI_Recv"}


def test_collective_waits_are_the_injected_imbalance(generated):
    report, truth = generated
    assert not truth["truncated"]["imbalance"]
    per_kind = {"MPI_Barrier": {}, "MPI_Allreduce": {}}
    counts = {"MPI_Barrier": 0, "MPI_Allreduce": 0}
    for instance in truth["imbalance"]:
        for process, wait in enumerate(instance["waits"]):
            # collectives run on each process' master thread, location process * threads
            loc = process * (len(report.locations) // len(instance["waits"]))
            kind = per_kind[instance["region"]]
            kind[loc] = kind.get(loc, 0.0) + wait
            counts[instance["region"]] += wait > 0
    for metric, region in (("mpi_barrier_wait", "MPI_Barrier"), ("mpi_wait_nxn", "MPI_Allreduce")):
        got = report.by_location(metric)
        for loc, wait in per_kind[region].items():
            assert got.get(loc, 0.0) == approx(wait)
        assert report.instances(metric) == counts[region]
    assert report.total("mpi_barrier_wait") + report.total("mpi_wait_nxn") == \
        approx(truth["imbalance_wait_total"])
    # Everyone leaves together after the last one entered: nothing is left for completion.
    assert report.total("mpi_barrier_completion") == approx(0)
    assert report.total("mpi_nxn_completion") == approx(0)


MPI_REGIONS = {"MPI_Send": "mpi_point2point", "MPI_Recv": "mpi_point2point",
               "MPI_Allreduce": "mpi_collective", "MPI_Barrier": "mpi_sync_collective"}


def test_profile_is_the_region_time_of_the_truth(generated):
    report, truth = generated
    for loc, regions in truth["region_time"].items():
        loc = int(loc)
        assert report.by_location("time")[loc] == approx(sum(t["excl"] for t in regions.values()))
        assert report.by_location("comp")[loc] == approx(
            sum(t["excl"] for r, t in regions.items() if r not in MPI_REGIONS))
        assert report.by_location("visits")[loc] == sum(t["count"] for t in regions.values())
        for metric in set(MPI_REGIONS.values()):
            expected = sum(t["excl"] for r, t in regions.items() if MPI_REGIONS.get(r) == metric)
            assert report.by_location(metric).get(loc, 0.0) == approx(expected)
    # Point-to-point bytes (OTF2 adds the collectives' bytes at their own call paths).
    for metric, region, expected in (("bytes_rcvd", "MPI_Recv", truth["bytes_received_per_location"]),
                                     ("bytes_sent", "MPI_Send", truth["bytes_sent_per_location"])):
        by_loc = [0] * len(report.locations)
        for cp, loc, v in report.cells(metric):
            if report.callpaths[cp].endswith("/" + region):
                by_loc[loc] += v
        assert by_loc == expected
    assert not any(report.problems.values()), report.problems


# ----------------------------------------------------------------- hand-worked traces
# ALOG: -13 defines region types (enter type, exit type, name); -101 send (data = dest,
# comment "tag len"), -102 recv (data = src); times in microseconds.
HEADER = ["-3 0 0 {n} 0 0", "-13 0 1 2 0 0 c:p main", "-13 0 3 4 0 0 c:p MPI_Send",
          "-13 0 5 6 0 0 c:p MPI_Recv", "-13 0 7 8 0 0 c:p MPI_Barrier",
          "-13 0 9 10 0 0 c:p MPI_Waitall"]


def alog(tmp_path, n, lines, name="hand.alog"):
    return write_alog(tmp_path, [h.format(n=n) for h in HEADER] + lines, name)


def test_late_sender_late_receiver_and_barrier_by_hand(tmp_path):
    path = alog(tmp_path, 2, [
        "1 0 0 0 0 0", "1 1 0 0 0 0",
        "5 0 0 0 0 10",                       # loc 0 enters MPI_Recv at 10
        "3 1 0 0 0 30", "-101 1 0 0 0 31 1 8", "4 1 0 0 0 35",  # loc 1 sends (tag 1) in [30, 35]
        "-102 0 0 1 0 40 1 8", "6 0 0 0 0 41",  # loc 0 receives at 40, leaves at 41
        "3 0 0 0 0 50", "-101 0 0 1 0 51 2 8",  # loc 0 sends tag 2 in MPI_Send [50, 80]
        "5 1 0 0 0 70", "-102 1 0 0 0 75 2 8", "6 1 0 0 0 76",  # loc 1 receives in [70, 76]
        "4 0 0 0 0 80",
        "7 0 0 0 0 90", "7 1 0 0 0 120", "8 1 0 0 0 125", "8 0 0 0 0 130",  # barrier
        "2 0 0 0 0 200", "2 1 0 0 0 200"])
    r = earl.analyze(path, progress=lambda f: None)
    # Late sender at loc 0: min(send enter 30, recv leave 41) - recv enter 10 = 20 us.
    assert r.by_location("mpi_latesender") == {0: approx(20 * US)}
    assert r.instances("mpi_latesender") == 1
    assert r.by_callpath("mpi_latesender") == {"main/MPI_Recv": approx(20 * US)}
    # Late receiver at loc 0: the receive was posted at 70 while MPI_Send [50, 80] ran:
    # 70 - 50 = 20 us. The first message's send [30, 35] ended before... its receive was
    # posted at 10 < 35 but 10 - 30 < 0: none.
    assert r.by_location("mpi_latereceiver") == {0: approx(20 * US)}
    assert r.by_callpath("mpi_latereceiver") == {"main/MPI_Send": approx(20 * US)}
    # Barrier: begins 90 and 120, ends 130 and 125: L = 120, E = 125. Loc 0 waits
    # 120 - 90 = 30 and completes 130 - max(125, 120) = 5; loc 1 neither.
    assert r.by_location("mpi_barrier_wait") == {0: approx(30 * US)}
    assert r.by_location("mpi_barrier_completion") == {0: approx(5 * US)}
    # Profile: 400 us in all; MPI: loc 0 31 + 30 + 40, loc 1 5 + 6 + 5 = 117 us.
    assert r.total("time") == approx(400 * US)
    assert r.total("mpi") == approx(117 * US)
    assert r.total("comp") == approx(283 * US)
    assert r.total("mpi_point2point") == approx(72 * US)
    assert r.total("mpi_sync_collective") == approx(45 * US)
    assert r.total("visits") == 8       # main, MPI_Recv, MPI_Send, MPI_Barrier on each
    assert r.total("bytes_sent") == 16 and r.total("bytes_rcvd") == 16
    assert not any(r.problems.values())
    # Traffic: one 8-byte message each way. The worst instances, longest first (equal
    # lengths in either order): the barrier wait [90, 120], the late sender [10, 30], the
    # late receiver [50, 70], the barrier completion [125, 130].
    assert sorted(r.traffic()) == [(0, 1, 8, 1), (1, 0, 8, 1)]
    worst = [(w["metric"], w["location"], round(w["begin"] / US), round(w["idle"] / US), w["callpath"])
             for w in r.worst_instances()]
    assert worst[0] == ("mpi_barrier_wait", 0, 90, 30, "main/MPI_Barrier")
    assert sorted(worst[1:3]) == [("mpi_latereceiver", 0, 50, 20, "main/MPI_Send"),
                                  ("mpi_latesender", 0, 10, 20, "main/MPI_Recv")]
    assert worst[3:] == [("mpi_barrier_completion", 0, 125, 5, "main/MPI_Barrier")]


def test_wrong_order_and_waitall_by_hand(tmp_path):
    path = alog(tmp_path, 3, [
        "1 0 0 0 0 0", "1 1 0 0 0 1", "1 2 0 0 0 2",
        # different sources: loc 2 waits in [10, 51] for loc 1's send (entered at 40) ...
        "5 2 0 0 0 10",
        "3 0 0 0 0 20", "-101 0 0 2 0 21 1 4", "4 0 0 0 0 22",
        "3 1 0 0 0 40", "-101 1 0 2 0 41 1 4", "4 1 0 0 0 42",
        "-102 2 0 1 0 50 1 4", "6 2 0 0 0 51",
        # ... and then receives loc 0's message, sent earlier (21 < 41): its wait of
        # 40 - 10 = 30 us is wrong order, from a different source.
        "5 2 0 0 0 60", "-102 2 0 0 0 61 1 4", "6 2 0 0 0 62",
        # same source: loc 1 sends tag 8 at 81, then tag 7 at 91; loc 2 waits for tag 7 in
        # [70, 101] (90 - 70 = 20 us late sender), then takes tag 8: wrong order, same source.
        "5 2 0 0 0 70",
        "3 1 0 0 0 80", "-101 1 0 2 0 81 8 4", "4 1 0 0 0 82",
        "3 1 0 0 0 90", "-101 1 0 2 0 91 7 4", "4 1 0 0 0 92",
        "-102 2 0 1 0 100 7 4", "6 2 0 0 0 101",
        "5 2 0 0 0 110", "-102 2 0 1 0 111 8 4", "6 2 0 0 0 112",
        # MPI_Waitall on loc 0 in [200, 252] completes two receives whose sends were
        # entered at 230 and 240: idles 30 and 40; only the largest counts.
        "9 0 0 0 0 200",
        "3 1 0 0 0 230", "-101 1 0 0 0 231 3 4", "4 1 0 0 0 232",
        "3 2 0 0 0 240", "-101 2 0 0 0 241 3 4", "4 2 0 0 0 242",
        "-102 0 0 1 0 250 3 4", "-102 0 0 2 0 251 3 4", "10 0 0 0 0 252",
        "2 0 0 0 0 300", "2 1 0 0 0 300", "2 2 0 0 0 300"])
    r = earl.analyze(path, progress=lambda f: None)
    assert r.total("mpi_latesender") == approx(90 * US)      # 30 + 20 + 40
    assert r.instances("mpi_latesender") == 3
    assert r.by_location("mpi_latesender") == {0: approx(40 * US), 2: approx(50 * US)}
    assert r.by_callpath("mpi_latesender") == {"main/MPI_Recv": approx(50 * US),
                                               "main/MPI_Waitall": approx(40 * US)}
    assert r.total("mpi_latesender_wo") == approx(50 * US)
    assert r.instances("mpi_latesender_wo") == 2
    assert r.by_location("mpi_lswo_different") == {2: approx(30 * US)}
    assert r.by_location("mpi_lswo_same") == {2: approx(20 * US)}
    assert r.total("mpi_latereceiver") == 0
    assert not any(r.problems.values())


def test_broken_traces_give_a_report_with_the_problems_counted(tmp_path):
    path = alog(tmp_path, 3, [
        "1 0 0 0 0 0", "1 1 0 0 0 0", "1 2 0 0 0 0",
        # a receive at 5 of a message sent at 10: a clock-condition violation
        "5 0 0 0 0 4", "-102 0 0 1 0 5 1 4", "6 0 0 0 0 6",
        "3 1 0 0 0 9", "-101 1 0 0 0 10 1 4", "4 1 0 0 0 11",
        # a send nobody receives, a receive of a message nobody sent
        "3 2 0 0 0 20", "-101 2 0 0 0 21 5 4", "4 2 0 0 0 22",
        "5 1 0 0 0 30", "-102 1 0 2 0 31 6 4", "6 1 0 0 0 32",
        # two barriers; loc 2 misses the second. The first: begins 40, 45, 50, ends 55:
        # waits 10 and 5.
        "7 0 0 0 0 40", "7 1 0 0 0 45", "7 2 0 0 0 50",
        "8 0 0 0 0 55", "8 1 0 0 0 55", "8 2 0 0 0 55",
        "7 0 0 0 0 60", "7 1 0 0 0 61", "8 0 0 0 0 62", "8 1 0 0 0 63",
        # an exit with nothing open, and main left open on loc 2
        "2 0 0 0 0 90", "2 1 0 0 0 90", "2 0 0 0 0 91"])
    r = earl.analyze(path, progress=lambda f: None)
    assert r.problems["clock_violation_p2p"] == 1
    assert r.problems["unmatched_send"] == 1
    assert r.problems["unmatched_recv"] == 1
    assert r.problems["incomplete_collective"] == 1
    assert r.problems["exit_on_empty_stack"] == 1
    assert r.problems["unclosed_region"] == 1
    # The violating receive still waited in MPI_Recv [4, 6] for a send entered at 9: the
    # formula clamps at the receive's end, min(9, 6) - 4 = 2 us, never more.
    assert r.by_location("mpi_latesender") == {0: approx(2 * US)}
    assert r.by_location("mpi_barrier_wait") == {0: approx(10 * US), 1: approx(5 * US)}


@needs_otf2
def test_rooted_and_nxn_collectives_by_hand(tmp_path):
    """OTF2 with a world communicator whose rank r is location WORLD[r] = [2, 0, 1]."""
    from otf2.enums import CollectiveOp, Paradigm
    from otf2_archives import ArchiveWriter
    aw = ArchiveWriter(tmp_path, "coll", resolution=10 ** 6)
    locs = []
    for r in range(3):
        locs += aw.process(f"MPI Rank {r}")
    aw.comm_locations(locs)
    WORLD = [2, 0, 1]
    world = aw.comm("MPI_COMM_WORLD", [locs[i] for i in WORLD])
    main = aw.region("main")
    ops = {name: aw.region(name, Paradigm.MPI) for name in ("MPI_Bcast", "MPI_Reduce", "MPI_Allreduce")}
    e = [aw.ev(l) for l in locs]
    for l in range(3):
        e[l].enter(1000, main)

    def call(loc, name, op, begin, end, root, sent, recvd):
        e[loc].enter(1000 + begin, ops[name])
        e[loc].mpi_collective_begin(1000 + begin)
        e[loc].mpi_collective_end(1000 + end, op, world, root, sent, recvd)
        e[loc].leave(1000 + end, ops[name])

    # Bcast rooted at world rank 0 = location 2 (begins 30): loc 0 [10, 40] waits
    # min(30, 40) - 10 = 20, loc 1 [15, 35] waits 15.
    bcast = {0: (10, 40), 1: (15, 35), 2: (30, 32)}
    # Reduce rooted at world rank 1 = location 0 [50, 80]; the others begin at 60 and 70:
    # L = 70, the root waits min(70, 80) - 50 = 20.
    reduce_ = {0: (50, 80), 1: (60, 72), 2: (70, 74)}
    # Allreduce: begins 100, 110, 104, ends 120, 118, 125: L = 110, E = 118. Waits 10, 0, 6;
    # completion 120 - 118 = 2, 0, 125 - 118 = 7.
    allreduce = {0: (100, 120), 1: (110, 118), 2: (104, 125)}
    for l in range(3):
        call(l, "MPI_Bcast", CollectiveOp.BCAST, *bcast[l], 0, 8 if l == 2 else 0, 0 if l == 2 else 8)
        call(l, "MPI_Reduce", CollectiveOp.REDUCE, *reduce_[l], 1, 8, 24 if l == 0 else 0)
        call(l, "MPI_Allreduce", CollectiveOp.ALLREDUCE, *allreduce[l], 2**32 - 1, 8, 8)
        e[l].leave(1200, main)
    anchor = aw.close()
    r = earl.analyze(anchor, progress=lambda f: None)
    assert r.by_location("mpi_latebroadcast") == {0: approx(20 * US), 1: approx(15 * US)}
    assert r.by_location("mpi_earlyreduce") == {0: approx(20 * US)}
    assert r.by_location("mpi_wait_nxn") == {0: approx(10 * US), 2: approx(6 * US)}
    assert r.by_location("mpi_nxn_completion") == {0: approx(2 * US), 2: approx(7 * US)}
    assert r.instances("mpi_latebroadcast") == 2 and r.instances("mpi_nxn_completion") == 2
    assert r.by_callpath("mpi_earlyreduce") == {"main/MPI_Reduce": approx(20 * US)}
    assert r.total("bytes_sent") == 8 + 3 * 8 + 3 * 8
    assert not any(r.problems.values())


@needs_otf2
def test_early_scan_takes_the_communicator_rank_order(tmp_path):
    """Scan/Exscan on a world communicator whose rank r is location WORLD[r] = [2, 0, 3, 1]:
    rank r waits for the latest begin over ranks 0..r that send data (Scalasca's MPI_Scan
    of the begins), not over all members and not in location order."""
    from otf2.enums import CollectiveOp, Paradigm
    from otf2_archives import ArchiveWriter
    aw = ArchiveWriter(tmp_path, "scan", resolution=10 ** 6)
    locs = []
    for r in range(4):
        locs += aw.process(f"MPI Rank {r}")
    aw.comm_locations(locs)
    WORLD = [2, 0, 3, 1]
    world = aw.comm("MPI_COMM_WORLD", [locs[i] for i in WORLD])
    main = aw.region("main")
    ops = {name: aw.region(name, Paradigm.MPI) for name in ("MPI_Scan", "MPI_Exscan")}
    e = [aw.ev(l) for l in locs]
    # (begin, end, sent, received) by location
    # Scan: rank 0 = loc 2 begins 40 (L = 40, no wait); rank 1 = loc 0 begins 20 (L = 40:
    # waits min(40, 60) - 20 = 20); rank 2 = loc 3 begins 10 (L = 40: 30); rank 3 = loc 1
    # begins 50, the latest itself (0). Over all members L would be 50 (loc 0 30, loc 3 40,
    # loc 2 10); in location order loc 1 would wait 5 and loc 0 nothing.
    scan = {0: (20, 60, 8, 8), 1: (50, 60, 8, 8), 2: (40, 60, 8, 8), 3: (10, 60, 8, 8)}
    # Exscan: rank 0 = loc 2 begins 110; rank 1 = loc 0 begins 130 but sends nothing, so it
    # counts for nobody's L; rank 2 = loc 3 begins 105: L = 110, waits 5 (25 if rank 1
    # counted); rank 3 = loc 1 begins 125: L = 110, none.
    exscan = {0: (130, 150, 0, 8), 1: (125, 150, 8, 8), 2: (110, 150, 8, 0), 3: (105, 150, 8, 8)}
    for l in range(4):
        e[l].enter(1000, main)
        for name, op, times in (("MPI_Scan", CollectiveOp.SCAN, scan),
                                ("MPI_Exscan", CollectiveOp.EXSCAN, exscan)):
            begin, end, sent, recvd = times[l]
            e[l].enter(1000 + begin, ops[name])
            e[l].mpi_collective_begin(1000 + begin)
            e[l].mpi_collective_end(1000 + end, op, world, 2**32 - 1, sent, recvd)
            e[l].leave(1000 + end, ops[name])
        e[l].leave(1200, main)
    r = earl.analyze(aw.close(), progress=lambda f: None)
    assert r.by_location("mpi_earlyscan") == {0: approx(20 * US), 3: approx(35 * US)}
    assert r.by_callpath("mpi_earlyscan") == {"main/MPI_Scan": approx(50 * US),
                                              "main/MPI_Exscan": approx(5 * US)}
    assert r.instances("mpi_earlyscan") == 3
    assert not any(r.problems.values()), r.problems


# ----------------------------------------------------------------- hand-written OTF2
@needs_otf2
def test_non_blocking_sends_and_receives_completed_in_waits(tmp_path):
    from otf2_archives import T
    aw, e, world, region = otf2_two_ranks(tmp_path)

    def call(l, name, enter, leave, *records):
        e[l].enter(T(enter), region(name))
        for method, time, *args in records:
            getattr(e[l], method)(T(time), *args)
        e[l].leave(T(leave), region(name))
    for l in (0, 1):
        e[l].enter(T(0), region("main"))
    # 1. loc 0 MPI_Isend (request 5) completed in MPI_Wait [20, 60]; loc 1 posts the
    #    receive in MPI_Irecv [30, 31] (request 9) and completes it in MPI_Wait [40, 45].
    call(0, "MPI_Isend", 10, 12, ("mpi_isend", 11, 1, world, 1, 8, 5))
    call(0, "MPI_Wait", 20, 60, ("mpi_isend_complete", 59, 5))
    call(1, "MPI_Irecv", 30, 31, ("mpi_irecv_request", 30, 9))
    call(1, "MPI_Wait", 40, 45, ("mpi_irecv", 44, 0, world, 1, 8, 9))
    # 2. loc 0 posts two receives (requests 11, 12) and completes both in MPI_Waitall
    #    [75, 100]; loc 1 sends tag 2 in MPI_Send [80, 82], tag 3 in MPI_Isend [85, 86]
    #    completed in MPI_Wait [87, 88].
    call(0, "MPI_Irecv", 70, 71, ("mpi_irecv_request", 70, 11))
    call(0, "MPI_Irecv", 72, 73, ("mpi_irecv_request", 72, 12))
    call(1, "MPI_Send", 80, 82, ("mpi_send", 81, 0, world, 2, 8))
    call(1, "MPI_Isend", 85, 86, ("mpi_isend", 85, 0, world, 3, 8, 7))
    call(1, "MPI_Wait", 87, 88, ("mpi_isend_complete", 87, 7))
    call(0, "MPI_Waitall", 75, 100, ("mpi_irecv", 98, 1, world, 2, 8, 11),
         ("mpi_irecv", 99, 1, world, 3, 8, 12))
    # 3. loc 1 MPI_Issend (request 8) [110, 111] completed in MPI_Waitany [112, 150];
    #    loc 0 receives it in MPI_Recv [130, 150].
    call(1, "MPI_Issend", 110, 111, ("mpi_isend", 110, 0, world, 4, 8, 8))
    call(0, "MPI_Recv", 130, 150, ("mpi_recv", 149, 1, world, 4, 8))
    call(1, "MPI_Waitany", 112, 150, ("mpi_isend_complete", 149, 8))
    # 4. loc 0 MPI_Isend completed in MPI_Test [170, 171] (not a blocking wait); loc 1
    #    MPI_Recv [165, 175].
    call(0, "MPI_Isend", 160, 161, ("mpi_isend", 160, 1, world, 5, 8, 20))
    call(1, "MPI_Recv", 165, 175, ("mpi_recv", 174, 0, world, 5, 8))
    call(0, "MPI_Test", 170, 171, ("mpi_isend_complete", 170, 20))
    # 5. Two sends on one channel (tag 6) completed in reverse order by MPI_Waitall; loc 1
    #    receives the first (sent from MPI_Isend [200, 202]) in MPI_Recv [190, 220], the
    #    second (MPI_Isend [203, 205]) in MPI_Recv [221, 223].
    call(0, "MPI_Isend", 200, 202, ("mpi_isend", 201, 1, world, 6, 8, 30))
    call(0, "MPI_Isend", 203, 205, ("mpi_isend", 204, 1, world, 6, 8, 31))
    call(0, "MPI_Waitall", 206, 208, ("mpi_isend_complete", 207, 31), ("mpi_isend_complete", 207, 30))
    call(1, "MPI_Recv", 190, 220, ("mpi_recv", 219, 0, world, 6, 8))
    call(1, "MPI_Recv", 221, 223, ("mpi_recv", 222, 0, world, 6, 8))
    for l in (0, 1):
        e[l].leave(T(300), region("main"))
    r = earl.analyze(aw.close(), progress=lambda f: None)
    # Late receiver: 1. the MPI_Wait completing the MPI_Isend ran [20, 60] when the receive
    # was posted (MPI_Irecv entered at 30): 30 - 20 = 10 us; 3. the MPI_Waitany [112, 150]
    # completing the MPI_Issend, receive posted at 130: 18 us. 2. MPI_Send [80, 82] and
    # the MPI_Wait [87, 88] started after the posts (70, 72); 4. MPI_Test is no blocking
    # completion; 5. MPI_Waitall completing sends is not judged (Scalasca: Wait/Waitany).
    assert r.by_callpath("mpi_latereceiver") == {"main/MPI_Wait": approx(10 * US),
                                                 "main/MPI_Waitany": approx(18 * US)}
    assert r.by_location("mpi_latereceiver") == {0: approx(10 * US), 1: approx(18 * US)}
    assert r.instances("mpi_latereceiver") == 2
    # Late sender: 2. MPI_Waitall [75, 100] waited min(80, 100) - 75 = 5 us for the first
    # message and min(85, 100) - 75 = 10 us for the second: only the largest counts;
    # 5. the first message of the channel, sent from the MPI_Isend entered at 200 (not the
    # second, entered at 203, although its send completed first): 200 - 190 = 10 us.
    # 1. MPI_Wait [40, 45] began after the send's call (10): none.
    assert r.by_callpath("mpi_latesender") == {"main/MPI_Waitall": approx(10 * US),
                                               "main/MPI_Recv": approx(10 * US)}
    assert r.by_location("mpi_latesender") == {0: approx(10 * US), 1: approx(10 * US)}
    assert r.instances("mpi_latesender") == 2
    assert r.total("mpi_latesender_wo") == 0
    assert not any(r.problems.values()), r.problems


@needs_otf2
def test_otf2_collectives_take_the_begin_and_end_records(tmp_path):
    from otf2.enums import CollectiveOp
    from otf2_archives import T, UNDEF_RANK
    aw, e, world, region = otf2_two_ranks(tmp_path)
    # (enter, MpiCollectiveBegin, MpiCollectiveEnd, leave) per rank
    times = [(300, 302, 350, 352), (310, 330, 349, 351)]
    for l, (enter, begin, end, leave) in enumerate(times):
        e[l].enter(T(0), region("main"))
        e[l].enter(T(enter), region("MPI_Barrier"))
        e[l].mpi_collective_begin(T(begin))
        e[l].mpi_collective_end(T(end), CollectiveOp.BARRIER, world, UNDEF_RANK, 0, 0)
        e[l].leave(T(leave), region("MPI_Barrier"))
        e[l].leave(T(400), region("main"))
    r = earl.analyze(aw.close(), progress=lambda f: None)
    # L = latest begin 330, E = earliest end 349. Wait: loc 0 min(330, 350) - 302 = 28 us
    # (with enter/exit it would be 310 - 300 = 10 us), loc 1 none. Completion: loc 0
    # 350 - max(349, 330) = 1 us, loc 1 349 - 349 = 0.
    assert r.by_location("mpi_barrier_wait") == {0: approx(28 * US)}
    assert r.by_location("mpi_barrier_completion") == {0: approx(1 * US)}
    assert r.instances("mpi_barrier_wait") == 1
    # The region's time stays enter to leave.
    assert r.by_location("mpi_sync_collective") == {0: approx(52 * US), 1: approx(41 * US)}
    assert not any(r.problems.values()), r.problems


@needs_otf2
def test_rma_active_target_early_wait_late_complete_late_post(tmp_path):
    r = earl.analyze(active_target_archive(tmp_path), progress=lambda f: None)
    # Early Wait: C = the complete's enter; epoch 1: min(60, 80) - 20 = 40 us; epoch 2:
    # 119 - 113 = 6 us; epoch 3: 205 < 222, none.
    assert r.by_callpath("mpi_rma_early_wait") == {"main/MPI_Win_wait": approx(46 * US)}
    assert r.by_location("mpi_rma_early_wait") == {1: approx(46 * US)}
    assert r.instances("mpi_rma_early_wait") == 2
    # Late Complete: C - max(last put end, wait enter), a put ending when its MPI_Put call
    # leaves (Scalasca's end of an operation; not its completion record one tick before):
    # 60 - 35 = 25 us; 119 - 118 = 1 us.
    assert r.by_location("mpi_rma_late_complete") == {1: approx(26 * US)}
    assert r.instances("mpi_rma_late_complete") == 2
    # Late Post: P = the post's enter; epoch 1: 10 is in neither start [14, 16] nor
    # complete [60, 62]; epoch 2: inside start [100, 115]: 110 - 100 = 10 us; epoch 3:
    # inside complete [205, 230]: 220 - 205 = 15 us.
    assert r.by_callpath("mpi_rma_sync_late_post") == {"main/MPI_Win_complete": approx(15 * US),
                                                       "main/MPI_Win_start": approx(10 * US)}
    assert r.by_location("mpi_rma_sync_late_post") == {0: approx(25 * US)}
    assert r.instances("mpi_rma_sync_late_post") == 2
    # The patterns are part of the one-sided synchronisation time (post/start/complete/wait
    # calls: loc 0 2 + 15 + 2 + 1 + 1 + 25 = 46 us, loc 1 2 + 60 + 2 + 12 + 1 + 18 = 95 us).
    assert r.by_location("mpi_rma_synchronization") == {0: approx(46 * US), 1: approx(95 * US)}
    assert not any(r.problems.values()), r.problems


@needs_otf2
def test_rma_late_post_inside_a_put(tmp_path):
    """Late Post where the target's post falls inside an MPI_Put of the access epoch:
    communication time, P - the RmaPut record, at the MPI_Put's call path."""
    r = earl.analyze(late_post_in_put_archive(tmp_path), progress=lambda f: None)
    assert r.by_callpath("mpi_rma_comm_late_post") == {"main/MPI_Put": approx(9 * US)}
    assert r.by_location("mpi_rma_comm_late_post") == {0: approx(9 * US)}
    assert r.instances("mpi_rma_comm_late_post") == 1
    assert r.metrics["mpi_rma_comm_late_post"]["parent"] == "mpi_rma_communication"
    assert r.total("mpi_rma_sync_late_post") == 0
    assert r.by_location("mpi_rma_early_wait") == {1: approx(53 * US)}
    assert r.by_location("mpi_rma_late_complete") == {1: approx(12 * US)}
    # part of the one-sided communication time at that call path (the puts: 30 + 3 + 25
    # + 2 = 60 us)
    assert r.by_location("mpi_rma_communication") == {0: approx(60 * US)}
    assert not any(r.problems.values()), r.problems


@needs_otf2
def test_rma_wait_at_fence_and_early_fence(tmp_path):
    """Three ranks, world rank r = location WORLD[r] = [1, 2, 0]; fences at 10-20 (none
    waits), then three epochs. An RMA operation ends when its MPI_Put/Get call leaves (as
    Scalasca takes it), not at its completion record."""
    from otf2.enums import Paradigm
    from otf2_archives import ArchiveWriter, T
    aw = ArchiveWriter(tmp_path, "fence", resolution=1_000_000)
    locs = []
    for r in range(3):
        locs += aw.process(f"MPI Rank {r}")
    aw.comm_locations(locs)
    WORLD = [1, 2, 0]
    rank = {loc: WORLD.index(loc) for loc in range(3)}
    world = aw.comm("MPI_COMM_WORLD", [locs[i] for i in WORLD])
    win = aw.d.rma_win("window", comm=world)
    regions = {n: aw.region(n, Paradigm.MPI if n.startswith("MPI") else Paradigm.USER)
               for n in ("main", "MPI_Win_fence", "MPI_Put", "MPI_Get")}
    e = [aw.ev(l) for l in locs]

    def fence(l, enter, leave, *records):
        e[l].enter(T(enter), regions["MPI_Win_fence"])
        for method, time, *args in records:
            getattr(e[l], method)(T(time), *args)
        e[l].leave(T(leave), regions["MPI_Win_fence"])

    def op(l, name, target, enter, leave, op_id):
        e[l].enter(T(enter), regions[name])
        method = e[l].rma_put if name == "MPI_Put" else e[l].rma_get
        method(T(enter + 1), win, rank[target], 8, op_id)
        e[l].leave(T(leave), regions[name])
    for l in range(3):
        e[l].enter(T(0), regions["main"])
        fence(l, 10, 20)
    # Epoch 1: loc 0 puts to loc 2 in [30, 50] (completed remotely inside its closing
    # fence at 75), loc 1 in [40, 45]. Fences: loc 2 [35, 80], loc 0 [60, 80], loc 1
    # [70, 80]: L = 70 < E = 80. Wait at Fence: loc 2 35, loc 0 10. Early Fence at loc 2:
    # the last operation to it ended at 50, inside its fence: 50 - 35 = 15 (with the
    # completion record's 75 it would be min(75, 70) - 35 = 35).
    op(0, "MPI_Put", 2, 30, 50, 1)
    op(1, "MPI_Put", 2, 40, 45, 2)
    fence(2, 35, 80)
    fence(0, 60, 80, ("rma_op_complete_remote", 75, win, 1))
    fence(1, 70, 80, ("rma_op_complete_blocking", 71, win, 2))
    # Epoch 2: loc 2 gets from loc 0 in [90, 95]; fences loc 0 [100, 120], loc 1
    # [100, 120], loc 2 [110, 120]: Wait at Fence loc 0 10, loc 1 10. The get ended (95)
    # before loc 0 entered its fence: no Early Fence.
    op(2, "MPI_Get", 0, 90, 95, 3)
    for l, enter in ((0, 100), (1, 100), (2, 110)):
        fence(l, enter, 120)
    # Epoch 3: loc 1 puts to loc 0 in [125, 140]; fences loc 0 [130, 160], loc 1
    # [145, 160], loc 2 [150, 160]: Wait at Fence loc 0 20, loc 1 5; Early Fence at loc 0
    # 140 - 130 = 10.
    op(1, "MPI_Put", 0, 125, 140, 4)
    for l, enter in ((0, 130), (1, 145), (2, 150)):
        fence(l, enter, 160)
    for l in range(3):
        e[l].leave(T(200), regions["main"])
    r = earl.analyze(aw.close(), progress=lambda f: None)
    assert r.by_location("mpi_rma_wait_at_fence") == {0: approx(40 * US), 1: approx(15 * US),
                                                      2: approx(35 * US)}
    assert r.instances("mpi_rma_wait_at_fence") == 6
    assert r.by_location("mpi_rma_early_fence") == {0: approx(10 * US), 2: approx(15 * US)}
    assert r.by_callpath("mpi_rma_early_fence") == {"main/MPI_Win_fence": approx(25 * US)}
    assert r.instances("mpi_rma_early_fence") == 2
    assert r.metrics["mpi_rma_early_fence"]["parent"] == "mpi_rma_wait_at_fence"
    # A child's time is part of its parent's, cell by cell.
    fence_cells = {(cp, loc): v for cp, loc, v in r.cells("mpi_rma_wait_at_fence")}
    for cp, loc, v in r.cells("mpi_rma_early_fence"):
        assert v <= fence_cells[cp, loc]
    assert not any(r.problems.values()), r.problems
    out = json.loads(json.dumps(r.to_dict()))
    assert out["patterns"]["mpi_rma_early_fence"]["by_location"] == {"0": approx(10 * US),
                                                                     "2": approx(15 * US)}
    # Cube stores each metric's own part: Wait at Fence without its Early Fence part.
    pycubexr = pytest.importorskip("pycubexr")
    cube = tmp_path / "fence.cubex"
    r.write_cube(cube)
    with pycubexr.CubexParser(str(cube)) as parser:
        fence_node = next(c for c in parser.all_cnodes()
                          if parser.get_region(c).name == "MPI_Win_fence")

        def own(metric):
            values = parser.get_metric_values(parser.get_metric_by_name(metric))
            return [float(v) for v in values.cnode_values(fence_node)]
        assert own("mpi_rma_early_fence") == [approx(10 * US), 0, approx(15 * US)]
        assert own("mpi_rma_wait_at_fence") == [approx(30 * US), approx(15 * US), approx(20 * US)]


@needs_otf2
def test_rma_lock_competition(tmp_path):
    r = earl.analyze(lock_archive(tmp_path), progress=lambda f: None)
    # Location 1's exclusive lock, asked for in MPI_Win_lock at 15, waited until location
    # 0 released at 39 (min(39, 44) - 15 = 24 us); location 0's shared lock [46, 60] waited
    # for location 1's exclusive release at 51 (5 us); the last shared lock none.
    assert r.by_location("mpi_rma_sync_lock_competition") == {0: approx(5 * US), 1: approx(24 * US)}
    assert r.by_callpath("mpi_rma_sync_lock_competition") == {"main/MPI_Win_lock": approx(29 * US)}
    assert r.instances("mpi_rma_sync_lock_competition") == 2
    assert r.by_callpath("mpi_rma_comm_lock_competition") == {"main/MPI_Put": approx(15 * US)}
    assert r.by_location("mpi_rma_comm_lock_competition") == {1: approx(15 * US)}
    assert r.instances("mpi_rma_comm_lock_competition") == 1
    assert r.metrics["mpi_rma_comm_lock_competition"]["parent"] == "mpi_rma_communication"
    assert not any(r.problems.values()), r.problems


@needs_otf2
@pytest.mark.parametrize("seed", range(4))
def test_random_imperfect_archives_give_a_report(tmp_path, seed):
    """Archives with every record kind, requests completed out of order or never, receives
    before their sends, unclosed regions: the analysis finishes with a report whose traffic
    is the trace's sends (counted here through EventTrace)."""
    from otf2_archives import random_archive
    anchor = random_archive(tmp_path, seed)
    r = earl.analyze(anchor, progress=lambda f: None)
    expected = {}
    with earl.EventTrace(anchor) as e:
        for ev in e:
            if ev["type"] == "send" and ev["dest"] >= 0:
                b, n = expected.get((ev["loc"], ev["dest"]), (0, 0))
                expected[(ev["loc"], ev["dest"])] = (b + ev["len"], n + 1)
    assert {(s, d): (b, n) for s, d, b, n in r.traffic()} == expected
    for metric in r.patterns():
        assert all(v > 0 for _, _, v in r.cells(metric)), metric

# ----------------------------------------------------------------- the Score-P traces
def scorep_expectation(anchor):
    """Late sender and late receiver of a Score-P trace, from the official OTF2 reader's
    events (tests/otf2_reference.py) with the formulas applied here."""
    from otf2_reference import Otf2Reference
    ref = Otf2Reference.load(anchor)
    stacks, calls, sends, recvs = {}, [], {}, {}
    for pos in range(1, ref.m + 1):
        ev = ref.event(pos)
        stack = stacks.setdefault(ev["loc"], [])
        if ev["type"] == "enter":
            stack.append({"region": ev["region"], "enter": ev["time"], "msgs": []})
        elif ev["type"] == "exit":
            call = stack.pop()
            call["leave"] = ev["time"]
            for kind, key, index in call["msgs"]:
                (sends if kind == "send" else recvs)[key][index] = call
        elif ev["type"] in ("send", "recv"):
            src, dest = (ev["loc"], ev["dest"]) if ev["type"] == "send" else (ev["src"], ev["loc"])
            table = sends if ev["type"] == "send" else recvs
            key = (src, dest, ev["tag"], ev["com"])
            table.setdefault(key, []).append(None)
            stack[-1]["msgs"].append((ev["type"], key, len(table[key]) - 1))
    late_sender, late_receiver = [], []
    for key, calls_ in recvs.items():
        for k, rc in enumerate(calls_):
            sc = sends[key][k]
            if rc["region"] == "MPI_Recv":
                idle = min(sc["enter"], rc["leave"]) - rc["enter"]
                if idle > 0:
                    late_sender.append((key[1], idle))
            if sc["region"] == "MPI_Send" and sc["leave"] > rc["enter"]:
                idle = rc["enter"] - sc["enter"]
                if idle > 0:
                    late_receiver.append((key[0], idle))
    return late_sender, late_receiver


@needs_otf2
@pytest.mark.parametrize("name", ["ping-pong-otf2", "ping-pong-otf2-papi"])
def test_scorep_ping_pong(name):
    from script_checks import SCOREP
    anchor = SCOREP / name / "traces.otf2"
    if not anchor.exists():
        pytest.skip("no Score-P trace")
    r = earl.analyze(anchor, progress=lambda f: None)
    late_sender, late_receiver = scorep_expectation(anchor)
    # The ping-pong has both: receivers waiting for the partner, and rendezvous sends
    # waiting for the receive to be posted.
    assert late_sender and late_receiver
    assert r.instances("mpi_latesender") == len(late_sender)
    assert r.total("mpi_latesender") == approx(sum(i for _, i in late_sender))
    assert r.instances("mpi_latereceiver") == len(late_receiver)
    for loc in (0, 1):
        assert r.by_location("mpi_latereceiver").get(loc, 0.0) == \
            approx(sum(i for l, i in late_receiver if l == loc))
    assert r.total("visits") == 42   # 42 Enter records (traces/README.md)
    assert not any(r.problems.values())


# ----------------------------------------------------------------- outputs
@pytest.fixture(scope="module")
def small(tmp_path_factory):
    from earl.generate import generate
    path = tmp_path_factory.mktemp("small") / "s.alog"
    truth = generate(path, locations=3, events=3000, seed=5, late_sender_rate=0.4,
                     out_of_order_rate=0.3)
    return path, truth


def test_cube_file_read_back_with_pycubexr_holds_every_value(small, tmp_path):
    pycubexr = pytest.importorskip("pycubexr")
    report = earl.analyze(small[0], progress=lambda f: None)
    cube = tmp_path / "r.cubex"
    report.write_cube(cube)
    children = {}
    for m, info in report.metrics.items():
        children.setdefault(info["parent"], []).append(m)
    with pycubexr.CubexParser(str(cube)) as parser:
        assert [loc.name for loc in parser.get_locations()] == \
            [report.location_name(i) for i in range(len(report.locations))]
        paths = {}
        for cnode in parser.all_cnodes():
            names, node = [], cnode
            while node is not None:
                names.append(parser.get_region(node).name)
                node = node.parent
            paths[cnode.id] = "/".join(reversed(names))
        assert sorted(paths.values()) == sorted(report.callpaths)
        stored = {}
        for metric in report.metrics:
            values = parser.get_metric_values(parser.get_metric_by_name(metric))
            stored[metric] = {(paths[c.id], loc): float(v) for c in parser.all_cnodes()
                              for loc, v in enumerate(values.cnode_values(c))}

    def inclusive(metric, key):   # Cube shows a collapsed metric as its subtree's sum
        return stored[metric][key] + sum(inclusive(c, key) for c in children.get(metric, []))

    for metric in report.metrics:
        expected = {(report.callpaths[cp], loc): v for cp, loc, v in report.cells(metric)}
        for key in stored[metric]:
            assert inclusive(metric, key) == approx(expected.get(key, 0.0)), (metric, key)
    assert report.total("mpi_latesender_wo") > 0   # the subtraction was exercised


def test_json_output_of_the_command(small):
    path, truth = small
    done = subprocess.run([sys.executable, "-m", "earl.cli", "analyze", str(path), "--json"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    ls = out["patterns"]["mpi_latesender"]
    assert ls["total"] == approx(truth["late_sender_wait_total"])
    assert ls["instances"] == truth["late_sender_count"]
    assert set(ls["by_location"]) <= {"0", "1", "2"}
    assert sum(ls["by_location"].values()) == approx(ls["total"])
    assert ls["by_callpath"] == {"main/step/exchange/MPI_Recv": approx(ls["total"])}
    assert out["profile"]["time"]["total"] > out["profile"]["mpi"]["total"] > 0
    assert out["problems"]["unmatched_recv"] == 0


def test_terminal_report_names_the_wait_states(small):
    path, truth = small
    done = subprocess.run([sys.executable, "-m", "earl.cli", "analyze", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "\x1b[" not in done.stdout                # plain text when piped
    row = next(l for l in done.stdout.splitlines() if l.split()[-5:-4] == ["mpi_latesender"])
    # metric, value, unit, % of time, instances
    assert row.split()[-4:-2] == [f"{truth['late_sender_wait_total']:.6f}", "s"]
    assert row.split()[-1] == str(truth["late_sender_count"])
    assert f"mpi_latesender: {truth['late_sender_wait_total']:.6f} s, " \
           f"{truth['late_sender_count']} instances" in done.stdout
    assert "main/step/exchange/MPI_Recv" in done.stdout


def test_bad_input_is_an_earl_error(tmp_path):
    with pytest.raises(earl.EarlError, match="nothing.alog"):
        earl.analyze(tmp_path / "nothing.alog")
    bad = write_alog(tmp_path, ["-3 0 0 2 0 0", "1 0 0 0 0 zz"], "bad.alog")
    with pytest.raises(earl.EarlError, match="line 2"):
        earl.analyze(bad, progress=lambda f: None)
    done = subprocess.run([sys.executable, "-m", "earl.cli", "analyze", str(tmp_path / "no.alog")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and done.stderr.startswith("earl: ") and "no.alog" in done.stderr
    ok = write_alog(tmp_path, ["-13 0 1 2 0 0 c:p main", "1 0 0 0 0 1", "2 0 0 0 0 2"], "ok.alog")
    with pytest.raises(earl.EarlError, match="unknown metric 'nope'"):
        earl.analyze(ok, progress=lambda f: None).total("nope")
    with pytest.raises(earl.EarlError, match="unknown engine"):
        earl.analyze(ok, engine="fast")


def test_progress_errors_and_interrupts_stop_the_analysis(small):
    class Stop(Exception):
        pass

    seen = []

    def progress(fraction):
        seen.append(fraction)
        raise Stop()

    with pytest.raises(Stop):
        earl.analyze(small[0], progress=progress)
    assert seen
    # the engine is usable afterwards
    assert earl.analyze(small[0], progress=lambda f: None).total("time") > 0


def trace_is_open(pid, path):
    """True once process `pid` holds `path` open (the analysis has begun reading it)."""
    import os
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return False
    for fd in fds:
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}") == str(path):
                return True
        except OSError:
            pass
    return False


def test_ctrl_c_stops_earl_analyze_cleanly_mid_run(tmp_path):
    """A real SIGINT to `earl analyze` while the native engine reads a large trace (with the
    GIL released): it stops, says so, exits 130, prints no report and no traceback."""
    import signal
    import time
    from earl.generate import generate
    path = (tmp_path / "big.alog").resolve()
    generate(path, events=6_000_000, seed=5, locations=8)
    proc = subprocess.Popen([sys.executable, "-m", "earl.cli", "analyze", str(path), "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not trace_is_open(proc.pid, path):
        assert proc.poll() is None, "finished before it opened the trace"
        assert time.monotonic() < deadline
        time.sleep(0.002)
    # Into the engine's pass (the whole run takes ~1 s here), then Ctrl-C.
    time.sleep(0.15)
    assert proc.poll() is None, "finished before the interrupt"
    proc.send_signal(signal.SIGINT)
    sent = time.monotonic()
    out, err = proc.communicate(timeout=30)
    stopped_after = time.monotonic() - sent
    assert proc.returncode == 130, err
    assert err.strip() == "earl: interrupted"
    assert "Traceback" not in err
    assert out == ""                  # stopped before the report
    assert stopped_after < 5, stopped_after


def test_to_pandas_and_html_repr(small):
    pd = pytest.importorskip("pandas")
    report = earl.analyze(small[0], progress=lambda f: None)
    df = report.to_pandas()
    assert list(df.columns) == ["metric", "callpath", "location", "location_name", "value"]
    ls = df[df.metric == "mpi_latesender"]
    assert ls.value.sum() == approx(report.total("mpi_latesender"))
    assert set(ls.callpath) == {"main/step/exchange/MPI_Recv"}
    html = report._repr_html_()
    assert "<table" in html and "mpi_latesender" in html


def test_html_report_renders_offline_in_headless_chromium(small, tmp_path):
    import shutil
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        pytest.skip("no chromium (make setup installs Debian's chromium)")
    report = earl.analyze(small[0], progress=lambda f: None)
    page = tmp_path / "report.html"
    report.write_html(page)
    text = page.read_text()
    assert "http://" not in text and "https://" not in text     # nothing fetched: offline
    # the DOM after the page's script ran: every plot is there, the chooser shows one
    done = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                           "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert 'class="bars"' in done.stdout and '<svg class="timeline"' in done.stdout
    assert "mpi_latesender" in done.stdout
    # The communication matrix: one cell per (source, destination) pair with traffic,
    # holding what the trace's send events add up to (read here through EventTrace).
    import re
    expected = {}
    with earl.EventTrace(small[0]) as e:
        for ev in e:
            if ev["type"] == "send":
                b, n = expected.get((ev["loc"], ev["dest"]), (0, 0))
                expected[(ev["loc"], ev["dest"])] = (b + ev["len"], n + 1)
    cells = {(int(a), int(b)): (int(c), int(d)) for a, b, c, d in re.findall(
        r"data-src=\"(\d+)\" data-dest=\"(\d+)\" data-bytes=\"(\d+)\" data-messages=\"(\d+)\"",
        done.stdout)}
    assert expected and cells == expected
    # The timeline: a bar per kept instance (the 50 longest), coloured by pattern.
    bars = re.findall(r'<rect class="wait" data-metric="(\w+)"', done.stdout)
    assert len(bars) == len(report.worst_instances()) == 50
    assert [w["metric"] for w in report.worst_instances()] == bars
    shown = [chunk for chunk in done.stdout.split('class="perloc"')[1:]
             if not chunk.split(">", 1)[0].rstrip().endswith('style="display: none;"')]
    assert len(shown) == 1
    shot = tmp_path / "shot.png"
    done = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                           f"--screenshot={shot}", "--window-size=1200,5000", page.as_uri()],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and shot.exists(), done.stderr
    from PIL import Image
    image = Image.open(shot).convert("RGB")
    colors = image.getcolors(maxcolors=1 << 20)
    # the bars are drawn: the late-sender red (#c33) and the call-path blue (#36c) appear,
    # and the timeline's colour of each pattern among the worst instances
    from earl.analysis.html_plots import PALETTE
    present = {rgb for _, rgb in colors}
    assert (0xcc, 0x33, 0x33) in present and (0x33, 0x66, 0xcc) in present
    for metric in set(bars):
        hexa = PALETTE[metric].lstrip("#")
        assert tuple(int(c * 2, 16) for c in hexa) in present, metric
