"""earl compare and earl experiment run on traces of a described format (which cannot be
detected, so the caller names it): ALOG traces written by `earl gen`, read through the
shipped ALOG description, give the generator's ground truth; a named format is the one
read (a description that does not fit the traces is an error naming it)."""
import json
import sys

import pytest

import earl
from earl.analysis.report import Report
from earl.cli import main
from earl.generate import generate

GEN = [sys.executable, "-m", "earl.cli", "gen", "{trace}", "-f", "alog", "-n", "{procs}",
       "-e", "1500", "--seed", "3"]


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    folder = tmp_path_factory.mktemp("described_compare")
    a, b = str(folder / "a.log"), str(folder / "b.log")
    truths = [generate(p, locations=3, events=3000, seed=4, format="alog", late_sender_us=us)
              for p, us in ((a, 100), (b, 500))]
    return a, b, truths


def test_compare_reads_the_described_format(pair):
    a, b, truths = pair
    row = earl.compare([a, b], format="described:alog").row("mpi_latesender")
    assert row["values"] == pytest.approx([t["late_sender_wait_total"] for t in truths], abs=1e-6)
    assert row["verdict"] == ["worse"]
    with pytest.raises(earl.EarlError, match="Event Type"):
        earl.compare([a, b], format="described:pipit_csv")


def test_compare_command_describe_and_format(pair, capsys):
    a, b, truths = pair
    expected = truths[1]["late_sender_wait_total"] - truths[0]["late_sender_wait_total"]
    for option in (["--describe", "alog"], ["-f", "described:alog"]):
        assert main(["compare", a, b, "--json", *option]) == 0
        rows = json.loads(capsys.readouterr().out)["rows"]
        row = next(r for r in rows if r["metric"] == "mpi_latesender" and r["callpath"] is None)
        assert row["changes"][0] == pytest.approx(expected, abs=2e-6)
    assert main(["compare", a, b, "--describe", "pipit_csv"]) == 1
    assert "Event Type" in capsys.readouterr().err


def test_experiment_run_analyses_in_the_named_format(tmp_path, capsys):
    argv = ["experiment", "run", "--root", str(tmp_path), "--project", "p", "--name", "e",
            "--param", "procs=2,3", "--trace-name", "trace.log", "--describe", "alog", "--", *GEN]
    assert main(argv) == 0
    folder = tmp_path / "p" / "e"
    assert json.loads((folder / "experiment.json").read_text())["trace_format"] == "described:alog"
    for procs in (2, 3):
        saved = (folder / f"procs={procs}" / "report.json").read_text()
        truth = generate(str(tmp_path / "again.alog"), locations=procs, events=1500, seed=3)
        total = Report.from_json(saved).total("mpi_latesender")
        assert total == pytest.approx(truth["late_sender_wait_total"], abs=1e-6)
    # A format that does not fit: the run is kept, its analysis error says why.
    argv[argv.index("alog")] = "pipit_csv"
    argv[argv.index("e")] = "wrong"
    assert main(argv) == 0
    meta = json.loads((tmp_path / "p" / "wrong" / "procs=2" / "run.json").read_text())
    assert meta["report"] is None and "Event Type" in meta["analysis_error"]
