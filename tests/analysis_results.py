"""One view of an analysis result for tests/test_analysis_cases.py, whichever computed it:
the native engine (earl.analyze), `earl analyze --json`, the Python reference scripts
(engine="scripts") or the Lua ones (scripts/patterns/*.lua, their printed cells).

A view answers per metric (total, by_location, by_callpath, instances, cells) and, where
its source has them, problems, traffic and worst instances (None: not computed there)."""
from __future__ import annotations

import json
import subprocess
import sys


class View:
    def __init__(self, patterns_only, problems=None, traffic=None, worst=None):
        self.patterns_only = patterns_only   # only the wait-state patterns are computed
        self.problems, self.traffic, self.worst = problems, traffic, worst
        self.metrics = {}                    # metric -> dict(total, by_location, ...)

    def metric(self, name):
        return self.metrics.get(name) or summed({}, 0)


def summed(cells, instances):
    """total, by location and by call path of {(call path, location): value}."""
    by_location, by_callpath = {}, {}
    for (callpath, loc), v in cells.items():
        by_location[loc] = by_location.get(loc, 0.0) + v
        by_callpath[callpath] = by_callpath.get(callpath, 0.0) + v
    return dict(total=sum(cells.values()), by_location=by_location, by_callpath=by_callpath,
                instances=instances, cells=cells)


def worst_of(instances):
    return [(w["metric"], w["location"], w["begin"], w["idle"], w["callpath"]) for w in instances]


def report_view(report, patterns_only=False):
    """A Report of earl.analyze (its own by_location/by_callpath, not re-summed here)."""
    view = View(patterns_only, None if patterns_only else dict(report.problems),
                sorted(report.traffic()), None if patterns_only else worst_of(report.worst_instances()))
    for m, info in report.metrics.items():
        if patterns_only and not info["pattern"]:
            continue
        view.metrics[m] = dict(
            total=report.total(m), by_location=report.by_location(m),
            by_callpath=report.by_callpath(m),
            instances=report.instances(m) if info["pattern"] else None,
            cells={(report.callpaths[cp], loc): v for cp, loc, v in report.cells(m)})
    view.parents = {m: info["parent"] for m, info in report.metrics.items()}
    return view


def engine_view(path):
    import earl
    return report_view(earl.analyze(path, progress=lambda f: None))


def json_view(path):
    """`earl analyze PATH --json`, as a user runs it."""
    done = subprocess.run([sys.executable, "-m", "earl.cli", "analyze", str(path), "--json"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    view = View(False, out["problems"], sorted((t["src"], t["dest"], t["bytes"], t["messages"])
                                               for t in out["traffic"]),
                worst_of(out["worst_instances"]))
    for m, entry in {**out["patterns"], **out["profile"]}.items():
        view.metrics[m] = dict(total=entry["total"], instances=entry.get("instances"), cells=None,
                               by_location={int(l): v for l, v in entry["by_location"].items()},
                               by_callpath=entry["by_callpath"])
    view.parents = {info["id"]: info["parent"] for info in out["metrics"]}
    return view


def python_scripts_view(path):
    import earl
    return report_view(earl.analyze(path, engine="scripts"), patterns_only=True)


def lua_scripts_view(path, capsys):
    """Each scripts/patterns/*.lua run on `path`; a printed line is `metric location call
    path seconds instances`."""
    import earl.lua
    from earl import EventTrace
    from earl.analysis.reference import SCRIPTS, patterns_folder, program_roots
    with EventTrace(path, progress=lambda f: None) as e:
        roots = program_roots(e)
    cells, counts = {}, {}
    for name in SCRIPTS:
        capsys.readouterr()
        earl.lua.run(patterns_folder() / f"{name}.lua", [str(path)])
        for line in capsys.readouterr().out.splitlines():
            metric, loc, rest = line.split(" ", 2)
            callpath, seconds, n = rest.rsplit(" ", 2)
            cells.setdefault(metric, {})[roots.get(int(loc), "") + callpath, int(loc)] = float(seconds)
            counts[metric] = counts.get(metric, 0) + int(n)
    view = View(True)
    for metric, metric_cells in cells.items():
        view.metrics[metric] = summed(metric_cells, counts[metric])
    view.parents = {}
    return view
