"""The HTML views of a Report: a summary table (Jupyter's _repr_html_) and one
self-contained interactive page (metric tree, time per location, worst call paths, the
source x destination communication matrix, a timeline of the worst wait instances) that
opens offline: inline SVG and a few lines of JavaScript, nothing fetched."""
import html
import json


def _fmt(v):
    return f"{v:.6f}"


def summary_table(report):
    total = report.total("time") or 1.0
    rows = []
    for metric, info in report.metrics.items():
        if info["unit"] != "sec":
            continue
        depth, parent = 0, info["parent"]
        while parent is not None:
            depth, parent = depth + 1, report.metrics[parent]["parent"]
        value = report.total(metric)
        inst = f"{report.instances(metric)}" if info["pattern"] else ""
        style = ' style="color:#b00;font-weight:bold"' if info["pattern"] and value > 0 else ""
        rows.append(f"<tr{style}><td style='padding-left:{depth}em'>{html.escape(metric)}</td>"
                    f"<td>{_fmt(value)}</td><td>{100 * value / total:.1f}%</td><td>{inst}</td></tr>")
    return ("<table class='earl-metrics'><thead><tr><th>metric</th><th>seconds</th><th>%</th>"
            "<th>instances</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>")


def _bars(values, labels, width=560, bar=18, color="#c33"):
    top = max(values) if values and max(values) > 0 else 1.0
    parts = [f'<svg class="plot" width="{width + 260}" height="{bar * len(values) + 10}">']
    for i, (v, label) in enumerate(zip(values, labels)):
        w = width * v / top
        parts.append(f'<text x="0" y="{i * bar + 13}" font-size="12">{html.escape(label)}</text>'
                     f'<rect x="250" y="{i * bar + 2}" width="{w:.1f}" height="{bar - 4}" fill="{color}">'
                     f'<title>{html.escape(label)}: {_fmt(v)} s</title></rect>')
    parts.append("</svg>")
    return "".join(parts)


def write_html(report, path):
    from earl import _core
    patterns = [m for m in report.patterns() if report.total(m) > 0]
    nlocs = len(report.locations)
    sections = [f"<h1>Wait states in {html.escape(str(report.file))}</h1>",
                f"<p>{report.events} events, {nlocs} locations, format {report.format}.</p>",
                "<h2>Metric tree</h2>", summary_table(report)]
    chooser = "".join(f'<option value="{m}">{m} ({_fmt(report.total(m))} s)</option>' for m in patterns)
    sections.append("<h2>Time per location</h2>")
    if patterns:
        sections.append(f'<select id="metric">{chooser}</select>')
    per_loc = {}
    for m in patterns or ["time"]:
        by = report.by_location(m)
        per_loc[m] = _bars([by.get(l, 0.0) for l in range(nlocs)],
                           [report.location_name(l) for l in range(nlocs)])
        sections.append(f'<div class="perloc" data-metric="{m}">{per_loc[m]}</div>')
    sections.append("<h2>Worst call paths</h2>")
    for m in patterns:
        items = list(report.by_callpath(m).items())[:10]
        sections.append(f"<h3>{m}</h3>" + _bars([v for _, v in items], [p for p, _ in items], color="#36c"))
    from earl.analysis.html_plots import communication_matrix, timeline
    sections.append("<h2>Communication matrix (point to point: bytes, messages)</h2>")
    sections.append(communication_matrix(report))
    sections.append("<h2>Timeline of the worst wait instances</h2>")
    sections.append(timeline(report))
    problems = {k: v for k, v in report.problems.items() if v}
    sections.append("<h2>Problems</h2><p>" + (html.escape(json.dumps(problems)) if problems else "none") + "</p>")
    script = """<script>
const sel = document.getElementById('metric');
function show() { for (const d of document.querySelectorAll('.perloc'))
  d.style.display = (!sel || d.dataset.metric === sel.value) ? '' : 'none'; }
if (sel) sel.addEventListener('change', show); show();
</script>"""
    page = ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>earl analyze</title>"
            "<style>body{font-family:sans-serif;margin:2em} td,th{padding:2px 8px;text-align:right}"
            " td:first-child{text-align:left} .comm-matrix td{border:1px solid #eee;font-size:11px}"
            " .comm-matrix small{color:#444}</style></head><body>"
            + "\n".join(sections) + script + "</body></html>")
    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(page)
    except OSError as error:
        raise _core.EarlError(f"cannot write '{path}': {error.strerror or error}") from None
