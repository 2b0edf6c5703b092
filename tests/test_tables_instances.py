"""trace.region_instances(): one row per region instance, against the hand-worked trace of
tests/hand_profile_trace.py, the generator's ground truth (time per region and location,
summed by its own collector while it wrote the program) and, for counters, a second
computation from the metric events of a Score-P trace."""
import bisect
import math
from collections import defaultdict

import pytest

import earl
from earl import _core
from earl.generate import generate
import hand_profile_trace
from hand_profile_trace import US
from otf2_archives import PING_PONG_PAPI

pytest.importorskip("pandas")


def rows(frame):
    """(loc, region, callpath, enter µs, exit µs, inclusive µs, exclusive µs) per row,
    by location and enter time."""
    out = [(r.loc, r.region, r.callpath, round(r.enter_time / US), round(r.exit_time / US),
            round(r.inclusive / US), round(r.exclusive / US)) for r in frame.itertuples()]
    return sorted(out, key=lambda row: (row[0], row[3]))


def test_hand_trace_inclusive_and_exclusive_times(tmp_path):
    with earl.EventTrace(hand_profile_trace.write(tmp_path)) as trace:
        frame = trace.region_instances()
        assert rows(frame) == [
            (0, "main", "main", 0, 100, 100, 60),            # 100 - work 30 - MPI_Send 10
            (0, "work", "main/work", 10, 40, 30, 30),
            (0, "MPI_Send", "main/MPI_Send", 50, 60, 10, 10),
            (1, "main", "main", 0, 100, 100, 31),            # 100 - MPI_Recv 60 - work 9
            (1, "MPI_Recv", "main/MPI_Recv", 20, 80, 60, 60),
            (1, "work", "main/work", 90, 99, 9, 7),          # 9 - inner work 2
            (1, "work", "main/work/work", 95, 97, 2, 2),
        ]
        # rows in the order the instances were entered; positions point at the events
        assert list(frame["enter_pos"]) == sorted(frame["enter_pos"])
        for r in frame.itertuples():
            assert trace.event(r.enter_pos)["type"] == "enter"
            assert trace.event(r.exit_pos)["enterptr"] == r.enter_pos
        # one call path id per call path, whatever the location
        assert frame.groupby("callpath", observed=True)["callpath_id"].nunique().eq(1).all()


def test_an_instance_open_at_the_end_has_no_exit(tmp_path):
    lines = hand_profile_trace.LINES[:-1]  # loc 1 never leaves main
    path = tmp_path / "open.alog"
    path.write_text("\n".join(lines) + "\n")
    with earl.EventTrace(str(path)) as trace:
        frame = trace.region_instances()
        open_rows = frame[frame["exit_pos"] == 0]
        assert len(open_rows) == 1 and open_rows.iloc[0]["loc"] == 1
        assert math.isnan(open_rows.iloc[0]["inclusive"]) and math.isnan(open_rows.iloc[0]["exit_time"])


@pytest.mark.parametrize("fmt", _core.generator_formats())
def test_times_per_location_and_region_equal_the_generators_truth(tmp_path, fmt):
    suffix = next(row["extensions"][0] for row in _core.formats() if row["name"] == fmt)
    path = tmp_path / ("run" + suffix)
    truth = generate(str(path), format=fmt, locations=3, events=4000, seed=3, late_sender_rate=0.3)
    with earl.EventTrace(str(path)) as trace:
        frame = trace.region_instances()
    sums = frame.groupby(["loc", "region"], observed=True).agg(
        incl=("inclusive", "sum"), excl=("exclusive", "sum"), count=("inclusive", "size"))
    compared = 0
    for loc, regions in truth["region_time"].items():
        for region, want in regions.items():
            got = sums.loc[(int(loc), region)]
            assert got["count"] == want["count"], (loc, region)
            assert math.isclose(got["incl"], want["incl"], rel_tol=1e-9, abs_tol=1e-9), (loc, region)
            assert math.isclose(got["excl"], want["excl"], rel_tol=1e-9, abs_tol=1e-9), (loc, region)
            compared += 1
    assert compared > 3


@pytest.mark.skipif(not PING_PONG_PAPI.exists(), reason="no Score-P PAPI trace")
def test_counter_growth_from_the_metric_events():
    """A counter's value at a time is the location's last sample at or before it (found
    here by bisection in each location's samples); its growth over an instance is the
    value at the exit less the value at the enter."""
    with earl.EventTrace(str(PING_PONG_PAPI)) as trace:
        names = trace.metric_columns()
        metrics = [m["name"] for m in trace.metrics()]
        samples = defaultdict(lambda: ([], []))  # (loc, metric) -> (times, values)
        opened = defaultdict(list)
        expected = []
        for event in trace:
            if event["type"] == "metric":
                times, values = samples[(event["loc"], event["metric"])]
                times.append(event["time"])
                values.append(event["value"])
            elif event["type"] == "enter":
                opened[event["loc"]].append(event)
            elif "region" in event and opened[event["loc"]]:  # an exit of any kind
                expected.append((opened[event["loc"]].pop(), event))

        def value(loc, metric, time):
            times, values = samples[(loc, metric)]
            at = bisect.bisect_right(times, time)
            return values[at - 1] if at else math.nan

        frame = trace.region_instances().set_index("enter_pos")
        assert len(expected) == len(frame)
        checked = 0
        for enter, exit_ in expected:
            row = frame.loc[enter["pos"]]
            assert row["exit_pos"] == exit_["pos"]
            for column, metric in zip(names, metrics):
                want = value(enter["loc"], metric, exit_["time"]) - value(enter["loc"], metric, enter["time"])
                if math.isnan(want):
                    assert math.isnan(row[column])
                else:
                    assert row[column] == pytest.approx(want), (enter, column)
                    checked += 1
        assert checked > 0


class Stop(Exception):
    pass


def test_a_long_pass_reports_progress_and_stops_when_asked(tmp_path):
    """The one-pass tables report progress every 65536 events; an exception raised by the
    progress callable (Ctrl-C's KeyboardInterrupt is one) stops the pass and reaches the
    caller, and the trace stays usable."""
    path = tmp_path / "long.alog"
    generate(str(path), format="alog", locations=2, events=150_000, seed=1)
    seen = []
    with earl.EventTrace(str(path), progress=lambda fraction: None) as trace:
        trace.progress = seen.append
        frame = trace.region_instances()
        assert seen[-1] == 1.0 and 0 < seen[0] < 1
        assert len(frame) > 0

        def stop(fraction):
            raise Stop()

        trace.progress = stop
        with pytest.raises(Stop):
            earl.stats(trace)
        trace.progress = None
        assert len(earl.stats(trace)["flat_profile"]) > 0
