"""earl compare of two generated traces that differ in their late senders' delay: the
change of the late-sender time has the sign and size the generator's ground truth says."""
import json

import pytest

import earl
from earl.cli import main
from earl.generate import generate


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    folder = tmp_path_factory.mktemp("compare")
    a, b = str(folder / "a.alog"), str(folder / "b.alog")
    truth_a = generate(a, locations=4, events=6000, seed=7, late_sender_us=200)
    truth_b = generate(b, locations=4, events=6000, seed=7, late_sender_us=800)
    return folder, a, b, truth_a, truth_b


def test_the_late_sender_change_has_the_ground_truths_sign_and_size(pair):
    _, a, b, truth_a, truth_b = pair
    expected = truth_b["late_sender_wait_total"] - truth_a["late_sender_wait_total"]
    assert expected > 0
    cmp = earl.compare([a, b])
    row = cmp.row("mpi_latesender")
    assert row["values"] == pytest.approx([truth_a["late_sender_wait_total"],
                                           truth_b["late_sender_wait_total"]], abs=1e-6)
    assert row["changes"][0] == pytest.approx(expected, abs=2e-6)
    assert row["percent"][0] == pytest.approx(100 * expected / truth_a["late_sender_wait_total"], rel=1e-3)
    assert row["verdict"] == ["worse"]
    assert row in cmp.worse()
    # The other way round it got better by as much.
    back = earl.compare([b, a]).row("mpi_latesender")
    assert back["changes"][0] == pytest.approx(-expected, abs=2e-6) and back["verdict"] == ["better"]
    # Rows are sorted by the size of their change.
    sizes = [max(abs(c) for c in r["changes"]) for r in cmp.rows]
    assert sizes == sorted(sizes, reverse=True)


def test_saved_reports_compare_as_their_traces(pair, tmp_path):
    folder, a, b, truth_a, truth_b = pair
    saved = []
    for trace in (a, b):
        path = tmp_path / (trace.rsplit("/", 1)[1] + ".json")
        path.write_text(earl.analyze(trace, progress=lambda f: True).to_json())
        saved.append(str(path))
    assert earl.compare(saved).rows == earl.compare([a, b]).rows


def test_the_command_prints_text_json_and_html(pair, tmp_path, capsys):
    _, a, b, truth_a, truth_b = pair
    expected = truth_b["late_sender_wait_total"] - truth_a["late_sender_wait_total"]
    assert main(["compare", a, b]) == 0
    text = capsys.readouterr().out
    line = next(l for l in text.splitlines() if l.startswith("mpi_latesender ") and "(total)" in l)
    assert line.rstrip().endswith("worse")
    page = tmp_path / "cmp.html"
    assert main(["compare", a, b, "--json", "--html", str(page), "--threshold", "0.001"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["baseline"] == a and data["threshold"] == 0.001
    assert all(max(abs(c) for c in r["changes"]) > 0.001 for r in data["rows"])
    row = next(r for r in data["rows"] if r["metric"] == "mpi_latesender" and r["callpath"] is None)
    assert row["changes"][0] == pytest.approx(expected, abs=2e-6)
    html = page.read_text()
    assert html.startswith("<!DOCTYPE html>") and "mpi_latesender" in html and "<script src" not in html


def test_three_inputs_change_against_the_first(pair, tmp_path):
    _, a, b, truth_a, truth_b = pair
    row = earl.compare([a, b, a], labels=["A", "B", "A again"]).row("mpi_latesender")
    assert len(row["changes"]) == 2 and row["changes"][1] == 0 and row["verdict"][1] == "same"


def test_an_identical_pair_shows_no_change(pair, capsys):
    _, a, _, _, _ = pair
    assert earl.compare([a, a]).rows == []
    assert main(["compare", a, a]) == 0
    assert "no metric changed" in capsys.readouterr().out


ROWS = """<script>{
const rows = [...document.querySelectorAll('#changes tbody tr')].map(tr => ({
  cells: [...tr.cells].map(td => td.innerText.trim()),
  verdicts: [...tr.querySelectorAll('td.better, td.worse')].map(td => td.className),
  bars: [...tr.querySelectorAll('.bar')].map(b => b.getBoundingClientRect().width)}));
const pre = document.createElement('pre');
pre.id = 'measured';
pre.textContent = JSON.stringify(rows);
document.body.appendChild(pre);
}</script>"""


def test_the_html_page_shows_the_change_in_chromium(pair, tmp_path):
    from test_analysis_html import laid_out

    _, a, b, truth_a, truth_b = pair
    page = tmp_path / "cmp.html"
    earl.compare([a, b]).write_html(page)
    rows = laid_out(page, ROWS, tmp_path)
    total = next(r for r in rows if r["cells"][:3] == ["mpi_latesender", "(total)", "s"])
    expected = truth_b["late_sender_wait_total"] - truth_a["late_sender_wait_total"]
    assert total["cells"][3] == "%.6f" % truth_a["late_sender_wait_total"]
    assert total["cells"][5].startswith("+%.6f" % expected) or \
        abs(float(total["cells"][5].split()[0]) - expected) <= 2e-6
    assert total["verdicts"] == ["worse"] and total["bars"][0] > 0
