"""Golden tests per format: a small trace -> its full event dump, compared with a text file
under tests/golden/ that a person checked by hand against the trace (tests/golden/README.md
says how to read and update them). A change anywhere between a decoder and the Python
module that alters what a script sees shows up here as a diff.

ALOG: tests/golden/small.alog, written by hand. OTF2: an archive this module writes with
the official `otf2` writer (`write_small_otf2`), read both ways (cache=True, cache=False),
which must give the very same dump.
"""
import difflib
import os
from pathlib import Path

import pytest

import earl

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("EARL_UPDATE_GOLDEN", "").strip() not in ("", "0")


def dump(trace, name, positions):
    """Everything a script can ask of `trace`, as text: one line per event with every
    attribute of event(pos) in model order, the stacks of every location and the message
    queue after each of `positions`, and the header queries. Values are written with repr()
    so that 1 and 1.0 and '1' differ, and floats show every digit."""
    lines = [f"# {name}: format {trace.format()}, {len(trace)} events, "
             f"{trace.nrlocs()} locations"]
    lines.append("")
    lines.append("## events: attribute=value in model order")
    for pos in range(1, len(trace) + 1):
        event = trace.event(pos)
        assert list(event) == trace.attributes(pos)
        assert list(event.values()) == trace.values(pos)
        lines.append(" ".join(f"{key}={value!r}" for key, value in event.items()))
    lines.append("")
    lines.append("## state after event pos: stack(loc, pos) per location; queue(-1, -1, pos)")
    for pos in positions:
        stacks = " ".join(f"{loc}:{trace.stack(loc, pos)}" for loc in range(trace.nrlocs()))
        lines.append(f"after {pos}: stacks {stacks} queue {trace.queue(-1, -1, pos)}")
    lines.append("")
    lines.append("## header")
    lines.append(f"types() = {trace.types()!r}")
    lines.append(f"regions() = {trace.regions()!r}")
    lines.append(f"groups() = {trace.groups()!r}")
    for group in trace.groups():
        lines.append(f"regions({group!r}) = {trace.regions(group)!r}")
    for region in trace.regions():
        lines.append(f"group({region!r}) = {trace.group(region)!r}")
    for loc in range(trace.nrlocs()):
        lines.append(f"locsym({loc}) = {trace.locsym(loc)!r}")
    lines.append("")
    lines.append("## problems()")
    for kind, found in trace.problems().items():
        lines.append(f"{kind}: count {found['count']}, first {found['first']}")
    return "\n".join(lines) + "\n"


def check_golden(text, golden_name):
    """Compares `text` with tests/golden/`golden_name`; on a mismatch fails with a unified
    diff (expected -> got). With EARL_UPDATE_GOLDEN=1 rewrites the file instead."""
    path = GOLDEN / golden_name
    if UPDATE:
        path.write_text(text, encoding="utf-8")
        return
    if not path.exists():
        pytest.fail(f"{path} is missing; write it with EARL_UPDATE_GOLDEN=1 and check it "
                    "by hand (tests/golden/README.md)")
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        diff = difflib.unified_diff(expected.splitlines(keepends=True),
                                    text.splitlines(keepends=True),
                                    fromfile=f"{path} (golden)", tofile="dump of the trace now")
        pytest.fail("the dump differs from the golden file (EARL_UPDATE_GOLDEN=1 rewrites "
                    "it after a deliberate change):\n" + "".join(diff), pytrace=False)


# -------------------------------------------------------------------------------- ALOG
def test_alog_golden():
    trace = earl.EventTrace(GOLDEN / "small.alog", bdist=4, hsize=2, progress=lambda f: None)
    # After 5 (the first send is in flight), 11 (every message handled), 13 (loc2 has
    # left everything, twice), 20 (the end).
    text = dump(trace, "small.alog", positions=[0, 5, 8, 11, 13, 15, 20])
    check_golden(text, "small.alog.txt")


# -------------------------------------------------------------------------------- OTF2
def write_small_otf2(directory):
    """Three single-threaded processes with OTF2 location ids 5, 0, 9 (location numbers
    0, 1, 2 in definition order) and an MPI_COMM_WORLD whose rank r is location WORLD[r];
    timer resolution 1000 ticks/s, so time = ticks / 1000. In ticks after the first
    timestamp:
      0   every location enters main
      10  loc0 enters MPI_Send, 11 sends 32 bytes, tag 4, to world rank 0 (= loc2), 12 leaves
      13  loc2 enters MPI_Recv, 14 receives from world rank 1 (= loc0), 15 leaves
      16  loc1 records the parameter iterations = -3, 17 a metric (cycles 123, watts 2.5)
      20  all enter MPI_Allreduce with a collective begin; loc l ends it (8 bytes sent,
          16 received, no root) and leaves at 21 + l
      30  loc1 enters MPI_Put, 31 puts 64 bytes to world rank 0 (= loc2) through
          window 'win' (matching id 1), 32 completes it, 33 leaves
      40  every location leaves main
    """
    from otf2.enums import CollectiveOp, Paradigm, ParameterType, Type

    from otf2_archives import UNDEF_RANK, ArchiveWriter, T

    aw = ArchiveWriter(directory, "golden", resolution=1000)
    locs = []
    for r, lid in enumerate([5, 0, 9]):
        locs += aw.process(f"MPI Rank {r}", ids=[lid])
    aw.comm_locations([locs[1], locs[2], locs[0]])
    WORLD = [2, 0, 1]
    world = aw.comm("MPI_COMM_WORLD", [locs[i] for i in WORLD])
    rank = {loc: WORLD.index(loc) for loc in range(3)}
    win = aw.d.rma_win("win", comm=world)
    main = aw.region("main", Paradigm.USER)
    send_r = aw.region("MPI_Send", Paradigm.MPI)
    recv_r = aw.region("MPI_Recv", Paradigm.MPI)
    allreduce = aw.region("MPI_Allreduce", Paradigm.MPI)
    put_r = aw.region("MPI_Put", Paradigm.MPI)
    iterations = aw.d.parameter("iterations", parameter_type=ParameterType.INT64)
    metric = aw.d.metric_class([aw.d.metric_member("cycles", value_type=Type.UINT64),
                                aw.d.metric_member("watts", value_type=Type.DOUBLE)])
    e = [aw.ev(loc) for loc in locs]
    for loc in range(3):
        e[loc].enter(T(0), main)
    e[0].enter(T(10), send_r)
    e[0].mpi_send(T(11), rank[2], world, 4, 32)
    e[0].leave(T(12), send_r)
    e[2].enter(T(13), recv_r)
    e[2].mpi_recv(T(14), rank[0], world, 4, 32)
    e[2].leave(T(15), recv_r)
    e[1].parameter_int(T(16), iterations, -3)
    e[1].metric(T(17), metric, [123, 2.5])
    for loc in range(3):
        e[loc].enter(T(20), allreduce)
        e[loc].mpi_collective_begin(T(20))
        e[loc].mpi_collective_end(T(21 + loc), CollectiveOp.ALLREDUCE, world, UNDEF_RANK, 8, 16)
        e[loc].leave(T(21 + loc), allreduce)
    e[1].enter(T(30), put_r)
    e[1].rma_put(T(31), win, rank[2], 64, 1)
    e[1].rma_op_complete_blocking(T(32), win, 1)
    e[1].leave(T(33), put_r)
    for loc in range(3):
        e[loc].leave(T(40), main)
    return aw.close(), world._ref, win._ref


def test_otf2_golden(tmp_path):
    """Both reading paths (through the event cache and directly through libotf2) give the
    same dump, and it is the golden one."""
    pytest.importorskip("otf2")
    if "otf2" not in earl._core.known_formats():
        pytest.skip("this build of EARL reads no OTF2 (no libotf2 at build time)")
    anchor, world, win = write_small_otf2(tmp_path)
    # com and win in the dump are these ids; the writer gives the first of each kind 0.
    assert (world, win) == (0, 0), "the otf2 writer numbered the definitions differently"
    dumps = {}
    for cache in (True, False):
        with earl.EventTrace(anchor, bdist=4, hsize=2, progress=lambda f: None,
                             cache=cache) as trace:
            # After 5 (the send in flight), 8 (received), 12 (the metric), 15 (all in
            # the collective), 17 (two left it), 20 (the put open), 22, the end.
            dumps[cache] = dump(trace, "golden.otf2",
                                positions=[0, 5, 8, 12, 15, 17, 20, 22, 25])
    if dumps[True] != dumps[False]:
        diff = difflib.unified_diff(dumps[True].splitlines(keepends=True),
                                    dumps[False].splitlines(keepends=True),
                                    fromfile="cache=True", tofile="cache=False")
        pytest.fail("the two OTF2 reading paths disagree:\n" + "".join(diff), pytrace=False)
    check_golden(dumps[True], "small.otf2.txt")
