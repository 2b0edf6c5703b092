"""`earl gen --format otf2`: the generator's OTF2 archives (cpp/formats/otf2/otf2_writer.*).

Archives are read with the official `otf2` Python package (independent of EARL's decoder)
and compared with the ALOG version of the same options, read with the small reader of
tests/test_generator.py: definitions, counts per record kind, rank -> location translation
under --permute-ranks, times, threads. Then both versions are opened with earl.EventTrace
and must give identical events and identical results of the example scripts, apart from the
program records (ProgramBegin/ProgramEnd, one each per process) that only OTF2 holds.
"""
import collections
import os
import runpy
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import earl
from earl import _core
from earl.generate import generate

from gen_truth_checks import PROGRAM_RECORDS, AlogPositions
from test_generator import Alog

otf2 = pytest.importorskip("otf2", reason="the official otf2 Python package is not installed")

pytestmark = pytest.mark.skipif("otf2" not in _core.generator_formats(),
                                reason="this EARL was built without libotf2")

ROOT = Path(__file__).resolve().parents[1]
COLLECTIVES = ("MPI_Allreduce", "MPI_Barrier")
# Truth keys of what only OTF2 holds: the program root and the collective records' counts.
OTF2_ONLY_TRUTH = {"format", "program_root", "message_counts"}


def gen_both(tmp_path, name="run", **options):
    """The same options written as ALOG and as OTF2; returns (alog, otf2 anchor, truths).
    A roll-over point (ALOG only) is given to the ALOG version alone."""
    options.setdefault("events", 20000)
    alog = str(tmp_path / (name + ".alog"))
    anchor = str(tmp_path / (name + ".otf2"))
    ta = generate(alog, **options)
    options.pop("rollover", None)
    to = generate(anchor, **options)
    return alog, anchor, ta, to


class Archive:
    """An OTF2 archive as the official reader sees it: definitions and per-location events
    (tuples comparable with Alog's), plus the raw records for record-level checks."""

    def __init__(self, anchor):
        self.records = collections.Counter()
        with otf2.reader.open(anchor) as reader:
            d = reader.definitions
            self.defs = d
            self.clock = d.clock_properties
            self.locations = list(d.locations)
            index = {loc._ref: i for i, loc in enumerate(self.locations)}
            self.index = index
            self.comm = d.comms[0]
            members = self.comm.group.members           # rank -> Location (translated)
            self.rank_location = [index[m._ref] for m in members]
            self.per_location = collections.defaultdict(list)
            self.program = collections.defaultdict(list)
            self.raw = collections.defaultdict(list)
            for loc, ev in reader.events:
                kind = type(ev).__name__
                self.records[kind] += 1
                l = index[loc._ref]
                self.raw[l].append(ev)
                if kind == "Enter":
                    self.per_location[l].append(("enter", ev.time, ev.region.name))
                elif kind == "Leave":
                    self.per_location[l].append(("exit", ev.time, ev.region.name))
                elif kind == "MpiSend":
                    self.per_location[l].append(("send", ev.time, self.rank_location[ev.receiver],
                                                 ev.msg_tag, ev.msg_length))
                elif kind == "MpiRecv":
                    self.per_location[l].append(("recv", ev.time, self.rank_location[ev.sender],
                                                 ev.msg_tag, ev.msg_length))
                elif kind == "ThreadFork":
                    self.per_location[l].append(("fork", ev.time, ev.number_of_requested_threads))
                elif kind == "ThreadJoin":
                    self.per_location[l].append(("join", ev.time))
                elif kind == "ProgramBegin":
                    self.program[l].append(("begin", ev.time, ev.program_name, list(ev.program_arguments)))
                elif kind == "ProgramEnd":
                    self.program[l].append(("end", ev.time))
                elif kind not in ("MpiCollectiveBegin", "MpiCollectiveEnd"):
                    raise AssertionError("unexpected record %s" % kind)


def alog_per_location(trace):
    out = collections.defaultdict(list)
    for kind, loc, t, a, b, c in trace.events:
        if kind in ("enter", "exit"):
            out[loc].append((kind, t, a))
        elif kind in ("send", "recv"):
            out[loc].append((kind, t, a, b, c))
        elif kind == "fork":
            out[loc].append(("fork", t, a))
        elif kind == "join":
            out[loc].append(("join", t))
    return out


# ------------------------------------------------------------------ with the official reader
@pytest.mark.parametrize("options", [
    dict(),
    dict(locations=5, pattern="neighbors", seed=4, out_of_order_rate=0.3),
    dict(locations=6, permute_ranks=True, seed=9, late_sender_rate=0.4),
    dict(locations=3, threads=3, permute_ranks=True, seed=2),
])
def test_archive_matches_the_alog_version(tmp_path, options):
    alog, anchor, ta, to = gen_both(tmp_path, **options)
    trace, archive = Alog(alog), Archive(anchor)
    n = options.get("locations", 4)
    t = options.get("threads", 1)

    # clock: microseconds, offset 0, so OTF2 timestamps are the ALOG times exactly; the
    # trace ends with the last ProgramEnd
    assert archive.clock.timer_resolution == 1000000
    assert archive.clock.global_offset == 0
    assert archive.clock.trace_length == max(r[1] for recs in archive.program.values() for r in recs)
    assert archive.clock.trace_length > trace.events[-1][2]

    # program records: ProgramBegin first and ProgramEnd last on every master thread, around
    # main, with the truth's program root time between them and main
    for l in range(n * t):
        recs, events = archive.program[l], archive.per_location[l]
        if l % t:
            assert recs == []
            continue
        assert [r[0] for r in recs] == ["begin", "end"]
        assert recs[0][2] == "earl-gen-program" and recs[0][3] == []
        assert type(archive.raw[l][0]).__name__ == "ProgramBegin"
        assert type(archive.raw[l][-1]).__name__ == "ProgramEnd"
        assert events[0][::2] == ("enter", "main") and events[-1][::2] == ("exit", "main")
        assert recs[0][1] < events[0][1] and events[-1][1] < recs[1][1]
        own = (events[0][1] - recs[0][1]) + (recs[1][1] - events[-1][1])
        assert to["program_root"][l] == pytest.approx(own / 1e6, abs=1e-12)

    # system tree, processes, threads (Score-P's names, types and location ids)
    d = archive.defs
    assert len(d.system_tree_nodes) >= 1
    assert len(d.location_groups) == n and len(archive.locations) == n * t
    rank_of_process = {p: r for r, p in enumerate(to.get("rank_process", range(n)))}
    for p, group in enumerate(d.location_groups):
        assert group.name == "MPI Rank %d" % rank_of_process[p]
        assert group.location_group_type == otf2.LocationGroupType.PROCESS
        assert group.system_tree_parent is not None
    for l, loc in enumerate(archive.locations):
        p, k = divmod(l, t)
        assert loc.group == d.location_groups[p]
        assert loc.type == otf2.LocationType.CPU_THREAD
        assert loc.name == ("Master thread" if k == 0 else "OpenMP thread %d" % k)
        assert loc._ref == (k << 32) | p
        assert loc.number_of_events == len(archive.raw[l])

    # regions: names, canonical names, paradigms, roles and source files as Score-P writes
    # them (Scalasca takes a region for MPI only with file "MPI"), then the program's region
    regions = {r.name: r for r in d.regions}
    assert [r.name for r in d.regions][:-1] == trace.regions
    for r in list(d.regions)[:-1]:
        assert r.canonical_name == r.name
    roles = {"MPI_Send": otf2.RegionRole.POINT2POINT, "MPI_Recv": otf2.RegionRole.POINT2POINT,
             "MPI_Allreduce": otf2.RegionRole.COLL_ALL2ALL,
             "MPI_Barrier": otf2.RegionRole.BARRIER, "MPI_Init": otf2.RegionRole.FUNCTION,
             "MPI_Finalize": otf2.RegionRole.FUNCTION, "main": otf2.RegionRole.FUNCTION}
    for name, role in roles.items():
        assert regions[name].region_role == role, name
        mpi = name.startswith("MPI_")
        assert regions[name].paradigm == (otf2.Paradigm.MPI if mpi else otf2.Paradigm.USER)
        assert regions[name].source_file == ("MPI" if mpi else "")
    if t > 1:
        assert regions["parallel"].paradigm == otf2.Paradigm.OPENMP
        assert regions["parallel"].region_role == otf2.RegionRole.PARALLEL
        assert regions["parallel"].source_file == "OMP"
    program = list(d.regions)[-1]
    assert (program.name, program.canonical_name) == ("earl-gen-program", "earl-gen-program")
    assert program.region_role == otf2.RegionRole.ARTIFICIAL
    assert program.paradigm == otf2.Paradigm.MEASUREMENT_SYSTEM

    # system tree: machine > node > processes, with their domains
    machine, node = d.system_tree_nodes
    assert (machine.class_name, machine.parent) == ("machine", None)
    assert (node.class_name, node.parent) == ("node", machine)
    assert all(group.system_tree_parent == node for group in d.location_groups)
    domains = {(x.system_tree_node, x.system_tree_node_domain) for x in d.system_tree_node_domains}
    assert domains == {(machine, otf2.SystemTreeDomain.MACHINE), (node, otf2.SystemTreeDomain.SHARED_MEMORY)}

    # the MPI paradigm with Score-P's name templates
    properties = {(x.paradigm, x.property): x.value for x in d.paradigm_properties}
    assert properties == {(otf2.Paradigm.MPI, otf2.ParadigmProperty.COMM_NAME_TEMPLATE): "Comm ${id}",
                          (otf2.Paradigm.MPI, otf2.ParadigmProperty.RMA_WIN_NAME_TEMPLATE): "Win ${id}"}

    # MPI_COMM_WORLD: COMM_LOCATIONS (the master threads) and a COMM_GROUP of ranks
    assert archive.comm.name == "MPI_COMM_WORLD"
    assert archive.comm.group.group_type == otf2.GroupType.COMM_GROUP
    assert archive.comm.group.paradigm == otf2.Paradigm.MPI
    comm_locations = [g for g in d.groups if g.group_type == otf2.GroupType.COMM_LOCATIONS]
    assert len(comm_locations) == 1 and comm_locations[0].paradigm == otf2.Paradigm.MPI
    assert [archive.index[m._ref] for m in comm_locations[0].members] == list(range(0, n * t, t))
    expected = [p * t for p in to.get("rank_process", range(n))]
    assert archive.rank_location == expected
    if options.get("permute_ranks"):
        assert archive.rank_location != list(range(0, n * t, t))
    # MPI_COMM_SELF on a COMM_SELF group without members, as Score-P defines it
    self_comm = [c for c in d.comms if c.name == "MPI_COMM_SELF"]
    assert len(self_comm) == 1 and self_comm[0].group.group_type == otf2.GroupType.COMM_SELF
    assert self_comm[0].group.paradigm == otf2.Paradigm.MPI and len(self_comm[0].group.members) == 0

    # counts per record kind
    kinds = collections.Counter(e[0] for e in trace.events)
    collectives = sum(1 for e in trace.events if e[0] == "enter" and e[3] in COLLECTIVES)
    assert archive.records["Enter"] == kinds["enter"]
    assert archive.records["Leave"] == kinds["exit"]
    assert archive.records["MpiSend"] == kinds["send"] == ta["messages"]
    assert archive.records["MpiRecv"] == kinds["recv"]
    assert archive.records["MpiCollectiveBegin"] == collectives == n * ta["collectives"]
    assert archive.records["MpiCollectiveEnd"] == collectives
    assert archive.records["ThreadFork"] == kinds["fork"] == archive.records["ThreadJoin"]
    assert (kinds["fork"] > 0) == (t > 1)
    assert archive.records["ProgramBegin"] == archive.records["ProgramEnd"] == n

    # every location's events: same kinds, times, regions, peers (ranks translated), tags
    assert archive.per_location == alog_per_location(trace)

    # the ground truth does not depend on the format, but for what only OTF2 holds
    assert {k: v for k, v in ta.items() if k not in OTF2_ONLY_TRUTH} == \
        {k: v for k, v in to.items() if k not in OTF2_ONLY_TRUTH}
    assert ta["format"] == "alog" and to["format"] == "otf2"
    assert "program_root" not in ta
    p2p = ("syncs_send", "syncs_recv", "comms_send", "comms_recv", "bytes_sent", "bytes_rcvd")
    assert ta["message_counts"] == {k: to["message_counts"][k] for k in p2p}


def test_collective_records_wrap_the_collective(tmp_path):
    """MpiCollectiveBegin right after the collective's Enter, MpiCollectiveEnd right before
    its Leave (same times), with the operation, MPI_COMM_WORLD, no root and the sizes."""
    _, anchor, _, _ = gen_both(tmp_path, locations=3, events=5000, barrier_every=2)
    archive = Archive(anchor)
    ops = collections.Counter()
    for l, events in archive.raw.items():
        for i, ev in enumerate(events):
            name = type(ev).__name__
            if name == "MpiCollectiveBegin":
                before = events[i - 1]
                assert type(before).__name__ == "Enter" and before.region.name in COLLECTIVES
                assert before.time == ev.time
            elif name == "MpiCollectiveEnd":
                after = events[i + 1]
                assert type(after).__name__ == "Leave" and after.region.name in COLLECTIVES
                assert after.time == ev.time
                assert ev.communicator == archive.comm
                assert ev.root in (None, 2**32 - 1)    # undefined: no root
                if after.region.name == "MPI_Barrier":
                    assert ev.collective_op == otf2.CollectiveOp.BARRIER
                    assert ev.size_sent == ev.size_received == 0
                else:
                    assert ev.collective_op == otf2.CollectiveOp.ALLREDUCE
                    assert ev.size_sent == ev.size_received == 8
                ops[after.region.name] += 1
    assert ops["MPI_Barrier"] > 0 and ops["MPI_Allreduce"] > 0


def test_threads_archive(tmp_path):
    """--threads: every process has T locations in its location group; the master forks
    and joins (OpenMP) around the team's work, the others run kernels in `parallel`."""
    _, anchor, _, truth = gen_both(tmp_path, locations=2, threads=4, events=8000)
    archive = Archive(anchor)
    assert [loc.name for loc in archive.locations[:4]] == [
        "Master thread", "OpenMP thread 1", "OpenMP thread 2", "OpenMP thread 3"]
    for l, events in archive.per_location.items():
        kinds = {e[0] for e in events}
        if l % 4:
            assert kinds == {"enter", "exit"}
            assert {e[2] for e in events} == {"parallel", "kernel"}
        else:
            assert {"fork", "join", "send", "recv"} <= kinds
    for ev in (e for evs in archive.raw.values() for e in evs):
        if type(ev).__name__ in ("ThreadFork", "ThreadJoin"):
            assert ev.model == otf2.Paradigm.OPENMP
    assert archive.records["ThreadFork"] == 2 * truth["rounds"]


@pytest.mark.parametrize("name", ["traces", "my run.v2", "x"])
def test_any_anchor_name(tmp_path, name):
    anchor = tmp_path / (name + ".otf2")
    truth = generate(anchor, events=3000, seed=3)
    assert truth["format"] == "otf2"         # from the suffix
    assert (tmp_path / (name + ".def")).is_file() and (tmp_path / name).is_dir()
    assert sorted(os.listdir(tmp_path / name)) == ["0.def", "0.evt", "1.def", "1.evt",
                                                    "2.def", "2.evt", "3.def", "3.evt"]
    assert sum(Archive(str(anchor)).records.values()) > truth["events"]


def test_existing_archive_is_replaced_other_files_never(tmp_path):
    anchor = tmp_path / "a.otf2"
    generate(anchor, events=3000, seed=1)
    generate(anchor, events=2000, seed=2, locations=2)       # fewer locations than before
    archive = Archive(str(anchor))
    assert len(archive.locations) == 2
    assert sorted(os.listdir(tmp_path / "a")) == ["0.def", "0.evt", "1.def", "1.evt"]

    other = tmp_path / "notes.otf2"
    other.write_text("my notes")
    with pytest.raises(earl.EarlError, match="notes.otf2.*not an OTF2 anchor"):
        generate(other, events=100)
    assert other.read_text() == "my notes"

    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "data.csv").write_text("1,2")
    with pytest.raises(earl.EarlError, match="data.csv"):
        generate(tmp_path / "b.otf2", events=100)
    assert (tmp_path / "b" / "data.csv").read_text() == "1,2"


def test_bad_otf2_paths(tmp_path):
    with pytest.raises(earl.EarlError, match=r"x\.trace.*must end in \.otf2"):
        generate(tmp_path / "x.trace", format="otf2", events=100)
    with pytest.raises(earl.EarlError, match="no/such/dir"):
        generate(tmp_path / "no" / "such" / "dir" / "t.otf2", events=100)
    with pytest.raises(earl.EarlError, match="rollover.*ALOG"):
        generate(tmp_path / "r.otf2", events=100, rollover=1000)
    # truth unwritable: the archive is removed again, all of it
    with pytest.raises(earl.EarlError, match="cannot write"):
        generate(tmp_path / "t.otf2", events=1000, truth_path=tmp_path / "missing" / "t.json")
    assert os.listdir(tmp_path) == []


def test_cli_writes_otf2(tmp_path, capsys):
    from earl.cli import main
    out = tmp_path / "cli.otf2"
    assert main(["gen", str(out), "-n", "3", "-e", "2000", "--threads", "2",
                 "--permute-ranks"]) == 0
    assert "wrote" in capsys.readouterr().out
    archive = Archive(str(out))
    assert len(archive.locations) == 6
    assert archive.rank_location != [0, 2, 4]


# ------------------------------------------------------------------ through EARL
_EARL_OTF2 = None


def earl_reads_otf2(tmp_path_factory=None):
    """None when earl.EventTrace opens generated OTF2 archives, else the reason."""
    global _EARL_OTF2
    if _EARL_OTF2 is None:
        import tempfile
        d = tempfile.mkdtemp(prefix="earl-otf2-probe-")
        anchor = os.path.join(d, "probe.otf2")
        generate(anchor, events=100)
        try:
            with earl.EventTrace(anchor) as t:
                len(t)
            _EARL_OTF2 = ""
        except Exception as e:       # noqa: BLE001 - any failure is the reason to skip
            _EARL_OTF2 = "earl.EventTrace cannot open OTF2 yet (%s)" % e
    return _EARL_OTF2 or None


def needs_earl_otf2():
    reason = earl_reads_otf2()
    if reason:
        pytest.skip(reason)


# collective exits carry com/root/sent/recvd/collbegin/collend in OTF2 only; ALOG writes fork/join as -9
# types (data1/data2), OTF2 as fork/join (forkptr); com is -1 in ALOG
FORMAT_ONLY = {"com", "root", "sent", "recvd", "collbegin", "collend", "data1", "data2", "forkptr"}


def comparable(event):
    return {k: v for k, v in event.items() if k not in FORMAT_ONLY}


@pytest.mark.parametrize("options", [
    dict(),
    dict(locations=7, pattern="neighbors", out_of_order_rate=0.3, late_sender_rate=0.3, seed=8),
    dict(locations=5, permute_ranks=True, seed=4),
    dict(locations=3, threads=3, permute_ranks=True, seed=6),
    dict(locations=2, rollover=7000, barrier_every=1),
])
def test_alog_and_otf2_give_identical_events(tmp_path, otf2_cache, options):
    needs_earl_otf2()
    alog, anchor, truth, _ = gen_both(tmp_path, **dict(options))
    with earl.EventTrace(alog) as a, earl.EventTrace(anchor, cache=otf2_cache) as o:
        assert o.format() == "otf2" and a.format() == "alog"
        processes = options.get("locations", 4)
        assert len(a) == len(o) - 2 * processes == truth["events"]
        assert a.nrlocs() == o.nrlocs()
        assert a.regions() + ["earl-gen-program"] == o.regions()
        assert set(a.types()) | set(PROGRAM_RECORDS) == set(o.types())
        assert a.problems() == o.problems()
        at = AlogPositions(o)
        otf2_events = [at.event(e) for e in o if e["type"] not in PROGRAM_RECORDS]
        collective_exits = 0
        for ea, eo in zip(a, otf2_events):
            assert comparable(ea) == comparable(eo), (ea, eo)
            if eo["type"] == "send" or eo["type"] == "recv":
                assert ea["com"] == -1 and eo["com"] == 0
            if eo["type"] == "exit" and ea["region"] in COLLECTIVES:
                collective_exits += 1
                assert eo["com"] == 0 and eo["root"] == -1
                assert eo["sent"] == eo["recvd"] == (8 if ea["region"] == "MPI_Allreduce" else 0)
                assert "com" not in ea
        assert collective_exits == truth["collectives"] * options.get("locations", 4)
        t = options.get("threads", 1)
        for loc in range(o.nrlocs()):
            p, k = divmod(loc, t)
            rank = {pp: r for r, pp in enumerate(truth.get("rank_process", range(99)))}[p]
            assert o.locsym(loc) == "MPI Rank %d / %s" % (
                rank, "Master thread" if k == 0 else "OpenMP thread %d" % k)
        # state pointers agree too at a few positions
        for pos in (1, len(a) // 3, len(a) // 2, len(a)):
            for loc in range(a.nrlocs()):
                assert a.stack(loc, pos) == at.positions(o.stack(loc, at.to_otf2[pos]))
            assert a.queue(-1, -1, pos) == at.positions(o.queue(-1, -1, at.to_otf2[pos]))


def _load(name):
    return runpy.run_path(str(ROOT / "scripts" / (name + ".py")), run_name="test_" + name)


@pytest.mark.parametrize("options", [
    dict(late_sender_rate=0.3, out_of_order_rate=0.2, imbalance_rate=0.2),
    dict(locations=6, permute_ranks=True, pattern="neighbors", out_of_order_rate=0.3, seed=3),
    dict(locations=3, threads=2, late_sender_rate=0.5, seed=5),
])
def test_scripts_give_identical_results(tmp_path, otf2_cache, options):
    needs_earl_otf2()
    alog, anchor, truth, _ = gen_both(tmp_path, **options)
    for name in ("wasted_time", "messages_out_of_order", "region_statistics"):
        fn = _load(name)[name]
        with earl.EventTrace(alog) as a, earl.EventTrace(anchor, cache=otf2_cache) as o:
            got = fn(o)
            if name == "messages_out_of_order":     # (pos, ...): positions as ALOG's
                at = AlogPositions(o)
                got = [(at.of_otf2[f[0]],) + tuple(f[1:]) for f in got]
            assert fn(a) == got, name
    with earl.EventTrace(anchor, cache=otf2_cache) as o:
        assert _load("wasted_time")["wasted_time"](o)[0] == truth["late_sender_wait_total"]
        assert len(_load("messages_out_of_order")["messages_out_of_order"](o)) == \
            truth["out_of_order_count"]


def test_multichunk_archive_random_access(tmp_path, otf2_cache):
    """An archive whose location files span several OTF2 chunks (1 MiB): sequential and
    random access give the ALOG version's events. Runs in a subprocess, so that a crash in
    libotf2 fails this test instead of killing the test run. (libotf2 3.0.2's
    OTF2_EvtReader_Seek frees a chunk that the reader loaded while reading on, and closing
    the reader frees it again: a reader must be opened anew before every seek.)"""
    needs_earl_otf2()
    alog, anchor, truth, _ = gen_both(tmp_path, locations=2, events=10**6, seed=12)
    assert all(f.stat().st_size > 4 * 2**20 for f in (tmp_path / "run").glob("*.evt"))
    script = textwrap.dedent("""
        import random, sys
        import earl
        skip = {"com", "root", "sent", "recvd", "collbegin", "collend"}
        c = lambda e: {k: v for k, v in e.items() if k not in skip}
        cache = {"True": True, "False": False}[sys.argv[3]]
        a, o = earl.EventTrace(sys.argv[1]), earl.EventTrace(sys.argv[2], cache=cache)
        sys.path.insert(0, sys.argv[4])
        from gen_truth_checks import AlogPositions
        at = AlogPositions(o)            # past OTF2's program records (2 per location)
        assert len(a) == len(at.to_otf2) - 1 == len(o) - 4
        alog_like = lambda e: c(at.event(e))
        rng = random.Random(3)
        for i in range(300):
            p = rng.randint(1, len(a))
            assert c(a.event(p)) == alog_like(o.event(at.to_otf2[p])), p
            assert a.stack(i % 2, p) == at.positions(o.stack(i % 2, at.to_otf2[p])), p
        for ea, p in zip(a, at.to_otf2[1:]):
            assert c(ea) == alog_like(o.event(p)), (ea, p)
        o.close()
        print("ok")
    """)
    result = subprocess.run([sys.executable, "-c", script, alog, anchor, str(otf2_cache),
                             str(Path(__file__).resolve().parent)],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0 and result.stdout.strip() == "ok", \
        "exit %d: %s" % (result.returncode, result.stderr[-2000:])
