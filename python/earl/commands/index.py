"""`earl index clean [PATH...]`: the face of earl.index."""
from earl.index import clean

HELP = "manage persisted indexes: earl index clean [PATH...]"
DESCRIPTION = (
    "The first open of a large trace keeps its bookmarks (and, for OTF2, the event cache) "
    "in an index beside it (<anchor>.earlidx) or in the user's cache directory "
    "($EARL_INDEX_DIR, else $XDG_CACHE_HOME/earl or ~/.cache/earl). `clean` removes the "
    "indexes of the traces named, the index files named, or those in the directories "
    "named; without PATH, every index in the cache directories.")


def configure(parser):
    parser.add_argument("action", choices=["clean"], help="what to do")
    # a default, or argparse calls PATH required in its error message
    parser.add_argument("paths", nargs="*", metavar="PATH", default=[],
                        help="a trace, an index file, or a directory of index files")
    parser.add_argument("-q", "--quiet", action="store_true", help="print nothing")


def run(args):
    removed = clean(args.paths)
    if not args.quiet:
        for path in removed:
            print(f"removed {path}")
        print(f"{len(removed)} index file{'s' if len(removed) != 1 else ''} removed")
    return 0
