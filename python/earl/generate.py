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
import functools
import json
import os

from earl import _core
from earl._core import EarlError
from earl.output_paths import staged_output

__all__ = ["generate", "options", "defaults", "format_for_path", "INEFFICIENCY_OPTIONS"]


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

    `format` is a format this build writes (`earl formats` lists them; None: the one
    `path`'s ending implies, else alog; an OTF2 path names the anchor file and must end in
    .otf2, an OTF one the master control file NAME.otf). The other keyword options are those
    of ``options()`` (``defaults()`` gives their values when not given): ``locations``,
    ``events`` (an approximate target: whole rounds are generated until it is reached; the
    exact count is ``truth["events"]``), ``seed``, ``rollover`` (microseconds; writes clock
    cycles with a -11 record), ``byte_order`` ("little" or "big": EPILOG's numbers; the
    truth records "big" as ``truth["byte_order"]``), ``threads`` (locations per MPI process), ``permute_ranks``
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
    _core.check_path(path, "path")
    _core.check_path(truth_path, "truth_path")
    if os.path.abspath(truth_path) == os.path.abspath(path):
        raise EarlError("earl gen: the ground-truth path must differ from the trace path "
                        f"({path})")
    options["format"] = format_for_path(path) if format is None else format
    return _core.generate(path, options, functools.partial(_write_truth, truth_path), progress)


def _write_truth(path, truth):
    with staged_output(path) as f:
        json.dump(truth, f, indent=2)
        f.write("\n")
