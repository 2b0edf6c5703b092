"""The command-line options of opening a trace, for every command that opens one (`earl
info`, `earl analyze`, `earl repl`, the inputs of `earl merge` and `earl compare`, the runs
of `earl experiment run`): one place for their names, and their help from the
core's table of open options (earl._core.open_options()), so that the commands and the
three languages describe an option alike."""
from earl import _core


def table_help(name):
    """The one-line help of the open option `name` in the core's table of open options."""
    return next(option["help"] for option in _core.open_options() if option["name"] == name)


def add_format(parser, flags=("-f", "--format"), what="the trace",
               help="trace format (default: detect)", **more):
    """The format of `what` the command reads: FLAGS FMT, or --describe DESC (its
    described:DESC); args hold them as `describe` and the long flag's name (`format`,
    `input_format`). `more`: further keywords of FLAGS' add_argument (action, metavar)."""
    given = parser.add_mutually_exclusive_group()
    given.add_argument(*flags, help=help, **dict(dict(default=None), **more))
    given.add_argument("--describe", default=None, metavar="DESC",
                       help=f"read {what} through this format description (the same as "
                            f"{flags[0]} described:DESC; earl describe)")


def given_format(format, describe):
    """The format FLAGS FMT or --describe DESC name (None: detect)."""
    return f"described:{describe}" if describe else format


def add_reading(parser):
    """How the trace is read: the event cache, the persisted index, the bookmarks' memory."""
    parser.add_argument("--memory", default=None, type=int, metavar="BYTES",
                        help=table_help("memory"))
    parser.add_argument("--no-cache", action="store_true",
                        help="read OTF2 directly instead of through EARL's event cache in $TMPDIR")
    parser.add_argument("--no-index", action="store_true",
                        help="neither read nor write the persisted index (like EARL_INDEX=0)")


def add_correction(parser):
    """What the trace's times and damage may make of the reading: clock correction, strict."""
    parser.add_argument("--time-correct", action="store_true",
                        help="correct clock-condition violations (a receive before its send, "
                             "a collective's end before its last begin) by the controlled "
                             "logical clock before looking at times")
    parser.add_argument("--min-latency", type=float, default=None, metavar="SECONDS",
                        help="with --time-correct: least time a message takes (default 0)")
    parser.add_argument("--strict", action="store_true", help=table_help("strict"))


def keywords(args):
    """The EventTrace/analyze keywords of the options the command's parser has (those it
    lacks keep their defaults)."""
    given = vars(args)
    found = {}
    if "format" in given:
        found["format"] = given_format(args.format, given.get("describe"))
    if "no_cache" in given:
        found.update(cache=not args.no_cache, memory=args.memory,
                     index=False if args.no_index else None)
    if "time_correct" in given:
        found.update(time_correct=args.time_correct, min_latency=args.min_latency,
                     strict=args.strict)
    return found
