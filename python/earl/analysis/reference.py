"""`earl analyze --engine scripts`: the patterns computed by the reference scripts of
scripts/patterns/ (Python, through EventTrace) instead of the native engine. Slow; the
scripts are the readable specification the engine is tested against. Only the patterns
are computed (the profile metrics stay empty)."""
import importlib
import sys
from pathlib import Path

from earl import EarlError, _core
from earl.analysis.report_schema import CallPath, Cell, EngineResult, Traffic

SCRIPTS = ("late_sender", "late_receiver", "collectives", "rma")


def patterns_folder():
    """scripts/patterns as installed with the package (earl/scripts/patterns)."""
    import earl
    for folder in earl.__path__:
        candidate = Path(folder) / "scripts" / "patterns"
        if (candidate / "late_sender.py").is_file():
            return candidate
    raise EarlError("earl analyze: the pattern scripts are not installed with this earl "
                    f"package (no scripts/patterns in {', '.join(earl.__path__)})")


def run_scripts(path, format=None):
    """{metric: {(call path, location): [seconds, instances]}} of every reference script."""
    from earl import EventTrace
    folder = str(patterns_folder())
    sys.path.insert(0, folder)
    try:
        out = {}
        for name in SCRIPTS:
            module = importlib.import_module(name)
            with EventTrace(path, format=format, progress=lambda f: None) as e:
                module.find(e, out)
        return out
    finally:
        sys.path.remove(folder)


def program_roots(e):
    """{location: "prog/"}: the call path prefix the native engine gives the locations of
    the EventTrace `e` that have a ProgramBegin, the program's region (named as the
    executable) where the trace defines one. The scripts name call paths without it."""
    roots, region_names = {}, set(e.regions())
    e.reset()
    for ev in e:
        if ev["type"] == "program_begin" and isinstance(ev["data1"], str):
            executable = ev["data1"].rpartition("/")[2]
            if executable in region_names:
                roots.setdefault(ev["loc"], executable + "/")
    e.reset()
    return roots


def analyze_with_scripts(path, format=None):
    """The scripts' results as an EngineResult (earl.analysis.report_schema), the form
    the native engine gives: no collective count, no worst instances and no counters (the
    scripts keep none of them), recorded times."""
    from earl import EventTrace
    found = run_scripts(path, format)
    with EventTrace(path, format=format, progress=lambda f: None) as e:
        names = [e.locsym(l) for l in range(e.nrlocs())]
        locations = ["" if n == l else n for l, n in enumerate(names)]
        file, fmt, events = e.file(), e.format(), len(e)
        damaged = [d["message"] for d in e.problems().get("damaged", {}).get("locations", [])]
        traffic, sends = {}, 0
        roots = program_roots(e)
        for ev in e:
            if ev["type"] == "send":
                sends += 1
                if ev["dest"] >= 0:
                    b, n = traffic.get((ev["loc"], ev["dest"]), (0, 0))
                    traffic[(ev["loc"], ev["dest"])] = (b + ev["len"], n + 1)
    regions, region_ids, callpaths, callpath_ids = [], {}, [], {}

    def callpath(path):
        if path not in callpath_ids:
            parent, _, name = path.rpartition("/")
            parent_id = callpath(parent) if parent else -1
            if name not in region_ids:
                region_ids[name] = len(regions)
                regions.append(name)
            callpath_ids[path] = len(callpaths)
            callpaths.append(CallPath(parent_id, region_ids[name]))
        return callpath_ids[path]

    values, instances = {}, {}
    for m in _core.analysis_metrics():
        cells = found.get(m["id"], {})
        values[m["id"]] = [Cell(callpath(roots.get(loc, "") + p), loc, float(s))
                           for (p, loc), (s, _) in cells.items()]
        if m["pattern"]:
            instances[m["id"]] = sum(n for _, n in cells.values())
    return EngineResult(
        file=file, format=fmt, events=events, messages=sends, collective_instances=None,
        clock_jumps=0, time_corrected=False, regions=regions, locations=locations,
        callpaths=callpaths, values=values, instances=instances, problems={},
        traffic=[Traffic(src, dest, b, n) for (src, dest), (b, n) in sorted(traffic.items())],
        worst=[], damaged=damaged, counters=[])
