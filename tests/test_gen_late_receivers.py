"""The generator's late receivers (`late_receiver_rate`, cpp/gen/generator.h: some
processes send their first message with MPI_Ssend, which leaves only after the receiver,
delayed, entered MPI_Recv) against its ground truth: the analysis finds exactly the late
receivers the generator computed by Scalasca's rule (enter of the receive - enter of the
blocking send, when the send left after that), on ALOG and OTF2; a second computation from
the OTF2 records, read with the official reader, agrees; the other injected waits (late
senders, collective imbalance, every collective kind) are still found."""
from collections import defaultdict, deque

import pytest

import earl
from gen_truth_checks import generated  # noqa: F401 (the fixture of test_analysis' tests)
from gen_truth_checks import (FRAME_REGIONS, callpath, ALOG_NEIGHBORS, STANDARD_CASES, approx, check_by_location,
                              check_profile, generate_and_analyze, needs_otf2, otf2_streams)
from test_analysis import (MPI_REGIONS, test_collective_waits_are_the_injected_imbalance,  # noqa: F401
                           test_late_senders_are_the_injected_ones)


LATE = dict(late_receiver_rate=0.4, late_receiver_us=300)
CASES = [*STANDARD_CASES, ALOG_NEIGHBORS]
SENDS = ("MPI_Send", "MPI_Ssend")


@pytest.fixture(scope="module", params=CASES)
def generated_run(request, tmp_path_factory):
    return generate_and_analyze(request.param, tmp_path_factory, **LATE)


def test_late_receivers_are_the_injected_ones(generated):
    report, truth = generated
    assert truth["injected"]["late_receivers"] > 0 and not truth["truncated"]["late_receivers"]
    assert truth["late_receiver_count"] == len(truth["late_receivers"]) > 0
    assert report.total("mpi_latereceiver") == approx(truth["late_receiver_wait_total"])
    assert report.instances("mpi_latereceiver") == truth["late_receiver_count"]
    expected = defaultdict(float)
    for late in truth["late_receivers"]:
        assert late["wait"] == approx(late["recv_enter"] - late["send_enter"]) and late["wait"] > 0
        expected[late["src"]] += late["wait"]
    got = report.by_location("mpi_latereceiver")
    assert got.keys() == expected.keys()
    for loc, wait in expected.items():
        assert got[loc] == approx(wait)
    paths = report.by_callpath("mpi_latereceiver")
    assert set(paths) <= {callpath(truth, "main/step/exchange/" + s) for s in SENDS}
    # The injected ones wait in MPI_Ssend, far longer than a standard send ever waits.
    ssend = paths[callpath(truth, "main/step/exchange/MPI_Ssend")]
    assert ssend > 10 * paths.get(callpath(truth, "main/step/exchange/MPI_Send"), 0.0)


def test_each_injection_is_one_ssend(generated_run):
    """Every MPI_Ssend call is an injection (that its receive was posted before it left is
    checked in tests/cpp/generator_test.cpp); unless its sender was late as well, it is a
    late receiver."""
    _, report, truth = generated_run
    ssends = sum(t.get("MPI_Ssend", {}).get("count", 0) for t in truth["region_time"].values())
    assert ssends == truth["injected"]["late_receivers"] > 0
    assert report.instances("mpi_latereceiver") >= ssends - truth["injected"]["late_senders"]


P2P_REGIONS = dict(MPI_REGIONS, **FRAME_REGIONS, MPI_Ssend="mpi_point2point")


def test_profile_is_the_region_time_of_the_truth(generated):
    check_profile(*generated, P2P_REGIONS)


# ----------------------------------------------------------------- a second computation
def late_receivers_from_otf2(anchor):
    """Scalasca's late receiver on the OTF2 records alone (official reader): the k-th
    MpiSend of a (source, destination, tag) channel matches its k-th MpiRecv; a send in
    MPI_Send/MPI_Ssend whose call left after the enter of the receive's MPI_Recv waited
    that enter - the send call's enter. Returns ({location index: total}, instances)."""
    locations, streams, seconds = otf2_streams(anchor)

    def rank(location):
        return int(location.group.name.split()[-1])

    sends = defaultdict(deque)  # channel -> (location index, enter, leave) of the send call
    for location, events in streams.items():
        stack, inside = [], []
        for e in events:
            kind = type(e).__name__
            if kind == "Enter":
                stack.append((e.region.name, e.time))
            elif kind == "MpiSend":
                inside.append((rank(location), e.receiver, e.msg_tag))
            elif kind == "Leave":
                name, enter = stack.pop()
                for channel in inside:
                    assert name in SENDS
                    sends[channel].append((locations.index(location), enter, e.time))
                inside = []
    totals, instances = defaultdict(float), 0
    for location, events in streams.items():
        stack = []
        for e in events:
            kind = type(e).__name__
            if kind == "Enter":
                stack.append((e.region.name, e.time))
            elif kind == "Leave":
                stack.pop()
            elif kind == "MpiRecv":
                name, posted = stack[-1]
                loc, enter, leave = sends[(e.sender, rank(location), e.msg_tag)].popleft()
                if name == "MPI_Recv" and leave > posted and posted > enter:
                    totals[loc] += seconds(posted) - seconds(enter)
                    instances += 1
    return dict(totals), instances


@needs_otf2
def test_a_second_computation_from_the_otf2_records_agrees(generated_run):
    path, report, truth = generated_run
    if path.suffix != ".otf2":
        pytest.skip("the second computation reads OTF2")
    pytest.importorskip("otf2")
    totals, instances = late_receivers_from_otf2(path)
    assert instances == truth["late_receiver_count"] == report.instances("mpi_latereceiver")
    check_by_location(report, "mpi_latereceiver", totals)


# ----------------------------------------------------------------- with every collective kind
@needs_otf2
def test_with_every_collective_kind(tmp_path):
    """Late receivers and the collective kinds together: both found exactly."""
    from earl.generate import generate
    from test_gen_collectives import KINDS
    path = tmp_path / "both.otf2"
    truth = generate(path, locations=5, events=6000, seed=11, imbalance_rate=0.4,
                     collectives=KINDS, **LATE)
    report = earl.analyze(path, progress=lambda f: None)
    assert truth["late_receiver_wait_total"] > 0
    assert report.total("mpi_latereceiver") == approx(truth["late_receiver_wait_total"])
    assert report.instances("mpi_latereceiver") == truth["late_receiver_count"]
    for metric, entry in truth["collective_patterns"].items():
        assert report.total(metric) == approx(entry["total"]), metric
        assert report.instances(metric) == entry["count"], metric
    assert not any(report.problems.values())


# ----------------------------------------------------------------- options
def test_off_by_default(tmp_path):
    from earl.generate import generate
    plain = generate(tmp_path / "a.alog", events=3000, seed=2)
    tuned = generate(tmp_path / "b.alog", events=3000, seed=2, late_receiver_rate=0, late_receiver_us=5)
    assert (tmp_path / "a.alog").read_bytes() == (tmp_path / "b.alog").read_bytes()
    for truth in (plain, tuned):
        assert "late_receiver_count" not in truth and "late_receivers" not in truth["injected"]
        assert "MPI_Ssend" not in truth["regions"]


def test_needs_the_blocking_exchange(tmp_path):
    from earl.generate import generate
    with pytest.raises(earl.EarlError, match="late_receiver_rate needs the blocking exchange"):
        generate(tmp_path / "x.alog", events=100, nonblocking=True, late_receiver_rate=0.5)


def test_truth_limit_keeps_the_totals(tmp_path):
    from earl.generate import generate
    full = generate(tmp_path / "full.alog", events=4000, seed=8, late_receiver_rate=0.5)
    short = generate(tmp_path / "short.alog", events=4000, seed=8, late_receiver_rate=0.5, truth_limit=2)
    assert len(full["late_receivers"]) == full["late_receiver_count"] > 2
    assert short["late_receivers"] == full["late_receivers"][:2] and short["truncated"]["late_receivers"]
    assert short["late_receiver_wait_total"] == full["late_receiver_wait_total"]
