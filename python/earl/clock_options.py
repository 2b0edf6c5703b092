"""The command-line options of clock correction and of damaged traces, for every command
that opens a trace (`earl info`, `earl analyze`): one place for their names and help."""
from earl import _core


def add_arguments(parser):
    parser.add_argument("--time-correct", action="store_true",
                        help="correct clock-condition violations (a receive before its send, "
                             "a collective's end before its last begin) by the controlled "
                             "logical clock before looking at times")
    parser.add_argument("--min-latency", type=float, default=None, metavar="SECONDS",
                        help="with --time-correct: least time a message takes (default 0)")
    parser.add_argument("--strict", action="store_true", help=table_help("strict"))


def table_help(name):
    """The one-line help of the open option `name` in the core's table of open options."""
    return next(option["help"] for option in _core.open_options() if option["name"] == name)


def keywords(args):
    """The EventTrace/analyze keywords the parsed options stand for."""
    return {"time_correct": args.time_correct, "min_latency": args.min_latency, "strict": args.strict}
