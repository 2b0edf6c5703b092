"""The HTML page of a Comparison: one self-contained table (nothing fetched), changes
coloured (better green, worse red) with a bar for each change's size, in the style of
the report's page (earl.analysis.html)."""
import html

from earl.analysis.compare import UNITS
from earl.analysis.formatting import metric_value
from earl.output_paths import staged_output

_STYLE = """body{font-family:sans-serif;margin:2em}
td,th{padding:2px 8px;text-align:right} td:nth-child(-n+3){text-align:left}
.better{color:#070} .worse{color:#b00;font-weight:bold}
.bar{display:inline-block;height:10px;vertical-align:middle;margin-left:4px}"""


def _change_cell(change, percent, verdict, unit, largest):
    pct = "" if percent is None else f" ({percent:+.1f}%)"
    width = int(round(120 * abs(change) / largest)) if largest else 0
    colour = {"better": "#4a4", "worse": "#c33"}.get(verdict, "#888")
    return (f"<td class='{verdict}'>{'+' if change > 0 else ''}{metric_value(change, unit)}{pct} "
            f"{verdict}<span class='bar' style='width:{width}px;background:{colour}'></span></td>")


def write_html(comparison, path):
    shown = comparison.shown()
    largest = max((abs(c) for r in shown for c in r["changes"]), default=0.0)
    head = "<tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in comparison.header()) + "</tr>"
    legend = "".join(f"<li>{html.escape(name)}: {html.escape(label)}{' (baseline)' if i == 0 else ''}</li>"
                     for i, (name, label) in enumerate(zip(comparison.names, comparison.labels)))
    body = []
    for r in shown:
        cells = [f"<td>{html.escape(r['metric'])}</td>",
                 f"<td>{html.escape(r['callpath'] or '(total)')}</td>",
                 f"<td>{html.escape(UNITS.get(r['unit'], r['unit']))}</td>"]
        cells += [f"<td>{metric_value(v, r['unit'])}</td>" for v in r["values"]]
        cells += [_change_cell(c, p, v, r["unit"], largest if r["unit"] == "sec" else max(map(abs, r["changes"])))
                  for c, p, v in zip(r["changes"], r["percent"], r["verdict"])]
        body.append("<tr>" + "".join(cells) + "</tr>")
    page = ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>earl compare</title>"
            f"<style>{_STYLE}</style></head><body>"
            f"<h1>Comparison with {html.escape(comparison.names[0])}</h1><ul>{legend}</ul>"
            f"<p>{len(comparison.rows)} metrics and call paths changed "
            f"(threshold {comparison.threshold:g}); less time is better.</p>"
            f"<table id='changes'><thead>{head}</thead><tbody>{''.join(body)}</tbody></table>"
            + ("" if comparison.rows else "<p>no metric changed</p>")
            + (f"<p>{html.escape(comparison.repeats_note())}</p>" if len(shown) < len(comparison.rows) else "")
            + "</body></html>")
    with staged_output(path) as out:
        out.write(page)
