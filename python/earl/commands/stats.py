"""`earl stats TRACE`: TRCSTAT's statistics (earl.stats) as text, JSON or a figure."""
import argparse
import json

from earl import open_arguments
from earl.commands.analyze import positive_int
from earl.statistics import DEFAULT_BINS

HELP = "statistics: event types, flat and time profile, message sizes and matrix"
DESCRIPTION = """\
Statistics of TRACE in one pass: how often each event type occurs; the flat profile
(visits, inclusive and exclusive time per region, per-location min/mean/max of the
inclusive time and imbalance = max/mean - 1); the time profile (exclusive time per
region in N time bins); messages (size classes, count and bytes per sender and
receiver, traffic per time bin). The same tables as DataFrames: earl.stats(trace)."""
JSON_SCHEMA = """\
--json prints one JSON object (times in seconds):
  file, format, events   the trace
  types          [{"type", "events", "share"}]
  flat_profile   [{"region", "visits", "inclusive", "exclusive", "min", "mean", "max",
                 "imbalance"}], most inclusive time first
  time_profile   {"bins": [{"begin", "end"}], "regions": {region: [seconds per bin]}}
  message_sizes  [{"min", "max", "messages"}] (bytes; classes 0, 1, 2-3, 4-7, ...)
  message_count  [[messages from sender i to receiver j]]
  message_bytes  [[bytes from sender i to receiver j]]
  traffic        [{"begin", "end", "messages", "bytes"}] sent per time bin
--top limits the text and the figure, not the JSON."""


def configure(parser):
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = JSON_SCHEMA
    parser.add_argument("trace", help="trace (format detected from its content)")
    open_arguments.add_format(parser)
    parser.add_argument("--json", action="store_true", help="print the tables as one JSON object")
    parser.add_argument("--plot", metavar="FILE",
                        help="also write a figure of four panels (flat profile, time profile, "
                             "bytes per sender and receiver, message sizes), e.g. out.png")
    parser.add_argument("--bins", type=positive_int, default=DEFAULT_BINS, metavar="N",
                        help=f"time bins of the time profile and the traffic (default: {DEFAULT_BINS})")
    parser.add_argument("--top", type=positive_int, default=None, metavar="N",
                        help="show the N regions of most inclusive time in the flat profile "
                             "and of most exclusive time in the time profile (default: all; "
                             "the figure: 10)")
    open_arguments.add_reading(parser)
    open_arguments.add_correction(parser)


def run(args):
    import earl
    from earl import statistics_output

    with earl.EventTrace(args.trace, **open_arguments.keywords(args)) as trace:
        tables = earl.stats(trace, bins=args.bins)
        if args.plot:
            statistics_output.plot(tables, args.plot, top=args.top or 10, trace_file=args.trace)
        if args.json:
            print(json.dumps(statistics_output.to_json(tables, trace)))
        else:
            print(statistics_output.text(tables, top=args.top))
    return 0
