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
    time, then every pattern that is more than zero in some run, largest first. Rows: by
    their parameters, in the grid's order, numbers as numbers."""
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
    # In the grid's parameter order, values as numbers where they are numbers (procs=16
    # after procs=8, not before procs=2 as the folders sort).
    names = list(setup["parameters"])
    rows.sort(key=lambda r: [_numeric(str(r["parameters"].get(n, ""))) for n in names])
    tree_order = [m["id"] for m in tree]
    shown = [m["id"] for m in tree if m["id"] == "time" or any(
        r["values"] and not float(metric_value(r["values"][m["id"]], "sec")) == 0 for r in rows)]
    # The total time, then the wait states largest first (their largest value in a run).
    largest = {m: max((r["values"][m] for r in rows if r["values"]), default=0.0) for m in shown}
    shown.sort(key=lambda m: (m != "time", -largest[m], tree_order.index(m)))
    for r in rows:
        if r["values"] is not None:
            r["values"] = {k: r["values"][k] for k in shown}
    return {"project": project, "experiment": experiment,
            "parameters": list(setup["parameters"]), "metrics": shown, "rows": rows}


def _status(row):
    if row["exit_status"] != 0:
        return f"exit {row['exit_status']}"
    return "ok" if row["values"] is not None else "no report"


def _cell(values, metric, percent):
    if not values:
        return "-"
    if not percent or metric == "time":
        return metric_value(values[metric], "sec")
    return f"{100.0 * values[metric] / values['time']:.1f}%" if values["time"] else "-"


def text(result, percent=False):
    """The table as aligned text: parameters, the run's status, then each metric's seconds
    (summed over the run's processes), or with `percent` each wait state's share of the
    run's time."""
    header = result["parameters"] + ["status"] + result["metrics"]
    lines = [header]
    for r in result["rows"]:
        cells = [str(r["parameters"].get(p, "")) for p in result["parameters"]]
        cells.append(_status(r))
        cells += [_cell(r["values"], m, percent) for m in result["metrics"]]
        lines.append(cells)
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    unit = "seconds, summed over each run's processes" + (
        "; each wait state in percent of the run's time" if percent else "")
    out = [f"experiment {result['project']}/{result['experiment']}: "
           f"{len(result['rows'])} measurements; {unit}"]
    out += ["  ".join(c.rjust(w) for c, w in zip(line, widths)).rstrip() for line in lines]
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
    from earl.analysis.report import metrics as metric_tree
    names = {m["id"]: m["name"] for m in metric_tree()}
    fig, ax = plt.subplots(figsize=(9, 4.5))
    series = {}
    for r in result["rows"]:
        if r["values"] is None:
            continue
        rest = ",".join(f"{p}={r['parameters'][p]}" for p in others)
        for m in metrics:
            series.setdefault((m, rest), []).append((r["parameters"][by], r["values"][m]))
    ticks = sorted({x for points in series.values() for x, _ in points}, key=_numeric)
    # Legend from the top line down: by each line's value at its largest parameter value.
    for points in series.values():
        points.sort(key=lambda p: _numeric(p[0]))
    for (m, rest), points in sorted(series.items(), key=lambda kv: (-kv[1][-1][1], kv[0])):
        ax.plot([ticks.index(x) for x, _ in points], [y for _, y in points], marker="o",
                label=f"{names.get(m, m)} ({m}{', ' + rest if rest else ''})")
    ax.set_xticks(range(len(ticks)))
    ax.set_xticklabels(ticks)
    ax.set_xlabel(by)
    ax.set_ylabel("seconds, summed over processes")
    ax.set_title(f"{result['project']}/{result['experiment']}: wait states by {by}")
    if series:
        # Beside the plot, so that it covers no line.
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return by
