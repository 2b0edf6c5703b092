"""`earl info TRACE...`: the face of earl.info."""
import argparse
import json

import earl
from earl import open_arguments
from earl.index import note_new_index
from earl.info import describe, summary

HELP = "describe traces: format, locations, events, regions, problems, ..."
# (wrapped here: the JSON fields below keep their lines, so argparse does not wrap)
DESCRIPTION = """\
Describe each TRACE: format, events, time span, locations, event types, the regions
the trace uses (with how many are defined but unused; --all lists every one),
bookmarks, the persisted index and problems found while reading."""
JSON_SCHEMA = """\
--json prints one JSON object per trace, one per line:
  file       the trace's file (for OTF2, the anchor)
  format     "alog", "otf2", ...
  events     the number of events
  time       {"first", "last", "span"} in seconds, null for a trace without events
  locations  [{"index", "name"}], name null where the trace names none
  types      the event types the trace's format has
  regions    {group: {"used": [names], "unused": [names]}}, in definition order
  metrics    the counters the trace defines ([] if none)
  problems   {kind: {"count", "first": [positions]}}; for a damaged trace also "damaged":
             {"count", "first": [], "locations": [{"loc", "record", "announced", "message"}]}
  bookmarks  {"count", "checkpoints", "memory", "budget", "bdist"}
  index      {"path", "state", "note"} of the persisted index
  clocks     with --time-correct: {"jumps", "max_shift", "min_latency", ...}; else null"""


def configure(parser):
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = JSON_SCHEMA
    parser.add_argument("traces", nargs="+", metavar="TRACE")
    open_arguments.add_format(parser)
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object per trace (fields below)")
    parser.add_argument("--all", action="store_true", dest="all_regions",
                        help="list every region defined, not only those in use")
    open_arguments.add_reading(parser)
    open_arguments.add_correction(parser)


def run(args):
    for index, path in enumerate(args.traces):
        if index and not args.json:
            print()
        with earl.EventTrace(path, **open_arguments.keywords(args)) as trace:
            note_new_index(trace)
            if args.json:
                print(json.dumps(summary(trace)))
            else:
                print(describe(trace, all_regions=args.all_regions))
    return 0
