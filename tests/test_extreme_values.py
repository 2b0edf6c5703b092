"""Extreme but legal values (issue 22, class 6): 64-bit quantities come out as the trace
holds them, never wrapped. The archives are written with the official `otf2` writer; the
expected values are worked out by hand in the comments.

- timestamps 2^63 and more ticks after the clock offset (a signed difference made them
  negative) and before it (negative, as before);
- message lengths 2^64 - 1 and 2^63 in event(), to_numpy (len is u8) and the analysis'
  traffic matrix and byte metrics (their sums wrapped 64 bits);
- min_latency beyond the trace's span (1e308 made corrected times infinite): refused,
  naming the argument;
- memory=-1 is an error like -2 (it was the sentinel for "not given").
"""
import subprocess
import sys

import numpy as np
import pytest

import earl

otf2_archives = pytest.importorskip("otf2_archives")
from otf2_archives import ArchiveWriter  # noqa: E402

RESOLUTION = 1_000_000          # ticks per second
HUGE, HALF = 2 ** 64 - 1, 2 ** 63


@pytest.fixture(scope="module")
def extreme(tmp_path_factory):
    """Clock offset 0; location 0 leaves main 2^63 + 5 ticks after it, location 1 at
    2^64 - 1000; two messages of 2^64 - 1 and 2^63 bytes from 0 to 1.
    Merged order: 1 a@0, 2 b@1, 3 send@5, 4 send@6, 5 recv@7, 6 recv@8, 7 a@2^63+5, 8 b@2^64-1000."""
    aw = ArchiveWriter(tmp_path_factory.mktemp("extreme"), "t", RESOLUTION)
    a, = aw.process("MPI Rank 0")
    b, = aw.process("MPI Rank 1")
    aw.comm_locations([a, b])
    world = aw.comm("MPI_COMM_WORLD", [a, b])
    r = aw.region("main")
    ea, eb = aw.ev(a), aw.ev(b)
    ea.enter(0, r)
    ea.mpi_send(5, 1, world, 7, HUGE)
    ea.mpi_send(6, 1, world, 8, HALF)
    ea.leave(2 ** 63 + 5, r)
    eb.enter(1, r)
    eb.mpi_recv(7, 0, world, 7, HUGE)
    eb.mpi_recv(8, 0, world, 8, HALF)
    eb.leave(2 ** 64 - 1000, r)
    return str(aw.close(clock_offset=0))


@pytest.mark.parametrize("cache", [True, False], ids=["cached", "direct"])
def test_times_beyond_2_63_ticks_and_lengths_beyond_2_63_bytes(extreme, cache):
    t = earl.EventTrace(extreme, cache=cache)
    # 9223372036854.775807... s and 18446744073709.550615 s, as the one division gives them
    assert t.event(7)["time"] == (2 ** 63 + 5) / RESOLUTION > 9.2e12
    assert t.event(8)["time"] == (2 ** 64 - 1000) / RESOLUTION > 1.8e13
    assert [t.event(p)["len"] for p in (3, 4, 5, 6)] == [HUGE, HALF, HUGE, HALF]
    rows = t.to_numpy()
    assert rows.dtype["len"] == np.dtype("<u8")
    assert rows["len"].tolist() == [0, 0, HUGE, HALF, HUGE, HALF, 0, 0]
    assert (rows["time"] >= 0).all()


def test_a_timestamp_before_the_offset_is_still_negative(tmp_path):
    aw = ArchiveWriter(tmp_path, "t", RESOLUTION)
    a, = aw.process("P")
    r = aw.region("main")
    aw.ev(a).enter(10, r)
    aw.ev(a).leave(2 ** 63 + 20, r)
    t = earl.EventTrace(str(aw.close(clock_offset=2 ** 63 + 10)))
    assert [e["time"] for e in t] == [-(2 ** 63) / RESOLUTION, 10 / RESOLUTION]


def test_traffic_and_byte_metrics_do_not_wrap(extreme):
    report = earl.analysis.analyze(extreme)
    # 2^64 - 1 + 2^63 = 27670116110564327423 bytes: a 64-bit sum wrapped to 2^63 - 1
    assert report.traffic() == [(0, 1, HUGE + HALF, 2)]
    values = report.raw["values"]
    assert [c.value for c in values["bytes_sent"]] == [float(HUGE + HALF)]
    assert [c.value for c in values["bytes_rcvd"]] == [float(HUGE + HALF)]


def test_a_min_latency_beyond_the_span_is_refused_naming_it(extreme):
    span = "0.19960445957369963"       # the ping-pong trace's recorded span, seconds
    ping = str(otf2_archives.PING_PONG)
    with pytest.raises(earl.EarlError, match=f"^min_latency must not exceed the trace's recorded span of {span} s, got 1e\\+308$"):
        earl.EventTrace(ping, time_correct=True, min_latency=1e308)
    cli = subprocess.run([sys.executable, "-m", "earl.cli", "analyze", "--time-correct",
                          "--min-latency", "1", ping], capture_output=True, text=True)
    assert (cli.returncode, cli.stdout) == (1, "")
    assert cli.stderr == f"earl: min_latency must not exceed the trace's recorded span of {span} s, got 1\n"
    # within the span every corrected time stays finite
    t = earl.EventTrace(ping, time_correct=True, min_latency=0.001)
    assert np.isfinite(t.to_numpy()["time"]).all()


@pytest.mark.parametrize("memory", [-1, -2, 0])
def test_every_nonpositive_memory_is_an_error_naming_it(extreme, memory):
    with pytest.raises(earl.EarlError, match=f"^memory must be a positive number of bytes, got {memory}$"):
        earl.EventTrace(extreme, memory=memory)
    assert len(earl.EventTrace(extreme, memory=None)) == 8
