"""trace.to_pandas() / to_arrow() against an independent loop over the events
(EventTrace iteration, one dict per event), with position, time and location windows."""
import math

import numpy
import pytest

import earl
from earl.generate import generate
import hand_profile_trace
from otf2_archives import PING_PONG_PAPI

pandas = pytest.importorskip("pandas")

PROGRAM = dict(locations=3, events=3000, seed=11, late_sender_rate=0.2)


@pytest.fixture(scope="module")
def trace_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("tables") / "run.otf2"
    generate(str(path), format="otf2", **PROGRAM)
    return str(path)


def expected_row(event, trace):
    """The to_pandas() row of one event dict, from the model's attribute names."""
    peer = event.get("dest", event.get("src", -1)) if event["type"] in ("send", "recv") else -1
    message = event["type"] in ("send", "recv")
    return {"pos": event["pos"], "loc": event["loc"], "time": event["time"], "type": event["type"],
            "enterptr": event["enterptr"], "region": event.get("region"),
            "peer": peer, "tag": event["tag"] if message else 0,
            "com": event["com"] if message else -1, "len": event["len"] if message else 0,
            "sendptr": event.get("sendptr", 0) if event["type"] == "recv" else 0}


def check_frame(frame, events, trace):
    assert len(frame) == len(events)
    for row, event in zip(frame.itertuples(index=False), events):
        want = expected_row(event, trace)
        got = row._asdict()
        for name in ("pos", "loc", "type", "enterptr", "peer", "tag", "com", "len", "sendptr"):
            assert got[name] == want[name], (name, event)
        assert got["time"] == event["time"]
    # region: the region of enters and exits (of every kind), NaN elsewhere
    got_regions = [None if isinstance(r, float) and math.isnan(r) else r for r in frame["region"]]
    assert got_regions == [expected_row(e, trace)["region"] for e in events]


def test_every_event_matches_the_loop(trace_path):
    with earl.EventTrace(trace_path) as trace:
        frame = trace.to_pandas()
        events = list(trace)
        check_frame(frame, events, trace)
        assert isinstance(frame["type"].dtype, pandas.CategoricalDtype)
        assert list(frame["type"].cat.categories) == trace.types()
        assert list(frame["region"].cat.categories) == trace.regions()


@pytest.mark.skipif(not PING_PONG_PAPI.exists(), reason="no Score-P PAPI trace")
def check_counters(frame, trace):
    """Each counter column holds its metric events' values, NaN in every other row."""
    names = trace.metric_columns()
    assert names and list(frame.columns)[-len(names):] == names
    for event, row in zip(trace, frame[names].itertuples(index=False)):
        for index, value in enumerate(row):
            if event["type"] == "metric" and event["metric"] == trace.metrics()[index]["name"]:
                assert value == event["value"]
            else:
                assert math.isnan(value)


def test_counter_columns_hold_the_metric_events_values():
    with earl.EventTrace(str(PING_PONG_PAPI)) as trace:
        check_counters(trace.to_pandas(), trace)


def test_position_time_and_location_windows(trace_path):
    with earl.EventTrace(trace_path) as trace:
        events = list(trace)
        assert list(trace.to_pandas(first=100, last=250)["pos"]) == list(range(100, 251))
        t0, t1 = events[500]["time"], events[1500]["time"]
        frame = trace.to_pandas(t0=t0, t1=t1)
        assert list(frame["pos"]) == [e["pos"] for e in events if t0 <= e["time"] <= t1]
        frame = trace.to_pandas(first=200, last=2000, t0=t0, locations=[0, 2])
        assert list(frame["pos"]) == [e["pos"] for e in events[199:2000]
                                      if e["time"] >= t0 and e["loc"] in (0, 2)]
        assert len(trace.to_pandas(t0=events[-1]["time"] + 1)) == 0
        assert len(trace.to_pandas(first=5, last=4)) == 0
        with pytest.raises(earl.EarlError, match="outside"):
            trace.to_pandas(first=0)
        with pytest.raises(earl.EarlError, match="'two' is not a location number"):
            trace.to_pandas(locations=[0, "two"])
        with pytest.raises(earl.EarlError, match="not a list of location numbers"):
            trace.to_pandas(locations=3)
        with pytest.raises(earl.EarlError, match="t1 'late' is not a time in seconds"):
            trace.to_pandas(t1="late")
        with pytest.raises(earl.EarlError, match="not whole numbers"):
            trace.to_pandas(first=1.5)


def test_to_arrow_has_the_same_table_with_dictionaries(trace_path):
    pyarrow = pytest.importorskip("pyarrow")
    with earl.EventTrace(trace_path) as trace:
        frame = trace.to_pandas(first=1, last=800)
        table = trace.to_arrow(first=1, last=800)
        assert table.column_names == list(frame.columns)
        assert pyarrow.types.is_dictionary(table.schema.field("type").type)
        assert pyarrow.types.is_dictionary(table.schema.field("region").type)
        back = table.to_pandas()
        for name in frame.columns:
            if name in ("type", "region"):
                assert list(back[name].astype(object).where(back[name].notna(), None)) == \
                    list(frame[name].astype(object).where(frame[name].notna(), None))
            else:
                numpy.testing.assert_array_equal(back[name].to_numpy(), frame[name].to_numpy())


def test_hand_trace_regions_and_messages(tmp_path):
    with earl.EventTrace(hand_profile_trace.write(tmp_path)) as trace:
        frame = trace.to_pandas()
        counts = {name: n for name, n in frame["type"].value_counts().items() if n}
        assert counts == {"enter": 7, "exit": 7, "send": 1, "recv": 1}
        send = frame[frame["type"] == "send"].iloc[0]
        assert (send["loc"], send["peer"], send["tag"], send["len"]) == (0, 1, 1, 100)
        recv = frame[frame["type"] == "recv"].iloc[0]
        assert (recv["loc"], recv["peer"], recv["sendptr"]) == (1, 0, send["pos"])
        assert list(frame[frame["loc"] == 1]["region"].dropna()) == [
            "main", "MPI_Recv", "MPI_Recv", "work", "work", "work", "work", "main"]


def test_a_missing_pandas_is_named(monkeypatch, tmp_path):
    import builtins
    real = builtins.__import__

    def no_pandas(name, *args, **kwargs):
        if name == "pandas":
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pandas)
    monkeypatch.delitem(__import__("sys").modules, "pandas", raising=False)
    with earl.EventTrace(hand_profile_trace.write(tmp_path)) as trace:
        with pytest.raises(earl.EarlError, match="to_pandas.. needs pandas"):
            trace.to_pandas()


def test_the_column_filler_refuses_arrays_it_could_overrun(tmp_path):
    """_fill_columns writes raw bytes into the arrays it is given: anything but contiguous
    arrays of the field's size and the asked length is refused before a byte is written."""
    from earl.trace import event_dtype
    dtype = event_dtype()
    with earl.EventTrace(hand_profile_trace.write(tmp_path)) as trace:
        good = [numpy.zeros(4, dtype.fields[name][0]) for name in dtype.names]
        trace._fill_columns(1, 4, good, [])
        assert list(good[0]) == [1, 2, 3, 4]
        for bad in ([numpy.zeros(3, c.dtype) if i == 0 else c for i, c in enumerate(good)],
                    [numpy.zeros(4, numpy.int8) if i == 2 else c for i, c in enumerate(good)],
                    [numpy.zeros(8, c.dtype)[::2] if i == 1 else c for i, c in enumerate(good)],
                    ["not an array" if i == 3 else c for i, c in enumerate(good)],
                    good[:-1]):
            with pytest.raises(earl.EarlError, match="_fill_columns"):
                trace._fill_columns(1, 4, bad, [])
        with pytest.raises(earl.EarlError, match="outside"):
            trace._fill_columns(14, 4, good, [])


@pytest.mark.parametrize("fmt", ["otf2", "alog"])
def test_read_pandas_fills_in_the_opening_scan_what_the_loop_reads(tmp_path, fmt):
    path = str(tmp_path / f"run.{fmt}")
    generate(path, format=fmt, **PROGRAM)
    frame = earl.read_pandas(path, index=False, progress=lambda fraction: None)
    with earl.EventTrace(path, index=False) as trace:
        check_frame(frame, list(trace), trace)
        assert list(frame.columns) == list(trace.to_pandas(last=0).columns)
        assert list(frame["type"].cat.categories) == trace.types()
        assert list(frame["region"].cat.categories) == trace.regions()


def test_read_pandas_with_a_persisted_index_reads_the_events_itself(trace_path, tmp_path):
    """Where the index spares the scan, nothing passes the sink: the events are read."""
    import shutil
    folder = tmp_path / "indexed"
    shutil.copytree(str(trace_path).rsplit("/", 1)[0], folder)
    path = str(folder / "run.otf2")
    first = earl.read_pandas(path, index=True, progress=None)
    with earl.EventTrace(path, index=True) as trace:
        assert trace.index_info()["state"] == "loaded"
        events = list(trace)
    again = earl.read_pandas(path, index=True)
    check_frame(first, events, None)
    check_frame(again, events, None)


def test_read_pandas_of_a_clock_corrected_trace_has_the_corrected_times(trace_path):
    frame = earl.read_pandas(trace_path, time_correct=True, index=False)
    with earl.EventTrace(trace_path, time_correct=True, index=False) as trace:
        check_frame(frame, list(trace), trace)


@pytest.mark.skipif(not PING_PONG_PAPI.exists(), reason="no Score-P PAPI trace")
def test_read_pandas_counter_columns():
    frame = earl.read_pandas(str(PING_PONG_PAPI), index=False)
    with earl.EventTrace(str(PING_PONG_PAPI), index=False) as trace:
        check_counters(frame, trace)


def test_read_pandas_checks_its_arguments_as_eventtrace_does(tmp_path):
    with pytest.raises(earl.EarlError, match="nothing.otf2"):
        earl.read_pandas(str(tmp_path / "nothing.otf2"))
    path = hand_profile_trace.write(tmp_path)
    with pytest.raises(TypeError, match="colour"):
        earl.read_pandas(path, colour=1)
    with pytest.raises(earl.EarlError, match="bdist"):
        earl.read_pandas(path, bdist=-2)
    assert len(earl.read_pandas(path, bdist=5, progress=lambda f: None)) == 16


@pytest.mark.parametrize("seed", range(6))
def test_read_pandas_of_an_unsorted_alog_trace_the_scan_restarts_on(tmp_path, seed):
    """An unsorted ALOG file makes the opening scan start again in sorted order: the
    columns then hold the second pass, as the loop reads it."""
    import alog_traces
    path = alog_traces.generate(alog_traces.SeededSource(seed), min_events=20,
                                unsorted="shuffled").write(tmp_path)
    frame = earl.read_pandas(path, index=False)
    with earl.EventTrace(path, index=False) as trace:
        check_frame(frame, list(trace), trace)
