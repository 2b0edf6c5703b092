"""`earl info TRACE...`: the face of earl.info."""
import earl
from earl import clock_options
from earl.info import describe

HELP = "describe traces: format, locations, events, ..."


def configure(parser):
    parser.add_argument("traces", nargs="+", metavar="TRACE")
    parser.add_argument("--format", default=None, help="trace format (default: detect)")
    parser.add_argument("--memory", default=None, type=int, metavar="BYTES",
                        help="bytes the bookmarks may hold (default: $EARL_MEMORY, else 256 MiB)")
    parser.add_argument("--no-cache", action="store_true",
                        help="read OTF2 directly instead of through EARL's event cache in $TMPDIR")
    parser.add_argument("--no-index", action="store_true",
                        help="neither read nor write the persisted index (like EARL_INDEX=0)")
    clock_options.add_arguments(parser)


def run(args):
    for index, path in enumerate(args.traces):
        if index:
            print()
        with earl.EventTrace(path, format=args.format, cache=not args.no_cache,
                             memory=args.memory, index=False if args.no_index else None,
                             **clock_options.keywords(args)) as trace:
            print(describe(trace))
    return 0
