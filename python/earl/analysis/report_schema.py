"""The one definition of an analysis result: what the engines write and every view reads.

Two writers fill an EngineResult: the native engine (its binding's dict, checked by
`engine_result` where it enters Python) and the reference scripts
(earl.analysis.reference). Its readers are earl.analysis.Report and through it the
terminal, HTML, Cube and JSON views. The JSON output (ReportJson) carries the
EngineResult itself under "engine_result", so a saved report reads back into the same
Report (`Report.from_json`); its other keys are views of it for people and tools.

`engine_result` checks a dict against these declarations (every key, no other, each
value of its declared type) and returns it with its rows as the NamedTuples below, so a
writer that drifts fails where it writes, with a message naming the key.
"""
import functools
import typing
from typing import NamedTuple, NotRequired, Optional, TypedDict, Union

from earl import EarlError


class CallPath(NamedTuple):
    parent: int      # call path id of the caller; -1 for a root
    region: int      # index into EngineResult.regions


class Cell(NamedTuple):
    callpath: int    # call path id; -1 for time outside any region
    location: int    # index into EngineResult.locations
    value: float     # the metric's unit: seconds for "sec", a count for "occ" and "bytes"


class Traffic(NamedTuple):
    src: int         # sending location
    dest: int        # receiving location
    bytes: int       # bytes sent from src to dest
    messages: int    # messages sent from src to dest


class WaitInstance(NamedTuple):
    metric: str      # pattern id (e.g. "mpi_latesender")
    callpath: int    # call path id of the waiting call; -1 outside any region
    location: int    # the waiting location
    begin: float     # seconds (trace time) at which the wait began
    idle: float      # seconds waited


class RegionDetails(NamedTuple):
    """What the trace says of a region beyond its name (OTF2's Region definition)."""
    canonical_name: str  # e.g. the mangled name ("main" for "int main(int, char**)")
    file: str            # its source file ("MPI" for Score-P's MPI functions; "": none)
    begin_line: int      # 0 where unknown
    end_line: int
    paradigm: str        # OTF2's name: "MPI", "COMPILER", "MEASUREMENT_SYSTEM", ...
    role: str            # OTF2's name: "FUNCTION", "POINT2POINT", "COLL_ALL2ALL", ...
    description: str


class SystemLevel(NamedTuple):
    name: str            # "quartz10"
    kind: str            # its class: "machine", "node", ...
    parent: int          # index into SystemTree.levels; -1 for a root


class SystemProcess(NamedTuple):
    name: str            # "MPI Rank 0"
    rank: int            # the trace's id of the process (OTF2: its location group's)
    level: int           # index into SystemTree.levels: the level it ran on


class SystemTree(TypedDict):
    """The machine the trace ran on, where the trace says where every location ran."""
    levels: list[SystemLevel]       # in the trace's order
    processes: list[SystemProcess]  # in the trace's order
    location_process: list[int]     # location id -> index into processes


class Counter(TypedDict):
    """A hardware counter (EventTrace.metrics()'s fields) per call path and location."""
    name: str                     # e.g. "PAPI_TOT_CYC"
    unit: str                     # values are value * base**exponent unit
    description: str
    mode: str                     # OTF2's metric mode: "accumulated_start", "relative_last", ...
    source: str                   # "papi", "rusage", "user" or "other"
    value_type: str               # "int64", "uint64" or "double"
    base: int                     # 2 or 10
    exponent: int
    per_callpath: bool            # always True here: only such counters are summed
    exclusive: list[Cell]         # the amount counted while the call path was innermost
    inclusive: list[Cell]         # with its callees: Cube's inclusive value (for Score-P's
                                  # accumulated counters the leave's sample - the enter's)


class EngineResult(TypedDict):
    file: str                     # the trace as opened
    format: str                   # its format name ("alog", "otf2", ...)
    events: int                   # events read
    messages: int                 # point-to-point sends seen
    collective_instances: Optional[int]   # collective operations matched; None: not counted
                                          # (the reference scripts do not count them)
    clock_jumps: int              # events the controlled logical clock moved forward
                                  # (counted by the native engine with time correction, else 0)
    time_corrected: bool          # the analysis read corrected times
    regions: list[str]            # region names by region id
    locations: list[str]          # location names by location id ("": the trace names none)
    callpaths: list[CallPath]     # the call tree by call path id, callers first
    values: dict[str, list[Cell]]  # every metric id of the metric tree (earl.analysis.metrics):
                                   # its cells with a value; inclusive along the metric tree,
                                   # exclusive along call paths
    instances: dict[str, int]     # every pattern id: wait instances found
    problems: dict[str, int]      # problem name (cpp/analysis/severities.cpp): times seen
    traffic: list[Traffic]        # every (source, destination) pair that sent, in that order
    worst: list[WaitInstance]     # the longest waits (at most 50), longest first; the native
                                  # engine only
    damaged: NotRequired[list[str]]  # one line per location read only up to damage in its
                                     # input (a cut event file); both engines write it
    counters: NotRequired[list[Counter]]  # the trace's counters summed per call path (metric
                                          # modes that add up), in definition order; the
                                          # native engine only (absent: none computed)
    region_details: NotRequired[list[RegionDetails]]  # by region id, where the format
                                                      # describes regions (OTF2); the
                                                      # native engine only
    system_tree: NotRequired[SystemTree]  # where the format places every location on the
                                          # machine (OTF2); the native engine only


class MetricTotals(TypedDict):
    total: float                  # the metric's unit, summed over call paths and locations
    by_location: dict[str, float]  # location id (a string: JSON keys) -> value
    by_callpath: dict[str, float]  # "main/step/MPI_Recv" -> value, largest first


class PatternTotals(MetricTotals):
    instances: int                # wait instances found


class TrafficRow(TypedDict):
    src: int
    dest: int
    bytes: int
    messages: int


class WaitRow(TypedDict):
    metric: str
    callpath: str                 # the call path's name; "(outside any region)" for -1
    location: int
    begin: float                  # seconds
    idle: float                   # seconds


class MetricRow(TypedDict):
    id: str
    parent: Optional[str]
    name: str
    unit: str                     # "sec", "occ" or "bytes"
    pattern: bool
    description: str
    derived: bool                 # a group Scalasca derives from region/message kinds: its
                                  # trace analyzer stores no values for it (Cube output)
    scout_name: str               # its display name in the file Scalasca's trace analyzer writes


class CounterTotals(TypedDict):
    unit: str
    description: str
    mode: str
    total: float                  # summed over call paths (exclusive) and locations
    by_location: dict[str, float]  # location id -> the location's total
    exclusive: dict[str, float]   # "main/step/MPI_Recv" -> exclusive value, largest first
    inclusive: dict[str, float]   # "main/step/MPI_Recv" -> inclusive value, largest first


class ReportJson(TypedDict):
    file: str
    format: str
    events: int
    locations: dict[str, str]     # location id -> its name (the id when it has none)
    metrics: list[MetricRow]      # the metric tree, parents first
    patterns: dict[str, PatternTotals]   # every pattern id
    profile: dict[str, MetricTotals]     # every other metric id
    problems: dict[str, int]
    traffic: list[TrafficRow]
    worst_instances: list[WaitRow]
    counters: dict[str, CounterTotals]   # counter name -> its values (EngineResult.counters)
    clock_jumps: NotRequired[int]  # with time correction only: EngineResult.clock_jumps
    damaged: list[str]            # EngineResult.damaged
    engine_result: EngineResult   # everything above is computed from this


def engine_result(raw, origin):
    """`raw` checked against EngineResult (its rows made NamedTuples); EarlError naming
    `origin` and the first key that does not conform."""
    from earl import _core
    result = conform(raw, EngineResult, origin)
    metric_ids = [m["id"] for m in _core.analysis_metrics()]
    pattern_ids = [m["id"] for m in _core.analysis_metrics() if m["pattern"]]
    for key, expected in (("values", metric_ids), ("instances", pattern_ids)):
        if sorted(result[key]) != sorted(expected):
            raise EarlError(f"{origin}: {key} must hold exactly the metric tree's "
                            f"{'metric' if key == 'values' else 'pattern'} ids")
    return result


def conform(value, declared, where):
    """`value` checked against the type `declared` (recursively), lists of rows made
    NamedTuples; EarlError naming the path `where` of the first mismatch."""
    origin = typing.get_origin(declared)
    if declared in (int, float, str, bool):
        if isinstance(value, declared) and (declared is bool or not isinstance(value, bool)):
            return value
    elif origin is Union:
        if value is None and type(None) in typing.get_args(declared):
            return None
        inner = [t for t in typing.get_args(declared) if t is not type(None)]
        return conform(value, inner[0], where)
    elif origin is list:
        if isinstance(value, (list, tuple)):
            (item,) = typing.get_args(declared)
            if _is_named_tuple(item):
                return _rows(value, item, where)
            return [conform(v, item, f"{where}[{i}]") for i, v in enumerate(value)]
    elif origin is dict:
        if isinstance(value, dict):
            _, item = typing.get_args(declared)
            for key in value:
                if not isinstance(key, str):
                    raise EarlError(f"{where}: key {key!r} is not a string")
            return {k: conform(v, item, f"{where}[{k!r}]") for k, v in value.items()}
    elif _is_named_tuple(declared):
        fields = _fields(declared)
        if isinstance(value, (list, tuple)) and len(value) == len(fields):
            return declared(*(conform(v, t, f"{where}.{name}")
                              for v, (name, t) in zip(value, fields.items())))
    elif typing.is_typeddict(declared):
        if isinstance(value, dict):
            fields = _fields(declared)
            missing = [k for k in fields if k in declared.__required_keys__ and k not in value]
            extra = [k for k in value if k not in fields]
            if missing or extra:
                raise EarlError(f"{where}: " + "; ".join(
                    part for part in (missing and "missing " + ", ".join(missing),
                                      extra and "unknown " + ", ".join(map(str, extra))) if part))
            return {k: conform(value[k], t, f"{where}.{k}") for k, t in fields.items() if k in value}
    else:
        raise TypeError(f"report_schema cannot check {declared!r}")
    raise EarlError(f"{where}: expected {_type_name(declared)}, got {type(value).__name__} "
                    f"{_short(value)}")


def _rows(value, row_type, where):
    """A list of rows of plain fields, the bulk of a result (a cell per call path, location
    and metric): checked by the exact types of their fields in one pass; a row that does not
    conform goes through `conform` for its message."""
    types = tuple(_fields(row_type).values())
    make = row_type._make
    out = []
    for i, row in enumerate(value):
        if type(row) not in (tuple, list, row_type) or tuple(map(type, row)) != types:
            conform(row, row_type, f"{where}[{i}]")   # raises unless, e.g., a subclass
        out.append(make(row))
    return out


@functools.lru_cache(maxsize=None)
def _fields(declared):
    return typing.get_type_hints(declared)


def _is_named_tuple(declared):
    return isinstance(declared, type) and issubclass(declared, tuple) and hasattr(declared, "_fields")


def _type_name(declared):
    return getattr(declared, "__name__", None) or str(declared).replace("typing.", "")


def _short(value):
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
