"""`earl analyze --cube` read back with pycubexr (a second implementation of Cube4): the
file holds what Scalasca's trace analyzer (scout) stores, laid out as scout lays it out.

A small OTF2 archive written here with the official `otf2` writer has values worked out by
hand below; every other archive is checked against `earl analyze --json` cell by cell. What
scout stores differently from EARL's metric tree (derived groups absent, `time` inclusive
along the call tree) is earl.analysis.cube_scalasca; the expectations here are scout's
layout stated by hand."""
import subprocess
import sys
import tarfile
from pathlib import Path
from xml.etree import ElementTree

import pytest

import earl
from case_trace import build_case
from cube_reading import callpath_names
from script_checks import have_otf2

pycubexr = pytest.importorskip("pycubexr")
pytestmark = pytest.mark.skipif(not have_otf2(), reason="no OTF2 support")
otf2 = pytest.importorskip("otf2")
from otf2.enums import Paradigm, RegionRole  # noqa: E402

from otf2_archives import PING_PONG, PING_PONG_PAPI, ArchiveWriter, T  # noqa: E402

US = 1e-6
EARL = [sys.executable, "-m", "earl.cli"]


def approx(x):
    return pytest.approx(x, abs=1e-12)


def write_hand_worked(directory):
    """Two processes, times in us (resolution 1e6).

    rank 0: main [0, 100] > work [1, 9] > kernel [2, 8]; main > MPI_Recv [10, 40] takes
            tag 1 (8 bytes); main > MPI_Recv [50, 52] takes tag 2 (8 bytes)
    rank 1: main [0, 100] > MPI_Send [20, 22] sends tag 2; MPI_Send [30, 32] sends tag 1
    """
    aw = ArchiveWriter(directory, "hand", resolution=1_000_000)
    (r0,) = aw.process("MPI Rank 0")
    (r1,) = aw.process("MPI Rank 1")
    aw.comm_locations([r0, r1])
    world = aw.comm("MPI_COMM_WORLD", [r0, r1])
    main, work, kernel = (aw.region(n, Paradigm.USER) for n in ("main", "work", "kernel"))
    send, recv = aw.region("MPI_Send", Paradigm.MPI), aw.region("MPI_Recv", Paradigm.MPI)
    e0, e1 = aw.ev(r0), aw.ev(r1)
    e0.enter(T(0), main)
    e1.enter(T(0), main)
    e0.enter(T(1), work)
    e0.enter(T(2), kernel)
    e0.leave(T(8), kernel)
    e0.leave(T(9), work)
    e0.enter(T(10), recv)
    e1.enter(T(20), send)
    e1.mpi_send(T(21), 0, world, 2, 8)
    e1.leave(T(22), send)
    e1.enter(T(30), send)
    e1.mpi_send(T(31), 0, world, 1, 8)
    e1.leave(T(32), send)
    e0.mpi_recv(T(39), 1, world, 1, 8)
    e0.leave(T(40), recv)
    e0.enter(T(50), recv)
    e0.mpi_recv(T(51), 1, world, 2, 8)
    e0.leave(T(52), recv)
    e0.leave(T(100), main)
    e1.leave(T(100), main)
    return aw.close()


# Worked out by hand, {metric: {(call path, location): exclusive value along the call tree}}.
HAND = {
    # rank 0: main 100 - work 8 - receives 30 + 2 = 60; work 8 - kernel 6 = 2; rank 1:
    # main 100 - sends 2 + 2 = 96
    "time": {("main", 0): 60 * US, ("main/work", 0): 2 * US, ("main/work/kernel", 0): 6 * US,
             ("main/MPI_Recv", 0): 32 * US, ("main", 1): 96 * US, ("main/MPI_Send", 1): 4 * US},
    "visits": {("main", 0): 1, ("main/work", 0): 1, ("main/work/kernel", 0): 1,
               ("main/MPI_Recv", 0): 2, ("main", 1): 1, ("main/MPI_Send", 1): 2},
    # the first receive waits from 10 until its send is entered at 30: 20 us; the second
    # takes tag 2, sent before tag 1 (21 < 31): that wait was in wrong order, same source.
    # A parent metric holds its children: late sender 20 = wrong order 20 = same source 20.
    "mpi_latesender": {("main/MPI_Recv", 0): 20 * US},
    "mpi_latesender_wo": {("main/MPI_Recv", 0): 20 * US},
    "mpi_lswo_same": {("main/MPI_Recv", 0): 20 * US},
    "mpi_lswo_different": {},
    # both sends end (22, 32) before or after a posted receive without waiting for it:
    # send tag 2 left at 22, before its receive was posted at 50; send tag 1 was entered at
    # 30, after its receive was posted at 10
    "mpi_latereceiver": {},
    "bytes_sent": {("main/MPI_Send", 1): 16},
    "bytes_rcvd": {("main/MPI_Recv", 0): 16},
}
# `time` stored inclusive along the call tree: a call path holds its callees' time.
HAND_TIME_INCLUSIVE = {("main", 0): 100 * US, ("main/work", 0): 8 * US,
                       ("main/work/kernel", 0): 6 * US, ("main/MPI_Recv", 0): 32 * US,
                       ("main", 1): 100 * US, ("main/MPI_Send", 1): 4 * US}


def read_cube(path, convert_to_exclusive=True, inclusive=False):
    """{metric: {(call path, location): value}} of every metric (cells with a value), and
    {metric: (display name, unit, dtype, type, parent uniq name)}."""
    cells, definitions = {}, {}
    with pycubexr.CubexParser(str(path)) as parser:
        paths = callpath_names(parser)

        def walk(metrics, parent):
            for metric in metrics:
                definitions[metric.name] = (metric.display_name, metric.units, metric.data_type,
                                            metric.metric_type, parent)
                values = parser.get_metric_values(metric)
                cells[metric.name] = {
                    (paths[c.id], loc): float(v) for c in parser.all_cnodes()
                    for loc, v in enumerate(values.cnode_values(
                        c, convert_to_exclusive=convert_to_exclusive and not inclusive,
                        convert_to_inclusive=inclusive)) if v}
                walk(metric.childs, metric.name)
        walk(parser.get_metrics(), None)
    return cells, definitions


@pytest.fixture(scope="module")
def hand(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hand")
    anchor = write_hand_worked(folder)
    cube = folder / "hand.cubex"
    done = subprocess.run(EARL + ["analyze", str(anchor), "--cube", str(cube)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return anchor, cube


def test_the_hand_worked_values_per_metric_call_path_and_location(hand):
    cells, _ = read_cube(hand[1])
    for metric, expected in HAND.items():
        assert cells[metric] == {k: approx(v) for k, v in expected.items()}, metric


def test_time_is_stored_inclusive_along_the_call_tree(hand):
    stored, definitions = read_cube(hand[1], convert_to_exclusive=False)
    assert definitions["time"][3] == "INCLUSIVE"
    assert stored["time"] == {k: approx(v) for k, v in HAND_TIME_INCLUSIVE.items()}
    # its rows are in Cube's wide-first order (main, work, MPI_Recv, kernel), unlike an
    # exclusive metric's depth-first order: kernel's row holds kernel's time
    assert stored["time"][("main/work/kernel", 0)] == approx(6 * US)


def test_the_metric_tree_is_scouts(hand):
    _, definitions = read_cube(hand[1])
    # (display name, unit, dtype, type, parent) of the metrics scout stores; groups that
    # Scalasca derives in its remapping (execution, comp, mpi, point-to-point, ...) are
    # absent, so late sender is a root, and its wrong-order parts stay its children
    assert definitions["time"] == ("Time", "sec", "FLOAT", "INCLUSIVE", None)
    assert definitions["visits"] == ("Visits", "occ", "INTEGER", "EXCLUSIVE", None)
    assert definitions["mpi_latesender"][1:] == ("sec", "FLOAT", "EXCLUSIVE", None)
    assert definitions["mpi_latesender_wo"][4] == "mpi_latesender"
    assert definitions["mpi_lswo_same"][4] == "mpi_latesender_wo"
    assert definitions["mpi_lswo_different"][4] == "mpi_latesender_wo"
    assert definitions["mpi_latereceiver"][4] is None
    assert definitions["mpi_rma_early_fence"][4] == "mpi_rma_wait_at_fence"
    assert definitions["mpi_rma_wait_at_fence"][4] is None
    assert definitions["bytes_sent"][1:] == ("bytes", "INTEGER", "EXCLUSIVE", None)
    for derived in ("execution", "comp", "mpi", "mpi_point2point", "mpi_communication",
                    "mpi_collective", "mpi_synchronization", "mpi_management"):
        assert derived not in definitions
    # Every metric EARL computes that scout's file of a Score-P trace holds, with scout's
    # parents there (read off scout.cubex of ping-pong-otf2; its other metrics, critical
    # path, delay costs and the like, EARL does not compute): no derived group besides.
    children = {"mpi_latesender_wo": "mpi_latesender", "mpi_lswo_different": "mpi_latesender_wo",
                "mpi_lswo_same": "mpi_latesender_wo", "mpi_slr_count": "syncs_send",
                "mpi_sls_count": "syncs_recv", "mpi_slswo_count": "mpi_sls_count",
                "mpi_clr_count": "comms_send", "mpi_cls_count": "comms_recv",
                "mpi_clswo_count": "mpi_cls_count", "mpi_rma_late_complete": "mpi_rma_early_wait",
                "mpi_rma_early_fence": "mpi_rma_wait_at_fence"}
    roots = {"time", "visits", "mpi_init_completion", "mpi_finalize_wait", "mpi_barrier_wait",
             "mpi_barrier_completion", "mpi_latesender", "mpi_latereceiver", "mpi_earlyreduce",
             "mpi_earlyscan", "mpi_latebroadcast", "mpi_wait_nxn", "mpi_nxn_completion",
             "syncs_send", "syncs_recv", "syncs_coll", "comms_send", "comms_recv", "comms_cxch",
             "comms_csrc", "comms_cdst", "bytes_sent", "bytes_rcvd", "bytes_cout", "bytes_cin",
             "bytes_put", "bytes_get", "mpi_rma_wait_at_create", "mpi_rma_wait_at_free",
             "mpi_rma_sync_late_post", "mpi_rma_early_wait", "mpi_rma_wait_at_fence",
             "mpi_rma_sync_lock_competition", "mpi_rma_comm_late_post",
             "mpi_rma_comm_lock_competition"}
    assert {m: d[4] for m, d in definitions.items()} == {**dict.fromkeys(roots), **children}
    # and under scout's display names (its file's, not the remapped report's)
    assert definitions["mpi_latesender"][0] == "MPI Late Sender"
    assert definitions["mpi_lswo_same"][0] == "MPI Late Sender, wrong order (same source)"
    assert definitions["mpi_rma_wait_at_create"][0] == "MPI Wait at Window Create"
    assert definitions["syncs_send"][0] == "MPI P2P send synchronizations"
    assert definitions["mpi_slswo_count"][0] == "MPI Late Sender, Wrong Order Instances (Synchronizations)"
    assert definitions["bytes_cout"][0] == "MPI collective bytes outgoing"
    assert all(d[3] == "EXCLUSIVE" for m, d in definitions.items() if m != "time")


def test_call_tree_and_system_tree(hand):
    with pycubexr.CubexParser(str(hand[1])) as parser:
        (root,) = parser.get_root_cnodes()
        assert parser.get_region(root).name == "main"
        assert [parser.get_region(c).name for c in root.get_children()] == \
            ["work", "MPI_Recv", "MPI_Send"]
        # as the archive defines them: paradigm MPI, the writer's default role FUNCTION,
        # no source file
        mpi_recv = parser.get_region_by_name("MPI_Recv")
        assert (mpi_recv.paradigm, mpi_recv.role, mpi_recv.mod) == ("mpi", "function", "")
        assert parser.get_region_by_name("main").paradigm == "user"
    # the archive's one system tree node, named "node" with an empty class: scout names a
    # node "<class> <name>"
    machine = system_tree(hand[1])
    assert (machine.findtext("name"), machine.findtext("class")) == (" node", "")
    assert machine.findall("systemtreenode") == []
    groups = machine.findall("locationgroup")
    assert [(g.findtext("name"), g.findtext("rank"), g.findtext("type")) for g in groups] == \
        [("MPI Rank 0", "0", "process"), ("MPI Rank 1", "1", "process")]
    assert [[(l.get("Id"), l.findtext("name"), l.findtext("rank"), l.findtext("type"))
             for l in g.findall("location")] for g in groups] == \
        [[("0", "Master thread", "0", "thread")], [("1", "Master thread", "0", "thread")]]


def system_tree(cube):
    """The root system-tree node of a Cube file's anchor.xml (pycubexr reads no classes)."""
    with tarfile.open(cube) as tar:
        (machine,) = ElementTree.parse(tar.extractfile("anchor.xml")).getroot().find(
            "system").findall("systemtreenode")
    return machine


def agrees_with_json(anchor, folder):
    """The Cube file and `earl analyze --json` of `anchor`, cell by cell: each metric the
    file holds gives the report's values (exclusive along the call tree; inclusive along
    the metric tree); the report's other metrics are the derived groups."""
    cube = folder / "r.cubex"
    done = subprocess.run(EARL + ["analyze", str(anchor), "--json", "--cube", str(cube)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    report = earl.analysis.Report.from_json(done.stdout)
    cells, definitions = read_cube(cube)
    # an artificial root "(trace)" above several roots holds the values outside any region
    cells = {m: {(p.split("/", 1)[1] if p.startswith("(trace)/") else p, loc): v
                 for (p, loc), v in c.items()} for m, c in cells.items()}
    for metric in report.metrics:
        expected = {}
        for cp, loc, v in report.cells(metric):
            key = (report.callpaths[cp] if cp >= 0 else "(trace)", loc)
            expected[key] = expected.get(key, 0.0) + v
        expected = {k: v for k, v in expected.items() if v}
        if metric in cells:
            assert cells[metric] == {k: pytest.approx(v, rel=1e-12, abs=1e-15)
                                     for k, v in expected.items()}, metric
    for name, counter in report.counters.items():
        expected = {}
        for cp, loc, v in counter["exclusive"]:
            key = (report.callpaths[cp] if cp >= 0 else "(trace)", loc)
            expected[key] = expected.get(key, 0.0) + v
        assert cells[name] == {k: v for k, v in expected.items() if v}, name
    return report, cells, definitions


def test_hand_worked_archive_agrees_with_json(hand, tmp_path):
    report, cells, _ = agrees_with_json(hand[0], tmp_path)
    assert report.total("mpi_latesender_wo") > 0


@pytest.mark.parametrize("anchor", [PING_PONG, PING_PONG_PAPI], ids=["ping-pong", "papi"])
def test_scorep_traces_agree_with_json(anchor, tmp_path):
    if not anchor.exists():
        pytest.skip("no Score-P trace")
    report, cells, _ = agrees_with_json(anchor, tmp_path)
    # time holds all time: its root's inclusive value is every location's run time
    inclusive, _ = read_cube(tmp_path / "r.cubex", inclusive=True)
    root = min(report.callpaths, key=len)
    assert sum(v for (path, _), v in inclusive["time"].items() if path == root) == \
        pytest.approx(report.total("time"))


def test_threads_and_several_roots(tmp_path):
    """Worker threads' own roots ("parallel") sit with main under an artificial root; each
    process holds its threads, ranked in order."""
    anchor = tmp_path / "threads.otf2"
    subprocess.run(EARL + ["gen", str(anchor), "-n", "2", "--threads", "2", "-e", "600", "-q"],
                   check=True)
    report, cells, _ = agrees_with_json(anchor, tmp_path)
    with pycubexr.CubexParser(str(tmp_path / "r.cubex")) as parser:
        (root,) = parser.get_root_cnodes()
        assert parser.get_region(root).name == "(trace)"
    groups = list(system_tree(tmp_path / "r.cubex").iter("locationgroup"))
    assert [[(l.get("Id"), l.findtext("name"), l.findtext("rank")) for l in g.findall("location")]
            for g in groups] == [[("0", "Master thread", "0"), ("1", "OpenMP thread 1", "1")],
                                 [("2", "Master thread", "0"), ("3", "OpenMP thread 1", "1")]]
    assert report.location_name(1) == "MPI Rank 0 / OpenMP thread 1"


def test_an_unwritable_cube_path_is_a_one_line_error(hand, tmp_path):
    target = tmp_path / "missing" / "r.cubex"
    done = subprocess.run(EARL + ["analyze", str(hand[0]), "--cube", str(target)],
                          capture_output=True, text=True)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert f"cannot write '{target}'" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_parent_metric_holds_its_childrens_values(tmp_path):
    """Wait at Fence holds Early Fence, as scout stores them (the values of
    tests/analysis_cases/rma_wait_at_fence_and_early_fence.expected.toml: Wait at Fence 40,
    15, 35 us by location, Early Fence 10 and 15 at locations 0 and 2)."""
    cube = tmp_path / "fence.cubex"
    earl.analyze(build_case("rma_wait_at_fence_and_early_fence", tmp_path),
                 progress=lambda f: None).write_cube(cube)
    cells, definitions = read_cube(cube)
    fence = "main/MPI_Win_fence"
    assert definitions["mpi_rma_early_fence"][4] == "mpi_rma_wait_at_fence"
    assert cells["mpi_rma_wait_at_fence"] == {(fence, 0): approx(40 * US),
                                             (fence, 1): approx(15 * US),
                                             (fence, 2): approx(35 * US)}
    assert cells["mpi_rma_early_fence"] == {(fence, 0): approx(10 * US), (fence, 2): approx(15 * US)}


def write_described(directory):
    """An archive whose definitions describe regions and machine as Score-P's do.

    System tree: machine "Linux" > rack "r7" > node "n01", node "n02"; processes (location
    groups 0, 1, 2): "MPI Rank 0" on n01, "MPI Rank 1" (two threads) on n02, "MPI Rank 2"
    on the rack itself. Locations in definition order: 0 rank 0's master, 1 and 2 rank
    1's threads, 3 rank 2's master. Every location runs main [0, 10] > MPI_Send [2, 4].
    """
    writer = otf2.writer.Writer(str(directory), archive_name="described",
                                timer_resolution=1_000_000)
    d = writer.definitions
    linux = d.system_tree_node("Linux", class_name="machine")
    rack = d.system_tree_node("r7", class_name="rack", parent=linux)
    n01 = d.system_tree_node("n01", class_name="node", parent=rack)
    n02 = d.system_tree_node("n02", class_name="node", parent=rack)
    locs = []
    for name, parent, threads in (("MPI Rank 0", n01, ["Master thread"]),
                                  ("MPI Rank 1", n02, ["Master thread", "OMP thread 1"]),
                                  ("MPI Rank 2", rack, ["Master thread"])):
        group = d.location_group(name, system_tree_parent=parent)
        locs += [d.location(thread, group=group) for thread in threads]
    main = d.region("int main(int, char**)", paradigm=Paradigm.COMPILER, canonical_name="main",
                    source_file="/src/app.c", begin_line_number=5, end_line_number=80)
    send = d.region("MPI_Send", paradigm=Paradigm.MPI, source_file="MPI",
                    region_role=RegionRole.POINT2POINT)
    d.region("MPI_Allreduce", paradigm=Paradigm.MPI, source_file="MPI",
             region_role=RegionRole.COLL_ALL2ALL)
    d.region("!$omp parallel @app.c:20", paradigm=Paradigm.OPENMP, source_file="/src/app.c",
             region_role=RegionRole.PARALLEL, begin_line_number=20, end_line_number=30,
             description="a parallel region")
    d.region("THREADS", paradigm=Paradigm.MEASUREMENT_SYSTEM, region_role=RegionRole.ARTIFICIAL)
    d.region("huge", paradigm=Paradigm.KOKKOS, region_role=RegionRole.KERNEL,
             begin_line_number=2 ** 31, end_line_number=2 ** 32 - 1)
    for loc in locs:
        e = writer.event_writer_from_location(loc)
        e.enter(T(0), main)
        e.enter(T(2), send)
        e.leave(T(4), send)
        e.leave(T(10), main)
    writer.close()
    return directory / "described.otf2"


# (name, mangled name, file, begin, end, paradigm, role, description) of each region in
# scout's words (Scalasca's pearl: Paradigm.cpp, Region.cpp; CubeW writes a line <= 0 or
# beyond a C int as -1): the archive's regions, then the artificial regions scout's reader
# adds where the trace has none (THREADS it has, with paradigm MEASUREMENT_SYSTEM, which
# scout names pthread). The `otf2` writer gives every region its name as canonical name
# unless told otherwise.
DESCRIBED_REGIONS = [
    ("int main(int, char**)", "main", "/src/app.c", "5", "80", "compiler", "function", ""),
    ("MPI_Send", "MPI_Send", "MPI", "-1", "-1", "mpi", "point2point", ""),
    ("MPI_Allreduce", "MPI_Allreduce", "MPI", "-1", "-1", "mpi", "all2all", ""),
    ("!$omp parallel @app.c:20", "!$omp parallel @app.c:20", "/src/app.c", "20", "30", "openmp", "parallel",
     "a parallel region"),
    ("THREADS", "THREADS", "", "-1", "-1", "pthread", "artificial", ""),
    # a paradigm Scalasca 2.6 does not know, a role this libotf2 does not know
    ("huge", "huge", "", "-1", "-1", "unknown", "unknown", ""),
    ("MEASUREMENT OFF", "MEASUREMENT OFF", "", "-1", "-1", "user", "artificial", ""),
    ("TRACE BUFFER FLUSH", "TRACE BUFFER FLUSH", "", "-1", "-1", "measurement", "artificial", ""),
    ("TASKS", "TASKS", "", "-1", "-1", "openmp", "artificial", ""),
]


def anchor_of(cube):
    with tarfile.open(cube) as tar:
        return ElementTree.parse(tar.extractfile("anchor.xml")).getroot()


def region_rows(anchor):
    return [(r.findtext("name"), r.findtext("mangled_name"), r.get("mod"), r.get("begin"),
             r.get("end"), r.findtext("paradigm"), r.findtext("role"), r.findtext("descr"))
            for r in anchor.find("program").findall("region")]


def system_rows(node):
    """(name, class, [(group Id, name, rank, [(location Id, name, rank)])], [sub-levels])
    of a system tree node, in the file's order."""
    return (node.get("Id"), node.findtext("name"), node.findtext("class"),
            [(g.get("Id"), g.findtext("name"), g.findtext("rank"),
              [(l.get("Id"), l.findtext("name"), l.findtext("rank")) for l in g.findall("location")])
             for g in node.findall("locationgroup")],
            [system_rows(child) for child in node.findall("systemtreenode")])


@pytest.fixture(scope="module")
def described(tmp_path_factory):
    folder = tmp_path_factory.mktemp("described")
    anchor = write_described(folder)
    cube = folder / "described.cubex"
    done = subprocess.run(EARL + ["analyze", str(anchor), "--json", "--cube", str(cube)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return cube, done.stdout, folder


def test_regions_are_written_as_the_trace_describes_them(described):
    assert region_rows(anchor_of(described[0])) == DESCRIBED_REGIONS
    with pycubexr.CubexParser(str(described[0])) as parser:
        main = parser.get_region_by_name("int main(int, char**)")
        assert (main.mangled_name, main.mod, main.begin, main.end) == ("main", "/src/app.c", 5, 80)


def test_the_system_tree_is_the_traces(described):
    (root,) = anchor_of(described[0]).find("system").findall("systemtreenode")
    # ids in the trace's order; a level holds its processes, then its sub-levels (CubeW);
    # a process's rank is its location group's id, a location's its place in the process
    assert system_rows(root) == (
        "0", "machine Linux", "machine", [],
        [("1", "rack r7", "rack", [("2", "MPI Rank 2", "2", [("3", "Master thread", "0")])],
          [("2", "node n01", "node", [("0", "MPI Rank 0", "0", [("0", "Master thread", "0")])], []),
           ("3", "node n02", "node",
            [("1", "MPI Rank 1", "1", [("1", "Master thread", "0"), ("2", "OMP thread 1", "1")])],
            [])])])
    coords = [(c.get("locId"), c.text) for c in anchor_of(described[0]).iter("coord")]
    assert coords == [("0", "0 0"), ("1", "1 0"), ("2", "1 1"), ("3", "2 0")]
    with pycubexr.CubexParser(str(described[0])) as parser:
        values = parser.get_metric_values(parser.get_metric_by_name("time"))
        main = next(c for c in parser.all_cnodes() if c.parent is None)
        # every location's main lasts 10 us
        assert [float(v) for v in values.cnode_values(main, convert_to_inclusive=True)] == \
            [pytest.approx(10 * US)] * 4


def test_a_saved_report_writes_the_same_regions_and_machine(described, tmp_path):
    """The JSON report carries the regions' details and the machine, so a Cube file written
    from it reads as the one written from the trace."""
    cube = tmp_path / "again.cubex"
    earl.analysis.Report.from_json(described[1]).write_cube(cube)
    assert region_rows(anchor_of(cube)) == DESCRIBED_REGIONS
    assert ElementTree.tostring(anchor_of(cube).find("system")) == \
        ElementTree.tostring(anchor_of(described[0]).find("system"))


# Scalasca's words for the OTF2 paradigms and roles of the Score-P traces' regions (read
# off scout.cubex of ping-pong-otf2, written by Scalasca 2.6).
SCOUT_PARADIGM = {"MPI": "mpi", "COMPILER": "compiler", "USER": "user",
                  "MEASUREMENT_SYSTEM": "measurement"}
SCOUT_ROLE = {"FUNCTION": "function", "FILE_IO": "file io", "COLL_ALL2ALL": "all2all",
              "POINT2POINT": "point2point", "ATOMIC": "atomic", "COLL_ONE2ALL": "one2all",
              "COLL_ALL2ONE": "all2one", "FILE_IO_METADATA": "unknown",
              "COLL_OTHER": "other collective", "RMA": "rma", "ARTIFICIAL": "artificial",
              "BARRIER": "barrier", "ALLOCATE": "allocate"}


@pytest.mark.parametrize("anchor", [PING_PONG, PING_PONG_PAPI], ids=["ping-pong", "papi"])
def test_scorep_regions_and_machine_as_the_official_reader_reads_them(anchor, tmp_path):
    if not anchor.exists():
        pytest.skip("no Score-P trace")
    cube = tmp_path / "r.cubex"
    earl.analyze(str(anchor), progress=lambda f: None).write_cube(cube)
    with otf2.reader.open(str(anchor)) as trace:
        defs = trace.definitions
        expected = [(r.name, r.canonical_name, r.source_file or "",
                     str(r.begin_line_number or -1), str(r.end_line_number or -1),
                     SCOUT_PARADIGM[str(r.paradigm).split(".")[1]],
                     SCOUT_ROLE[str(r.region_role).split(".")[1]], r.description)
                    for r in defs.regions]
        # the trace defines MEASUREMENT OFF and TRACE BUFFER FLUSH; scout's reader adds
        # the task and thread roots
        expected += [("TASKS", "TASKS", "", "-1", "-1", "openmp", "artificial", ""),
                     ("THREADS", "THREADS", "THREADS", "-1", "-1", "pthread", "artificial", "")]
        nodes = list(defs.system_tree_nodes)
        groups = list(defs.location_groups)
        locations = list(defs.locations)
    file_anchor = anchor_of(cube)
    assert region_rows(file_anchor) == expected
    # machine "Linux" > node "quartz10" > the two ranks, one thread each
    (machine,) = file_anchor.find("system").findall("systemtreenode")
    (node,) = machine.findall("systemtreenode")
    assert [(e.findtext("name"), e.findtext("class")) for e in (machine, node)] == \
        [(f"{n.class_name} {n.name}", n.class_name) for n in nodes]
    assert nodes[1].parent is nodes[0]
    assert [(g.findtext("name"), [l.findtext("name") for l in g.findall("location")])
            for g in node.findall("locationgroup")] == \
        [(g.name, [l.name for l in locations if l.group is g]) for g in groups]
    assert all(g.system_tree_parent is nodes[1] for g in groups)


def test_a_trace_naming_regions_only_keeps_the_names_only_layout(tmp_path):
    """ALOG names its regions and nothing else: MPI functions are marked as Score-P marks
    them (paradigm mpi, file MPI), every role is `function`, and the machine is "machine" >
    "node" holding the processes in order."""
    cube = tmp_path / "alog.cubex"
    earl.analyze(build_case("late_sender_late_receiver_and_barrier", tmp_path),
                 progress=lambda f: None).write_cube(cube)
    anchor = anchor_of(cube)
    rows = {row[0]: row for row in region_rows(anchor)}
    assert rows["main"] == ("main", "main", "", "-1", "-1", "user", "function", "")
    assert rows["MPI_Recv"] == ("MPI_Recv", "MPI_Recv", "MPI", "-1", "-1", "mpi", "function", "")
    assert "TASKS" not in rows
    (machine,) = anchor.find("system").findall("systemtreenode")
    (_, name, kind, groups, (node,)) = system_rows(machine)
    assert (name, kind, groups) == ("machine", "machine", [])
    assert node[1:3] == ("node", "node")
    assert [(g[1], g[2]) for g in node[3]] == [("0", "0"), ("1", "1")]


def write_one_process(directory, name, levels, process_level):
    """One process "P" with one thread "T" in main [1, 5]; `levels`: [(name, class,
    parent index or None)] written in order, then `process_level(nodes)` gives the
    process's node (None: undefined). Returns (anchor, the nodes)."""
    writer = otf2.writer.Writer(str(directory), archive_name=name, timer_resolution=1000)
    d = writer.definitions
    nodes = []
    for level, kind, parent in levels:
        nodes.append(d.system_tree_node(level, class_name=kind,
                                        parent=None if parent is None else nodes[parent]))
    group = d.location_group("P", system_tree_parent=process_level(nodes))
    events = writer.event_writer_from_location(d.location("T", group=group))
    main = d.region("main", paradigm=Paradigm.USER)
    events.enter(1, main)
    events.leave(5, main)
    return writer, nodes


def cube_of(anchor, tmp_path):
    cube = tmp_path / "r.cubex"
    done = subprocess.run(EARL + ["analyze", str(anchor), "--cube", str(cube)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return cube


def test_a_system_tree_with_a_cycle_is_cut_where_it_closes(tmp_path):
    """Node "a" names "b" as parent and "b" names "a": reading up from "a", the parent that
    closes the cycle (b's) is dropped, so "b" is the root."""
    writer, (a, b) = write_one_process(tmp_path, "cycle", [("a", "x", None), ("b", "y", 0)],
                                       lambda nodes: nodes[0])
    a._parent = b            # the `otf2` writer checks no cycles: written as given
    writer.close()
    (root,) = anchor_of(cube_of(tmp_path / "cycle.otf2", tmp_path)).find("system").findall(
        "systemtreenode")
    assert system_rows(root) == ("1", "y b", "y", [],
                                 [("0", "x a", "x", [("0", "P", "0", [("0", "T", "0")])], [])])


def test_a_process_on_no_node_keeps_the_names_only_machine(tmp_path):
    """A location group without system-tree parent: the trace does not place every
    location, so the machine is "machine" > "node" as for traces that say nothing."""
    writer, _ = write_one_process(tmp_path, "unplaced", [("a", "x", None)], lambda nodes: None)
    writer.close()
    (root,) = anchor_of(cube_of(tmp_path / "unplaced.otf2", tmp_path)).find("system").findall(
        "systemtreenode")
    assert system_rows(root) == ("0", "machine", "machine", [],
                                 [("1", "node", "node", [("0", "P", "0", [("0", "T", "0")])], [])])


def test_names_of_any_bytes_are_written_in_the_shown_form(tmp_path):
    """A region and a process named with bytes that are not UTF-8: `earl analyze` reads
    them (as surrogate escapes), writes the HTML page, and the Cube file holds them as
    \\xNN (XML 1.0 in UTF-8 holds no other bytes; tests/test_report_names.py has the rest)."""
    trace = tmp_path / "names.alog"
    trace.write_bytes(b"-13 0 1 2 0 0 red:dots r\xe9gion \xff\n-15 0 0 0 0 0 rank \xfe\n"
                      b"1 0 0 0 0 1\n2 0 0 0 0 2\n")
    cube = tmp_path / "names.cubex"
    done = subprocess.run(EARL + ["analyze", str(trace), "--cube", str(cube),
                                  "--html", str(tmp_path / "names.html")], capture_output=True)
    assert done.returncode == 0, done.stderr
    with tarfile.open(cube) as tar:
        anchor = tar.extractfile("anchor.xml").read()
    assert b"<name>r\\xe9gion \\xff</name>" in anchor
    assert b"<name>rank \\xfe</name>" in anchor
