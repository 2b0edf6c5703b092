"""Checks of a wait-state report against the generator's ground truth that several test
files share (tests/test_gen_*.py)."""
import pytest


def approx(x):
    return pytest.approx(x, abs=1e-9)


def check_profile(report, truth, metric_of_region, problems=None):
    """Per location: time, comp, visits and each MPI class metric are the region times of
    the truth (`metric_of_region`: MPI region name -> the metric its time goes to); the
    report counts no problems but `problems` ({name: count})."""
    for loc, regions in truth["region_time"].items():
        loc = int(loc)
        assert report.by_location("time")[loc] == approx(sum(t["excl"] for t in regions.values()))
        assert report.by_location("comp")[loc] == approx(
            sum(t["excl"] for r, t in regions.items() if r not in metric_of_region))
        assert report.by_location("visits")[loc] == sum(t["count"] for t in regions.values())
        for metric in set(metric_of_region.values()):
            expected = sum(t["excl"] for r, t in regions.items() if metric_of_region.get(r) == metric)
            assert report.by_location(metric).get(loc, 0.0) == approx(expected)
    assert {k: v for k, v in report.problems.items() if v} == (problems or {}), report.problems
