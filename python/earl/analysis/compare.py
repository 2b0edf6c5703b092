"""Which call paths and metrics got better or worse between two or more analyses.

    import earl
    cmp = earl.compare(["before.otf2", "after.otf2"])    # traces (analysed) or Reports
    cmp = earl.compare(["before.json", "after.json"])    # saved `earl analyze --json`
    cmp = earl.compare(["a.log", "b.log"], format="described:alog")   # traces of a format
    print(cmp.to_text()); cmp.to_dict(); cmp.write_html("cmp.html")

The first input is the baseline; each other input's change is its value minus the
baseline's, in the metric's unit (seconds, counts, bytes). A row is one metric's total
(callpath None) or one metric on one call path (by name: "main/step/MPI_Recv", so that
traces with different call path ids compare). Rows are sorted time first, then counts,
then bytes (changes in different units do not compare, and time is what a comparison is
for), each unit's by their largest absolute change. For time metrics less is better; for
counts and bytes a change is "more" or "fewer". The text and the page name each input by
what sets its path apart from the others' ("procs=4" of runs/procs=4/trace.otf2).
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


# Units as the table heads them, in the order their rows come.
UNITS = {"sec": "s", "occ": "count", "bytes": "bytes"}


def short_names(labels):
    """The labels without the path components all of them share at their start and end
    ("runs/procs=2/trace.otf2", "runs/procs=4/trace.otf2" -> "procs=2", "procs=4"); the
    labels themselves where that would leave two alike."""
    parts = [str(label).replace(os.sep, "/").split("/") for label in labels]
    shortest = min(map(len, parts))
    head = tail = 0
    while head < shortest - 1 and len({p[head] for p in parts}) == 1:
        head += 1
    while head + tail < shortest - 1 and len({p[-1 - tail] for p in parts}) == 1:
        tail += 1
    names = ["/".join(p[head:len(p) - tail]) for p in parts]
    return names if len(set(names)) == len(names) else [str(label) for label in labels]


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
        self.names = short_names(self.labels)
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
        self._mark_repeats(metrics)
        order = list(UNITS)
        self.rows.sort(key=lambda row: (order.index(row["unit"]) if row["unit"] in order else len(order),
                                        -max(abs(c) for c in row["changes"]),
                                        row["metric"], row["callpath"] or ""))

    def _mark_repeats(self, metrics):
        """A row whose values print as those of its parent metric's row on the same call
        path (time = execution = mpi on main/MPI_Allreduce) says nothing new: its
        "same_as" names the parent, and the text and the page leave it out."""
        printed = {(r["metric"], r["callpath"]): [metric_value(v, r["unit"]) for v in r["values"]]
                   for r in self.rows}
        for r in self.rows:
            parent = metrics[r["metric"]].get("parent")
            same = printed.get((parent, r["callpath"])) == printed[(r["metric"], r["callpath"])]
            r["same_as"] = parent if same else None

    def shown(self):
        """The rows the text and the page show: those that repeat no parent's."""
        return [r for r in self.rows if not r["same_as"]]

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
        return {"inputs": self.labels, "names": self.names, "baseline": self.labels[0],
                "threshold": self.threshold, "rows": self.rows}

    def to_json(self, **kwargs):
        return json.dumps(self.to_dict(), **kwargs)

    def header(self):
        """The table's column heads: metric, call path, unit, each input's name, each
        change's."""
        return (["metric", "call path", "unit"] + self.names
                + [f"{name} - {self.names[0]}" for name in self.names[1:]])

    def legend(self):
        """Lines naming the inputs: which is the baseline, and the path behind each name."""
        width = max(map(len, self.names))
        return [f"  {name.ljust(width)}  {label if label != name else ''}"
                f"{' ' if label != name else ''}{'(baseline)' if i == 0 else ''}".rstrip()
                for i, (name, label) in enumerate(zip(self.names, self.labels))]

    def to_text(self, top=None):
        """Aligned table: metric, call path, unit, each input's value, each change with
        its percentage and verdict; the `top` first rows (None: all)."""
        shown = self.shown()
        rows = shown if top is None else shown[:top]
        table = [self.header()]
        for r in rows:
            cells = [r["metric"], r["callpath"] or "(total)", UNITS.get(r["unit"], r["unit"])]
            cells += [metric_value(v, r["unit"]) for v in r["values"]]
            for c, p, v in zip(r["changes"], r["percent"], r["verdict"]):
                pct = "" if p is None else f" ({p:+.1f}%)"
                cells.append(f"{'+' if c > 0 else ''}{metric_value(c, r['unit'])}{pct} {v}")
            table.append(cells)
        widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
        lines = [f"earl compare: {len(self.labels)} analyses, changes against the baseline "
                 f"(less time is better); {len(self.rows)} rows changed "
                 f"(threshold {self.threshold:g})"] + self.legend()
        for row in table:
            lines.append("  ".join(cell.ljust(w) if i < 3 else cell.rjust(w)
                                   for i, (cell, w) in enumerate(zip(row, widths))).rstrip())
        if not self.rows:
            lines.append("no metric changed")
        elif top is not None and len(shown) > top:
            lines.append(f"... {len(shown) - top} more rows (--top 0 shows all)")
        if len(shown) < len(self.rows):
            lines.append(self.repeats_note())
        return "\n".join(lines)

    def repeats_note(self):
        return (f"({len(self.rows) - len(self.shown())} rows equal to their parent metric's "
                "on the same call path are not shown; --json has every row)")

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
