"""`earl convert IN OUT`: the face of earl.convert."""
from earl import _core, open_arguments
from earl.convert import convert, describe

HELP = "convert a trace into another format (earl convert IN OUT)"
DESCRIPTION = ("Rewrite a trace in another format where the EARL model allows it: enter, exit, "
               "send, recv, location names and regions are kept, and where the output holds "
               "them (OTF2, EPILOG) fork/join, puts with their completions, window locks, "
               "window-collective calls and non-blocking requests; other event types are "
               "dropped and reported, as are events the output cannot hold and names written "
               "with escaped bytes. OTF2 output is shaped as Score-P's for Scalasca: OTF2's "
               "program records are kept, and every MPI process without MPI_Init gets a "
               "zero-length MPI_Init and MPI_Finalize (reported).")


def configure(parser):
    parser.add_argument("input", help="trace to read (format detected from its content)")
    parser.add_argument("output", help="file to write (an OTF2 archive is named by its "
                                       "anchor, NAME.otf2)")
    parser.add_argument("-f", "--format", default=None,
                        help="output format (supported: %s; default: from OUTPUT's suffix, "
                             "else the input's format)" % ", ".join(_core.generator_formats()))
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="print nothing on success unless events were dropped or left "
                             "out, names changed or the input is damaged")
    parser.add_argument("--strict", action="store_true", help=open_arguments.table_help("strict"))
    parser.add_argument("--wait-states", action="store_true",
                        help="run EARL's wait-state analysis and write each wait state it finds "
                             "as a slice beside its location (Chrome JSON output only)")


def run(args):
    """`earl convert`: returns 0; errors raise EarlError (the command line prints them)."""
    summary = convert(args.input, args.output, args.format, strict=args.strict,
                      wait_states=args.wait_states)
    changed = ("dropped", "refused", "renamed", "damaged")
    if not args.quiet or any(summary[key] for key in changed):
        print(describe(args.input, args.output, summary))
    return 0
