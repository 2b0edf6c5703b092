"""The HTML views of a Report: a summary table (Jupyter's _repr_html_) and one
self-contained interactive page (metric tree, time per location, worst call paths, the
source x destination communication matrix, a timeline of the worst wait instances) that
opens offline: HTML, inline SVG and a few lines of JavaScript, nothing fetched."""
import html
import json

from earl.output_paths import staged_output
from earl.analysis.counter_view import counter_heading, counter_rows
from earl.analysis.formatting import byte_size, counted, metric_value, patterns_found, prints_as_zero, seconds

_STYLE = """body{font-family:sans-serif;margin:2em}
td,th{padding:2px 8px;text-align:right} td:first-child{text-align:left}
.comm-matrix td{border:1px solid #eee;font-size:11px} .comm-matrix small{color:#444}
.bars{display:grid;grid-template-columns:minmax(14em,max-content) 560px max-content;gap:3px 8px;
 align-items:center;font-size:12px;margin:0.5em 0}
.bar-label{white-space:nowrap;overflow:hidden;text-overflow:ellipsis;max-width:40em}
.bar-track{height:14px} .bar{height:100%;min-width:1px}
.bar-value{white-space:nowrap;font-variant-numeric:tabular-nums}
.timeline-grid{display:grid;grid-template-columns:max-content max-content;gap:0 8px;
 align-items:start;font-size:12px}
.timeline-label{white-space:nowrap;overflow:hidden;text-overflow:ellipsis;max-width:30em}"""

# Shows the per-location chart of the pattern chosen (the page opens on the largest).
_SCRIPT = """<script>
const sel = document.getElementById('metric');
function show() { for (const d of document.querySelectorAll('.perloc'))
  d.style.display = (!sel || d.dataset.metric === sel.value) ? '' : 'none'; }
if (sel) sel.addEventListener('change', show); show();
</script>"""


def summary_table(report):
    """The metric tree: the time metrics with their share of the time, then the counts
    and bytes (visits, messages, pattern instances) that are not all zero, as whole
    numbers."""
    total = report.total("time") or 1.0
    rows, counts = [], []
    for metric, info in report.metrics.items():
        depth, parent = 0, info["parent"]
        while parent is not None:
            depth, parent = depth + 1, report.metrics[parent]["parent"]
        value = report.total(metric)
        name = f"<td style='padding-left:{depth}em'>{html.escape(metric)}</td>"
        if info["unit"] != "sec":
            if not prints_as_zero(value, info["unit"]):
                shown = byte_size(value) if info["unit"] == "bytes" else metric_value(value, info["unit"])
                counts.append(f"<tr>{name}<td>{shown}</td></tr>")
            continue
        inst = f"{report.instances(metric)}" if info["pattern"] else ""
        style = ' style="color:#b00;font-weight:bold"' if info["pattern"] and value > 0 else ""
        rows.append(f"<tr{style}>{name}<td>{seconds(value)}</td><td>{100 * value / total:.1f}%</td><td>{inst}</td></tr>")
    return ("<table class='earl-metrics'><thead><tr><th>metric</th><th>seconds</th><th>%</th>"
            "<th>instances</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>"
            "<table class='earl-counts'><thead><tr><th>metric</th><th>count</th></tr></thead><tbody>"
            + "".join(counts) + "</tbody></table>")


def bars(values, labels, total, color="#c33"):
    """A bar per value, labelled, with its seconds and its share of `total` written beside
    it; the browser lays out the three columns, so long labels push the bars right instead
    of covering them."""
    top = max(values, default=0.0) or 1.0
    rows = []
    for value, label in zip(values, labels):
        share = f" ({100.0 * value / total:.1f}%)" if total > 0 else ""
        name = html.escape(label)
        rows.append(f'<div class="bar-label" title="{name}">{name}</div>'
                    f'<div class="bar-track"><div class="bar" style="width:{100.0 * value / top:.2f}%;'
                    f'background:{color}"></div></div>'
                    f'<div class="bar-value">{seconds(value)} s{share}</div>')
    return '<div class="bars">' + "".join(rows) + "</div>"


def counter_tables(report, top=10):
    """A table per hardware counter: its call paths, inclusive and exclusive values."""
    parts = []
    for name in report.counters:
        rows, more = counter_rows(report, name, top)
        body = "".join(f"<tr><td>{html.escape(path)}</td><td>{inclusive}</td><td>{exclusive}</td>"
                       f"<td>{share}%</td></tr>" for path, inclusive, exclusive, share in rows)
        parts.append(f"<h3>{html.escape(counter_heading(report, name))}</h3>"
                     f"<table class='earl-counter' data-counter='{html.escape(name)}'><thead><tr>"
                     "<th>call path</th><th>inclusive</th><th>exclusive</th><th>%</th></tr></thead>"
                     f"<tbody>{body}</tbody></table>"
                     + (f"<p>and {counted(more, 'more call path')}</p>" if more else ""))
    return "".join(parts)


def write_html(report, path):
    from earl.analysis.html_plots import communication_matrix, timeline
    patterns = patterns_found(report)
    nlocs = len(report.locations)
    sections = [f"<h1>Wait states in {html.escape(str(report.file))}</h1>",
                f"<p>{counted(report.events, 'event')}, {counted(nlocs, 'location')}, "
                f"format {html.escape(report.format)}.</p>",
                "<h2>Metric tree</h2>", summary_table(report), "<h2>Time per location</h2>"]
    if patterns:
        chooser = "".join(f'<option value="{m}"{" selected" if i == 0 else ""}>{m} '
                          f'({seconds(report.total(m))} s)</option>' for i, m in enumerate(patterns))
        sections.append(f'<select id="metric">{chooser}</select>')
    for m in patterns or ["time"]:
        by = report.by_location(m)
        chart = bars([by.get(loc, 0.0) for loc in range(nlocs)],
                     [report.location_name(loc) for loc in range(nlocs)], report.total(m))
        sections.append(f'<div class="perloc" data-metric="{m}">{chart}</div>')
    sections.append("<h2>Worst call paths</h2>")
    for m in patterns:
        items = list(report.by_callpath(m).items())[:10]
        sections.append(f"<h3>{m}: {seconds(report.total(m))} s, "
                        f"{counted(report.instances(m), 'instance')}</h3>"
                        + bars([v for _, v in items], [p for p, _ in items], report.total(m),
                               color="#36c"))
    if report.counters:
        sections.append("<h2>Hardware counters (inclusive: with callees)</h2>")
        sections.append(counter_tables(report))
    sections.append("<h2>Communication matrix (point to point: bytes, messages)</h2>")
    sections.append(communication_matrix(report))
    sections.append("<h2>Timeline of the worst wait instances</h2>")
    sections.append(timeline(report))
    problems = {k: v for k, v in report.problems.items() if v}
    sections.append("<h2>Problems</h2><p>" + (html.escape(json.dumps(problems)) if problems else "none") + "</p>")
    sections.extend(f"<p>damaged: {html.escape(line)}</p>" for line in report.damaged)
    page = ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>earl analyze</title>"
            f"<style>{_STYLE}</style></head><body>" + "\n".join(sections) + _SCRIPT
            + "</body></html>")
    with staged_output(path) as out:
        out.write(page)
