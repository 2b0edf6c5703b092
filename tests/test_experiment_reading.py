"""What makes `earl experiment report` read well, against values worked out from each
run's own report: rows in the grid's numeric order, the total time then the wait states
largest first, a run's status in words, --percent as each wait state's share of time."""
import json
import sys

import pytest

from earl.analysis.report import Report
from earl.cli import main
from earl.experiment import table, text

GEN = [sys.executable, "-m", "earl.cli", "gen", "{trace}", "-n", "{procs}", "-e", "1500",
       "--late-sender-us", "400"]


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    root = tmp_path_factory.mktemp("reading")
    # 16 before 2 and 8 as folder names sort; the grid is given out of order too.
    assert main(["experiment", "run", "--root", str(root), "--project", "p", "--name", "e",
                 "--param", "procs=8,2,16", "--trace-name", "trace.alog", "--", *GEN]) == 0
    return root


def test_rows_in_numeric_order_metrics_time_then_largest_first(root):
    result = table(str(root), "p/e")
    assert [r["parameters"]["procs"] for r in result["rows"]] == ["2", "8", "16"]
    assert result["metrics"][0] == "time"
    # Each metric's largest total over the runs, from the runs' own saved reports.
    reports = [Report.from_json((root / "p" / "e" / f"procs={n}" / "report.json").read_text())
               for n in (2, 8, 16)]
    largest = {m: max(r.total(m) for r in reports) for m in result["metrics"]}
    waits = result["metrics"][1:]
    assert len(waits) >= 3
    assert [largest[m] for m in waits] == sorted((largest[m] for m in waits), reverse=True)


def test_percent_is_each_wait_states_share_of_the_runs_time(root):
    result = table(str(root), "p/e")
    lines = text(result, percent=True).splitlines()
    assert lines[1].split() == ["procs", "status"] + result["metrics"]
    for line, row in zip(lines[2:], result["rows"]):
        cells = line.split()
        assert cells[:2] == [row["parameters"]["procs"], "ok"]
        assert cells[2] == "%.6f" % row["values"]["time"]
        for cell, metric in zip(cells[3:], result["metrics"][1:]):
            assert cell == "%.1f%%" % (100 * row["values"][metric] / row["values"]["time"])


def test_status_in_words(tmp_path, capsys):
    fail = [sys.executable, "-c", "import sys; sys.exit(int(sys.argv[1]))", "{code}"]
    assert main(["experiment", "run", "--root", str(tmp_path), "--project", "p", "--name", "e",
                 "--param", "code=0,3", "--", *fail]) == 1
    capsys.readouterr()
    assert main(["experiment", "report", "p/e", "--root", str(tmp_path)]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[2:]]
    # exit 0 but no trace written: no report; exit 3: said so
    assert rows == [["0", "no", "report", "-"], ["3", "exit", "3", "-"]]
