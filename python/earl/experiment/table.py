"""An experiment's comparison: one row per measurement (its parameters and each metric's
total from its report), as text, JSON and a plot of each wait state against a parameter
(scaling with the process count, say)."""
import os

from earl import _core
from earl.analysis.formatting import metric_value
from earl.experiment import layout


def table(root, spec):
    """{"project", "experiment", "parameters": [names], "metrics": [ids shown],
    "rows": [{"measurement", "parameters", "exit_status", "values": {metric: total} or
    None (no report)}]} of experiment `spec` ("PROJECT/EXPERIMENT"). Metrics: the total
    time and every pattern that is more than zero in some run."""
    from earl.analysis.report import Report, metrics
    project, experiment = layout.split_path(spec)
    folder = layout.experiment_folder(root, project, experiment)
    if not os.path.isfile(os.path.join(folder, layout.EXPERIMENT_FILE)):
        raise _core.EarlError(f"earl experiment: no experiment {spec!r} under {root}")
    setup = layout.read_json(os.path.join(folder, layout.EXPERIMENT_FILE))
    tree = [m for m in metrics() if m["unit"] == "sec" and (m["pattern"] or m["id"] == "time")]
    rows = []
    for meta in layout.measurements(folder):
        values = None
        if meta.get("report"):
            path = os.path.join(folder, meta["measurement"], meta["report"])
            with open(path, encoding="utf-8") as f:
                report = Report.from_json(f.read(), origin=path)
            values = {m["id"]: report.total(m["id"]) for m in tree}
        rows.append({"measurement": meta["measurement"], "parameters": meta["parameters"],
                     "exit_status": meta["exit_status"], "values": values})
    shown = [m["id"] for m in tree if m["id"] == "time" or any(
        r["values"] and not float(metric_value(r["values"][m["id"]], "sec")) == 0 for r in rows)]
    for r in rows:
        if r["values"] is not None:
            r["values"] = {k: r["values"][k] for k in shown}
    return {"project": project, "experiment": experiment,
            "parameters": list(setup["parameters"]), "metrics": shown, "rows": rows}


def text(result):
    """The table as aligned text: parameters, then each metric's seconds."""
    header = result["parameters"] + ["status"] + result["metrics"]
    lines = [header]
    for r in result["rows"]:
        cells = [str(r["parameters"].get(p, "")) for p in result["parameters"]]
        cells.append(str(r["exit_status"]) if r["values"] is not None
                     else f"{r['exit_status']} (no report)")
        cells += [metric_value(r["values"][m], "sec") if r["values"] else "-" for m in result["metrics"]]
        lines.append(cells)
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    out = [f"experiment {result['project']}/{result['experiment']}: "
           f"{len(result['rows'])} measurements (seconds)"]
    out += ["  ".join(c.rjust(w) for c, w in zip(line, widths)) for line in lines]
    return "\n".join(out)


def _numeric(value):
    try:
        return (0, float(value), value)
    except ValueError:
        return (1, 0.0, value)


def plot(result, path, by=None):
    """Each shown metric (but the total time) against parameter `by` (default: the first
    that varies), one line per metric and combination of the other parameters; PNG/SVG/PDF
    by `path`'s ending (matplotlib)."""
    from earl.optional import require
    params = result["parameters"]
    if by is None:
        varying = [p for p in params if len({r["parameters"][p] for r in result["rows"]}) > 1]
        by = (varying or params or [None])[0]
    if by not in params:
        raise _core.EarlError(f"earl experiment: --by {by!r} is no parameter of the experiment "
                              f"(parameters: {', '.join(params) or 'none'})")
    matplotlib = require("matplotlib", "earl experiment report --plot")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    others = [p for p in params if p != by]
    metrics = [m for m in result["metrics"] if m != "time"] or ["time"]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    series = {}
    for r in result["rows"]:
        if r["values"] is None:
            continue
        rest = ",".join(f"{p}={r['parameters'][p]}" for p in others)
        for m in metrics:
            series.setdefault((m, rest), []).append((r["parameters"][by], r["values"][m]))
    ticks = sorted({x for points in series.values() for x, _ in points}, key=_numeric)
    for (m, rest), points in sorted(series.items()):
        points.sort(key=lambda p: _numeric(p[0]))
        ax.plot([ticks.index(x) for x, _ in points], [y for _, y in points], marker="o",
                label=m + (f" ({rest})" if rest else ""))
    ax.set_xticks(range(len(ticks)))
    ax.set_xticklabels(ticks)
    ax.set_xlabel(by)
    ax.set_ylabel("seconds")
    ax.set_title(f"{result['project']}/{result['experiment']}: wait states by {by}")
    if series:
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return by
