"""earl.stats(trace): TRCSTAT's tables as pandas DataFrames, from one pass of the core
(cpp/profile/trace_profile.h) over the events. The text, JSON and plot of `earl stats`
are made from these tables (earl/statistics_output.py)."""
import os

from earl.optional import require

DEFAULT_BINS = 20
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
    counts = found["type_count"]
    total = max(int(counts.sum()), 1)
    types = pandas.DataFrame({"type": trace.types(), "events": counts, "share": counts / total})
    tables = {"types": types[counts > 0].reset_index(drop=True)}
    tables["flat_profile"] = _flat_profile(pandas, numpy, found, regions)
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


def _flat_profile(pandas, numpy, found, regions):
    visits = found["visits"].sum(axis=0)
    per_location = found["inclusive"]
    mean = per_location.mean(axis=0) if len(per_location) else numpy.zeros(len(regions))
    high = per_location.max(axis=0) if len(per_location) else numpy.zeros(len(regions))
    low = per_location.min(axis=0) if len(per_location) else numpy.zeros(len(regions))
    with numpy.errstate(divide="ignore", invalid="ignore"):
        imbalance = numpy.where(mean > 0, high / mean - 1, 0.0)
    frame = pandas.DataFrame({"region": regions, "visits": visits,
                              "inclusive": per_location.sum(axis=0),
                              "exclusive": found["exclusive"].sum(axis=0),
                              "min": low, "mean": mean, "max": high, "imbalance": imbalance})
    frame = frame[visits > 0].sort_values("inclusive", ascending=False, kind="stable")
    return frame.reset_index(drop=True)


def _sizes(pandas, numpy, histogram):
    """Size classes with a message: class 0 is 0 bytes, class k is 2^(k-1)..2^k - 1."""
    used = numpy.flatnonzero(histogram)
    low = [0 if k == 0 else 1 << (int(k) - 1) for k in used]
    high = [0 if k == 0 else (1 << int(k)) - 1 for k in used]
    return pandas.DataFrame({"min": numpy.array(low, numpy.uint64),
                             "max": numpy.array(high, numpy.uint64),
                             "messages": histogram[used]})
