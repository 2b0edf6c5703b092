"""The example analysis scripts in scripts/ and the `earl demo` job.

Every script runs three ways: as a program (`python scripts/X.py TRACE`), through
`earl run scripts/X.py TRACE`, and imported (its computing function, on an open trace).
Small hand-written ALOG traces have results worked out by hand below; generated traces
are checked against the generator's ground truth.
"""
import importlib.util
import math
import re
import runpy
import struct
import subprocess
import sys
from pathlib import Path

import pytest

import earl

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "scripts"
NAMES = ["wasted_time", "messages_out_of_order", "region_statistics", "data_received"]
TIMEOUT = 300

HAVE_GENERATOR = importlib.util.find_spec("earl.generate") is not None
needs_generator = pytest.mark.skipif(
    not HAVE_GENERATOR, reason="earl.generate (python/earl/generate.py) is not there yet")


def script(name):
    return str(SCRIPTS / f"{name}.py")


def load(name):
    """The script's functions, without running its __main__ block."""
    return runpy.run_path(script(name), run_name=f"test_{name}")


def earl_command():
    exe = Path(sys.executable).with_name("earl")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "earl.cli"]


def run_python(name, *args, cwd=None):
    return subprocess.run([sys.executable, script(name), *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=TIMEOUT)


def run_earl(name, *args, cwd=None):
    return subprocess.run(earl_command() + ["run", script(name), *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=TIMEOUT)


# `earl run` needs the command line, which imports earl.generate.
RUNNERS = [pytest.param(run_python, id="python"),
           pytest.param(run_earl, id="earl-run", marks=needs_generator)]


def write_alog(directory, name, header, events):
    """Writes an ALOG file; `events` are (type, loc, data, timestamp, comment) tuples,
    written sorted by timestamp (stable), so each location's events can be listed together."""
    lines = list(header)
    for etype, loc, data, stamp, comment in sorted(events, key=lambda ev: ev[3]):
        lines.append(f"{etype} {loc} 0 {data} 0 {stamp} {comment}".rstrip())
    path = Path(directory) / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def ok(result):
    assert result.returncode == 0, f"exit {result.returncode}\nstdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    assert "Traceback" not in result.stderr
    return result.stdout


# ------------------------------------------------------------------ hand-written traces
REGIONS = ["-13 0 1 2 0 0 gray:solid main", "-13 0 3 4 0 0 red:solid MPI_Send",
           "-13 0 5 6 0 0 green:boxes MPI_Recv", "-13 0 7 8 0 0 yellow:solid compute",
           "-13 0 9 10 0 0 blue:solid MPI_Bcast"]
MAIN, SEND, RECV, COMPUTE, BCAST = 1, 3, 5, 7, 9   # enter type numbers; exit = enter + 1


@pytest.fixture
def ping_pong(tmp_path):
    """Two locations, times in microseconds. Only the first message has a late sender:

    loc 1 enters MPI_Recv at 7, loc 0 enters MPI_Send at 10 -> 10 - 7 = 3 us wasted.
    tag 2: loc 1 enters MPI_Send at 20, loc 0 enters MPI_Recv at 25 -> -5 us, not late.
    tag 3: received in MPI_Recv (28) but sent inside `compute` (31): not counted (would be 3).
    tag 4: sent in MPI_Send (40) but received inside MPI_Bcast (37): not counted (would be 3).
    Messages arrive in send order: nothing out of order.
    Bytes received: loc 0 gets 200 + 300 + 400 = 900, loc 1 gets 100.
    """
    e = [(MAIN, 0, 0, 0, ""), (SEND, 0, 0, 10, ""), (-101, 0, 1, 11, "1 100"),
         (SEND + 1, 0, 0, 12, ""),
         (RECV, 0, 0, 25, ""), (-102, 0, 1, 26, "2 200"), (RECV + 1, 0, 0, 27, ""),
         (RECV, 0, 0, 28, ""), (-102, 0, 1, 35, "3 300"), (RECV + 1, 0, 0, 36, ""),
         (BCAST, 0, 0, 37, ""), (-102, 0, 1, 45, "4 400"), (BCAST + 1, 0, 0, 46, ""),
         (MAIN + 1, 0, 0, 50, ""),
         (MAIN, 1, 0, 0, ""), (RECV, 1, 0, 7, ""), (-102, 1, 0, 15, "1 100"),
         (RECV + 1, 1, 0, 16, ""),
         (SEND, 1, 0, 20, ""), (-101, 1, 0, 21, "2 200"), (SEND + 1, 1, 0, 22, ""),
         (COMPUTE, 1, 0, 31, ""), (-101, 1, 0, 32, "3 300"), (COMPUTE + 1, 1, 0, 33, ""),
         (SEND, 1, 0, 40, ""), (-101, 1, 0, 41, "4 400"), (SEND + 1, 1, 0, 42, ""),
         (MAIN + 1, 1, 0, 50, "")]
    return write_alog(tmp_path, "pingpong.alog", ["-3 0 0 2 0 0"] + REGIONS +
                      ["-15 1 0 0 0 0 worker one"], e)


@pytest.fixture
def reversed_order(tmp_path):
    """Three locations. loc 0 sends tags 1, 2, 3 (lengths 10, 20, 30) to loc 1 at 1, 2, 3 us;
    loc 1 receives them as 3, 2, 1 at 10, 11, 12 us. Positions (time order): 1 loc 2's send
    at 0 us (see below), 2-4 the sends from loc 0, 5-7 the receives of tags 3, 2, 1.
    - event 5 (tag 3): tags 1 and 2 from loc 0 still queued and older -> reported;
    - event 6 (tag 2): tag 1 still queued and older -> reported;
    - event 7 (tag 1): nothing older -> fine.
    Decoys: loc 2 sends tag 9 to loc 1 at 0 us, received last at 13 us (another source: no
    report), and loc 2 receives a message from loc 0 that was never sent (sendptr 0).
    So 2 out-of-order receives overtaking 3 messages. No regions: no wasted time.
    Bytes received: loc 0: 0, loc 1: 10 + 20 + 30 + 5 = 65, loc 2: 7 (the unmatched one).
    """
    e = [(-101, 2, 1, 0, "9 5"),
         (-101, 0, 1, 1, "1 10"), (-101, 0, 1, 2, "2 20"), (-101, 0, 1, 3, "3 30"),
         (-102, 1, 0, 10, "3 30"), (-102, 1, 0, 11, "2 20"), (-102, 1, 0, 12, "1 10"),
         (-102, 1, 2, 13, "9 5"), (-102, 2, 0, 14, "5 7")]
    return write_alog(tmp_path, "reversed.alog", ["-3 0 0 3 0 0"], e)


@pytest.fixture
def nested(tmp_path):
    """Nested regions, times in microseconds.

    loc 0: main [0, 100] { solve [10, 40] { kernel [12, 20], kernel [25, 30] }, kernel [50, 53] }
      main:   incl 100, excl 100 - 30 - 3 = 67, 1 instance
      solve:  incl  30, excl  30 - 8 - 5 = 17, 1 instance
      kernel: incl 8 + 5 + 3 = 16 = excl,      3 instances
    loc 1: solve [0, 10] { solve [2, 6] } (recursion), then an exit of kernel at 20 with
      nothing open (skipped: enterptr 0)
      solve:  incl 10 + 4 = 14 (each instance counted, as in the seed), excl 6 + 4 = 10, 2
    Table order: by location, then inclusive time descending.
    """
    regions = ["-13 0 1 2 0 0 gray:solid main", "-13 0 3 4 0 0 blue:solid solve",
               "-13 0 5 6 0 0 red:solid kernel"]
    e = [(1, 0, 0, 0, ""), (3, 0, 0, 10, ""), (5, 0, 0, 12, ""), (6, 0, 0, 20, ""),
         (5, 0, 0, 25, ""), (6, 0, 0, 30, ""), (4, 0, 0, 40, ""), (5, 0, 0, 50, ""),
         (6, 0, 0, 53, ""), (2, 0, 0, 100, ""),
         (3, 1, 0, 0, ""), (3, 1, 0, 2, ""), (4, 1, 0, 6, ""), (4, 1, 0, 10, ""),
         (6, 1, 0, 20, "")]
    return write_alog(tmp_path, "nested.alog", ["-3 0 0 2 0 0"] + regions, e)


NESTED_TABLE = [(0, "main", 1, 100e-6, 67e-6), (0, "solve", 1, 30e-6, 17e-6),
                (0, "kernel", 3, 16e-6, 16e-6), (1, "solve", 2, 14e-6, 10e-6)]


@pytest.mark.parametrize("run", RUNNERS)
def test_wasted_time_ping_pong(run, ping_pong):
    out = ok(run("wasted_time", ping_pong)).splitlines()
    assert out[0] == f"{ping_pong}: 0.000003 sec wasted."
    rows = [line.split() for line in out[2:]]
    # Receiving location 1 ("worker one"): one late receive, 3 us.
    assert rows == [["1", "(worker", "one)", "1", "0.000003"]]


def test_wasted_time_function(ping_pong, reversed_order):
    wasted_time = load("wasted_time")["wasted_time"]
    with earl.EventTrace(ping_pong) as e:
        e.next()
        e.next()                       # the function starts from the beginning anyway
        total, per_loc = wasted_time(e)
    assert math.isclose(total, 3e-6, rel_tol=1e-12)
    assert list(per_loc) == [1] and per_loc[1][0] == 1
    assert math.isclose(per_loc[1][1], 3e-6, rel_tol=1e-12)
    with earl.EventTrace(reversed_order) as e:   # no regions, an unmatched receive
        assert wasted_time(e) == (0.0, {})


@pytest.mark.parametrize("run", RUNNERS)
def test_messages_out_of_order_reversed(run, reversed_order):
    out = ok(run("messages_out_of_order", reversed_order)).splitlines()
    assert out == [
        "event 5 at 0.000010 s: location 1 received tag 3 from location 0 before older tag(s) 1, 2",
        "event 6 at 0.000011 s: location 1 received tag 2 from location 0 before older tag(s) 1",
        f"{reversed_order}: 2 messages received out of order (3 older messages overtaken).",
    ]


def test_messages_out_of_order_function(reversed_order, ping_pong):
    find = load("messages_out_of_order")["messages_out_of_order"]
    with earl.EventTrace(reversed_order) as e:
        assert find(e) == [(5, 10e-6, 0, 1, 3, [1, 2]), (6, 11e-6, 0, 1, 2, [1])]
    with earl.EventTrace(ping_pong) as e:
        assert find(e) == []


@pytest.mark.parametrize("run", RUNNERS)
def test_region_statistics_nested(run, nested):
    out = ok(run("region_statistics", nested)).splitlines()
    assert out[0].split() == ["loc", "region", "count", "incl", "[s]", "excl", "[s]"]
    rows = [line.split() for line in out[1:]]
    assert [(int(r[0]), r[1], int(r[2])) for r in rows] == [t[:3] for t in NESTED_TABLE]
    for row, (_, _, _, incl, excl) in zip(rows, NESTED_TABLE):
        assert float(row[3]) == pytest.approx(incl, abs=1e-9)
        assert float(row[4]) == pytest.approx(excl, abs=1e-9)
    # Aligned: every row as long as the header.
    assert len({len(line) for line in out}) == 1


def test_region_statistics_function(nested):
    stats = load("region_statistics")["region_statistics"]
    with earl.EventTrace(nested) as e:
        result = stats(e)
    assert set(result) == {(loc, region) for loc, region, *_ in NESTED_TABLE}
    for loc, region, count, incl, excl in NESTED_TABLE:
        assert result[loc, region][0] == count
        assert result[loc, region][1] == pytest.approx(incl, abs=1e-15)
        assert result[loc, region][2] == pytest.approx(excl, abs=1e-15)


def check_png(path, min_size=2000):
    data = Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG file"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    assert 200 <= width <= 4000 and 150 <= height <= 4000, (width, height)
    assert min_size <= len(data) <= 5_000_000
    assert data[-8:-4] == b"IEND"


@pytest.mark.parametrize("run", RUNNERS)
def test_data_received_reversed(run, reversed_order, tmp_path):
    png = tmp_path / "chart.png"
    out = ok(run("data_received", reversed_order, png)).splitlines()
    assert [line.split()[:2] for line in out[1:4]] == [["0", "0"], ["1", "65"], ["2", "7"]]
    assert out[4] == f"{reversed_order}: 72 bytes received in total."
    assert out[5] == f"bar chart: {png}"
    check_png(png)


def test_data_received_output_option_and_default(ping_pong, tmp_path):
    png = tmp_path / "option.png"
    ok(run_python("data_received", ping_pong, "--output", png))
    check_png(png)
    workdir = tmp_path / "work"
    workdir.mkdir()
    out = ok(run_python("data_received", ping_pong, cwd=workdir))
    assert "bar chart: data_received.png" in out
    check_png(workdir / "data_received.png")
    with earl.EventTrace(ping_pong) as e:
        assert load("data_received")["data_received"](e) == [900, 100]


# ------------------------------------------------------------------ bad arguments
@pytest.mark.parametrize("run", RUNNERS)
@pytest.mark.parametrize("name", NAMES)
def test_missing_argument(run, name):
    result = run(name)
    assert result.returncode != 0
    assert "usage" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("run", RUNNERS)
@pytest.mark.parametrize("name", NAMES)
def test_missing_file(run, name, tmp_path):
    missing = tmp_path / "no-such-trace.alog"
    result = run(name, missing, cwd=tmp_path)
    assert result.returncode != 0
    assert str(missing) in result.stderr and "Traceback" not in result.stderr
    assert f"{name}.py:" in result.stderr
    assert not (tmp_path / "data_received.png").exists()


def test_data_received_unwritable_output(ping_pong, tmp_path):
    result = run_python("data_received", ping_pong, tmp_path / "no-dir" / "x.png")
    assert result.returncode != 0
    assert "cannot write" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("name", NAMES)
def test_script_form(name):
    text = Path(script(name)).read_text(encoding="utf-8")
    assert text.startswith("#!/usr/bin/env python3\n")
    module = load(name)
    assert module["__doc__"] and f"scripts/{name}.py" in module["__doc__"]
    assert callable(module[name]) and callable(module["main"])
    assert "while e.next():" in text


# ------------------------------------------------------------------ generated traces
@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    if not HAVE_GENERATOR:
        pytest.skip("earl.generate (python/earl/generate.py) is not there yet")
    from earl.generate import generate

    directory = tmp_path_factory.mktemp("generated")
    traces = []
    for index, options in enumerate([
            dict(locations=4, events=20000, seed=1),
            dict(locations=3, events=8000, seed=7, pattern="neighbors", rollover=50000,
                 out_of_order_rate=0.3, late_sender_rate=0.3),
            dict(locations=6, events=10000, seed=11, max_kernels=1, barrier_every=0)]):
        path = directory / f"gen{index}.alog"
        traces.append((path, generate(path, **options)))
    return traces


def close(a, b):
    # The truth converts microseconds as us * 1e-6, the reader as us / 1e6 (last-bit
    # differences), so sums are compared with a tolerance.
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def test_generated_against_truth(generated):
    functions = {name: load(name)[name] for name in NAMES}
    for path, truth in generated:
        with earl.EventTrace(path) as e:
            total, per_loc = functions["wasted_time"](e)
            assert truth["late_sender_count"] > 0
            assert close(total, truth["late_sender_wait_total"]), path
            assert sum(n for n, _ in per_loc.values()) == truth["late_sender_count"]
            if not truth["truncated"]["late_senders"]:
                expected = {}
                for late in truth["late_senders"]:
                    expected[late["dest"]] = expected.get(late["dest"], 0.0) + late["wait"]
                assert set(per_loc) == set(expected)
                assert all(close(per_loc[loc][1], expected[loc]) for loc in expected)

            findings = functions["messages_out_of_order"](e)
            assert truth["out_of_order_count"] > 0
            assert len(findings) == truth["out_of_order_count"]
            assert sum(len(f[-1]) for f in findings) == truth["out_of_order_reports"]
            if not truth["truncated"]["out_of_order"]:
                assert [(f[2], f[3], [f[5][0], f[4]]) for f in findings] == \
                    [(x["src"], x["dest"], x["tags"]) for x in truth["out_of_order"]]

            stats = functions["region_statistics"](e)
            expected = {(int(loc), region): t for loc, regions in truth["region_time"].items()
                        for region, t in regions.items()}
            assert set(stats) == set(expected)
            for key, t in expected.items():
                count, incl, excl = stats[key]
                assert count == t["count"], key
                assert close(incl, t["incl"]) and close(excl, t["excl"]), (key, stats[key], t)

            assert functions["data_received"](e) == truth["bytes_received_per_location"]


@pytest.mark.parametrize("run", RUNNERS)
def test_generated_outputs(run, generated, tmp_path):
    path, truth = generated[0]
    out = ok(run("wasted_time", path))
    assert re.match(rf"{re.escape(str(path))}: (\d+\.\d{{6}}) sec wasted\.", out)
    assert float(out.split(": ")[1].split()[0]) == pytest.approx(
        truth["late_sender_wait_total"], abs=1e-6)

    out = ok(run("messages_out_of_order", path)).splitlines()
    assert len(out) == truth["out_of_order_count"] + 1
    assert f": {truth['out_of_order_count']} messages received out of order" in out[-1]

    out = ok(run("region_statistics", path)).splitlines()
    rows = {(int(r[0]), r[1]): r[2:] for r in map(str.split, out[1:])}
    for loc, regions in truth["region_time"].items():
        for region, t in regions.items():
            count, incl, excl = rows[int(loc), region]
            assert int(count) == t["count"]
            assert float(incl) == pytest.approx(t["incl"], abs=1e-6)
            assert float(excl) == pytest.approx(t["excl"], abs=1e-6)

    png = tmp_path / "gen.png"
    out = ok(run("data_received", path, "--output", png)).splitlines()
    assert [int(line.split()[-2]) for line in out[1:1 + truth["locations"]]] == \
        truth["bytes_received_per_location"]
    check_png(png, min_size=5000)


# ------------------------------------------------------------------ earl demo
@needs_generator
def test_demo(tmp_path):
    result = subprocess.run(earl_command() + ["demo", "--output", "tmp", "--events", "20000"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT)
    out = ok(result)
    for heading in ["Generating a trace", "Wasted time of MPI_Recv", "Messages received out of order",
                    "Region statistics", "Data received per location", "Summary"]:
        assert re.search(rf"^{heading}.*\n=+$", out, re.M), heading
    assert "MISMATCH" not in out
    assert out.count(" OK\n") >= 6
    assert "All 4 example scripts agree with the ground truth" in out
    check_png(tmp_path / "tmp" / "data_received.png")
    assert (tmp_path / "tmp" / "demo.alog").is_file()
    assert len(out.splitlines()) < 200, "the demo should fit in a few screens"
    if "otf2" in earl._core.known_formats():
        assert re.search(r"^The same run as an OTF2 archive\n=+$", out, re.M)
        assert out.count("same result as on ALOG OK") == 2
        assert (tmp_path / "tmp" / "demo.otf2").is_file()
    assert re.search(r"^The same analyses in Lua and Tcl\n=+$", out, re.M)
    for name in ("wasted_time", "messages_out_of_order", "region_statistics"):
        for language in ("lua", "tcl"):
            assert f"  {name}.{language}: prints what {name}.py OK" in out
