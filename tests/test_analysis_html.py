"""`earl analyze --html` in real headless Chromium: the page opens on the largest pattern,
every bar carries its seconds and share, labels never cover each other or the bars (even
long ones), the matrix writes bytes with units. A script added to a copy of the page
measures the laid-out boxes (getBoundingClientRect) and writes them into the DOM, which
--dump-dom returns."""
import html
import json
import re
import shutil
import subprocess

import pytest

import earl
from earl.analysis import Report

MEASURE = """<script>{   // a block: the page's own script declares names at top level
function box(e) { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }
const sel = document.getElementById('metric');
const out = {
  selected: sel ? sel.value : null,
  options: sel ? [...sel.options].map(o => o.value) : [],
  visible: [...document.querySelectorAll('.perloc')].filter(d => d.offsetParent !== null)
             .map(d => d.dataset.metric),
  charts: [...document.querySelectorAll('.bars')].map(b => ({
    metric: b.parentElement.dataset.metric || b.previousElementSibling.textContent,
    labels: [...b.querySelectorAll('.bar-label')].map(e => [e.title, box(e)]),
    tracks: [...b.querySelectorAll('.bar-track')].map(box),
    bars: [...b.querySelectorAll('.bar')].map(box),
    values: [...b.querySelectorAll('.bar-value')].map(e => [e.textContent, box(e)])})),
  timeline_labels: [...document.querySelectorAll('.timeline-label')].map(e => [e.title, box(e)]),
  plot: document.querySelector('svg.timeline') ? box(document.querySelector('svg.timeline')) : null,
  waits: [...document.querySelectorAll('rect.wait')].map(box),
  matrix: [...document.querySelectorAll('.comm-matrix td.cell')].map(
    e => [+e.dataset.bytes, +e.dataset.messages, e.innerText]),
};
const pre = document.createElement('pre');
pre.id = 'measured';
pre.textContent = JSON.stringify(out);
document.body.appendChild(pre);
}</script>"""


def browser():
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        pytest.skip("no chromium (make setup installs Debian's chromium)")
    return found


def measure(report, folder):
    """The page of `report` laid out by Chromium (1200 px wide): the measurements."""
    page = folder / "report.html"
    report.write_html(page)
    return laid_out(page, MEASURE, folder)


def laid_out(page, script, folder):
    """What `script`, added to the page at `page` and run in Chromium (1200 px wide), wrote
    as JSON into a <pre id="measured">."""
    measured = folder / "measured.html"
    measured.write_text(page.read_text().replace("</body>", script + "</body>"))
    done = subprocess.run([browser(), "--headless", "--no-sandbox", "--disable-gpu",
                           "--window-size=1200,3000", "--dump-dom", measured.as_uri()],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    found = re.search(r'<pre id="measured">(.*?)</pre>', done.stdout, re.S)
    assert found, done.stdout[-2000:]
    return json.loads(html.unescape(found.group(1)))


def overlap(a, b):
    """Boxes [left, top, right, bottom] share some area (touching edges do not)."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def check_no_overlaps(boxes):
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not overlap(a, b), (a, b)


def check_charts(measured):
    for chart in measured["charts"]:
        for (_, label), track, (_, value) in zip(chart["labels"], chart["tracks"], chart["values"]):
            assert label[2] <= track[0] and track[2] <= value[0], chart["metric"]
        check_no_overlaps([b for _, b in chart["labels"]] + [b for _, b in chart["values"]])


def byte_text(n):
    """The matrix's size, worked out here: bytes below 1 KiB, else one decimal of the
    largest binary unit not above it."""
    for power, unit in ((4, "TiB"), (3, "GiB"), (2, "MiB"), (1, "KiB")):
        if n >= 1024 ** power:
            return f"{n / 1024 ** power:.1f} {unit}"
    return f"{n} B"


@pytest.fixture(scope="module")
def rma_trace(tmp_path_factory):
    from earl.generate import generate
    path = tmp_path_factory.mktemp("html") / "run.alog"
    generate(path, locations=5, events=6000, seed=4, pattern="neighbors", rma_every=3,
             lock_every=4, fence_imbalance_rate=0.4, lock_hold_rate=0.5, imbalance_rate=0.4,
             late_sender_rate=0.3, collectives="allreduce,barrier,bcast,reduce,scan")
    return path


def test_the_page_opens_on_the_largest_pattern_with_numbers_on_every_bar(rma_trace, tmp_path):
    report = earl.analyze(rma_trace, progress=lambda f: None)
    measured = measure(report, tmp_path)
    totals = {m: report.total(m) for m in report.patterns() if report.total(m) >= 5e-7}
    assert len(totals) >= 5
    assert measured["selected"] == max(totals, key=totals.get)
    assert measured["options"] == sorted(totals, key=lambda m: -totals[m])
    assert measured["visible"] == [measured["selected"]]
    charts = {c["metric"]: c for c in measured["charts"]}
    # the chart of time per location shown: each location's seconds and share
    shown = charts[measured["selected"]]
    by_location = report.by_location(measured["selected"])
    total = totals[measured["selected"]]
    assert [v for v, _ in shown["values"]] == [
        f"{by_location.get(loc, 0.0):.6f} s ({100 * by_location.get(loc, 0.0) / total:.1f}%)"
        for loc in range(len(report.locations))]
    # each pattern's worst call paths, largest first, with seconds and share
    for metric, total in totals.items():
        heading = f"{metric}: {total:.6f} s, {report.instances(metric)} instance"
        chart = next(c for h, c in charts.items() if h.startswith(heading))
        paths = sorted(((v, p) for p, v in report.by_callpath(metric).items()), reverse=True)[:10]
        assert [l for l, _ in chart["labels"]] == [p for _, p in paths]
        assert [v for v, _ in chart["values"]] == [f"{v:.6f} s ({100 * v / total:.1f}%)"
                                                   for v, _ in paths]
        widths = [b[2] - b[0] for b in chart["bars"]]
        assert widths == sorted(widths, reverse=True) and widths[0] > 100
    check_charts(measured)
    # the timeline: labels in their own column, one per row, none on another or on a bar
    labels = measured["timeline_labels"]
    assert [l for l, _ in labels] == [report.location_name(loc) for loc in
                                      sorted({w["location"] for w in report.worst_instances()})]
    check_no_overlaps([b for _, b in labels])
    assert all(b[2] <= measured["plot"][0] for _, b in labels)
    assert all(measured["plot"][0] <= w[0] and w[2] <= measured["plot"][2] for w in measured["waits"])
    # the matrix: bytes with their unit, messages counted
    assert measured["matrix"]
    for b, n, text in measured["matrix"]:
        assert text.split("\n") == [byte_text(b), f"{n} message" + ("" if n == 1 else "s")]


def long_named_result(nlocs=24):
    """An EngineResult (report_schema) written by hand: `nlocs` locations with long names,
    a wait on each, and call paths with long names."""
    metrics = earl.analysis.metrics()
    regions = ["main", "a_region_with_a_rather_long_name_for_a_solver_step",
               "MPI_Recv", "MPI_Barrier"]
    callpaths = [(-1, 0), (0, 1), (1, 2), (0, 3)]
    values = {m["id"]: [] for m in metrics}
    values["time"] = [(0, loc, 1.0) for loc in range(nlocs)]
    values["mpi_latesender"] = [(2, loc, 0.001 * (loc + 1)) for loc in range(nlocs)]
    values["mpi_barrier_wait"] = [(3, loc, 0.0001) for loc in range(nlocs)]
    worst = [("mpi_latesender", 2, loc, 0.1 * loc, 0.001 * (loc + 1)) for loc in range(nlocs)]
    return {"file": "hand", "format": "otf2", "events": 100, "messages": 0,
            "collective_instances": 0, "clock_jumps": 0, "time_corrected": False,
            "regions": regions, "callpaths": callpaths,
            "locations": [f"MPI Rank {loc} / Master thread on node{loc:04d}.a-long-cluster-name.example.org"
                          for loc in range(nlocs)],
            "values": values,
            "instances": {m["id"]: 0 for m in metrics if m["pattern"]} | {
                "mpi_latesender": nlocs, "mpi_barrier_wait": nlocs},
            "problems": {}, "traffic": [(0, 1, 1536, 1), (1, 0, 5 * 1024 ** 2, 3), (2, 3, 10, 2)],
            "worst": sorted(worst, key=lambda w: -w[4])}


def test_long_labels_never_cover_each_other_or_the_bars(tmp_path):
    report = Report(long_named_result())
    measured = measure(report, tmp_path)
    assert measured["selected"] == "mpi_latesender"      # 0.3 s against 0.0024 s
    labels = measured["timeline_labels"]
    assert len(labels) == 24
    check_no_overlaps([b for _, b in labels])
    assert all(b[2] <= measured["plot"][0] for _, b in labels)
    assert all(b[3] - b[1] <= 22 for _, b in labels)      # one line per row: no wrapping
    check_charts(measured)
    assert sorted(measured["matrix"]) == [[10, 2, "10 B\n2 messages"],
                                          [1536, 1, "1.5 KiB\n1 message"],
                                          [5 * 1024 ** 2, 3, "5.0 MiB\n3 messages"]]


def test_the_report_looks_right_in_a_screenshot(rma_trace, tmp_path):
    """A screenshot (kept in tmp_path to look at) where the bar values are drawn: the
    number column right of the bars holds dark text pixels on every call-path row."""
    report = earl.analyze(rma_trace, progress=lambda f: None)
    page = tmp_path / "report.html"
    report.write_html(page)
    shot = tmp_path / "shot.png"
    done = subprocess.run([browser(), "--headless", "--no-sandbox", "--disable-gpu",
                           f"--screenshot={shot}", "--window-size=1200,3000", page.as_uri()],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and shot.exists(), done.stderr
    measured = measure(report, tmp_path)
    from PIL import Image
    image = Image.open(shot).convert("L")
    checked = 0
    for chart in measured["charts"]:
        for _, (left, top, right, bottom) in chart["values"]:
            if right == left or bottom > image.height:   # a hidden chart; below the shot
                continue
            dark = sum(1 for x in range(int(left), int(right)) for y in range(int(top), int(bottom))
                       if image.getpixel((x, y)) < 100)
            assert dark > 20, chart["metric"]
            checked += 1
    assert checked >= 10
