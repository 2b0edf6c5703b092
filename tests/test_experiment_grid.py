"""earl experiment over a grid with `earl gen` as the traced command: the folder
hierarchy and metadata, and the report's numbers equal each run's own analysis and the
generator's ground truth."""
import json
import os
import sys

import pytest

import earl
from earl.cli import main
from earl.generate import generate

GEN = [sys.executable, "-m", "earl.cli", "gen", "{trace}", "-n", "{procs}", "-e", "2000",
       "--seed", "{seed}"]


@pytest.fixture(scope="module")
def series(tmp_path_factory):
    root = tmp_path_factory.mktemp("projects")
    argv = ["experiment", "run", "--root", str(root), "--project", "solver", "--name", "scaling",
            "--param", "procs=2,4", "--param", "seed=1,2", "--reason", "strong scaling",
            "--trace-name", "trace.alog", "--", *GEN]
    assert main(argv) == 0
    return root


def test_the_hierarchy_holds_every_run_with_its_metadata(series):
    folder = series / "solver" / "scaling"
    setup = json.loads((folder / "experiment.json").read_text())
    assert setup["parameters"] == {"procs": ["2", "4"], "seed": ["1", "2"]}
    names = sorted(p.name for p in folder.iterdir() if p.is_dir())
    assert names == ["procs=2,seed=1", "procs=2,seed=2", "procs=4,seed=1", "procs=4,seed=2"]
    for name in names:
        meta = json.loads((folder / name / "run.json").read_text())
        procs, seed = (kv.split("=")[1] for kv in name.split(","))
        assert meta["parameters"] == {"procs": procs, "seed": seed}
        assert meta["exit_status"] == 0 and meta["reason"] == "strong scaling"
        assert meta["earl_version"] == earl.__version__ and meta["date"].endswith("+00:00")
        assert meta["command"][-6:] == [str(folder / name / "trace.alog"), "-n", procs, "-e",
                                        "2000", "--seed", seed][-6:]
        assert meta["trace"] == "trace.alog" and meta["report"] == "report.json"
        assert (folder / name / "trace.alog").is_file()
        assert earl.EventTrace(str(folder / name / "trace.alog")).nrlocs() == int(procs)


def test_the_report_equals_each_runs_own_analysis_and_the_ground_truth(series, tmp_path, capsys):
    assert main(["experiment", "report", "solver/scaling", "--root", str(series), "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert table["parameters"] == ["procs", "seed"] and "mpi_latesender" in table["metrics"]
    assert len(table["rows"]) == 4
    for row in table["rows"]:
        trace = series / "solver" / "scaling" / row["measurement"] / "trace.alog"
        own = earl.analyze(str(trace), progress=lambda f: True)
        for metric, value in row["values"].items():
            assert value == own.total(metric)
        # the same program generated again: its ground truth
        truth = generate(str(tmp_path / "again.alog"), locations=int(row["parameters"]["procs"]),
                         events=2000, seed=int(row["parameters"]["seed"]))
        assert row["values"]["mpi_latesender"] == pytest.approx(truth["late_sender_wait_total"], abs=1e-6)


def test_the_text_table_the_list_and_the_plot(series, tmp_path, capsys):
    plot = tmp_path / "scaling.png"
    assert main(["experiment", "report", "solver/scaling", "--root", str(series),
                 "--plot", str(plot), "--by", "procs"]) == 0
    text = capsys.readouterr().out
    assert text.splitlines()[1].split()[:3] == ["procs", "seed", "status"]
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["experiment", "list", "--root", str(series)]) == 0
    listing = capsys.readouterr().out
    assert "solver" in listing and "scaling: 4 measurements" in listing
    assert listing.count("analysed") == 4


def test_a_second_run_keeps_what_was_measured(series, capsys):
    argv = ["experiment", "run", "--root", str(series), "--project", "solver", "--name", "scaling",
            "--param", "procs=2", "--param", "seed=1", "--trace-name", "trace.alog", "--", *GEN]
    before = (series / "solver" / "scaling" / "procs=2,seed=1" / "run.json").read_text()
    assert main(argv) == 0
    assert "measured already (kept)" in capsys.readouterr().out
    assert (series / "solver" / "scaling" / "procs=2,seed=1" / "run.json").read_text() == before


def test_a_failing_command_is_recorded_and_the_exit_status_says_so(tmp_path, capsys):
    argv = ["experiment", "run", "--root", str(tmp_path), "--project", "p", "--name", "e",
            "--param", "code=3", "--", sys.executable, "-c", "import sys; sys.exit({code})"]
    assert main(argv) == 1
    meta = json.loads((tmp_path / "p" / "e" / "code=3" / "run.json").read_text())
    assert meta["exit_status"] == 3 and meta["trace"] is None and meta["report"] is None
    assert "exit status 3" in capsys.readouterr().out
