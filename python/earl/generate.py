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
the collectives; with ``rma_every`` also one-sided fence epochs (MPI_Win_fence, MPI_Put,
MPI_Win_fence on one window) with imbalance before the closing fence, whose waits the
truth's ``rma`` entry gives; with ``nonblocking`` the exchange is MPI_Irecv/MPI_Isend
completed in MPI_Waitall and MPI_Wait; with ``lock_every`` exclusive lock epochs on the
window whose lock competition the truth's ``rma`` entry gives; with ``collectives`` (a comma
list: allreduce, barrier, bcast, reduce, gather, scatter, allgather, alltoall, scan, exscan)
the rounds end with those collectives in turn, whose waits by Scalasca's formulas the
truth's ``imbalance`` and ``collective_patterns`` give; with ``late_receiver_rate`` some
first messages go with MPI_Ssend to a receiver that posts late (truth: ``late_receivers``). Times in the truth are seconds exactly as a reader computes them from the
trace's integer microseconds (``us / 1e6``, see docs/api-contract.md); totals are summed in file order, the way the
example scripts of the EARL 2.0 reference do.
"""
import contextlib
import functools
import json
import os

from earl import _core
from earl.progress import ProgressBar
from earl._core import EarlError

__all__ = ["generate", "options", "defaults", "format_for_path", "INEFFICIENCY_OPTIONS",
           "HELP", "configure", "run"]


@functools.lru_cache(maxsize=None)
def _table():
    return tuple(_core.generator_options())


def options():
    """Every generator option as a dict: name, type ("int", "float", "str", "bool"),
    default, group ("run" or "model"), help, min, max (None: unbounded), choices (None: any).
    The one table is C++'s (cpp/gen/options.h)."""
    return [dict(row) for row in _table()]


def defaults():
    """All generator options and their defaults (a fresh dict)."""
    return {row["name"]: row["default"] for row in _table()}


INEFFICIENCY_OPTIONS = tuple(row["name"] for row in _table() if row["group"] == "model")


def format_for_path(path):
    """The format `earl gen` writes to `path` when none is given: the one its ending
    implies (the format registry: otf2 for ``*.otf2``), else alog."""
    return _core.format_for_path(os.fspath(path)) or "alog"


def generate(path, *, format=None, truth_path=None, progress=None, **options):
    """Write a synthetic trace to `path` and its ground truth to `truth_path`.

    `format` is "alog" or "otf2" (None: otf2 when `path` ends in .otf2, else alog; an OTF2
    path names the anchor file and must end in .otf2). The other keyword options are those
    of ``options()`` (``defaults()`` gives their values when not given): ``locations``,
    ``events`` (an approximate target: whole rounds are generated until it is reached; the
    exact count is ``truth["events"]``), ``seed``, ``rollover`` (microseconds; writes clock
    cycles with a -11 record), ``threads`` (locations per MPI process), ``permute_ranks``
    (MPI_COMM_WORLD's ranks against the processes), and the program model's
    ``INEFFICIENCY_OPTIONS``. The ground truth is the same for every format (but for its
    "format" entry). `truth_path` defaults to ``path + ".truth.json"``. Returns the ground
    truth as a dict; bad options raise ``earl.EarlError``, and so does a file that cannot be
    written (nothing is left behind then). ``progress(fraction)`` is called now and then with
    the part of ``events`` written; an exception it raises stops the generation, removes
    what was written and propagates (Ctrl-C does the same with KeyboardInterrupt).
    """
    path = os.fspath(path)
    truth_path = path + ".truth.json" if truth_path is None else os.fspath(truth_path)
    if os.path.abspath(truth_path) == os.path.abspath(path):
        raise EarlError("earl gen: the ground-truth path must differ from the trace path "
                        f"({path})")
    options["format"] = format_for_path(path) if format is None else format
    return _core.generate(path, options, functools.partial(_write_truth, truth_path), progress)


def _write_truth(path, truth):
    try:
        f = open(path, "w", encoding="utf-8")
    except OSError as error:
        raise EarlError(f"cannot write '{path}': {error.strerror or error}") from None
    try:
        with f:
            json.dump(truth, f, indent=2)
            f.write("\n")
    except OSError as error:
        with contextlib.suppress(OSError):
            os.remove(path)
        raise EarlError(f"cannot write '{path}': {error.strerror or error}") from None


# ------------------------------------------------------------------ the `gen` command
HELP = "write a synthetic trace with known inefficiencies"
DESCRIPTION = ("Write a reproducible synthetic MPI-like trace and a JSON ground truth of the "
               "late senders, out-of-order messages, collective imbalance, bytes and region "
               "times it contains (and, when asked for, the waits at RMA fences and locks).")

# The command line's short spellings of the most used options.
_SHORT = {"locations": "-n", "events": "-e", "seed": "-s", "format": "-f"}
_TYPES = {"int": int, "float": float, "str": str}
_METAVARS = {"int": "N", "float": "X", "str": "NAME"}


def _range(row):
    low, high = row["min"], row["max"]
    show = lambda v: "2^40" if v == 2 ** 40 else ("%g" % v)
    if low is not None and high is not None:
        return "%s..%s" % (show(low), show(high))
    if low is not None:
        return ">= %s" % show(low)
    return None


def _add_option(parser, row):
    flags = [_SHORT[row["name"]]] if row["name"] in _SHORT else []
    flags.append("--" + row["name"].replace("_", "-"))
    kwargs = {"dest": row["name"], "default": row["default"]}
    notes = [_range(row)] if _range(row) else []
    if row["name"] == "format":
        kwargs["default"] = None
        notes.append("supported: %s; default: otf2 when OUTPUT ends in .otf2, else alog"
                     % ", ".join(_core.generator_formats()))
    elif row["type"] != "bool":
        notes.append("default: %(default)s" if row["default"] is not None else "default: none")
    if row["type"] == "bool":
        kwargs["action"] = "store_true" if not row["default"] else "store_false"
    else:
        kwargs["type"] = _TYPES[row["type"]]
        if row["choices"]:
            kwargs["choices"] = row["choices"]
        else:
            kwargs["metavar"] = _METAVARS[row["type"]]
    kwargs["help"] = row["help"] + (" (%s)" % "; ".join(notes) if notes else "")
    parser.add_argument(*flags, **kwargs)


def configure(parser):
    """The `gen` command's arguments, one per row of the option table."""
    parser.add_argument("output", help="trace file to write")
    parser.add_argument("--truth", metavar="PATH", default=None,
                        help="ground-truth JSON to write (default: OUTPUT.truth.json)")
    groups = {"run": parser,
              "model": parser.add_argument_group("program model and injected inefficiencies")}
    for row in _table():
        _add_option(groups[row["group"]], row)
    parser.add_argument("-q", "--quiet", action="store_true", help="print nothing on success")


def _summary(path, truth_path, truth):
    text = ("earl gen: wrote %d events (%d rounds, %d messages) to %s; ground truth in %s\n"
            "  late senders: %d (%.6f s waited); out of order: %d; "
            "collective imbalance: %.6f s waited"
            % (truth["events"], truth["rounds"], truth["messages"], path, truth_path,
               truth["late_sender_count"], truth["late_sender_wait_total"],
               truth["out_of_order_count"], truth["imbalance_wait_total"]))
    if "late_receiver_count" in truth:
        text += "\n  late receivers: %d (%.6f s waited)" % (truth["late_receiver_count"],
                                                         truth["late_receiver_wait_total"])
    for metric, entry in truth.get("collective_patterns", {}).items():
        text += "\n  %s: %d (%.6f s waited)" % (metric, entry["count"], entry["total"])
    rma = truth.get("rma")
    if rma:
        text += ("\n  one-sided: %d fences (%.6f s waited), %d puts, %d lock epochs "
                 "(%d waited %.6f s)" % (rma["fences"], rma["fence_wait_total"], rma["puts"],
                                         rma["locks"], rma["lock_wait_count"], rma["lock_wait_total"]))
    return text


def run(args):
    """`earl gen`: returns 0; errors raise EarlError (the command line prints them)."""
    chosen = {row["name"]: getattr(args, row["name"]) for row in _table()}
    truth_path = args.truth if args.truth is not None else args.output + ".truth.json"
    with ProgressBar("generating") as bar:
        truth = generate(args.output, truth_path=truth_path, progress=bar, **chosen)
    if not args.quiet:
        print(_summary(args.output, truth_path, truth))
    return 0
