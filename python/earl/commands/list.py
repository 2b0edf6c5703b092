"""`earl list TRACE`: the events a filter selects, streamed as a table, CSV or JSON lines."""
import argparse

import earl
import earl.query
from earl import _core, open_arguments
from earl.listing import STYLES, write_events

HELP = "list the events of a trace, filtered (as a table, CSV or JSON lines)"
DESCRIPTION = """\
Stream the events of TRACE in order, one per line, reading the trace lazily (it is never
held in memory). --where keeps the events an expression over `ev` selects, in Python
(default) or Lua: 'ev.type == "send" and ev.dest == 3', 'ev.region == "MPI_Barrier"',
'ev.time > 1.5'. Comparisons of attributes with constants joined by and/or/not (and
Python's `in`) are tested natively at scan speed; of `A and B` with B outside them, A is
tested natively and B in its language on A's matches; any other expression is evaluated
in its language for each event. --from/--to take a position (an integer, 1 is the first
event) or a time with its unit (1.5s, 250ms, 10us, 100ns); both ends are included."""


def _locations(text):
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected locations as integers, e.g. 0,2,3: {text!r}")


def _bound(option):
    def parse(text):
        try:
            return _core.parse_bound(text, option)
        except earl.EarlError as error:
            raise argparse.ArgumentTypeError(str(error).split(": ", 1)[-1])
    return parse


def _columns(text):
    return [part.strip() for part in text.split(",") if part.strip()]


def configure(parser):
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("trace", metavar="TRACE")
    parser.add_argument("--where", default=None, metavar="EXPR",
                        help="keep only the events for which EXPR (over `ev`) is true")
    parser.add_argument("--lang", choices=earl.query.LANGUAGES, default="python",
                        help="language of EXPR (default: python)")
    parser.add_argument("--from", dest="first", type=_bound("--from"), default=None, metavar="POS|TIME",
                        help="first position (1, 2, ...) or time (1.5s, 250ms, ...) listed")
    parser.add_argument("--to", dest="last", type=_bound("--to"), default=None, metavar="POS|TIME",
                        help="last position or time listed")
    parser.add_argument("--loc", type=_locations, default=(), metavar="L,...",
                        help="only events of these locations")
    parser.add_argument("--columns", type=_columns, default=None, metavar="A,B,...",
                        help="attributes shown, in order (default: pos, loc, time, type and "
                             "the event's other attributes as NAME=VALUE; JSON lines: every "
                             "attribute)")
    parser.add_argument("--as", dest="style", choices=STYLES, default="table",
                        help="output: an aligned table, CSV with a header, or one JSON object "
                             "per line (default: table)")
    open_arguments.add_format(parser)
    open_arguments.add_reading(parser)
    open_arguments.add_correction(parser)


def run(args):
    with earl.EventTrace(args.trace, **open_arguments.keywords(args)) as trace:
        events = earl.query.Selected(trace, args.where, args.lang, args.first, args.last,
                                     args.loc, what="--where")
        write_events(events, args.style, args.columns)
    return 0
