"""The ground truth `earl gen` gives for what Scalasca 2.6 computes on its archives (the
program frame, Message.pattern's counts, Late Receiver in MPI_Waitall), recomputed here by a
second implementation from the written OTF2 archive as the official `otf2` reader sees it.
The rules are Scalasca's (src/scout/generator/MPI.pattern, Message.pattern); gen/truth.h
says which. Scalasca itself (scout) agreed with these truths on every shape when they were
written (bench notes in the report of issue 21); the tests do not need it."""
import collections

import pytest

from earl import _core
from earl.generate import generate

otf2 = pytest.importorskip("otf2", reason="the official otf2 Python package is not installed")
pytestmark = pytest.mark.skipif("otf2" not in _core.generator_formats(),
                                reason="this EARL was built without libotf2")

SHAPES = {
    "default": dict(),
    "every-collective": dict(collectives="allreduce,barrier,bcast,reduce,gather,scatter,allgather,"
                                         "alltoall,scan,exscan", msg_bytes=0),
    "nonblocking": dict(nonblocking=True),
    "nonblocking-neighbors": dict(nonblocking=True, pattern="neighbors", locations=5, late_sender_rate=0.3,
                                  out_of_order_rate=0.2),
    "threads-permuted": dict(threads=2, permute_ranks=True, locations=3),
}


class Archive:
    """Per location (EARL's numbering: definition order) the records that matter here, and
    MPI_COMM_WORLD's rank -> location."""

    def __init__(self, anchor):
        with otf2.reader.open(str(anchor)) as reader:
            d = reader.definitions
            index = {loc._ref: i for i, loc in enumerate(d.locations)}
            self.n = len(index)
            world = [c for c in d.comms if c.name == "MPI_COMM_WORLD"][0]
            self.rank_location = [index[m._ref] for m in world.group.members]
            self.events = collections.defaultdict(list)
            for loc, ev in reader.events:
                self.events[index[loc._ref]].append(ev)


def kind(ev):
    return type(ev).__name__


def program_root(a):
    """Per location: ProgramBegin to the first Enter plus the last Leave to ProgramEnd."""
    out = [0.0] * a.n
    for l, evs in a.events.items():
        if kind(evs[0]) == "ProgramBegin":
            assert kind(evs[-1]) == "ProgramEnd" and kind(evs[1]) == "Enter" and kind(evs[-2]) == "Leave"
            out[l] = ((evs[1].time - evs[0].time) + (evs[-1].time - evs[-2].time)) / 1e6
    return out


def call_times(a, region):
    """Per location with the call: (enter, leave) of its first `region`."""
    times = {}
    for l, evs in a.events.items():
        enter = next((e.time for e in evs if kind(e) == "Enter" and e.region.name == region), None)
        leave = next((e.time for e in evs if kind(e) == "Leave" and e.region.name == region), None)
        if enter is not None:
            times[l] = (enter, leave)
    return times


def init_completion(a):
    """MPI_INIT_COMPLETION: leave - max(earliest leave, min(latest enter, leave)), >= 0."""
    calls = call_times(a, "MPI_Init")
    latest = max(e for e, _ in calls.values())
    earliest_leave = min(x for _, x in calls.values())
    out = [0.0] * a.n
    for l, (enter, leave) in calls.items():
        out[l] = max(0.0, (leave - max(earliest_leave, min(latest, leave))) / 1e6)
    return out


def finalize_wait(a):
    """MPI_FINALIZE_WAIT: min(latest enter, leave) - enter, >= 0."""
    calls = call_times(a, "MPI_Finalize")
    latest = max(e for e, _ in calls.values())
    out = [0.0] * a.n
    for l, (enter, leave) in calls.items():
        out[l] = max(0.0, (min(latest, leave) - enter) / 1e6)
    return out


def message_counts(a):
    """Message.pattern's counts per location."""
    c = collections.defaultdict(lambda: [0] * a.n)
    for l, evs in a.events.items():
        for e in evs:
            k = kind(e)
            if k in ("MpiSend", "MpiIsend"):
                c["syncs_send" if e.msg_length == 0 else "comms_send"][l] += 1
                c["bytes_sent"][l] += e.msg_length
            elif k in ("MpiRecv", "MpiIrecv"):
                c["syncs_recv" if e.msg_length == 0 else "comms_recv"][l] += 1
                c["bytes_rcvd"][l] += e.msg_length
            elif k == "MpiCollectiveEnd":
                sent, received = e.size_sent != 0, e.size_received != 0
                name = {(False, False): "syncs_coll", (True, True): "comms_cxch",
                        (True, False): "comms_csrc", (False, True): "comms_cdst"}[(sent, received)]
                c[name][l] += 1
                c["bytes_cout"][l] += e.size_sent
                c["bytes_cin"][l] += e.size_received
    return c


def waitall_late_receivers(a):
    """MPI_LATERECEIVER in MPI_Waitall: per Waitall completing sends and without a late-sender
    candidate (a receive completed in it whose send's call began after the Waitall's enter,
    before its leave), the largest of enter(receiver's MPI_Irecv) - enter(Waitall) over its
    sends, where the Waitall left after that MPI_Irecv's enter; counted when > 0."""
    # The sends in order per (sender, receiver, tag) with their call's enter; the receives
    # (FIFO per sender and tag) with the enter of the MPI_Irecv that posted them.
    sends = collections.defaultdict(list)           # (src, dest, tag) -> [(send call enter, sender's request)]
    posted = {}                                      # (dest, request) -> MPI_Irecv enter
    receives = collections.defaultdict(list)        # (src, dest, tag) -> [(dest, request, enclosing wait)]
    waits = []                                       # (loc, enter, leave, [isend requests], [receive keys])
    for l, evs in a.events.items():
        stack = []
        for e in evs:
            k = kind(e)
            if k == "Enter":
                stack.append(e)
                if e.region.name == "MPI_Waitall":
                    waits.append([l, e.time, None, [], []])
            elif k == "Leave":
                stack.pop()
                if e.region.name == "MPI_Waitall":
                    waits[-1][2] = e.time
            elif k == "MpiIsend":
                sends[(l, a.rank_location[e.receiver], e.msg_tag)].append((stack[-1].time, e.request_id))
            elif k == "MpiIrecvRequest":
                posted[(l, e.request_id)] = stack[-1].time
            elif k == "MpiIrecv":
                key = (a.rank_location[e.sender], l, e.msg_tag)
                receives[key].append(posted[(l, e.request_id)])
                if stack[-1].region.name == "MPI_Waitall":
                    waits[-1][4].append((key, len(receives[key]) - 1))
            elif k == "MpiIsendComplete" and stack[-1].region.name == "MPI_Waitall":
                waits[-1][3].append(e.request_id)
    send_of_request = {}
    for (src, dest, tag), calls in sends.items():
        for i, (enter, request) in enumerate(calls):
            send_of_request[(src, request)] = (dest, tag, i, enter)
    by_location = [0.0] * a.n
    count = 0
    for l, enter, leave, requests, completed in waits:
        candidate = any(min(sends[key][i][0], leave) - enter > 0 for key, i in completed)
        if candidate or not requests:
            continue
        worst = 0
        for request in requests:
            dest, tag, i, _ = send_of_request[(l, request)]
            recv_posted = receives[(l, dest, tag)][i]
            if leave > recv_posted:
                worst = max(worst, recv_posted - enter)
        if worst > 0:
            count += 1
            by_location[l] += worst / 1e6
    return count, by_location


@pytest.mark.parametrize("options", SHAPES.values(), ids=SHAPES.keys())
def test_frame_and_counts_are_those_of_the_archive(tmp_path, options):
    anchor = tmp_path / "t.otf2"
    truth = generate(anchor, events=6000, seed=3, **options)
    a = Archive(anchor)
    assert truth["program_root"] == pytest.approx(program_root(a), abs=1e-12)
    assert truth["mpi_init_completion"] == pytest.approx(init_completion(a), abs=1e-12)
    assert truth["mpi_finalize_wait"] == pytest.approx(finalize_wait(a), abs=1e-12)
    # the frame gives every process time of its own at the root, and MPI_Init completion
    # time to those that leave it after the first (ties with the first have none)
    masters = range(0, a.n, options.get("threads", 1))
    assert all(truth["program_root"][l] > 0 for l in masters)
    assert sum(truth["mpi_init_completion"][l] > 0 for l in masters) >= 1
    counts = message_counts(a)
    for name, values in truth["message_counts"].items():
        assert values == counts[name], name
    assert sum(truth["message_counts"]["comms_send"]) + sum(truth["message_counts"]["syncs_send"]) == \
        truth["messages"]
    if options.get("msg_bytes") == 0:
        assert sum(truth["message_counts"]["syncs_send"]) == truth["messages"] > 0


@pytest.mark.parametrize("options", [SHAPES["nonblocking"], SHAPES["nonblocking-neighbors"]],
                         ids=["ring", "neighbors"])
def test_waitall_late_receivers_are_those_of_the_archive(tmp_path, options):
    """The non-blocking shape makes them (a send completes once its receive is posted);
    with neighbors, some MPI_Waitall also complete a late receive and are not counted."""
    anchor = tmp_path / "t.otf2"
    truth = generate(anchor, events=10000, seed=1, **options)
    count, by_location = waitall_late_receivers(Archive(anchor))
    got = truth["waitall_late_receivers"]
    assert got["count"] == count > 5
    assert got["by_location"] == pytest.approx(by_location, abs=1e-12)
    assert got["wait_total"] == pytest.approx(sum(by_location), abs=1e-12)


def test_alog_truth_has_no_program_root_nor_collective_counts(tmp_path):
    truth = generate(tmp_path / "t.alog", events=3000)
    assert "program_root" not in truth and "waitall_late_receivers" not in truth
    assert set(truth["message_counts"]) == {"syncs_send", "syncs_recv", "comms_send", "comms_recv",
                                            "bytes_sent", "bytes_rcvd"}
    assert sum(truth["mpi_init_completion"]) > 0 and sum(truth["mpi_finalize_wait"]) > 0


@pytest.mark.parametrize("options", [SHAPES["every-collective"], SHAPES["nonblocking-neighbors"],
                                     SHAPES["threads-permuted"]],
                         ids=["every-collective", "nonblocking-neighbors", "threads-permuted"])
def test_earl_analyze_finds_the_truth(tmp_path, options):
    """`earl analyze` computes each of these metrics per location as the truth has it, and
    roots the call tree at the program with the truth's program root time."""
    import earl
    anchor = tmp_path / "t.otf2"
    truth = generate(anchor, events=6000, seed=5, **options)
    report = earl.analyze(str(anchor))
    n = len(truth["program_root"])

    def per_location(metric):
        got = report.by_location(metric)
        return [got.get(l, 0) for l in range(n)]
    for metric in ("mpi_init_completion", "mpi_finalize_wait"):
        assert per_location(metric) == pytest.approx(truth[metric], abs=1e-12), metric
    for metric, values in truth["message_counts"].items():
        assert per_location(metric) == values, metric
    if "waitall_late_receivers" in truth:
        assert per_location("mpi_latereceiver") == pytest.approx(
            truth["waitall_late_receivers"]["by_location"], abs=1e-12)
    root_time = report.by_callpath("time")["earl-gen-program"]
    assert root_time == pytest.approx(sum(truth["program_root"]), abs=1e-12)
