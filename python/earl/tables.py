"""The trace as tables (pandas and Arrow): events with names as categoricals, and one row
per region instance. The rows come from the core (to_numpy(), cpp/profile/); this module
only names the columns and wraps them."""
from earl._core import EarlError
from earl.optional import require
from earl.trace import event_dtype

# Events converted per to_numpy() call where only some locations' rows are kept: one
# chunk's structured rows at a time, so the peak memory is the rows kept plus one chunk.
CHUNK = 1 << 20


def window(trace, first=1, last=None, t0=None, t1=None):
    """The positions first..last (inclusive) of the events in both the position window
    first..last and the time window t0 <= time <= t1 (None: unbounded); last < first
    where none is."""
    import operator

    size = len(trace)
    last = size if last is None else last
    try:
        first, last = operator.index(first), operator.index(last)
    except TypeError:
        raise EarlError(f"positions {first!r}..{last!r} are not whole numbers") from None
    if not (1 <= first <= size + 1) or not (first - 1 <= last <= size):
        raise EarlError(f"positions {first}..{last} are outside 1..{size}")
    if t0 is not None:
        first = max(first, trace._first_at(_seconds(t0, "t0")))
    if t1 is not None:
        last = min(last, trace._first_at(_seconds(t1, "t1"), after=True) - 1)
    return first, max(last, first - 1)


def _seconds(value, name):
    try:
        return float(value)
    except (TypeError, ValueError):
        raise EarlError(f"{name} {value!r} is not a time in seconds") from None


def _location_numbers(locations):
    """The integers of `locations`; EarlError naming the first that is none."""
    import operator

    try:
        items = list(locations)
    except TypeError:
        raise EarlError(f"locations {locations!r} is not a list of location numbers") from None
    numbers = []
    for item in items:
        try:
            numbers.append(operator.index(item))
        except TypeError:
            raise EarlError(f"locations: {item!r} is not a location number") from None
    return numbers


def _columns(trace, first, last, locations):
    """The to_numpy() fields of events first..last as one NumPy array each, keeping the
    rows of `locations` (an iterable of location numbers; None: all)."""
    import numpy

    if locations is None:  # the core writes straight into the columns
        count = last - first + 1
        base = event_dtype()
        columns = {name: numpy.empty(count, base.fields[name][0]) for name in base.names}
        counters = {name: numpy.empty(count, numpy.float64) for name in trace.metric_columns()}
        if count:
            trace._fill_columns(first, count, list(columns.values()), list(counters.values()))
        return {**columns, **counters}
    wanted = numpy.array(_location_numbers(locations), numpy.int64)
    dtype = trace.to_numpy(1, 0).dtype
    kept = []
    for start in range(first, last + 1, CHUNK):
        rows = trace.to_numpy(start, min(start + CHUNK - 1, last))
        kept.append(rows[numpy.isin(rows["loc"], wanted)])
    rows = numpy.concatenate(kept) if kept else trace.to_numpy(1, 0)
    return {name: numpy.ascontiguousarray(rows[name]) for name in dtype.names}


def events(trace, first=1, last=None, t0=None, t1=None, locations=None):
    """The columns of to_pandas()/to_arrow(): {name: NumPy array} and, for the type and
    region columns, {name: names} (codes index them, -1 for none; the trace's names are
    distinct: EARL keeps one region per name)."""
    first, last = window(trace, first, last, t0, t1)
    columns = _columns(trace, first, last, locations)
    return columns, {"type": trace.types(), "region": trace.regions()}


def to_pandas(trace, **window_args):
    pandas = require("pandas", "to_pandas()")
    return _frame(pandas, *events(trace, **window_args))


def read_pandas(*args, **options):
    """Every event of the trace EventTrace(*args, **options) would open, as to_pandas()
    gives them: the columns are filled during the opening scan itself (no second decoding
    of each event), and the trace is closed again."""
    from earl import _core
    from earl.trace import EventTrace, open_checked

    pandas = require("pandas", "read_pandas()")
    (trace, fields, counters), _ = open_checked(_core._read_columns, args, options)
    try:
        columns = dict(zip(event_dtype().names, fields))
        columns.update(zip(EventTrace.metric_columns(trace), counters))
        names = {"type": trace.types(), "region": trace.regions()}
    finally:
        trace.close()
    return _frame(pandas, columns, names)


def _frame(pandas, columns, names):
    """The DataFrame of `columns`, those in `names` as categoricals of those names."""
    for name, labels in names.items():
        columns[name] = pandas.Categorical.from_codes(columns[name], categories=labels)
    return pandas.DataFrame(columns, copy=False)


def to_arrow(trace, **window_args):
    pyarrow = require("pyarrow", "to_arrow()")
    columns, names = events(trace, **window_args)
    for name, labels in names.items():
        codes = columns[name]
        columns[name] = pyarrow.DictionaryArray.from_arrays(
            pyarrow.array(codes, mask=codes < 0), pyarrow.array(labels, pyarrow.string()))
    return pyarrow.table(columns)


def region_instances(trace):
    """One row per region instance (earl.EventTrace.region_instances)."""
    pandas = require("pandas", "region_instances()")
    found = trace._region_instances()
    columns = {
        "loc": found["loc"],
        "region": pandas.Categorical.from_codes(found["region"], categories=trace.regions()),
        "callpath": pandas.Categorical.from_codes(found["callpath"], categories=found["callpath_names"]),
        "callpath_id": found["callpath"],
    }
    for name in ("enter_pos", "exit_pos", "enter_time", "exit_time", "inclusive", "exclusive"):
        columns[name] = found[name]
    for index, name in enumerate(trace.metric_columns()):
        columns[name] = found["counters"][:, index]
    return pandas.DataFrame(columns, copy=False)
