"""What the tests of the generator's shapes against its ground truth share
(tests/test_gen_*.py): the runs each shape is checked on, generating and analysing one, the
`generated` fixture test_analysis' ground-truth tests take, and the profile check."""
import pytest

import earl
from script_checks import have_otf2

needs_otf2 = pytest.mark.skipif(not have_otf2(), reason="no OTF2 support")

# Every shape is checked on ALOG, OTF2, OTF2 with permuted ranks and OTF2 with threads.
STANDARD_CASES = [
    pytest.param(("alog", dict()), id="alog"),
    pytest.param(("otf2", dict()), id="otf2", marks=needs_otf2),
    pytest.param(("otf2", dict(permute_ranks=True)), id="otf2-permuted", marks=needs_otf2),
    pytest.param(("otf2", dict(threads=2, seed=7)), id="otf2-threads", marks=needs_otf2),
]
ALOG_NEIGHBORS = pytest.param(("alog", dict(pattern="neighbors", locations=5, seed=4)), id="alog-neighbors")

BASE_OPTIONS = dict(locations=4, events=8000, seed=3, late_sender_rate=0.3, imbalance_rate=0.3,
                    out_of_order_rate=0.2, barrier_every=3)


def generate_and_analyze(case, tmp_path_factory, **shape):
    """(path, report, truth) of the run `case` (format, its own options) names, generated
    with BASE_OPTIONS, then `shape`, then the case's options."""
    from earl.generate import generate
    fmt, extra = case
    options = dict(BASE_OPTIONS, **shape)
    options.update(extra)
    path = tmp_path_factory.mktemp("gen") / f"run.{fmt}"
    truth = generate(path, format=fmt, **options)
    return path, earl.analyze(path, progress=lambda f: None), truth


def otf2_streams(anchor):
    """An OTF2 archive read with the official reader (a second implementation): its
    locations, each location's events in order, and the clock's ticks -> seconds."""
    import otf2
    from collections import defaultdict
    with otf2.reader.open(str(anchor)) as reader:
        clock = reader.definitions.clock_properties
        locations = list(reader.definitions.locations)
        streams = defaultdict(list)
        for location, event in reader.events:
            streams[location].append(event)

    def seconds(t):
        return (t - clock.global_offset) / clock.timer_resolution

    return locations, streams, seconds


@pytest.fixture(scope="module")
def generated(generated_run):
    """(report, truth), the fixture of the ground-truth tests imported from test_analysis."""
    return generated_run[1:]


def approx(x):
    return pytest.approx(x, abs=1e-9)


def check_by_location(report, metric, totals):
    """The report's `metric` per location is `totals` ({location: seconds}), no more."""
    got = report.by_location(metric)
    assert got.keys() == totals.keys()
    for loc, total in totals.items():
        assert got[loc] == approx(total)


# The program frame's MPI calls (every generated trace has them) and the metric their time
# goes to (Scalasca's Init/Exit).
FRAME_REGIONS = {"MPI_Init": "mpi_init_exit", "MPI_Finalize": "mpi_init_exit"}


# The program of the ProgramBegin records `earl gen` writes (OTF2): the call tree's root.
PROGRAM = "earl-gen-program"


PROGRAM_RECORDS = ("program_begin", "program_end")   # EARL's names of OTF2's program records


POSITION_FIELDS = ("pos", "enterptr", "sendptr", "forkptr")


class AlogPositions:
    """The program records only OTF2 holds shift the positions of an archive's events
    against the ALOG version's: this maps them both ways (0, no event, stays 0)."""

    def __init__(self, otf2_trace):
        self.of_otf2 = {0: 0}
        self.to_otf2 = [0]
        for e in otf2_trace:
            if e["type"] not in PROGRAM_RECORDS:
                self.of_otf2[e["pos"]] = len(self.to_otf2)
                self.to_otf2.append(e["pos"])

    def event(self, event):
        """An OTF2 event with ALOG's positions."""
        return {k: self.of_otf2[v] if k in POSITION_FIELDS else v for k, v in event.items()}

    def positions(self, positions):
        return [self.of_otf2[p] for p in positions]


def callpath(truth, path):
    """The call path `path` (from main) as the report names it: under the program root on
    OTF2 archives (whose truth has program_root), from main on ALOG (no program records)."""
    return PROGRAM + "/" + path if "program_root" in truth else path


def program_root(truth, loc):
    """(time, visits) of the program root on location `loc`: its own time, one visit on
    every location with a ProgramBegin (the master threads; its time there is > 0)."""
    own = truth.get("program_root", [0.0] * (loc + 1))[loc]
    return own, 1 if own > 0 else 0


def check_profile(report, truth, metric_of_region, problems=None):
    """Per location: time, comp, visits and each MPI class metric are the region times of
    the truth (`metric_of_region`: MPI region name -> the metric its time goes to) and the
    program root's (computation); the report counts no problems but `problems` ({name:
    count})."""
    for loc, regions in truth["region_time"].items():
        loc = int(loc)
        root_time, root_visits = program_root(truth, loc)
        assert report.by_location("time")[loc] == approx(sum(t["excl"] for t in regions.values()) + root_time)
        assert report.by_location("comp")[loc] == approx(
            sum(t["excl"] for r, t in regions.items() if r not in metric_of_region) + root_time)
        assert report.by_location("visits")[loc] == sum(t["count"] for t in regions.values()) + root_visits
        for metric in set(metric_of_region.values()):
            expected = sum(t["excl"] for r, t in regions.items() if metric_of_region.get(r) == metric)
            assert report.by_location(metric).get(loc, 0.0) == approx(expected)
    assert {k: v for k, v in report.problems.items() if v} == (problems or {}), report.problems
