"""`earl analyze TRACE`: the automatic wait-state analysis on the command line."""
import sys

from earl import clock_options

HELP = "find wait states (late sender, barrier waits, ...) and where time is lost"
DESCRIPTION = ("Automatic wait-state analysis (Scalasca's patterns): prints the metric tree "
               "with times and percentages and the worst call paths and locations of each "
               "wait state; --json, --html and --cube write the report for other tools.")


def configure(parser):
    parser.add_argument("trace", help="trace to analyse (format detected from its content)")
    parser.add_argument("-f", "--format", default=None, help="trace format (default: detect)")
    parser.add_argument("--json", action="store_true", help="print the report as one JSON object")
    parser.add_argument("--html", metavar="FILE", help="write an interactive HTML report")
    parser.add_argument("--cube", metavar="FILE", help="write a Cube4 report (.cubex)")
    parser.add_argument("--engine", choices=["native", "scripts"], default="native",
                        help="native: the C++ engine (default); scripts: the reference "
                             "scripts of scripts/patterns (slow)")
    parser.add_argument("--top", type=int, default=5, help="call paths and locations shown per pattern")
    clock_options.add_arguments(parser)


def run(args):
    from earl.analysis.report import analyze

    report = analyze(args.trace, format=args.format, engine=args.engine,
                     **clock_options.keywords(args))
    if args.cube:
        report.write_cube(args.cube)
    if args.html:
        report.write_html(args.html)
    if args.json:
        print(report.to_json(indent=1))
        return 0
    from rich.console import Console
    from earl.analysis.terminal import render
    render(report, Console(file=sys.stdout), top=args.top)
    return 0
