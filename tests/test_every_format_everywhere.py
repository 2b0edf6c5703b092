"""Every format this build writes opens, navigates and analyses like OTF2 (issue 23, part
5): in Python, Lua and Tcl (the shipped data_received script of each language), in the REPL
(a scripted session following a receive to its send) and in `earl analyze` and `earl info`.
The reference is the generator's ground truth, counted by its own collector while it wrote
the program: bytes received per location, late-sender waiting time, message counts."""
import json
import math
import subprocess
import sys

import pytest

import earl
from earl import _core
from earl.generate import generate

EARL = [sys.executable, "-m", "earl.cli"]
FORMATS = _core.generator_formats()
PROGRAM = dict(locations=3, events=2500, seed=5, late_sender_rate=0.3, pattern="neighbors")


def earl_command(*args, stdin=None):
    done = subprocess.run(EARL + list(args), input=stdin, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def traces(tmp_path_factory):
    root = tmp_path_factory.mktemp("every_format")
    made = {}
    for fmt in FORMATS:
        suffix = next(row["extensions"][0] for row in _core.formats() if row["name"] == fmt)
        path = root / ("trace" + suffix)
        made[fmt] = (path, generate(str(path), format=fmt, **PROGRAM))
    return made


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("lang", ["python", "lua", "tcl"])
def test_each_language_reads_the_bytes_received(traces, tmp_path, fmt, lang):
    path, truth = traces[fmt]
    out = earl_command("run", "--lang", lang, "data_received", str(path), str(tmp_path / "chart.png"))
    rows = [line.split() for line in out.splitlines()[1:1 + PROGRAM["locations"]]]
    assert [int(row[-2]) for row in rows] == truth["bytes_received_per_location"], (fmt, lang)


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_analysis_finds_the_injected_late_senders(traces, fmt):
    path, truth = traces[fmt]
    report = json.loads(earl_command("analyze", str(path), "--json"))
    assert report["format"] == fmt
    assert math.isclose(report["patterns"]["mpi_latesender"]["total"], truth["late_sender_wait_total"],
                        rel_tol=1e-9, abs_tol=1e-9)
    assert truth["late_sender_wait_total"] > 0


@pytest.mark.parametrize("fmt", FORMATS)
def test_info_names_the_format_and_the_locations(traces, fmt):
    path, truth = traces[fmt]
    out = earl_command("info", str(path))
    assert fmt in out and str(PROGRAM["locations"]) in out


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_repl_follows_a_receive_to_its_send(traces, fmt):
    """In the REPL, :find the first receive and :send follow its sendptr; the Python API
    says where they are (and the send's partner and bytes are the receive's)."""
    path, _ = traces[fmt]
    with earl.EventTrace(str(path)) as trace:
        recv = next(event for event in trace if event["type"] == "recv")
        send = trace.event(recv["sendptr"])
    assert send["type"] == "send" and send["dest"] == recv["loc"] and send["loc"] == recv["src"]
    out = earl_command("repl", "-q", str(path), stdin=(
        ":find ev['type'] == 'recv'\n"
        "print('at', e.event()['pos'])\n"
        ":send\n"
        "print('at', e.event()['pos'], e.event()['type'], e.event()['len'])\n"))
    positions = [line.split()[1:] for line in out.splitlines() if line.startswith("at ")]
    assert positions == [[str(recv["pos"])], [str(send["pos"]), "send", str(send["len"])]], out
