"""`earl analyze TRACE`: the automatic wait-state analysis on the command line."""
import argparse
import sys

from earl import open_arguments

HELP = "find wait states (late sender, barrier waits, ...) and where time is lost"
DESCRIPTION = ("Automatic wait-state analysis (Scalasca's patterns): prints the metric tree "
               "with times and percentages and the worst call paths and locations of each "
               "wait state; --json, --html and --cube write the report for other tools.")


def positive_int(text):
    """argparse type of a count of at least 1 (argparse names the option in its error)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive whole number, got {text!r}")
    return value


def configure(parser):
    parser.add_argument("trace", help="trace to analyse (format detected from its content)")
    open_arguments.add_format(parser)
    parser.add_argument("--json", action="store_true", help="print the report as one JSON object")
    parser.add_argument("--html", metavar="FILE", help="write an interactive HTML report")
    parser.add_argument("--cube", metavar="FILE", help="write a Cube4 report (.cubex)")
    parser.add_argument("--engine", choices=["native", "scripts"], default="native",
                        help="native: the C++ engine (default); scripts: the reference "
                             "scripts of scripts/patterns (slow)")
    parser.add_argument("--top", type=positive_int, default=5, metavar="N",
                        help="call paths and locations shown per pattern (default: 5)")
    parser.add_argument("--all", action="store_true", dest="show_all",
                        help="show every metric of the tree, also those that print as zero")
    open_arguments.add_correction(parser)


def run(args):
    from earl.analysis.report import analyze

    report = analyze(args.trace, engine=args.engine, **open_arguments.keywords(args))
    if args.cube:
        report.write_cube(args.cube)
    if args.html:
        report.write_html(args.html)
    if args.json:
        print(report.to_json(indent=1))
        return 0
    from earl.analysis.terminal import console_for, render
    render(report, console_for(sys.stdout), top=args.top, show_all=args.show_all)
    return 0
