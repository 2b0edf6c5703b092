"""earl.stats(): the tables of the hand-worked trace (tests/hand_profile_trace.py) with
every value worked out by hand, and the message matrix of a generated trace against
counting its sends in a loop over the events."""
import math

import numpy
import pytest

import earl
from earl.generate import generate
import hand_profile_trace
from hand_profile_trace import US

pytest.importorskip("pandas")


@pytest.fixture
def tables(tmp_path):
    return earl.stats(hand_profile_trace.write(tmp_path), bins=2)


def test_event_types(tables):
    types = tables["types"].set_index("type")
    assert types["events"].to_dict() == {"enter": 7, "exit": 7, "send": 1, "recv": 1}
    assert types.loc["send", "share"] == pytest.approx(1 / 16)


def test_flat_profile(tables):
    flat = tables["flat_profile"]
    # most inclusive time first: main 200, MPI_Recv 60, work 39 (30 + outer 9), MPI_Send 10
    assert list(flat["region"]) == ["main", "MPI_Recv", "work", "MPI_Send"]
    by_region = flat.set_index("region")
    expected = {  # visits, inclusive, exclusive, min, mean, max (µs), imbalance
        "main": (2, 200, 91, 100, 100, 100, 0.0),
        "MPI_Recv": (1, 60, 60, 0, 30, 60, 1.0),
        "work": (3, 39, 39, 9, 19.5, 30, 30 / 19.5 - 1),
        "MPI_Send": (1, 10, 10, 0, 5, 10, 1.0),
    }
    for region, (visits, incl, excl, low, mean, high, imbalance) in expected.items():
        row = by_region.loc[region]
        assert row["visits"] == visits
        for column, microseconds in (("inclusive", incl), ("exclusive", excl), ("min", low),
                                     ("mean", mean), ("max", high)):
            assert row[column] == pytest.approx(microseconds * US, abs=1e-12), (region, column)
        assert row["imbalance"] == pytest.approx(imbalance)


def test_time_profile(tables):
    profile = tables["time_profile"]
    assert list(profile["begin"]) == pytest.approx([0, 50 * US])
    assert list(profile["end"]) == pytest.approx([50 * US, 100 * US])
    # bin 0 (0..50 µs): loc 0 main 0-10 and 40-50, work 10-40; loc 1 main 0-20, MPI_Recv 20-50
    # bin 1: loc 0 MPI_Send 50-60, main 60-100; loc 1 MPI_Recv 50-80, main 80-90 and 99-100,
    #        work 90-99
    expected = {"main": [40, 51], "work": [30, 9], "MPI_Recv": [30, 30], "MPI_Send": [0, 10]}
    for region, microseconds in expected.items():
        assert list(profile[region]) == pytest.approx([m * US for m in microseconds], abs=1e-12)


def test_messages(tables):
    assert tables["message_count"].to_numpy().tolist() == [[0, 1], [0, 0]]
    assert tables["message_bytes"].to_numpy().tolist() == [[0, 100], [0, 0]]
    sizes = tables["message_sizes"]
    assert sizes.to_dict(orient="list") == {"min": [64], "max": [127], "messages": [1]}
    traffic = tables["traffic"]
    assert list(traffic["messages"]) == [0, 1] and list(traffic["bytes"]) == [0, 100]  # sent at 55 µs


def test_message_matrix_and_sizes_equal_a_loop_over_the_sends(tmp_path):
    path = tmp_path / "run.otf2"
    generate(str(path), format="otf2", locations=4, events=5000, seed=8, pattern="neighbors")
    with earl.EventTrace(str(path)) as trace:
        tables = earl.stats(trace, bins=7)
        count = numpy.zeros((4, 4), int)
        size = numpy.zeros((4, 4), int)
        classes = {}
        span = [trace.event(1)["time"], trace.event(len(trace))["time"]]
        per_bin = [0] * 7
        for event in trace:
            if event["type"] == "send":
                count[event["loc"], event["dest"]] += 1
                size[event["loc"], event["dest"]] += event["len"]
                k = event["len"].bit_length()
                classes[k] = classes.get(k, 0) + 1
                at = int((event["time"] - span[0]) / ((span[1] - span[0]) / 7))
                per_bin[min(at, 6)] += event["len"]
    assert count.sum() > 0
    assert (tables["message_count"].to_numpy() == count).all()
    assert (tables["message_bytes"].to_numpy() == size).all()
    assert dict(zip(tables["message_sizes"]["max"].astype(int).map(lambda m: (m + 1).bit_length() - 1 if m else 0),
                    tables["message_sizes"]["messages"])) == classes
    assert list(tables["traffic"]["bytes"]) == per_bin


def test_visits_and_times_equal_the_generators_truth(tmp_path):
    path = tmp_path / "run.alog"
    truth = generate(str(path), format="alog", locations=3, events=3000, seed=4, late_sender_rate=0.3)
    flat = earl.stats(str(path))["flat_profile"].set_index("region")
    totals = {}
    for regions in truth["region_time"].values():
        for region, row in regions.items():
            visits, excl = totals.get(region, (0, 0.0))
            totals[region] = (visits + row["count"], excl + row["excl"])
    for region, (visits, excl) in totals.items():
        assert flat.loc[region, "visits"] == visits
        assert math.isclose(flat.loc[region, "exclusive"], excl, rel_tol=1e-9, abs_tol=1e-9)


def test_bad_bins_are_refused(tmp_path):
    with earl.EventTrace(hand_profile_trace.write(tmp_path)) as trace:
        for bins in (0, -3, 10**9):
            with pytest.raises(earl.EarlError, match="bins"):
                earl.stats(trace, bins=bins)


def test_regions_of_one_name_are_one_row(tmp_path):
    """Two OTF2 regions named alike (say, in two source files) are one region in EARL's
    model, so one row, their times summed: loc 0 runs the first 0..10, loc 1 the second 0..30."""
    pytest.importorskip("otf2")
    from otf2_archives import ArchiveWriter, T
    writer = ArchiveWriter(tmp_path)
    (first_loc,), (second_loc,) = writer.process("rank 0"), writer.process("rank 1")
    first, second = writer.region("solve", source_file="a.c"), writer.region("solve", source_file="b.c")
    for loc, region, end in ((first_loc, first, 10), (second_loc, second, 30)):
        writer.ev(loc).enter(T(0), region)
        writer.ev(loc).leave(T(end), region)
    anchor = writer.close()
    with earl.EventTrace(str(anchor)) as trace:
        assert trace.regions().count("solve") == 1
        flat = earl.stats(trace, bins=1)["flat_profile"]
        assert list(flat["region"]) == ["solve"] and flat["visits"][0] == 2
        assert flat["inclusive"][0] == pytest.approx(40e-9)
        assert flat["max"][0] == pytest.approx(30e-9) and flat["mean"][0] == pytest.approx(20e-9)
        assert list(trace.to_pandas()["region"].cat.categories).count("solve") == 1
        assert list(trace.region_instances()["region"]) == ["solve", "solve"]
