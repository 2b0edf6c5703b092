"""`earl merge OUT IN...`: the face of earl.merging."""
from earl import _core, open_arguments
from earl.merging import describe, merge, parse_input_formats, parse_offset

HELP = "join per-process traces into one time-sorted trace (earl merge OUT IN...)"
DESCRIPTION = ("Merge local traces of separate processes (one ALOG file per process, OTF2 "
               "archives of a client's and a server's run) into one global trace sorted by "
               "time: each input's clock shifted by its offset (given, or estimated from the "
               "messages between inputs), regions unified by name, locations kept (per-rank "
               "pieces of one run) or renumbered in input order.")


def configure(parser):
    parser.add_argument("output", help="file to write (an OTF2 archive is named by its anchor, "
                                       "NAME.otf2)")
    parser.add_argument("inputs", nargs="+", metavar="input",
                        help="traces to merge (formats detected from their content unless "
                             "given)")
    open_arguments.add_format(parser, ("--input-format",), "every input", action="append",
                              metavar="[IN=]FMT", default=[],
                              help="format of input IN, or of every input not named "
                                   "(repeatable; default: detect from the content)")
    parser.add_argument("--offset", action="append", default=[], metavar="IN=SECONDS",
                        help="add SECONDS to the times of input IN (repeatable)")
    parser.add_argument("--estimate-offsets", action="store_true",
                        help="estimate the offsets not given from messages between the inputs "
                             "(midpoint of the interval their send and receive times allow)")
    parser.add_argument("--locations", choices=["auto", "keep", "renumber"], default="auto",
                        help="keep: inputs are per-rank pieces of one run and keep their "
                             "location numbers; renumber: each input's locations get numbers "
                             "of their own, in input order; auto: keep unless a location has "
                             "events in two inputs (default: auto)")
    parser.add_argument("-f", "--format", default=None,
                        help="output format (supported: %s; default: from OUTPUT's suffix, "
                             "else the first input's format)" % ", ".join(_core.generator_formats()))


def run(args):
    """`earl merge`: prints the summary, returns 0; errors raise EarlError."""
    offsets = dict(parse_offset(text) for text in args.offset)
    texts = args.input_format + ([open_arguments.given_format(None, args.describe)]
                                 if args.describe else [])
    summary = merge(args.output, args.inputs, offsets=offsets or None,
                    estimate=args.estimate_offsets, format=args.format, locations=args.locations,
                    input_format=parse_input_formats(texts, args.inputs))
    print(describe(args.output, summary))
    return 0
