"""Which call paths and metrics got better or worse between two or more analyses.

    import earl
    cmp = earl.compare(["before.otf2", "after.otf2"])    # traces (analysed) or Reports
    cmp = earl.compare(["before.json", "after.json"])    # saved `earl analyze --json`
    cmp = earl.compare(["a.log", "b.log"], format="described:alog")   # traces of a format
    print(cmp.to_text()); cmp.to_dict(); cmp.write_html("cmp.html")

The first input is the baseline; each other input's change is its value minus the
baseline's, in the metric's unit (seconds, counts, bytes). A row is one metric's total
(callpath None) or one metric on one call path (by name: "main/step/MPI_Recv", so that
traces with different call path ids compare); rows are sorted by their largest absolute
change. For time metrics less is better; for counts and bytes a change is "more" or "fewer".
"""
import json
import os

from earl import _core
from earl.analysis.formatting import metric_value

__all__ = ["compare", "Comparison", "load_report"]


def load_report(item, format=None):
    """A Report from a Report, a saved report JSON file or a trace (analysed, read as
    `format`; None: detected)."""
    from earl.analysis.report import Report, analyze
    if isinstance(item, Report):
        return item
    path = os.fspath(item)
    _core.check_path(path, "input")
    if not os.path.exists(path):
        raise _core.EarlError(f"earl compare: {path!r} does not exist")
    if os.path.isfile(path):
        with open(path, "rb") as f:
            head = f.read(64).lstrip()
        if head.startswith(b"{"):
            with open(path, encoding="utf-8", errors="replace") as f:
                return Report.from_json(f.read(), origin=path)
    return analyze(path, format=format, progress=lambda fraction: True)


def _verdict(unit, change):
    if change == 0:
        return "same"
    if unit == "sec":
        return "better" if change < 0 else "worse"
    return "more" if change > 0 else "fewer"


class Comparison:
    """The rows of a comparison (see the module's doc); `labels` name the inputs."""

    def __init__(self, reports, labels, threshold=0.0):
        if len(reports) < 2:
            raise _core.EarlError("earl compare: needs two or more analyses to compare")
        if threshold < 0:
            raise _core.EarlError(f"earl compare: threshold {threshold} is negative")
        self.labels = list(labels)
        self.threshold = threshold
        self.rows = []
        metrics = reports[0].metrics
        for metric, info in metrics.items():
            totals = [r.total(metric) for r in reports]
            self._add(metric, info, None, totals)
            by_path = [r.by_callpath(metric) for r in reports]
            paths = sorted(set().union(*by_path))
            for path in paths:
                self._add(metric, info, path, [b.get(path, 0.0) for b in by_path])
        self.rows.sort(key=lambda row: (-max(abs(c) for c in row["changes"]),
                                        row["metric"], row["callpath"] or ""))

    def _add(self, metric, info, callpath, values):
        changes = [v - values[0] for v in values[1:]]
        # Changes below what the report prints (a microsecond, a count) are no change.
        shown = [c if float(metric_value(abs(c), info["unit"])) > 0 else 0.0 for c in changes]
        if max(abs(c) for c in shown) <= self.threshold:
            return
        self.rows.append({
            "metric": metric, "name": info["name"], "unit": info["unit"],
            "pattern": info["pattern"], "callpath": callpath, "values": values,
            "changes": shown,
            "percent": [100.0 * c / values[0] if values[0] else None for c in shown],
            "verdict": [_verdict(info["unit"], c) for c in shown]})

    def better(self):
        return [r for r in self.rows if r["verdict"][-1] == "better"]

    def worse(self):
        return [r for r in self.rows if r["verdict"][-1] == "worse"]

    def row(self, metric, callpath=None):
        """The row of `metric` (its total, or on `callpath`); None when it did not change."""
        for r in self.rows:
            if r["metric"] == metric and r["callpath"] == callpath:
                return r
        return None

    def to_dict(self):
        return {"inputs": self.labels, "baseline": self.labels[0], "threshold": self.threshold,
                "rows": self.rows}

    def to_json(self, **kwargs):
        return json.dumps(self.to_dict(), **kwargs)

    def to_text(self, top=None):
        """Aligned table: metric, call path, each input's value, each change with its
        percentage and verdict; the `top` largest changes (None: all)."""
        rows = self.rows if top is None else self.rows[:top]
        header = ["metric", "call path"] + self.labels + [
            f"change {label}" for label in self.labels[1:]]
        table = [header]
        for r in rows:
            cells = [r["metric"], r["callpath"] or "(total)"]
            cells += [metric_value(v, r["unit"]) for v in r["values"]]
            for c, p, v in zip(r["changes"], r["percent"], r["verdict"]):
                pct = "" if p is None else f" ({p:+.1f}%)"
                cells.append(f"{'+' if c > 0 else ''}{metric_value(c, r['unit'])}{pct} {v}")
            table.append(cells)
        widths = [max(len(row[i]) for row in table) for i in range(len(header))]
        lines = [f"earl compare: baseline {self.labels[0]}; {len(self.rows)} changed "
                 f"(threshold {self.threshold:g})"]
        for row in table:
            lines.append("  ".join(cell.ljust(w) if i < 2 else cell.rjust(w)
                                   for i, (cell, w) in enumerate(zip(row, widths))).rstrip())
        if not self.rows:
            lines.append("no metric changed")
        elif top is not None and len(self.rows) > top:
            lines.append(f"... {len(self.rows) - top} smaller changes (--top 0 shows all)")
        return "\n".join(lines)

    def write_html(self, path):
        from earl.analysis.compare_html import write_html
        write_html(self, path)


def compare(reports, labels=None, threshold=0.0, format=None):
    """Compare two or more analyses: Reports, traces (analysed here) or saved report JSON
    files (`earl analyze --json`), the first the baseline. `labels` name them (default:
    their paths, or the Reports' files); `threshold`: rows whose largest absolute change is
    at most this (in the metric's unit) are left out; `format`: the traces' format (None:
    detected; saved reports are recognised still). Returns a Comparison."""
    items = list(reports)
    loaded = [load_report(item, format) for item in items]
    if labels is None:
        labels = [os.fspath(item) if not hasattr(item, "file") else str(item.file) for item in items]
    elif len(labels) != len(items):
        raise _core.EarlError(f"earl compare: {len(labels)} labels for {len(items)} analyses")
    return Comparison(loaded, labels, threshold)
