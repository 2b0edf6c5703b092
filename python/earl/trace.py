"""EventTrace: the EARL 2.0 trace object with Python's idioms added."""
import inspect
import os

from earl import _core
from earl.progress import ProgressBar


def event_dtype():
    """The NumPy dtype of to_numpy() rows (made in C++ from the rows it fills). NumPy is
    imported only on first use: importing it starts OpenBLAS threads that compete with
    the scan for the CPU."""
    return _core.event_dtype()


def _open_signature():
    """EventTrace's signature, made from the core's table of open options."""
    P = inspect.Parameter
    parameters = [P("self", P.POSITIONAL_OR_KEYWORD), P("file", P.POSITIONAL_OR_KEYWORD)]
    for name, positional, default in _core.open_parameters():
        kind = P.POSITIONAL_OR_KEYWORD if positional else P.KEYWORD_ONLY
        parameters.append(P(name, kind, default=default))
    return inspect.Signature(parameters)


_OPEN_SIGNATURE = _open_signature()


def open_checked(opener, args, options):
    """opener(**arguments) with EventTrace's arguments `args` and `options` checked
    against its signature; where no progress callable is given, a progress bar shows the
    opening. Returns (what opener returned, whether a bar was made)."""
    given = _OPEN_SIGNATURE.bind(None, *args, **options).arguments
    del given["self"]
    given["file"] = os.fspath(given["file"])
    if given.get("progress") is not None:
        return opener(**given), False
    given.pop("progress", None)
    with ProgressBar(f"opening {os.path.basename(os.fsdecode(given['file']))}") as bar:
        return opener(progress=bar, **given), True


class EventTrace(_core.EventTrace):
    """An event trace with random access (DESIGN.md sections 1-3).

    The parameters and their defaults are the core's table of open options
    (earl._core.open_options(); inspect.signature(EventTrace) shows them).
    `progress` is a callable taking the fraction done of long work (opening, far jumps);
    by default a progress bar appears on a terminal when such work takes a while.
    With `cache` (the default), a format that seeks slowly (OTF2) is read once, on a
    second thread, into EARL's event cache (a temporary file in $TMPDIR, removed when the
    trace closes), which then serves every position; `cache=False` reads the archive
    directly and seeks in it with libotf2. `cache=None` means True unless the
    environment sets EARL_CACHE=0 (for scripts one cannot edit).
    `memory` bounds the bytes the bookmarks hold (None: $EARL_MEMORY, bytes or with a
    K/M/G suffix, else 256 MiB); where the state is too large for it, bdist widens
    (bookmarks() tells the bdist in effect).
    `index` keeps what opening found (bookmarks, problems, for OTF2 the event cache) in a
    persisted index beside the trace (<anchor>.earlidx; where that directory is not
    writable, in $XDG_CACHE_HOME/earl or ~/.cache/earl; $EARL_INDEX_DIR overrides), so
    that the next open of the unchanged trace reads it instead of scanning. None: traces
    of at least $EARL_INDEX_MIN_BYTES (64 MiB) unless EARL_INDEX=0; True: always; False:
    never. index_info() tells what happened; a stale or damaged index is rebuilt. No
    index is kept with time_correct.
    `time_correct=True` corrects clock-condition violations (a receive before its send, a
    collective's end before its last begin) by the controlled logical clock, one more pass
    at opening: every time seen is then the corrected one, positions stay the same, and
    time_correction() tells what moved. `min_latency` (seconds) is the least time a
    corrected message takes.
    A damaged trace (an OTF2 event file or an ALOG file cut or corrupted) is read up to the damage on each
    location, and problems()["damaged"] says what was lost; `strict=True` makes the
    damage an error instead.
    """

    def __init__(self, *args, **options):
        _, barred = open_checked(super().__init__, args, options)
        if barred:
            self.progress = _LazyBar("decoding")

    __init__.__signature__ = _OPEN_SIGNATURE

    def __iter__(self):
        """All events in order, as dicts; the iterator of the trace does not move."""
        for pos in range(1, len(self) + 1):
            yield self.event(pos)

    def select(self, where=None, language="python", first=None, last=None, locations=(),
               positions=False):
        """The events `where` selects, in order, as dicts (positions with positions=True),
        read lazily: the trace is never held in memory. `where` is an expression over `ev`
        in `language` ("python" or "lua"), e.g. 'ev.type == "send" and ev.dest == 3';
        None selects every event. `first`/`last` bound the window (inclusive): a position
        (int), a time in seconds (float) or text as `earl list --from` reads it ("1.5s").
        `locations`: only events of these locations. The iterator's `native` attribute
        tells whether the core tested the expression at scan speed (docs/python-api.md)."""
        from earl.query import Selected
        return Selected(self, where, language, first, last, locations, positions=positions)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        if self.closed:
            return "<earl.EventTrace (closed)>"
        return (f"<earl.EventTrace {self.file()!r} format={self.format()} "
                f"events={len(self)} locations={self.nrlocs()}>")

    def to_numpy(self, first=1, last=None):
        """Events first..last (inclusive) as a NumPy structured array.

        Fields: pos, loc, time, type (index into types()), enterptr, region (index into
        regions(), -1 for none), peer (dest of a send, src of a recv, else -1), tag, com,
        len, sendptr; then, where the trace defines metrics (hardware counters), one
        float64 field per metrics() entry, named by the metric (metric_columns()): the
        value of a metric event of that counter, NaN in every other row.
        """
        size = len(self)
        last = size if last is None else last
        if not (1 <= first <= size + 1) or not (first - 1 <= last <= size):
            raise _core.EarlError(
                f"to_numpy: positions {first}..{last} are outside 1..{size}")
        rows, counters = self._records(first, last - first + 1)
        if counters is None:
            return rows
        import numpy
        # The counters follow the core's row in memory: whole rows are copied as bytes
        # (copying field by field into an unaligned layout costs ten times as much).
        base, names = rows.dtype, self.metric_columns()
        dtype = numpy.dtype({
            "names": list(base.names) + names,
            "formats": [base.fields[f][0] for f in base.names] + [numpy.float64] * len(names),
            "offsets": [base.fields[f][1] for f in base.names]
                       + [base.itemsize + 8 * i for i in range(len(names))],
            "itemsize": base.itemsize + 8 * len(names)})
        out = numpy.empty(len(rows), dtype)
        raw = out.view(numpy.uint8).reshape(len(rows), dtype.itemsize)
        raw[:, :base.itemsize] = rows.view(numpy.uint8).reshape(len(rows), base.itemsize)
        raw[:, base.itemsize:] = counters.view(numpy.uint8).reshape(len(rows), 8 * len(names))
        return out

    def to_pandas(self, first=1, last=None, t0=None, t1=None, locations=None):
        """The events as a pandas DataFrame: the columns of to_numpy() (peer is the dest of
        a send and the src of a recv, as in to_numpy), with `type` and `region` as
        Categoricals of the trace's names (region NaN on events without one), and a float64
        column per counter (metric_columns()). The rows are the events at positions
        first..last whose time is within t0..t1 (inclusive; None: no bound) and whose
        location is in `locations` (None: all). Needs pandas (earl[analysis])."""
        from earl import tables
        return tables.to_pandas(self, first=first, last=last, t0=t0, t1=t1, locations=locations)

    def to_arrow(self, first=1, last=None, t0=None, t1=None, locations=None):
        """The table of to_pandas() as a pyarrow.Table, `type` and `region` as
        DictionaryArrays (region null on events without one). Needs pyarrow (earl[arrow])."""
        from earl import tables
        return tables.to_arrow(self, first=first, last=last, t0=t0, t1=t1, locations=locations)

    def region_instances(self):
        """One row per region instance, in the order they were entered, as a DataFrame:
        loc, region and callpath (Categoricals; call paths named as in every report,
        regions from the root joined by "/"), callpath_id, enter_pos, exit_pos,
        enter_time, exit_time, inclusive and exclusive time (seconds; exclusive is the
        inclusive time less that of the instances it called), then per counter
        (metric_columns()) its growth: the value at the exit less the value at the enter,
        each the location's last sample at or before that time. An instance still open at
        the end of the trace has exit_pos 0 and NaN times. Made in one pass in C++; needs
        pandas (earl[analysis])."""
        from earl import tables
        return tables.region_instances(self)

    def metric_columns(self):
        """The to_numpy() field of each metrics() entry, in its order: the metric's name,
        or "metric:NAME" where the name is taken (a base field such as "time", or an
        earlier metric of the same name), then "metric:NAME:INDEX"."""
        taken = set(event_dtype().names)
        names = []
        for index, metric in enumerate(self.metrics()):
            name = metric["name"]
            for candidate in (name, f"metric:{name}", f"metric:{name}:{index}"):
                if candidate not in taken:
                    break
            taken.add(candidate)
            names.append(candidate)
        return names


class _LazyBar:
    """Progress for far jumps: a fresh bar each time long decoding starts."""

    def __init__(self, description):
        self.description = description
        self._bar = None

    def __call__(self, fraction):
        if self._bar is None:
            self._bar = ProgressBar(self.description)
        self._bar(fraction)
        if fraction >= 1.0:
            self._bar.close()
            self._bar = None
