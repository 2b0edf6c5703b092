"""What makes `earl compare`'s table read well, checked against hand-worked expectations:
inputs named by what sets their paths apart, time rows before counts and bytes, rows that
repeat their parent metric's on the same call path left out of the text."""
import pytest

import earl
from earl.analysis.compare import short_names
from earl.generate import generate


@pytest.mark.parametrize("labels, names", [
    (["runs/procs=2/trace.otf2", "runs/procs=4/trace.otf2"], ["procs=2", "procs=4"]),
    (["a.alog", "b.alog"], ["a.alog", "b.alog"]),
    (["x/a.alog", "x/b.alog", "x/c/a.alog"], ["a.alog", "b.alog", "c/a.alog"]),
    (["/p/e/1/t.otf2", "/p/e/2/t.otf2", "/p/e/3/t.otf2"], ["1", "2", "3"]),
    (["d/t.alog", "d/t.alog"], ["d/t.alog", "d/t.alog"]),     # the same file twice: as given
    (["before", "after"], ["before", "after"]),
])
def test_short_names(labels, names):
    assert short_names(labels) == names


@pytest.fixture(scope="module")
def comparison(tmp_path_factory):
    folder = tmp_path_factory.mktemp("reading")
    paths = []
    for procs in (2, 4):
        (folder / f"procs={procs}").mkdir()
        paths.append(str(folder / f"procs={procs}" / "trace.alog"))
        generate(paths[-1], locations=procs, events=3000, seed=2, late_sender_us=300)
    return earl.compare(paths)


def test_time_rows_come_first_then_counts_then_bytes(comparison):
    units = [r["unit"] for r in comparison.rows]
    assert units == sorted(units, key=["sec", "occ", "bytes"].index)
    for unit in ("sec", "occ", "bytes"):
        sizes = [abs(r["changes"][0]) for r in comparison.rows if r["unit"] == unit]
        assert sizes == sorted(sizes, reverse=True)


def test_rows_repeating_their_parent_metric_are_marked_and_not_printed(comparison):
    # On an MPI_Allreduce call path all time is MPI time, collective communication: each
    # metric down to mpi_collective equals its parent; the N x N wait is a part of it.
    path = "main/MPI_Allreduce"
    assert comparison.row("time", path)["same_as"] is None
    for metric, parent in (("execution", "time"), ("mpi", "execution"),
                           ("mpi_communication", "mpi"), ("mpi_collective", "mpi_communication")):
        assert comparison.row(metric, path)["same_as"] == parent
    assert comparison.row("mpi_wait_nxn", path)["same_as"] is None
    text = comparison.to_text(top=None)
    lines = text.splitlines()
    assert any(l.split()[:2] == ["time", path] for l in lines)
    assert not any(l.split()[:2] == ["mpi", path] for l in lines)
    hidden = sum(1 for r in comparison.rows if r["same_as"])
    assert f"({hidden} rows equal to their parent metric's" in text


def test_the_text_names_the_inputs_and_the_baseline(comparison):
    lines = comparison.to_text(top=5).splitlines()
    a, b = comparison.labels
    assert lines[1].split() == ["procs=2", a, "(baseline)"]
    assert lines[2].split() == ["procs=4", b]
    assert lines[3].split() == ["metric", "call", "path", "unit", "procs=2", "procs=4",
                                "procs=4", "-", "procs=2"]
    assert lines[4].split()[2] == "s"          # time first
