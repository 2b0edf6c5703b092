"""earl.stats(trace): TRCSTAT's tables as pandas DataFrames, from one pass of the core
(cpp/profile/trace_profile.h) over the events. The text, JSON and plot of `earl stats`
are made from these tables (earl/statistics_output.py)."""
import os

from earl import _core
from earl.optional import require

DEFAULT_BINS = _core.DEFAULT_TIME_BINS
TABLES = ("types", "flat_profile", "time_profile", "message_sizes", "message_count",
          "message_bytes", "traffic")


def stats(trace, bins=DEFAULT_BINS, **open_options):
    """The statistics of `trace` (an EventTrace, or a path opened with `open_options`) as a
    dict of DataFrames, in this order:

    types          per event type that occurs: events (how many), share (of all events)
    flat_profile   per region entered, most inclusive time first: visits, inclusive and
                   exclusive time (seconds, all locations; a recursive region's time is
                   counted once), the per-location inclusive time min, mean and max (over
                   every location, 0 where it never entered the region) and imbalance =
                   max / mean - 1 (0: perfectly balanced; 1: the slowest location takes
                   twice the mean)
    time_profile   one row per time bin (begin, end) and one column per region entered: the
                   exclusive time spent in it within the bin, summed over locations
    message_sizes  per size class (min..max bytes: 0, 1, 2-3, 4-7, ...): messages sent
    message_count  sender x receiver (locations): messages sent
    message_bytes  sender x receiver: bytes sent
    traffic        per time bin (begin, end): messages and bytes sent in it
    """
    import earl

    if not isinstance(trace, earl.EventTrace):
        with earl.EventTrace(os.fspath(trace), **open_options) as opened:
            return stats(opened, bins)
    pandas = require("pandas", "earl.stats()")
    import numpy

    found = trace._profile(int(bins))
    regions = trace.regions()
    # The rows and their order are the core's (profile/profile_rows.h), as Lua and Tcl show them.
    tables = {name: _named(pandas, found[name], column, names)
              for name, column, names in (("types", "type", trace.types()),
                                          ("flat_profile", "region", regions))}
    edges = numpy.linspace(found["begin"], found["end"], int(bins) + 1)
    bounds = {"begin": edges[:-1], "end": edges[1:]}
    used = found["visits"].sum(axis=0) > 0
    profile = pandas.DataFrame(bounds)
    for index in numpy.flatnonzero(used):
        profile[regions[index]] = found["time_bins"][:, index]
    tables["time_profile"] = profile
    tables["message_sizes"] = _sizes(pandas, numpy, found["size_histogram"])
    locations = pandas.RangeIndex(trace.nrlocs())
    for name in ("message_count", "message_bytes"):
        frame = pandas.DataFrame(found[name], index=locations, columns=locations)
        frame.index.name, frame.columns.name = "src", "dest"
        tables[name] = frame
    tables["traffic"] = pandas.DataFrame({**bounds, "messages": found["bin_messages"],
                                          "bytes": found["bin_bytes"]})
    return tables


def _named(pandas, columns, key, names):
    """A DataFrame of the core's columns, the ids in `key` replaced by their names."""
    frame = pandas.DataFrame(columns)
    frame[key] = [names[int(index)] for index in columns[key]]
    return frame


def _sizes(pandas, numpy, histogram):
    """Size classes with a message: class 0 is 0 bytes, class k is 2^(k-1)..2^k - 1."""
    used = numpy.flatnonzero(histogram)
    low = [0 if k == 0 else 1 << (int(k) - 1) for k in used]
    high = [0 if k == 0 else (1 << int(k)) - 1 for k in used]
    return pandas.DataFrame({"min": numpy.array(low, numpy.uint64),
                             "max": numpy.array(high, numpy.uint64),
                             "messages": histogram[used]})
