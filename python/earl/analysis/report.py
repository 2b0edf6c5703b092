"""The Report: the engine's results with the views a user asks for."""
import json
import os

from earl import _core
from earl.analysis.names import shown_result
from earl.analysis.report_schema import (CounterTotals, MetricRow, MetricTotals, PatternTotals,
                                         ReportJson, TrafficRow, WaitRow, engine_result)
from earl.optional import require
from earl.output_paths import refuse_trace_files
from earl.progress import ProgressBar


def metrics():
    """The metric tree as a list of dicts (id, parent, name, unit, pattern, description),
    parents before children: the one table is in C++ (cpp/analysis/metric_tree.cpp)."""
    return _core.analysis_metrics()


def analyze(trace, format=None, progress=None, engine="native", time_correct=False,
            min_latency=None, strict=False):
    """Analyse `trace` (a path or an open earl.EventTrace) and return a Report.

    engine "native" runs the C++ engine (GIL released, Ctrl-C stops it); "scripts" runs
    the reference scripts of scripts/patterns/ (slow; the readable specification).
    `progress` takes the fraction done; by default a bar shows on a terminal.
    `time_correct` analyses the times the controlled logical clock corrects (see
    EventTrace; native engine only). A damaged trace (an OTF2 event file or ALOG file cut short) is
    analysed up to the damage, which Report.damaged names; `strict` makes it an error."""
    if hasattr(trace, "file") and callable(trace.file):
        path, format = trace.file(), format or trace.format()
    else:
        path = os.fspath(trace)
    if engine == "scripts":
        from earl.analysis.reference import analyze_with_scripts
        if time_correct:
            raise _core.EarlError("earl analyze: the scripts engine reads recorded times; "
                                  "time correction needs the native engine")
        return Report(analyze_with_scripts(path, format), origin="the reference scripts")
    if engine != "native":
        raise _core.EarlError(f"earl analyze: unknown engine {engine!r} (native, scripts)")
    if progress is None:
        with ProgressBar(f"analysing {os.path.basename(path)}") as bar:
            raw = _core.analyze(path, format, bar, time_correct=time_correct,
                                min_latency=min_latency, strict=strict)
    else:
        raw = _core.analyze(path, format, progress, time_correct=time_correct,
                            min_latency=min_latency, strict=strict)
    return Report(dict(raw, time_corrected=bool(time_correct)), origin="the native engine")


# Call paths deeper than MAX_NAMED_LEVELS are named by their first and last HEAD_LEVELS
# regions around "/...N levels.../" and their id (the rule: cpp/analysis/callpath_names.h).
MAX_NAMED_LEVELS = _core.CALLPATH_NAMED_LEVELS
HEAD_LEVELS = _core.CALLPATH_HEAD_LEVELS


def callpath_names(callpaths, regions):
    """The name of every call path ((parent, region) pairs, parents first): its regions
    joined by "/" up to MAX_NAMED_LEVELS deep, else "first/regions/...N levels.../last/
    regions [call path ID]" (the id keeps names unique), in time and memory linear in the
    number of call paths whatever their depth."""
    return _core.callpath_names(callpaths, regions)


class Report:
    """Severities per (metric, call path, location): values are inclusive along the metric
    tree (a child's time is part of its parent's) and exclusive along call paths."""

    def __init__(self, raw, origin="analysis result"):
        """`raw`: an EngineResult (earl.analysis.report_schema), checked here; EarlError
        naming `origin` and the key when it does not conform. The trace's names are kept in
        the form every output shows them (earl.analysis.names: bytes that are not UTF-8 and
        control characters as \\xNN)."""
        self.raw = shown_result(engine_result(raw, origin))
        self.metrics = {m["id"]: m for m in metrics()}
        self.file, self.format, self.events = (self.raw[k] for k in ("file", "format", "events"))
        self.locations = self.raw["locations"]
        self.problems = dict(self.raw["problems"])
        # One line per location read only up to damage in the trace (a cut event file).
        self.damaged = list(self.raw.get("damaged", []))
        # Events the clock correction moved, where the analysis read corrected times.
        self.clock_jumps = self.raw["clock_jumps"] if self.raw["time_corrected"] else None
        # call path id -> parent id (-1: root); call path id -> "main/step/MPI_Recv"
        # (bounded in length: callpath_names)
        self.callpath_parents = [parent for parent, _ in self.raw["callpaths"]]
        self.callpaths = callpath_names(self.raw["callpaths"], self.raw["regions"])
        self._values = self.raw["values"]
        self._instances = self.raw["instances"]
        # Hardware counters per call path (report_schema.Counter), by name.
        self.counters = {c["name"]: c for c in self.raw.get("counters", [])}

    @classmethod
    def from_json(cls, text, origin="JSON report"):
        """The Report a `to_json()` text (`earl analyze --json`) was written from."""
        try:
            saved = json.loads(text)
        except ValueError as error:
            raise _core.EarlError(f"{origin}: not JSON ({error})") from None
        if not isinstance(saved, dict) or "engine_result" not in saved:
            raise _core.EarlError(f"{origin}: no engine_result (not written by earl analyze --json)")
        return cls(saved["engine_result"], origin=f"{origin}: engine_result")

    # ---------------------------------------------------------------- queries
    def cells(self, metric):
        """[(callpath id, location, value)] of one metric (cells with a value only)."""
        self._check(metric)
        return self._values.get(metric, [])

    def total(self, metric):
        return sum((v for _, _, v in self.cells(metric)), 0.0)

    def instances(self, metric):
        self._check(metric)
        return self._instances.get(metric, 0)

    def by_location(self, metric):
        out = {}
        for _, loc, v in self.cells(metric):
            out[loc] = out.get(loc, 0.0) + v
        return dict(sorted(out.items()))

    def by_callpath(self, metric):
        out = {}
        for cp, _, v in self.cells(metric):
            key = self.callpaths[cp] if cp >= 0 else "(outside any region)"
            out[key] = out.get(key, 0.0) + v
        return dict(sorted(out.items(), key=lambda kv: -kv[1]))

    def counter_cells(self, name, inclusive=False):
        """[(callpath id, location, value)] of one counter, exclusive (or inclusive)."""
        if name not in self.counters:
            raise _core.EarlError(f"unknown counter {name!r} (known: "
                                  f"{', '.join(self.counters) or 'none in this trace'})")
        return self.counters[name]["inclusive" if inclusive else "exclusive"]

    def counter_by_callpath(self, name, inclusive=False):
        """{call path name: value} of one counter summed over locations, largest first."""
        out = {}
        for cp, _, v in self.counter_cells(name, inclusive):
            key = self.callpaths[cp] if cp >= 0 else "(outside any region)"
            out[key] = out.get(key, 0.0) + v
        return dict(sorted(out.items(), key=lambda kv: -kv[1]))

    def counter_by_location(self, name):
        """{location: value} of one counter summed over call paths."""
        out = {}
        for _, loc, v in self.counter_cells(name):
            out[loc] = out.get(loc, 0.0) + v
        return dict(sorted(out.items()))

    def traffic(self):
        """Point-to-point traffic: [(source location, destination location, bytes,
        messages)] of every pair that sent."""
        return [tuple(t) for t in self.raw["traffic"]]

    def worst_instances(self):
        """The longest wait instances (at most 50), longest first: dicts with metric,
        callpath, location, begin (seconds) and idle (seconds); the native engine only.
        Wrong-order waits are late-sender instances already listed."""
        return [{"metric": m, "callpath": self.callpaths[cp] if cp >= 0 else "(outside any region)",
                 "location": loc, "begin": begin, "idle": idle}
                for m, cp, loc, begin, idle in self.raw["worst"]]

    def location_name(self, loc):
        name = self.locations[loc] if 0 <= loc < len(self.locations) else ""
        return name or str(loc)

    def patterns(self):
        return [m for m, info in self.metrics.items() if info["pattern"]]

    def _check(self, metric):
        if metric not in self.metrics:
            raise _core.EarlError(f"unknown metric {metric!r} (known: {', '.join(self.metrics)})")

    # ---------------------------------------------------------------- exports
    def to_dict(self) -> ReportJson:
        """The JSON form (report_schema.ReportJson): patterns, profile (the other metrics),
        problems, ...; location keys are strings; engine_result is what they are computed
        from (Report.from_json reads it back)."""
        def entry(metric):
            return MetricTotals(
                total=self.total(metric),
                by_location={str(k): v for k, v in self.by_location(metric).items()},
                by_callpath=self.by_callpath(metric))
        patterns, profile = {}, {}
        for metric, info in self.metrics.items():
            if info["pattern"]:
                patterns[metric] = PatternTotals(entry(metric), instances=self.instances(metric))
            else:
                profile[metric] = entry(metric)
        out = ReportJson(
            file=self.file, format=self.format, events=self.events,
            locations={str(i): self.location_name(i) for i in range(len(self.locations))},
            metrics=[MetricRow(m) for m in self.metrics.values()],
            patterns=patterns, profile=profile, problems=self.problems,
            traffic=[TrafficRow(src=src, dest=dest, bytes=b, messages=n)
                     for src, dest, b, n in self.traffic()],
            worst_instances=[WaitRow(w) for w in self.worst_instances()],
            damaged=self.damaged,
            counters={name: CounterTotals(
                unit=c["unit"], description=c["description"], mode=c["mode"],
                total=sum((v for _, _, v in c["exclusive"]), 0.0),
                by_location={str(k): v for k, v in self.counter_by_location(name).items()},
                exclusive=self.counter_by_callpath(name),
                inclusive=self.counter_by_callpath(name, inclusive=True))
                for name, c in self.counters.items()},
            engine_result=self.raw)
        if self.clock_jumps is not None:
            out["clock_jumps"] = self.clock_jumps
        return out

    def to_json(self, **kwargs):
        return json.dumps(self.to_dict(), **kwargs)

    def to_pandas(self):
        """One row per (metric, call path, location) with a value: columns metric,
        callpath, location, location_name, value, unit. Each hardware counter is a metric
        too, with its exclusive values (those of Cube's call tree) and the trace's unit."""
        pd = require("pandas", "Report.to_pandas()")

        def rows(metric, unit, cells):
            return [(metric, self.callpaths[cp] if cp >= 0 else "", loc, self.location_name(loc), v, unit)
                    for cp, loc, v in cells]
        table = [row for m, info in self.metrics.items() for row in rows(m, info["unit"], self.cells(m))]
        table += [row for name, counter in self.counters.items()
                  for row in rows(name, counter["unit"], self.counter_cells(name))]
        return pd.DataFrame(table, columns=["metric", "callpath", "location", "location_name",
                                            "value", "unit"])

    def write_cube(self, path):
        from earl.analysis.cube import write_cube
        refuse_trace_files(path, self.file)
        write_cube(self, path)

    def write_html(self, path):
        from earl.analysis.html import write_html
        refuse_trace_files(path, self.file)
        write_html(self, path)

    def _repr_html_(self):
        from earl.analysis.html import summary_table
        return summary_table(self)

    def __repr__(self):
        return (f"<earl.analysis.Report {self.file!r} events={self.events} "
                f"locations={len(self.locations)}>")
