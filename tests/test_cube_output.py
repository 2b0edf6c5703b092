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
from otf2.enums import Paradigm  # noqa: E402

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
    assert all(d[3] == "EXCLUSIVE" for m, d in definitions.items() if m != "time")


def test_call_tree_and_system_tree(hand):
    with pycubexr.CubexParser(str(hand[1])) as parser:
        (root,) = parser.get_root_cnodes()
        assert parser.get_region(root).name == "main"
        assert [parser.get_region(c).name for c in root.get_children()] == \
            ["work", "MPI_Recv", "MPI_Send"]
        mpi_recv = parser.get_region_by_name("MPI_Recv")
        assert (mpi_recv.paradigm, mpi_recv.mod) == ("mpi", "MPI")
        assert parser.get_region_by_name("main").paradigm == "user"
    machine = system_tree(hand[1])
    assert machine.findtext("class") == "machine"
    (node,) = machine.findall("systemtreenode")
    assert node.findtext("class") == "node"
    groups = node.findall("locationgroup")
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
    groups = system_tree(tmp_path / "r.cubex").find("systemtreenode").findall("locationgroup")
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
