"""`earl demo [--output DIR] [--events N]`: the face of earl.demo."""
from earl.demo import run_demo

HELP = "generate a trace and run the example scripts on it"


def configure(parser):
    parser.add_argument("--output", default="demo-output", help="directory for the demo's files")
    parser.add_argument("--events", type=int, default=200000, help="size of the demo trace")


def run(args):
    return run_demo(args.output, args.events)
