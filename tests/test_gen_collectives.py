"""The generator's collective kinds (`collectives`, cpp/gen/generator.h and
cpp/gen/collective_kinds.h: the rounds end with MPI_Allreduce, MPI_Barrier, MPI_Bcast,
MPI_Reduce, MPI_Gather, MPI_Scatter, MPI_Allgather, MPI_Alltoall, MPI_Scan or MPI_Exscan in
turn) against its ground truth: the analysis finds each collective pattern's waits (Late
Broadcast, Early Reduce, Early Scan, Wait at NxN, Wait at Barrier and their completions)
exactly, per location, instance and call path, on ALOG and OTF2 (permuted ranks: Early Scan
in MPI_COMM_WORLD's rank order; threads), the other injected waits are still found, and
the OTF2 records are the operations Score-P writes, read back with the official reader."""
from collections import Counter

import pytest

import earl
from gen_truth_checks import generated  # noqa: F401 (the fixture of test_analysis' tests)
from gen_truth_checks import FRAME_REGIONS, callpath, STANDARD_CASES, approx, check_profile, generate_and_analyze, needs_otf2
from test_analysis import MPI_REGIONS, test_late_senders_are_the_injected_ones  # noqa: F401


KINDS = "allreduce,bcast,reduce,gather,scatter,allgather,alltoall,scan,exscan,barrier"
REGION = {k: "MPI_" + k.capitalize() for k in KINDS.split(",")}
REGION.update(allreduce="MPI_Allreduce", allgather="MPI_Allgather", alltoall="MPI_Alltoall")
ROOTED = {"MPI_Bcast", "MPI_Scatter", "MPI_Reduce", "MPI_Gather"}
# Scalasca's metric of each kind's wait (and completion), as its pattern docs name them.
METRICS = {"MPI_Allreduce": ("mpi_wait_nxn", "mpi_nxn_completion"),
           "MPI_Allgather": ("mpi_wait_nxn", "mpi_nxn_completion"),
           "MPI_Alltoall": ("mpi_wait_nxn", "mpi_nxn_completion"),
           "MPI_Barrier": ("mpi_barrier_wait", "mpi_barrier_completion"),
           "MPI_Bcast": ("mpi_latebroadcast",), "MPI_Scatter": ("mpi_latebroadcast",),
           "MPI_Reduce": ("mpi_earlyreduce",), "MPI_Gather": ("mpi_earlyreduce",),
           "MPI_Scan": ("mpi_earlyscan",), "MPI_Exscan": ("mpi_earlyscan",)}
ALL_METRICS = sorted({m for ms in METRICS.values() for m in ms})

CASES = STANDARD_CASES


@pytest.fixture(scope="module", params=CASES)
def generated_run(request, tmp_path_factory):
    return generate_and_analyze(request.param, tmp_path_factory, imbalance_rate=0.4, barrier_every=4,
                                collectives=KINDS)


def rooted_invisible(path):
    """ALOG records no root: the analysis counts those instances as problems instead."""
    return path.suffix == ".alog"


def test_every_kind_ends_rounds_in_turn(generated_run):
    _, _, truth = generated_run
    kinds = KINDS.split(",")
    assert [i["region"] for i in truth["imbalance"]] == \
        [REGION[kinds[r % len(kinds)]] for r in range(truth["rounds"])]
    n = truth["locations"]
    rank_process = truth.get("rank_process", list(range(n)))
    for r, instance in enumerate(truth["imbalance"]):
        # the root is MPI_COMM_WORLD rank (round mod N)
        expected = rank_process[r % n] if instance["region"] in ROOTED else None
        assert instance["root"] == expected
        assert ("completion" in instance) == (len(METRICS[instance["region"]]) == 2)


def test_truth_applies_the_formulas_to_each_instance(generated_run):
    """The per-metric totals are the instances' waits, summed by the pattern of their kind;
    the generator makes every pattern occur and leaves nothing for completion."""
    _, _, truth = generated_run
    totals, counts = Counter(), Counter()
    for instance in truth["imbalance"]:
        metrics = METRICS[instance["region"]]
        for wait in instance["waits"]:
            totals[metrics[0]] += wait
            counts[metrics[0]] += wait > 0
        for done in instance.get("completion", ()):
            assert done == 0
        if instance["region"] in ("MPI_Bcast", "MPI_Scatter"):
            assert instance["waits"][instance["root"]] == 0
        if instance["region"] in ("MPI_Reduce", "MPI_Gather"):
            assert [w for p, w in enumerate(instance["waits"]) if p != instance["root"]] == [0] * 3
    patterns = truth["collective_patterns"]
    assert set(patterns) == {"mpi_wait_nxn", "mpi_barrier_wait", "mpi_latebroadcast",
                             "mpi_earlyreduce", "mpi_earlyscan"}
    for metric, entry in patterns.items():
        assert entry["total"] == approx(totals[metric]) and entry["total"] > 0
        assert entry["count"] == counts[metric] > 0
        assert sum(entry["by_process"]) == approx(entry["total"])
    assert truth["imbalance_wait_total"] == approx(sum(totals.values()))


def test_collective_waits_are_the_injected_ones(generated_run):
    path, report, truth = generated_run
    threads = truth.get("threads", 1)
    patterns = truth["collective_patterns"]
    for metric in ALL_METRICS:
        entry = patterns.get(metric, dict(total=0.0, count=0, by_process=[0.0] * truth["locations"]))
        if rooted_invisible(path) and metric in ("mpi_latebroadcast", "mpi_earlyreduce"):
            entry = dict(total=0.0, count=0, by_process=[0.0] * truth["locations"])
        assert report.total(metric) == approx(entry["total"]), metric
        assert report.instances(metric) == entry["count"], metric
        got = report.by_location(metric)
        expected = {p * threads: w for p, w in enumerate(entry["by_process"]) if w > 0}
        assert got.keys() == expected.keys(), metric
        for loc, wait in expected.items():
            assert got[loc] == approx(wait), (metric, loc)
        regions = {r for r, ms in METRICS.items() if metric == ms[0]}
        if entry["count"]:
            assert set(report.by_callpath(metric)) == {callpath(truth, "main/" + r) for r in regions}


COLLECTIVE_REGIONS = dict(MPI_REGIONS, **FRAME_REGIONS, **{r: "mpi_collective" for r in METRICS if r != "MPI_Barrier"})


def test_profile_is_the_region_time_of_the_truth(generated_run):
    path, report, truth = generated_run
    rooted = sum(i["region"] in ROOTED for i in truth["imbalance"])
    check_profile(report, truth, COLLECTIVE_REGIONS,
                  dict(collective_root_unknown=rooted) if rooted_invisible(path) else None)


# ----------------------------------------------------------------- OTF2, as Score-P writes it
@needs_otf2
def test_otf2_operations_roots_and_bytes(tmp_path):
    """Every collective call is Enter, MpiCollectiveBegin, MpiCollectiveEnd, Leave with the
    operation of its region, MPI_COMM_WORLD, the root's rank (rooted kinds) and one 8-byte
    value per rank moved the way Score-P counts it (a root's own share included)."""
    otf2 = pytest.importorskip("otf2")
    from otf2.enums import CollectiveOp
    from earl.generate import generate
    path = tmp_path / "coll.otf2"
    truth = generate(path, locations=3, events=3000, seed=5, permute_ranks=True, threads=2,
                     collectives=KINDS)
    n = truth["locations"]
    rank_of = {p: r for r, p in enumerate(truth["rank_process"])}
    with otf2.reader.open(str(path)) as reader:
        streams = {}
        for location, event in reader.events:
            streams.setdefault(location, []).append(event)
    undefined = 2 ** 32 - 1
    seen = Counter()
    for location, events in streams.items():
        if location.name != "Master thread":
            assert not any(type(e).__name__.startswith("MpiCollective") for e in events)
            continue
        rank = int(location.group.name.split()[-1])
        calls = [i for i, e in enumerate(events) if type(e).__name__ == "Enter" and e.region.name in METRICS]
        assert len(calls) == truth["rounds"]
        for k, i in enumerate(calls):
            enter, begin, end, leave = events[i:i + 4]
            region = enter.region.name
            instance = truth["imbalance"][k]
            assert instance["region"] == region
            assert [type(e).__name__ for e in (begin, end, leave)] == \
                ["MpiCollectiveBegin", "MpiCollectiveEnd", "Leave"]
            assert end.collective_op == getattr(CollectiveOp, region[4:].upper())
            assert end.communicator.name == "MPI_COMM_WORLD"
            root = rank_of[instance["root"]] if instance["root"] is not None else undefined
            assert end.root == root
            is_root = rank == root
            sent, received = {
                "MPI_Barrier": (0, 0), "MPI_Allreduce": (8, 8), "MPI_Allgather": (8, 8 * n),
                "MPI_Alltoall": (8 * n, 8 * n), "MPI_Scan": (8, 8),
                "MPI_Exscan": (8, 0 if rank == 0 else 8),
                "MPI_Bcast": (8 * n if is_root else 0, 8), "MPI_Scatter": (8 * n if is_root else 0, 8),
                "MPI_Reduce": (8, 8 * n if is_root else 0), "MPI_Gather": (8, 8 * n if is_root else 0),
            }[region]
            assert (end.size_sent, end.size_received) == (sent, received), (region, rank)
            assert enter.time == begin.time and end.time == leave.time
            seen[region] += 1
    assert set(seen) == set(METRICS) and sum(seen.values()) == n * truth["rounds"]


# ----------------------------------------------------------------- options
def test_no_collectives_option_changes_nothing(tmp_path):
    from earl.generate import generate
    plain = generate(tmp_path / "a.alog", events=3000, seed=2)
    same = generate(tmp_path / "b.alog", events=3000, seed=2, collectives="")
    assert (tmp_path / "a.alog").read_bytes() == (tmp_path / "b.alog").read_bytes()
    assert "collective_patterns" not in plain and "root" not in plain["imbalance"][0]
    assert dict(same, options=plain["options"]) == plain


def test_allreduce_and_barrier_as_before(tmp_path):
    """Naming the default kinds explicitly gives the same events and waits as barrier_every
    (every second round a barrier here)."""
    from earl.generate import generate
    old = generate(tmp_path / "a.alog", events=3000, seed=2, barrier_every=2)
    new = generate(tmp_path / "b.alog", events=3000, seed=2, collectives="allreduce,barrier")
    assert (tmp_path / "a.alog").read_bytes() == (tmp_path / "b.alog").read_bytes()
    assert [i["waits"] for i in new["imbalance"]] == [i["waits"] for i in old["imbalance"]]
    assert new["imbalance_wait_total"] == old["imbalance_wait_total"]


@pytest.mark.parametrize("value,named", [("bcast,allreduc", "'allreduc'"), ("bcast,", "''"),
                                         ("Bcast", "'Bcast'")])
def test_bad_collectives_are_named(tmp_path, value, named):
    from earl.generate import generate
    with pytest.raises(earl.EarlError, match="collectives must be a comma-separated list.*got " + named):
        generate(tmp_path / "x.alog", events=100, collectives=value)
    assert not (tmp_path / "x.alog").exists()


def test_command_line_takes_the_list(tmp_path):
    import json
    from earl.cli import main as earl_main
    out = tmp_path / "cli.alog"
    assert earl_main(["gen", str(out), "-e", "2000", "-q", "--collectives", "scan,bcast"]) == 0
    truth = json.load(open(str(out) + ".truth.json"))
    assert truth["options"]["collectives"] == "scan,bcast"
    assert [i["region"] for i in truth["imbalance"][:4]] == ["MPI_Scan", "MPI_Bcast"] * 2


def test_the_waits_come_from_the_injected_imbalance(tmp_path):
    """Without imbalance (and late senders) every kind waits only for jitter, a few tens of
    microseconds at most; with it (800 us mean) far longer, in every pattern."""
    from earl.generate import generate
    quiet = dict(events=4000, seed=6, late_sender_rate=0.0, out_of_order_rate=0.0, collectives=KINDS)
    balanced = generate(tmp_path / "b.alog", imbalance_rate=0.0, **quiet)
    imbalanced = generate(tmp_path / "i.alog", imbalance_rate=0.5, **quiet)
    assert max(max(i["waits"]) for i in balanced["imbalance"]) < 50e-6
    for metric in ("mpi_wait_nxn", "mpi_barrier_wait", "mpi_latebroadcast", "mpi_earlyreduce",
                   "mpi_earlyscan"):
        worst = max(max(i["waits"]) for i in imbalanced["imbalance"] if METRICS[i["region"]][0] == metric)
        assert worst > 200e-6, metric
