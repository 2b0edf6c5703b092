"""The generator's non-blocking exchange (`nonblocking`, cpp/gen/generator.h: MPI_Irecv,
MPI_Isend, MPI_Waitall for the sends and every receive but the last, MPI_Wait for the last) against
its ground truth: the analysis finds exactly the late senders the generator computed by
Scalasca's rule (MPI_Waitall: only the largest wait), on ALOG and OTF2; a second
computation from the OTF2 records, read with the official reader, agrees; the other
injected waits are still found."""
from collections import defaultdict, deque

import pytest

import earl
from gen_truth_checks import generated  # noqa: F401 (the fixture of test_analysis' tests)
from gen_truth_checks import (FRAME_REGIONS, callpath, ALOG_NEIGHBORS, STANDARD_CASES, approx, check_by_location,
                              check_profile, generate_and_analyze, needs_otf2, otf2_streams)
from test_analysis import MPI_REGIONS, test_collective_waits_are_the_injected_imbalance  # noqa: F401


CASES = [
    *STANDARD_CASES, ALOG_NEIGHBORS,
    pytest.param(("otf2", dict(rma_every=3, lock_every=2)), id="otf2-with-fences-and-locks",
                 marks=needs_otf2),
]

WAITS = ("MPI_Wait", "MPI_Waitall")


@pytest.fixture(scope="module", params=CASES)
def generated_run(request, tmp_path_factory):
    return generate_and_analyze(request.param, tmp_path_factory, out_of_order_rate=0.3, nonblocking=True)


def test_late_senders_are_the_injected_ones(generated):
    report, truth = generated
    assert truth["late_sender_count"] > 0 and not truth["truncated"]["late_senders"]
    assert report.total("mpi_latesender") == approx(truth["late_sender_wait_total"])
    assert report.instances("mpi_latesender") == truth["late_sender_count"]
    expected = defaultdict(float)
    for late in truth["late_senders"]:
        expected[late["dest"]] += late["wait"]
    got = report.by_location("mpi_latesender")
    assert got.keys() == expected.keys()
    for loc, wait in expected.items():
        assert got[loc] == approx(wait)
    # Both completing calls wait. A send completes in MPI_Waitall once its receive is
    # posted: a late receiver there, which OTF2 shows (ALOG has no requests linking them).
    assert set(report.by_callpath("mpi_latesender")) == {callpath(truth, "main/step/exchange/" + w) for w in WAITS}
    if "waitall_late_receivers" in truth:
        late = truth["waitall_late_receivers"]
        assert late["count"] > 0
        assert report.total("mpi_latereceiver") == approx(late["wait_total"])
        assert report.instances("mpi_latereceiver") == late["count"]
        assert set(report.by_callpath("mpi_latereceiver")) == {callpath(truth, "main/step/exchange/MPI_Waitall")}
    else:
        assert report.total("mpi_latereceiver") == 0


NONBLOCKING_REGIONS = dict(MPI_REGIONS, **FRAME_REGIONS, MPI_Isend="mpi_point2point", MPI_Irecv="mpi_point2point",
                           MPI_Wait="mpi_point2point", MPI_Waitall="mpi_point2point",
                           MPI_Win_fence="mpi_rma_synchronization", MPI_Put="mpi_rma_communication",
                           MPI_Win_create="mpi_mgmt_win", MPI_Win_free="mpi_mgmt_win",
                           MPI_Win_lock="mpi_rma_synchronization",
                           MPI_Win_unlock="mpi_rma_synchronization")


def test_profile_is_the_region_time_of_the_truth(generated):
    check_profile(*generated, NONBLOCKING_REGIONS)


def test_bytes_are_those_of_the_isends_and_the_waits(generated):
    report, truth = generated
    for metric, regions, expected in (("bytes_rcvd", WAITS, truth["bytes_received_per_location"]),
                                      ("bytes_sent", ("MPI_Isend",), truth["bytes_sent_per_location"])):
        by_loc = [0] * len(report.locations)
        for cp, loc, v in report.cells(metric):
            if report.callpaths[cp].rsplit("/", 1)[-1] in regions:
                by_loc[loc] += v
        assert by_loc == expected


# ----------------------------------------------------------------- a second computation
def late_senders_from_otf2(anchor):
    """Scalasca's late sender on the OTF2 records alone (official reader): the k-th MpiIsend
    of a (source, destination, tag) channel matches its k-th MpiIrecv; a wait waited
    min(enter of the send's MPI_Isend, leave of the wait) - enter of the wait; MPI_Waitall
    only the largest. Returns ({location index: total}, instances, the most late receives
    one MPI_Waitall completed)."""
    locations, streams, seconds = otf2_streams(anchor)

    def rank(location):
        return int(location.group.name.split()[-1])

    sends = defaultdict(deque)  # channel -> enter times of the sends' MPI_Isend
    for location, events in streams.items():
        stack = []
        for e in events:
            kind = type(e).__name__
            if kind == "Enter":
                stack.append(e.time)
            elif kind == "Leave":
                stack.pop()
            elif kind == "MpiIsend":
                sends[(rank(location), e.receiver, e.msg_tag)].append(stack[-1])
    totals, instances, most = defaultdict(float), 0, 0
    for location, events in streams.items():
        stack, completed = [], []
        for e in events:
            kind = type(e).__name__
            if kind == "Enter":
                stack.append((e.region.name, e.time))
            elif kind == "MpiIrecv":
                completed.append(sends[(e.sender, rank(location), e.msg_tag)].popleft())
            elif kind == "Leave":
                name, enter = stack.pop()
                if name not in WAITS:
                    continue
                idles = [seconds(min(s, e.time)) - seconds(enter) for s in completed]
                idles = [i for i in idles if i > 0]
                completed = []
                if name == "MPI_Waitall":
                    most = max(most, len(idles))
                    idles = [max(idles)] if idles else []
                totals[locations.index(location)] += sum(idles)
                instances += len(idles)
    return dict(totals), instances, most


@needs_otf2
def test_a_second_computation_from_the_otf2_records_agrees(generated_run):
    path, report, truth = generated_run
    if path.suffix != ".otf2":
        pytest.skip("the second computation reads OTF2")
    pytest.importorskip("otf2")
    totals, instances, most = late_senders_from_otf2(path)
    # Some MPI_Waitall completed several late messages: the largest-wait rule mattered.
    assert most >= 2
    assert instances == truth["late_sender_count"] == report.instances("mpi_latesender")
    check_by_location(report, "mpi_latesender", totals)


@needs_otf2
def test_otf2_request_records(tmp_path):
    """Every MpiIsend's request completes once, in the same location's MPI_Waitall; every
    MpiIrecv's request was posted once by an MpiIrecvRequest inside that location's
    MPI_Irecv before it."""
    otf2 = pytest.importorskip("otf2")
    from earl.generate import generate
    path = tmp_path / "nb.otf2"
    truth = generate(path, locations=3, events=2000, nonblocking=True, pattern="neighbors")
    with otf2.reader.open(str(path)) as reader:
        streams = defaultdict(list)
        for location, event in reader.events:
            streams[location].append(event)
    isends = completes = 0
    for events in streams.values():
        stack, open_sends, posted = [], set(), set()
        for e in events:
            kind = type(e).__name__
            if kind == "Enter":
                stack.append(e.region.name)
            elif kind == "Leave":
                stack.pop()
            elif kind == "MpiIsend":
                assert stack[-1] == "MPI_Isend" and e.request_id not in open_sends
                open_sends.add(e.request_id)
                isends += 1
            elif kind == "MpiIsendComplete":
                assert stack[-1] == "MPI_Waitall"
                open_sends.remove(e.request_id)
                completes += 1
            elif kind == "MpiIrecvRequest":
                assert stack[-1] == "MPI_Irecv" and e.request_id not in posted
                posted.add(e.request_id)
            elif kind == "MpiIrecv":
                assert stack[-1] in WAITS
                posted.remove(e.request_id)
            else:
                assert kind not in ("MpiSend", "MpiRecv")
        assert not open_sends and not posted
    assert isends == completes == truth["messages"] > 0


def test_alog_holds_the_events_of_the_truth(tmp_path):
    from earl.generate import generate
    truth = generate(tmp_path / "nb.alog", locations=3, events=3000, nonblocking=True)
    assert len(earl.EventTrace(str(tmp_path / "nb.alog"))) == truth["events"]
