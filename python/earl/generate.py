"""`earl gen`: reproducible synthetic MPI-like traces with a ground truth of what they contain.

The work is done in C++ (cpp/gen/, with the GIL released); this module is the Python face:

    from earl.generate import generate
    truth = generate("run.alog", locations=8, events=10**6, seed=7, late_sender_rate=0.2)

writes ``run.alog`` and ``run.alog.truth.json`` and returns the ground truth as a dict.
``generate("run.otf2", ...)`` (or ``format="otf2"``) writes the same trace as an OTF2 archive
through libotf2 (``run.otf2`` anchor, ``run.def``, ``run/``), shaped the way Score-P writes
MPI traces; EARL reads both to the same events. ``threads=T`` gives every MPI process T
locations (a fork/join team per compute phase), ``permute_ranks=True`` makes
MPI_COMM_WORLD's ranks a seeded permutation of the processes (visible in OTF2 only).
Every round of the simulated program is ``step { compute { kernel... } exchange { MPI_Send...
MPI_Recv... } update }`` followed by a collective (MPI_Allreduce, every ``barrier_every``-th
one MPI_Barrier); ``main`` spans the run. Injected inefficiencies: late senders, messages
received out of order (tags 200/201, the second received first) and load imbalance before
the collectives. Times in the truth are seconds exactly as a reader computes them from the
trace's integer microseconds (``us / 1e6``, see docs/api-contract.md); totals are summed in file order, the way the
example scripts of the EARL 2.0 reference do.
"""
import argparse
import json
import os
import sys

from earl import _core
from earl._core import EarlError

__all__ = ["generate", "add_parser", "defaults", "format_for_path", "INEFFICIENCY_OPTIONS",
           "main"]

# What each generator option means (for --help); names and defaults come from the C++ core.
_HELP = {
    "pattern": "point-to-point pattern: ring (send right, receive from the left) or neighbors "
               "(both directions)",
    "max_kernels": "kernel instances per compute phase: 1..N, drawn per round",
    "kernel_us": "kernel duration in microseconds",
    "jitter": "relative jitter of kernel and update durations (0..1)",
    "update_us": "duration of the update phase before the collective (microseconds)",
    "msg_bytes": "mean message length in bytes (uniform in [B/2, 3B/2])",
    "latency_us": "minimum message latency in microseconds (>= 1)",
    "bandwidth": "bytes per microsecond for message copy and transfer cost",
    "barrier_every": "every k-th collective is MPI_Barrier, the others MPI_Allreduce (0: never)",
    "late_sender_rate": "probability per location and round of a delayed MPI_Send (0..1)",
    "late_sender_us": "mean extra compute time of a late sender (exponential, microseconds)",
    "out_of_order_rate": "probability per location and round of a pair of messages that the "
                         "right neighbour receives in reverse order (0..1)",
    "imbalance_rate": "probability per location and round of a longer update phase (0..1)",
    "imbalance_us": "mean extra update time of an imbalanced location (exponential, microseconds)",
    "truth_limit": "at most this many entries per list in the ground truth (counts and totals "
                   "stay complete)",
}

_MAIN_OPTIONS = ("locations", "events", "seed", "format", "rollover", "threads", "permute_ranks")


def defaults():
    """All generator options and their defaults (a fresh dict)."""
    return dict(_core.generator_defaults())


INEFFICIENCY_OPTIONS = tuple(k for k in defaults() if k not in _MAIN_OPTIONS)


def format_for_path(path):
    """The format `earl gen` writes to `path` when none is given: otf2 for ``*.otf2``,
    else alog."""
    return "otf2" if os.fspath(path).endswith(".otf2") else "alog"


def generate(path, *, locations=4, events=10000, seed=1, format=None, rollover=None,
             threads=1, permute_ranks=False, truth_path=None, **inefficiency_options):
    """Write a synthetic trace to `path` and its ground truth to `truth_path`.

    `format` is "alog" or "otf2" (None: otf2 when `path` ends in .otf2, else alog; an OTF2
    path names the anchor file and must end in .otf2). `threads` (>= 1) locations per MPI
    process, `permute_ranks` permutes MPI_COMM_WORLD's ranks against the processes (both
    see cpp/gen/generator.h). The ground truth is the same for every format (but for its
    "format" entry). `truth_path` defaults to ``path + ".truth.json"``. `events` is an approximate target:
    whole rounds are generated until it is reached (the exact count is ``truth["events"]``).
    `rollover` (microseconds) writes clock cycles with a -11 roll-over record. Further
    keyword options are listed in ``INEFFICIENCY_OPTIONS`` (see ``defaults()``). Returns the
    ground truth as a dict; bad options raise ``earl.EarlError``.
    """
    path = os.fspath(path)
    truth_path = path + ".truth.json" if truth_path is None else os.fspath(truth_path)
    unknown = sorted(set(inefficiency_options) - set(INEFFICIENCY_OPTIONS))
    if unknown:
        raise EarlError("earl gen: unknown option(s): %s (known: %s)"
                        % (", ".join(unknown), ", ".join(INEFFICIENCY_OPTIONS)))
    options = dict(inefficiency_options)
    if format is None:
        format = format_for_path(path)
    options.update(locations=locations, events=events, seed=seed, format=format,
                   rollover=rollover, threads=threads, permute_ranks=permute_ranks)
    _core.generate(path, truth_path, options)
    with open(truth_path, encoding="utf-8") as f:
        return json.load(f)


def _summary(path, truth_path, truth):
    return ("earl gen: wrote %d events (%d rounds, %d messages) to %s; ground truth in %s\n"
            "  late senders: %d (%.6f s waited); out of order: %d; "
            "collective imbalance: %.6f s waited"
            % (truth["events"], truth["rounds"], truth["messages"], path, truth_path,
               truth["late_sender_count"], truth["late_sender_wait_total"],
               truth["out_of_order_count"], truth["imbalance_wait_total"]))


def _run(args):
    options = {name: getattr(args, name) for name in INEFFICIENCY_OPTIONS}
    truth_path = args.truth if args.truth is not None else args.output + ".truth.json"
    try:
        truth = generate(args.output, locations=args.locations, events=args.events,
                         seed=args.seed, format=args.format, rollover=args.rollover,
                         threads=args.threads, permute_ranks=args.permute_ranks,
                         truth_path=truth_path, **options)
    except EarlError as error:
        print(error, file=sys.stderr)
        return 2
    if not args.quiet:
        print(_summary(args.output, truth_path, truth))
    return 0


def _configure(parser):
    d = defaults()
    parser.add_argument("output", help="trace file to write")
    parser.add_argument("--truth", metavar="PATH", default=None,
                        help="ground-truth JSON to write (default: OUTPUT.truth.json)")
    parser.add_argument("-n", "--locations", type=int, default=d["locations"],
                        help="number of MPI processes, one location each unless --threads "
                             "(>= 2; default %(default)s)")
    parser.add_argument("-e", "--events", type=int, default=d["events"],
                        help="approximate number of events (whole rounds; default %(default)s)")
    parser.add_argument("-s", "--seed", type=int, default=d["seed"],
                        help="random seed (default %(default)s)")
    parser.add_argument("-f", "--format", default=None,
                        help="trace format to write (supported: %s; default: otf2 when "
                             "OUTPUT ends in .otf2, else alog)"
                        % ", ".join(_core.generator_formats()))
    parser.add_argument("--rollover", type=int, default=None, metavar="US",
                        help="clock roll-over point in microseconds: write cycles and a -11 "
                             "record (default: none)")
    parser.add_argument("--threads", type=int, default=d["threads"], metavar="T",
                        help="locations per MPI process: the master thread forks a team of "
                             "T threads for each compute phase (default %(default)s)")
    parser.add_argument("--permute-ranks", action="store_true",
                        help="MPI_COMM_WORLD's ranks are a seeded permutation of the processes "
                             "(OTF2 readers must translate ranks; events stay the same)")
    group = parser.add_argument_group("program model and injected inefficiencies")
    for name in INEFFICIENCY_OPTIONS:
        value = d[name]
        kind = float if isinstance(value, float) else int if isinstance(value, int) else str
        group.add_argument("--" + name.replace("_", "-"), dest=name, type=kind, default=value,
                           help="%s (default %%(default)s)" % _HELP.get(name, name))
    parser.add_argument("-q", "--quiet", action="store_true", help="print nothing on success")
    parser.set_defaults(func=_run)
    return parser


def add_parser(subparsers):
    """Register the `gen` subcommand on an argparse subparsers object."""
    parser = subparsers.add_parser(
        "gen", help="write a synthetic trace with known inefficiencies",
        description="Write a reproducible synthetic MPI-like trace and a JSON ground truth "
                    "of the late senders, out-of-order messages, collective imbalance, "
                    "bytes and region times it contains.")
    return _configure(parser)


def main(argv=None):
    """`python -m earl.generate ...`: the `gen` subcommand on its own."""
    parser = _configure(argparse.ArgumentParser(prog="earl gen", description=__doc__.split("\n")[0]))
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
