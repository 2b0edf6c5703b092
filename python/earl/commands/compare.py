"""`earl compare A B [C...]`: the face of earl.analysis.compare."""
import argparse

from earl import open_arguments
from earl.analysis.compare import compare

HELP = "show which metrics and call paths got better or worse between analyses"
DESCRIPTION = ("Compare two or more analyses (traces, analysed here, or report files of "
               "`earl analyze --json`), the first the baseline: every metric's total and "
               "every call path whose value changed, time first, each unit's sorted by the "
               "size of the change, with percentages (less time is better); --json and --html "
               "for other tools.")


def non_negative(text):
    """argparse type of a threshold: a number >= 0."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"must be a number >= 0, got {text!r}")
    return value


def configure(parser):
    parser.add_argument("inputs", nargs="+", metavar="input",
                        help="traces or saved report JSON files, two or more; the first is "
                             "the baseline")
    open_arguments.add_format(parser, what="the traces",
                              help="format of the traces (default: detect; saved report JSON "
                                   "files are recognised still)")
    parser.add_argument("--json", action="store_true", help="print the comparison as one JSON object")
    parser.add_argument("--html", metavar="FILE", help="write the comparison as an HTML page")
    parser.add_argument("--threshold", type=non_negative, default=0.0, metavar="X",
                        help="leave out rows whose largest change is at most X (the metric's "
                             "unit: seconds, counts, bytes; default: 0)")
    parser.add_argument("--top", type=int, default=30, metavar="N",
                        help="rows printed, largest changes first (0: all; default: 30)")


def run(args):
    if len(args.inputs) < 2:
        from earl import EarlError
        raise EarlError("earl compare: needs two or more inputs to compare")
    comparison = compare(args.inputs, threshold=args.threshold,
                         format=open_arguments.given_format(args.format, args.describe))
    if args.html:
        comparison.write_html(args.html)
    if args.json:
        print(comparison.to_json(indent=1))
    else:
        print(comparison.to_text(top=args.top or None))
    return 0
