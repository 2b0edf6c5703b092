"""Issue 11's shapes at small sizes: many messages in flight (`earl gen --in-flight`, with one
tag per message too), deep recursion (`--depth`) and many locations, checked against the
pure-Python reference model (tests/reference_model.py) and the generator's ground truth on
every bdist/hsize corner, with memory budgets small enough to widen bdist; random access
equals the sequential scan, in ALOG and OTF2 (nothing here is timed)."""
import subprocess
import sys

import pytest

import earl
from alog_traces import SeededSource
from gen_truth_checks import PROGRAM_RECORDS, AlogPositions
from earl.generate import generate
from reference_model import ReferenceTrace
from test_model_based import BDISTS, HSIZES, Checker, check_event_dict, corner

SHAPES = {
    "in_flight": dict(locations=4, events=1200, in_flight=60),
    "own_tags": dict(locations=3, events=1200, in_flight=45, tag_per_message=True),
    "deep": dict(locations=3, events=1500, depth=40),
    "wide": dict(locations=96, events=2500),
    "threads": dict(locations=3, threads=3, events=1500, depth=6, in_flight=12),
}


@pytest.fixture(scope="module")
def shapes(tmp_path_factory):
    """name -> (ALOG path, OTF2 anchor, ground truth, reference model of the ALOG text)."""
    root = tmp_path_factory.mktemp("shapes")
    made = {}
    for name, options in SHAPES.items():
        alog = str(root / f"{name}.alog")
        truth = generate(alog, seed=7, **options)
        otf2 = str(root / f"{name}.otf2")
        assert generate(otf2, seed=7, **options)["events"] == truth["events"]
        with open(alog, encoding="latin-1") as f:
            ref = ReferenceTrace.parse(f.read())
        assert ref.m == truth["events"]
        made[name] = (alog, otf2, truth, ref)
    return made


def test_shapes_are_what_the_options_ask_for(shapes):
    """The ground truth (counted by the generator's own collector) against the options."""
    _, _, truth, _ = shapes["in_flight"]
    # 60 extra messages per round plus one ring message per process: all sent before the
    # first receive of their destination, so at least 60 are in flight at once.
    assert truth["max_in_flight"] >= 60
    assert truth["options"]["in_flight"] == 60 and truth["options"]["depth"] == 0
    _, _, truth, ref = shapes["own_tags"]
    tags = {e.tag for e in (ref.event(p) for p in range(1, ref.m + 1)) if e.type == "send"}
    assert set(range(1000, 1045)) <= tags                     # one tag per message
    _, _, truth, _ = shapes["deep"]
    # main, step, compute, 40 x recursion, kernel
    assert truth["max_depth"] == 3 + 40 + 1
    assert "recursion" in truth["regions"]
    _, _, truth, _ = shapes["wide"]
    assert len(truth["location_names"]) == 96 and truth["max_depth"] == 4


@pytest.mark.parametrize("name", list(SHAPES))
def test_ground_truth_matches_earl_state(shapes, name):
    """max_in_flight and max_depth of the truth equal what EARL's state shows at some
    position and never exceeds."""
    alog, _, truth, ref = shapes[name]
    with earl.EventTrace(alog, bdist=97, hsize=10) as tr:
        in_flight = depth = 0
        for pos in range(1, len(tr) + 1):
            tr.jump(pos)
            in_flight = max(in_flight, len(tr.queue(-1, -1)))
            event = tr.event()
            depth = max(depth, len(tr.stack(event["loc"])))
        assert in_flight == truth["max_in_flight"]
        assert depth == truth["max_depth"]


def budget_corners(m):
    """bdist/hsize corners, each with no budget and with one that forces widening."""
    for bdist_kind in BDISTS:
        for hsize_kind in HSIZES:
            yield corner(bdist_kind, m), corner(hsize_kind, m)


@pytest.mark.parametrize("name", list(SHAPES))
@pytest.mark.parametrize("memory", [None, 6000], ids=["unbounded", "tight"])
def test_every_corner_matches_reference(shapes, name, memory):
    alog, _, _, ref = shapes[name]
    src = SeededSource(len(name))
    for bdist, hsize in budget_corners(ref.m):
        tr = earl.EventTrace(alog, bdist=bdist, hsize=hsize, memory=memory)
        try:
            marks = tr.bookmarks()
            if memory:
                assert marks["memory"] <= memory
                if bdist in (1, 2, 7):
                    assert marks["bdist"] > bdist          # widened
            else:
                assert marks["bdist"] == bdist
            chk = Checker(tr, ref, src, f"[{name} bdist={bdist} hsize={hsize} memory={memory}]")
            chk.static()
            chk.random_plan(n_ops=40, max_walk=12)
            positions = list(range(ref.m + 1))
            src.shuffle(positions)
            for p in positions[:60]:                       # random order: whole states
                if p:
                    chk.event(p, full=False)
                chk.state(p, thorough=ref.nrlocs <= 6)
        finally:
            tr.close()


@pytest.mark.parametrize("name", list(SHAPES))
def test_otf2_random_access_equals_alog_scan(shapes, name):
    """The OTF2 archive of the same run, through the event cache and direct, with a tight
    budget: every event in random order equals the ALOG trace's sequential scan."""
    alog, otf2, _, ref = shapes[name]
    with earl.EventTrace(alog, bdist=0, hsize=10) as scan:
        want = [scan.event(p) for p in range(1, len(scan) + 1)]   # bdist 0: one pass
    keys = ("loc", "time", "enterptr", "sendptr", "tag", "len", "region")
    with earl.EventTrace(otf2, bdist=0, hsize=10) as tr:
        at = AlogPositions(tr)           # past the program records only OTF2 holds
    for cache in (True, False):
        with earl.EventTrace(otf2, bdist=50, hsize=8, memory=20000, cache=cache) as tr:
            assert tr.bookmarks()["memory"] <= 20000
            assert len(tr) == len(want) + sum(1 for e in tr if e["type"] in PROGRAM_RECORDS)
            order = list(range(1, len(want) + 1))
            SeededSource(3).shuffle(order)
            for p in order:
                got = at.event(tr.event(at.to_otf2[p]))
                for key in keys:
                    if key in want[p - 1]:
                        assert got[key] == want[p - 1][key], (name, cache, p, key)
            for p in order[:40]:
                assert at.positions(tr.queue(-1, -1, at.to_otf2[p])) == ref.queue(-1, -1, p)
                loc = want[p - 1]["loc"]
                assert at.positions(tr.stack(loc, at.to_otf2[p])) == ref.stack(loc, p)


def test_budget_widens_instead_of_growing(shapes):
    """Halving the budget never raises the memory above it; bdist doubles as needed."""
    alog, _, _, ref = shapes["in_flight"]
    seen = []
    for memory in (10 ** 7, 40000, 12000, 4000, 1000):
        with earl.EventTrace(alog, bdist=5, hsize=3, memory=memory) as tr:
            marks = tr.bookmarks()
            assert marks["memory"] <= memory and marks["budget"] == memory
            bdist = marks["bdist"]
            assert bdist % 5 == 0 and (bdist // 5) & (bdist // 5 - 1) == 0   # 5 * 2^k
            seen.append(bdist)
            for p in range(ref.m, 0, -37):
                check_event_dict(tr.event(p), ref.event(p).as_dict(), f"memory {memory}")
                assert tr.queue(-1, -1, p) == ref.queue(-1, -1, p)
    assert seen == sorted(seen) and seen[0] == 5 and seen[-1] > 5


def test_memory_argument_and_environment(shapes, monkeypatch):
    alog = shapes["deep"][0]
    for bad in (0, -3):
        with pytest.raises(earl.EarlError, match="memory must be a positive number of bytes"):
            earl.EventTrace(alog, memory=bad)
    monkeypatch.setenv("EARL_MEMORY", "lots")
    with pytest.raises(earl.EarlError, match="EARL_MEMORY must be a number of bytes.*'lots'"):
        earl.EventTrace(alog)
    monkeypatch.setenv("EARL_MEMORY", "64K")
    with earl.EventTrace(alog) as tr:
        assert tr.bookmarks()["budget"] == 64 * 1024
    with earl.EventTrace(alog, memory=5000) as tr:     # the argument wins
        assert tr.bookmarks()["budget"] == 5000
    monkeypatch.delenv("EARL_MEMORY")
    with earl.EventTrace(alog) as tr:
        assert tr.bookmarks()["budget"] == 256 * 1024 * 1024


def test_bookmarks_share_state(shapes):
    """Deep stacks held across many bookmarks are stored once, not per bookmark: with
    bdist 1 the 44-deep stack of every location would cost every bookmark ~130 records."""
    alog, _, truth, ref = shapes["deep"]
    with earl.EventTrace(alog, bdist=1, hsize=1) as tr:
        marks = tr.bookmarks()
        assert marks["count"] == ref.m and marks["bdist"] == 1
        full_copies = ref.m * truth["max_depth"] * 64      # 64 bytes: less than a record
        assert marks["memory"] < full_copies / 4
        assert 1 <= marks["checkpoints"] < ref.m / 10


def test_info_reports_bookmarks(shapes):
    alog = shapes["deep"][0]
    out = subprocess.run([sys.executable, "-m", "earl.cli", "info", "--memory", "9000", alog],
                         capture_output=True, text=True, check=True).stdout
    line = next(line for line in out.splitlines() if line.startswith("bookmarks:"))
    with earl.EventTrace(alog, memory=9000) as tr:
        marks = tr.bookmarks()
    assert f"bookmarks: {marks['count']} ({marks['checkpoints']} full)" in line
    assert f"bdist {marks['bdist']}" in line and "of 8.8 KiB" in line
