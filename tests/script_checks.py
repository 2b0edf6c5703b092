"""What the Lua and Tcl script tests share (plain helpers, like alog_traces): where the
scripts and the shared traces are, the traces the scripts run on, the Python twin's output,
and what the example scripts print about a generated trace against the generator's
ground truth."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

import earl

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "scripts"
# CI runs a clone with ../shared beside it; tests read the traces and seeds from there.
SHARED = ROOT.parent / "shared"
SCOREP = SHARED / "traces"
SEEDS = SHARED / "seeds"
# A clone without ../shared beside it (a newcomer's) skips the tests that read its traces.
needs_scorep_traces = pytest.mark.skipif(not SCOREP.is_dir(), reason=f"the Score-P traces are not in {SCOREP}")
NAMES = ["wasted_time", "messages_out_of_order", "region_statistics", "data_received"]
TIMEOUT = 300


def have_otf2():
    return "otf2" in earl._core.known_formats()


def generate_traces(directory):
    """{format: (path, ground truth)} of one generated run with late senders and messages
    out of order, in every format this build writes."""
    from earl.generate import generate

    options = dict(locations=4, events=6000, seed=9, out_of_order_rate=0.3, late_sender_rate=0.3)
    traces = {"alog": (directory / "gen.alog", generate(directory / "gen.alog", **options))}
    if have_otf2():
        traces["otf2"] = (directory / "gen.otf2", generate(directory / "gen.otf2", **options))
    return traces


def trace_params():
    """The generated formats and the Score-P traces, as pytest parameters."""
    params = [pytest.param("alog", id="generated-alog"),
              pytest.param("otf2", id="generated-otf2",
                           marks=pytest.mark.skipif(not have_otf2(), reason="no OTF2 support"))]
    for name in ("ping-pong-otf2", "ping-pong-otf2-papi"):
        path = SCOREP / name / "traces.otf2"
        params.append(pytest.param(str(path), id=name, marks=pytest.mark.skipif(
            not (have_otf2() and path.exists()), reason="no OTF2 support or no Score-P trace")))
    return params


def resolve(trace, generated):
    return str(generated[trace][0]) if trace in generated else trace


def script_args(name, trace, tmp_path):
    return [trace, str(tmp_path / "chart.png")] if name == "data_received" else [trace]


def python_output(name, args):
    result = subprocess.run([sys.executable, str(SCRIPTS / f"{name}.py"), *args],
                            capture_output=True, text=True, timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr
    return result.stdout


def check_png(path):
    data = Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR" and data[-8:-4] == b"IEND"


def check_against_ground_truth(run, path, truth, tmp_path):
    """`run(name, args)` returns the output of the example script `name` run with args."""
    out = run("wasted_time", [path]).splitlines()
    total = float(re.match(rf"{re.escape(path)}: (\d+\.\d{{6}}) sec wasted\.$", out[0]).group(1))
    assert truth["late_sender_count"] > 0
    assert total == pytest.approx(truth["late_sender_wait_total"], abs=1e-6)
    assert sum(int(line.split()[-2]) for line in out[2:]) == truth["late_sender_count"]

    out = run("messages_out_of_order", [path]).splitlines()
    assert truth["out_of_order_count"] > 0
    assert len(out) == truth["out_of_order_count"] + 1
    assert out[-1].endswith(f": {truth['out_of_order_count']} messages received out of order "
                            f"({truth['out_of_order_reports']} older messages overtaken).")

    out = run("region_statistics", [path]).splitlines()
    rows = {(int(r[0]), r[1]): r[2:] for r in map(str.split, out[1:])}
    expected = {(int(loc), region): t for loc, regions in truth["region_time"].items()
                for region, t in regions.items()}
    assert set(rows) == set(expected)
    for key, t in expected.items():
        count, incl, excl = rows[key]
        assert int(count) == t["count"]
        assert float(incl) == pytest.approx(t["incl"], abs=1e-6)
        assert float(excl) == pytest.approx(t["excl"], abs=1e-6)

    out = run("data_received", [path, str(tmp_path / "c.png")]).splitlines()
    assert [int(line.split()[-2]) for line in out[1:1 + truth["locations"]]] == \
        truth["bytes_received_per_location"]
    assert out[1 + truth["locations"]] == \
        f"{path}: {sum(truth['bytes_received_per_location'])} bytes received in total."
