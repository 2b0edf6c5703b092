"""`earl stats`: the text, --json (its documented schema, values as earl.stats gives them
for the hand-worked trace), --plot (a PNG matplotlib reads back), and every format EARL
writes giving the same tables for the same generated program."""
import json
import subprocess
import sys

import pytest

import earl
from earl import _core
from earl.generate import generate
import hand_profile_trace
from hand_profile_trace import US

pytest.importorskip("pandas")
EARL = [sys.executable, "-m", "earl.cli"]
PROGRAM = dict(locations=3, events=2500, seed=5, late_sender_rate=0.3, pattern="neighbors")


def earl_stats(*args):
    done = subprocess.run(EARL + ["stats", *map(str, args)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_json_follows_the_schema(tmp_path):
    path = hand_profile_trace.write(tmp_path)
    report = json.loads(earl_stats(path, "--json", "--bins", "2"))
    assert set(report) == {"file", "format", "events", "types", "flat_profile", "time_profile",
                           "message_sizes", "message_count", "message_bytes", "traffic"}
    assert report["format"] == "alog" and report["events"] == 16
    assert {row["type"]: row["events"] for row in report["types"]} == {
        "enter": 7, "exit": 7, "send": 1, "recv": 1}
    work = next(row for row in report["flat_profile"] if row["region"] == "work")
    assert work["visits"] == 3 and work["inclusive"] == pytest.approx(39 * US)
    assert report["time_profile"]["regions"]["main"] == pytest.approx([40 * US, 51 * US])
    assert len(report["time_profile"]["bins"]) == 2
    assert report["message_count"] == [[0, 1], [0, 0]]
    assert report["message_bytes"] == [[0, 100], [0, 0]]
    assert report["message_sizes"] == [{"min": 64, "max": 127, "messages": 1}]
    assert [row["bytes"] for row in report["traffic"]] == [0, 100]


def test_text_has_every_table_aligned(tmp_path):
    out = earl_stats(hand_profile_trace.write(tmp_path), "--top", "2")
    for title in ("event types:", "flat profile", "time profile", "message sizes",
                  "messages sent", "bytes sent", "traffic over time"):
        assert title in out
    flat = out.split("flat profile")[1].split("\n\n")[0].splitlines()[1:]
    assert len(flat) == 3 and "main" in flat[1] and "MPI_Recv" in flat[2]  # header + top 2
    assert len({line.index("visits") for line in flat[:1]}) == 1


def test_plot_writes_a_png(tmp_path):
    image = pytest.importorskip("matplotlib.image")
    out = tmp_path / "stats.png"
    earl_stats(hand_profile_trace.write(tmp_path), "--plot", out)
    assert out.stat().st_size > 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert image.imread(str(out)).ndim == 3


def test_plot_never_overwrites_the_trace(tmp_path):
    path = hand_profile_trace.write(tmp_path)
    before = open(path).read()
    done = subprocess.run(EARL + ["stats", path, "--plot", path], capture_output=True, text=True, timeout=300)
    assert done.returncode == 1 and "choose another output path" in done.stderr
    assert open(path).read() == before


def test_bad_bins_is_a_usage_error(tmp_path):
    done = subprocess.run(EARL + ["stats", hand_profile_trace.write(tmp_path), "--bins", "0"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "--bins" in done.stderr


@pytest.fixture(scope="module")
def every_format(tmp_path_factory):
    root = tmp_path_factory.mktemp("stats_formats")
    made = {}
    for fmt in _core.generator_formats():
        suffix = next(row["extensions"][0] for row in _core.formats() if row["name"] == fmt)
        path = root / ("trace" + suffix)
        made[fmt] = (path, generate(str(path), format=fmt, **PROGRAM))
    return made


def comparable(report):
    """The tables of a report, times rounded to the microsecond (ALOG's resolution)."""
    def rounded(value):
        return round(value, 6) if isinstance(value, float) else value
    flat = sorted((row["region"], row["visits"], rounded(row["inclusive"]), rounded(row["exclusive"]))
                  for row in report["flat_profile"])
    types = {row["type"]: row["events"] for row in report["types"]
             if row["type"] in ("enter", "send", "recv") and row["events"]}
    return flat, types, report["message_count"], report["message_bytes"], report["message_sizes"]


def test_every_format_gives_the_same_tables(every_format):
    reports = {fmt: json.loads(earl_stats(path, "--json")) for fmt, (path, _) in every_format.items()}
    reference = comparable(reports["otf2"])
    for fmt, report in reports.items():
        assert comparable(report) == reference, fmt
        truth = every_format[fmt][1]
        received = [sum(column) for column in zip(*report["message_bytes"])]
        assert received == truth["bytes_received_per_location"], fmt
