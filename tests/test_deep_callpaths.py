"""Call paths 10^5 deep (issue 22, class 7): the analysis and every output of it (text,
JSON, HTML, Cube) in memory linear in the number of call paths. Each call path's full
name made memory grow with the square of the depth (`earl gen --depth 100000` ended in
MemoryError); names deeper than MAX_NAMED_LEVELS are now abbreviated around their
hidden levels and keep their id (earl.analysis.report.callpath_names)."""
import io
import resource
import time
import tarfile

import pytest

import earl
import earl.generate
from earl.analysis.report import HEAD_LEVELS, MAX_NAMED_LEVELS, callpath_names
from earl.analysis.terminal import console_for, render

DEPTH = 100_000


def test_names_of_shallow_and_deep_call_paths():
    # a chain main > r > r > ... > r, DEPTH levels, and a second root
    chain = [(-1, 0)] + [(cp, 1) for cp in range(DEPTH - 1)] + [(-1, 2)]
    names = callpath_names(chain, ["main", "r", "other"])
    assert names[0] == "main" and names[-1] == "other"
    assert names[MAX_NAMED_LEVELS - 1] == "/".join(["main"] + ["r"] * (MAX_NAMED_LEVELS - 1))
    hidden = MAX_NAMED_LEVELS + 1 - 2 * HEAD_LEVELS
    assert names[MAX_NAMED_LEVELS] == "/".join(["main"] + ["r"] * (HEAD_LEVELS - 1) +
                                               [f"...{hidden} levels..."] + ["r"] * HEAD_LEVELS) \
        + f" [call path {MAX_NAMED_LEVELS}]"
    assert names[DEPTH - 1].endswith(f"...{DEPTH - 2 * HEAD_LEVELS} levels.../r/r/r/r/r/r [call path {DEPTH - 1}]")
    assert len(set(names)) == len(names)
    assert max(map(len, names)) < 200


@pytest.fixture(scope="module")
def deep_trace(tmp_path_factory):
    path = tmp_path_factory.mktemp("deep") / "deep.alog"
    earl.generate.generate(str(path), locations=2, events=1000, depth=DEPTH)
    return path


def test_every_output_of_a_trace_10_5_deep(deep_trace, tmp_path):
    start = time.monotonic()
    report = earl.analysis.analyze(deep_trace, progress=lambda f: None)
    # main/step/compute/recursion... on both locations: one call path per level
    assert len(report.callpaths) > DEPTH
    depth = []
    for parent in report.callpath_parents:
        depth.append(1 if parent < 0 else depth[parent] + 1)
    deepest = max(range(len(depth)), key=depth.__getitem__)
    assert depth[deepest] > DEPTH
    assert report.callpaths[deepest] == (
        "main/step/compute/recursion/recursion/recursion/"
        f"...{depth[deepest] - 2 * HEAD_LEVELS} levels.../"
        f"recursion/recursion/recursion/recursion/recursion/kernel [call path {deepest}]")
    out = io.StringIO()
    render(report, console_for(out))
    assert f"{report.events} events" in out.getvalue()
    # the JSON form (json.dumps of it adds 5 s of encoding 90 MB, linear by construction)
    saved = report.to_dict()
    assert set(saved["profile"]["visits"]["by_callpath"]) == {
        report.callpaths[cp] for cp, _, _ in report.cells("visits")}
    report.write_html(tmp_path / "deep.html")
    report.write_cube(tmp_path / "deep.cubex")
    with tarfile.open(tmp_path / "deep.cubex") as cube:
        assert cube.getmember("anchor.xml").size > 0
    elapsed = time.monotonic() - start
    # memory: names of 10^5 levels built in full took over 5 * 10^9 bytes
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"depth {DEPTH}: analysis and all four outputs in {elapsed:.1f} s, peak RSS {peak_mb:.0f} MB")
    assert peak_mb < 2000
    assert elapsed < 30    # a hang guard; measured about 10 s on the test machine
    # (analysis 3.8, text 0.5, JSON form 2.4, HTML 0.2, Cube 3.4)
