"""Chrome trace-event JSON (cpp/formats/chrome/; docs/formats.md "Chrome trace-event JSON",
docs/api-contract.md): hand-written traces whose EARL events are worked out by hand below,
both container forms, gzip, the cut-short bare array, malformed input at every cut point,
round trips through the writer, random access against the scan, and a trace written by
PyTorch's profiler checked against the profiler's own event list."""
import gzip
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import earl
from earl.convert import convert
from earl.generate import generate

US = 1e-6


def us(x):
    """Seconds of x microseconds as EARL computes them: integer nanoseconds / 1e9."""
    return round(x * 1000) / 1e9


@pytest.fixture(params=[True, False], ids=["cached", "direct"])
def cache(request):
    return request.param


def write(tmp_path, content, name="t.json"):
    path = tmp_path / name
    if isinstance(content, (list, dict)):
        content = json.dumps(content)
    data = content.encode() if isinstance(content, str) else content
    if name.endswith(".gz"):
        data = gzip.compress(data)
    path.write_bytes(data)
    return str(path)


def open_json(tmp_path, content, name="t.json", cache=True, **kw):
    return earl.EventTrace(write(tmp_path, content, name), cache=cache, **kw)


def scan(trace):
    return [trace.event(p) for p in range(1, len(trace) + 1)]


def brief(trace):
    """(time, loc, type, region or peer, enterptr) of every event."""
    out = []
    for e in scan(trace):
        what = e.get("region", e.get("dest", e.get("src", e.get("data1"))))
        out.append((e["time"], e["loc"], e["type"], what, e["enterptr"]))
    return out


def X(name, ts, dur, pid=1, tid=1, **extra):
    return dict(ph="X", name=name, ts=ts, dur=dur, pid=pid, tid=tid, **extra)


# ------------------------------------------------------------------ slices
def test_complete_events_nest_by_start_and_length(tmp_path, cache):
    # File order is end order (as producers write X events); by hand: at 10 the longer
    # `outer` enters first; at 15 `inner` leaves, then the zero-length `zero` (inside
    # outer); at 30 `outer` leaves before the zero-length `next` enters and leaves.
    events = [X("inner", 10, 5), X("zero", 15, 0), X("outer", 10, 20), X("next", 30, 0)]
    with open_json(tmp_path, events, cache=cache) as t:
        assert t.format() == "chrome"
        assert brief(t) == [
            (us(10), 0, "enter", "outer", 0),
            (us(10), 0, "enter", "inner", 1),
            (us(15), 0, "exit", "inner", 2),
            (us(15), 0, "enter", "zero", 1),
            (us(15), 0, "exit", "zero", 4),
            (us(30), 0, "exit", "outer", 1),
            (us(30), 0, "enter", "next", 0),
            (us(30), 0, "exit", "next", 7),
        ]
        assert all(v["count"] == 0 for v in t.problems().values())


def test_identical_slices_nest_in_file_order(tmp_path, cache):
    with open_json(tmp_path, [X("a", 1, 4), X("b", 1, 4)], cache=cache) as t:
        assert brief(t) == [(us(1), 0, "enter", "a", 0), (us(1), 0, "enter", "b", 1),
                            (us(5), 0, "exit", "b", 2), (us(5), 0, "exit", "a", 1)]


def test_begin_end_in_file_order_with_equal_times(tmp_path, cache):
    B = lambda name, ts: dict(ph="B", name=name, ts=ts, pid=1, tid=1, cat="grp")
    E = lambda ts: dict(ph="E", ts=ts, pid=1, tid=1)
    # c opens and closes at 10, then b opens at 10: siblings, as the file has them; inside b
    # a zero-length d.
    events = [B("c", 10), E(10), B("b", 10), B("d", 12), E(12), E(20)]
    with open_json(tmp_path, events, cache=cache) as t:
        assert brief(t) == [
            (us(10), 0, "enter", "c", 0), (us(10), 0, "exit", "c", 1),
            (us(10), 0, "enter", "b", 0), (us(12), 0, "enter", "d", 3),
            (us(12), 0, "exit", "d", 4), (us(20), 0, "exit", "b", 3),
        ]
        assert "grp" in t.groups()
        assert t.group("b") == "grp"


def test_unbalanced_begin_end_are_reported_not_fatal(tmp_path, cache):
    events = [dict(ph="E", name="lost", ts=1, pid=1, tid=1), dict(ph="B", name="open", ts=2, pid=1, tid=1)]
    with open_json(tmp_path, events, cache=cache) as t:
        assert brief(t) == [(us(1), 0, "exit", "lost", 0), (us(2), 0, "enter", "open", 0)]
        assert t.problems()["exit_on_empty_stack"] == {"count": 1, "first": [1]}
        assert t.stack(0, 2) == [2]   # `open` stays open at the end


def test_threads_are_locations_in_order_of_appearance_named_by_metadata(tmp_path, cache):
    events = [
        dict(ph="M", name="thread_name", pid=7, tid=3, args=dict(name="worker")),
        dict(ph="M", name="process_name", pid=7, args=dict(name="proc")),
        X("a", 5, 1, pid=2, tid="stream 1"),
        X("b", 1, 1, pid=7, tid=3),
        X("c", 2, 1, pid=7, tid=4),
    ]
    with open_json(tmp_path, events, cache=cache) as t:
        assert t.nrlocs() == 3
        # Unnamed threads: "<process_name or pid> / <tid>".
        assert [t.locsym(l) for l in range(3)] == ["worker", "2 / stream 1", "proc / 4"]
        assert [(e["loc"], e.get("region")) for e in scan(t) if e["type"] == "enter"] == [(0, "b"), (2, "c"), (1, "a")]


# ------------------------------------------------------------------ flows and async
def test_flow_start_step_end_are_messages(tmp_path, cache):
    events = [
        dict(ph="f", name="x", cat="c", id=7, ts=12, pid=2, tid=3, bp="e"),
        dict(ph="s", name="x", cat="c", id=7, ts=5, pid=1, tid=1),
        dict(ph="t", name="x", cat="c", id=7, ts=8, pid=1, tid=2),
        dict(ph="s", name="y", cat="other", id=7, ts=6, pid=1, tid=1),   # another category: no end
    ]
    with open_json(tmp_path, events, cache=cache) as t:
        ev = scan(t)
        # Locations by first appearance: (2,3)=0, (1,1)=1, (1,2)=2.
        assert [(e["time"], e["loc"], e["type"]) for e in ev] == [
            (us(5), 1, "send"), (us(6), 1, "send"), (us(8), 2, "recv"), (us(8), 2, "send"), (us(12), 0, "recv")]
        s1, s_other, r1, s2, r2 = ev
        assert (s1["dest"], s1["tag"], s1["com"], s1["len"]) == (2, 7, -1, 0)
        assert (r1["src"], r1["tag"], r1["sendptr"]) == (1, 7, 1)
        assert (s2["dest"], r2["src"], r2["sendptr"]) == (0, 2, 4)
        assert s_other["dest"] == -1
        assert t.problems()["unresolved_reference"]["count"] == 1


def test_a_flow_end_without_args_has_its_starts(tmp_path, cache):
    """EARL's output gives a receive's len (and com) only where they differ from its send's,
    since the trace viewer merges both ends' args: an end without them has the start's."""
    events = [
        dict(ph="s", name="m", cat="message", id=1, ts=1, pid=0, tid=0, args=dict(tag=5, len=40, com=2)),
        dict(ph="f", name="m", cat="message", id=1, ts=3, pid=0, tid=1, bp="e"),
        dict(ph="s", name="m", cat="message", id=2, ts=4, pid=0, tid=0, args=dict(tag=6, len=40)),
        dict(ph="f", name="m", cat="message", id=2, ts=6, pid=0, tid=1, bp="e", args=dict(len=8)),
    ]
    with open_json(tmp_path, events, cache=cache) as t:
        s1, r1, s2, r2 = scan(t)
        assert (r1["type"], r1["tag"], r1["len"], r1["com"]) == ("recv", 5, 40, 2)
        assert (s2["len"], r2["type"], r2["tag"], r2["len"], r2["com"]) == (40, "recv", 6, 8, -1)


def test_written_flow_ends_repeat_no_arg_of_their_start(tmp_path):
    """chrome://tracing's importer warns of every arg both ends of a flow give."""
    path = tmp_path / "g.json"
    generate(str(path), format="chrome", events=3000, locations=3, seed=11)
    events = json.loads(path.read_text())["traceEvents"]
    starts = {e["id"]: e for e in events if e["ph"] == "s"}
    ends = [e for e in events if e["ph"] == "f"]
    assert ends and all(e["id"] in starts for e in ends)
    for e in ends:
        assert not set(e.get("args", {})) & set(starts[e["id"]]["args"]) - {"len"}
        if "len" in e.get("args", {}):
            assert e["args"]["len"] != starts[e["id"]]["args"]["len"]


def test_flow_v2_binds_slices(tmp_path, cache):
    events = [X("producer", 1, 10, pid=1, tid=1, bind_id="0xa", flow_out=True),
              X("consumer", 20, 5, pid=1, tid=2, bind_id="0xa", flow_in=True)]
    with open_json(tmp_path, events, cache=cache) as t:
        ev = scan(t)
        assert [(e["time"], e["type"]) for e in ev] == [
            (us(1), "enter"), (us(1), "send"), (us(11), "exit"), (us(20), "enter"), (us(20), "recv"), (us(25), "exit")]
        assert ev[1]["tag"] == 10 and ev[1]["enterptr"] == 1 and ev[4]["sendptr"] == 2 and ev[4]["enterptr"] == 4


def test_async_begin_end_nest_last_in_first_out(tmp_path, cache):
    a = lambda ph, ts, tid: dict(ph=ph, name="req", cat="net", id="0x10", ts=ts, pid=1, tid=tid)
    events = [a("b", 1, 1), a("b", 2, 2), a("e", 3, 2), a("e", 4, 1),
              dict(ph="S", name="old", cat="net", id=5, ts=5, pid=1, tid=1),
              dict(ph="F", name="old", cat="net", id=5, ts=6, pid=1, tid=2),
              dict(ph="n", name="mark", cat="net", id="0x10", ts=7, pid=1, tid=1)]
    with open_json(tmp_path, events, cache=cache) as t:
        ev = scan(t)
        assert [(e["type"], e["loc"]) for e in ev] == [
            ("send", 0), ("send", 1), ("recv", 1), ("recv", 0), ("send", 0), ("recv", 1), ("async_instant", 0)]
        assert [e["tag"] for e in ev[:6]] == [16, 16, 16, 16, 5, 5]
        assert ev[2]["sendptr"] == 2 and ev[3]["sendptr"] == 1 and ev[5]["sendptr"] == 5
        assert (ev[6]["data1"], ev[6]["data2"]) == ("mark", "net")


# ------------------------------------------------------------------ instants, counters
def test_instants_and_counters(tmp_path, cache):
    events = [
        dict(ph="i", name="tick", cat="sys", s="g", ts=1.5, pid=1, tid=1),
        dict(ph="C", name="mem", ts=2, pid=1, args=dict(heap=10, stack=2.5, note="x")),
        dict(ph="C", name="ctr", ts=3, pid=1, args=dict(value=3)),
        dict(ph="C", name="mem", ts=4, pid=1, args=dict(heap=12)),
    ]
    with open_json(tmp_path, events, cache=cache) as t:
        ev = scan(t)
        assert (ev[0]["type"], ev[0]["time"], ev[0]["data1"], ev[0]["data2"]) == ("instant", us(1.5), "tick", "sys")
        samples = [(e["time"], e["loc"], e["metric"], e["value"]) for e in ev[1:]]
        # The counters have no tid: a location of their own, after (1, 1).
        assert samples == [(us(2), 1, "mem.heap", 10), (us(2), 1, "mem.stack", 2.5),
                           (us(3), 1, "ctr", 3), (us(4), 1, "mem.heap", 12)]
        assert isinstance(samples[1][3], float) and isinstance(samples[0][3], int)
        assert [m["name"] for m in t.metrics()] == ["mem.heap", "mem.stack", "ctr"]
        assert set(t.types()) >= {"instant", "metric"}


def test_fractional_microseconds_are_exact_to_the_nanosecond(tmp_path):
    with open_json(tmp_path, [X("a", 1234567.891, 0.001), X("b", -2.5, 1)]) as t:
        times = [e["time"] for e in scan(t)]
        assert times == [-2500 / 1e9, -1500 / 1e9, 1234567891 / 1e9, 1234567892 / 1e9]


# ------------------------------------------------------------------ containers and detection
SLICES = [X("a", 1, 2), X("b", 4, 1, tid=2)]
EXPECTED = [(us(1), 0, "enter", "a", 0), (us(3), 0, "exit", "a", 1),
            (us(4), 1, "enter", "b", 0), (us(5), 1, "exit", "b", 3)]


@pytest.mark.parametrize("text", [
    json.dumps({"displayTimeUnit": "ns", "otherData": {"traceEvents": 5}, "traceEvents": SLICES, "z": [1]}),
    json.dumps(SLICES, indent=2),
    "[" + json.dumps(SLICES[0]) + ",\n" + json.dumps(SLICES[1]),          # no `]`
    "[" + json.dumps(SLICES[0]) + ",\n" + json.dumps(SLICES[1]) + ",\n",  # no `]`, a comma
], ids=["object", "array", "unterminated", "unterminated-comma"])
@pytest.mark.parametrize("name", ["t.json", "t.json.gz", "t.trace"])
def test_containers_gzip_and_detection(tmp_path, text, name, cache):
    with earl.EventTrace(write(tmp_path, text, name), cache=cache) as t:   # format detected
        assert t.format() == "chrome"
        assert brief(t) == EXPECTED


def test_an_object_named_json_is_chrome_wherever_traceevents_is(tmp_path):
    text = json.dumps({"deviceProperties": ["x" * 5000], "traceEvents": SLICES})
    with earl.EventTrace(write(tmp_path, text, "late.json.gz")) as t:
        assert brief(t) == EXPECTED
    with pytest.raises(earl.EarlError, match="cannot detect"):
        earl.EventTrace(write(tmp_path, text, "late.trace"))


def test_not_chrome_json_is_not_detected(tmp_path):
    path = write(tmp_path, json.dumps({"events": SLICES}), "t.txt")
    with pytest.raises(earl.EarlError, match="cannot detect"):
        earl.EventTrace(path)
    with pytest.raises(earl.EarlError, match="without a traceEvents array"):
        earl.EventTrace(path, format="chrome")
    with pytest.raises(earl.EarlError, match="without a traceEvents array"):
        earl.EventTrace(write(tmp_path, json.dumps({"events": SLICES}), "t.json"))   # detected by name


# ------------------------------------------------------------------ malformed input
@pytest.mark.parametrize("event, what", [
    (X("a", 1, -1), "negative dur"),
    (dict(ph="X", name="a", ts=1, pid=1, tid=1), "no dur"),
    (dict(ph="B", name="a", pid=1, tid=1), "no ts"),
    (dict(ph="B", name="a", ts="1", pid=1, tid=1), "ts is not a number"),
    (dict(name="a", ts=1, pid=1, tid=1), "no ph"),
    (dict(ph="BE", ts=1, pid=1, tid=1), "not a one-letter"),
    (dict(ph="s", ts=1, pid=1, tid=1), "without an id"),
    (X("a", 1e300, 1), "out of range"),
    (5, "not an object"),
])
def test_bad_events_name_file_index_and_byte(tmp_path, event, what, cache):
    text = '[{"ph":"i","name":"ok","ts":0,"pid":1,"tid":1},\n' + json.dumps(event) + "]"
    path = write(tmp_path, text)
    with pytest.raises(earl.EarlError) as info:
        earl.EventTrace(path, format="chrome", cache=cache)
    message = str(info.value)
    assert path in message and what in message
    if event == 5:
        assert "event 1 (ending at byte %d)" % (len(text) - 1) in message
    else:
        assert "event 1 (byte %d)" % (text.index("\n") + 1) in message


@pytest.mark.parametrize("text, what", [
    ('{"traceEvents": 3}', "traceEvents is not an array"),
    ('{"traceEvents": [], "traceEvents": []}', "a second traceEvents"),
    ("17", "neither an object nor an array"),
    ('[{"ph":"i","ts":1,"pid":1,"tid":1}] x', "byte"),
    ('[{"args":' + "[" * 100000, "nested deeper than 1000 levels"),
])
def test_bad_documents(tmp_path, text, what):
    path = write(tmp_path, text)
    with pytest.raises(earl.EarlError, match=what) as info:
        earl.EventTrace(path, format="chrome", strict=True)
    assert path in str(info.value)


def event_spans(events, separator=",\n"):
    """The text of a bare array of `events` and each event's [start, end) bytes."""
    text, spans = "[", []
    for i, e in enumerate(events):
        if i:
            text += separator
        piece = json.dumps(e)
        spans.append((len(text), len(text) + len(piece)))
        text += piece
    return text + "]\n", spans


CUT_EVENTS = [X("a", 1, 2), dict(ph="s", cat="m", id=1, ts=1.5, pid=1, tid=1),
              dict(ph="f", cat="m", id=1, ts=2, pid=1, tid=2, bp="e"),
              dict(ph="C", name="n", ts=2, pid=1, args={"v": 1})]


def whole_scans(tmp_path):
    """The events of the traces of CUT_EVENTS' first k events, k = 0..4."""
    wholes = []
    for k in range(len(CUT_EVENTS) + 1):
        with open_json(tmp_path, CUT_EVENTS[:k], name="whole%d.json" % k, format="chrome") as t:
            wholes.append(scan(t))
    return wholes


def check_cut(path, wholes, complete, inside_event, damaged):
    """A cut file: an error when strict, and when no whole event precedes the damage;
    otherwise the whole events before it, and the damage reported."""
    if damaged:
        with pytest.raises(earl.EarlError) as info:
            earl.EventTrace(path, format="chrome", strict=True)
        assert path in str(info.value)
    if damaged and complete == 0:
        with pytest.raises(earl.EarlError) as info:
            earl.EventTrace(path, format="chrome")
        assert path in str(info.value)
        if inside_event is not None:
            assert "in event %d from byte %d" % inside_event in str(info.value)
        return
    with earl.EventTrace(path, format="chrome") as t:
        assert scan(t) == wholes[complete]
        problems = t.problems()
        if damaged:
            d = problems["damaged"]
            assert d["count"] == 1 and d["locations"][0]["loc"] == -1
            assert d["locations"][0]["record"] == complete + 1
            message = d["locations"][0]["message"]
            assert path in message and "the %d events of the array before it were read" % complete in message
            if inside_event is not None:
                assert "in event %d from byte %d" % inside_event in message
        else:
            assert "damaged" not in problems


def test_every_cut_of_a_bare_array_reads_the_whole_events(tmp_path):
    text, spans = event_spans(CUT_EVENTS)
    wholes = whole_scans(tmp_path)
    for n in range(len(text)):
        path = write(tmp_path, text[:n], "cut.json")
        inside = [(i, a) for i, (a, b) in enumerate(spans) if a < n < b]
        complete = sum(1 for a, b in spans if b <= n)
        if n == 0:
            with pytest.raises(earl.EarlError, match="empty"):
                earl.EventTrace(path, format="chrome")
            continue
        # Cut between two events: the array's missing `]`, which the format allows.
        check_cut(path, wholes, complete, inside[0] if inside else None, damaged=bool(inside))


def test_every_cut_of_an_object_container_reads_the_whole_events_before_it(tmp_path):
    head, tail = '{"traceEvents": ', ', "displayTimeUnit": "ms"}'
    array, spans = event_spans(CUT_EVENTS)
    array = array.rstrip("\n")
    text = head + array + tail
    spans = [(a + len(head), b + len(head)) for a, b in spans]
    wholes = whole_scans(tmp_path)
    for n in range(1, len(text)):
        path = write(tmp_path, text[:n], "cut.json")
        inside = [(i, a) for i, (a, b) in enumerate(spans) if a < n < b]
        complete = sum(1 for a, b in spans if b <= n)
        check_cut(path, wholes, complete, inside[0] if inside else None, damaged=True)


def test_every_cut_of_a_gzip_file_fails_or_reads_whole_events(tmp_path):
    text, spans = event_spans(CUT_EVENTS)
    data = gzip.compress(text.encode())
    full = len(CUT_EVENTS)
    for n in range(1, len(data)):
        path = tmp_path / "cut.json.gz"
        path.write_bytes(data[:n])
        try:
            with earl.EventTrace(str(path), format="chrome") as t:
                assert len(t) <= 2 * full + 2
        except earl.EarlError as error:
            assert str(path) in str(error)


def test_random_bytes_never_crash(tmp_path):
    rng = random.Random(5)
    text, _ = event_spans(CUT_EVENTS)
    for i in range(300):
        b = bytearray(text.encode())
        for _ in range(rng.randint(1, 4)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        path = tmp_path / "r.json"
        path.write_bytes(bytes(b))
        try:
            with earl.EventTrace(str(path), format="chrome") as t:
                scan(t)
        except earl.EarlError as error:
            assert str(path) in str(error)


# ------------------------------------------------------------------ writer and round trips
COMPARED = ("pos", "loc", "time", "type", "enterptr", "region", "dest", "src", "tag", "len", "sendptr")


def same_events(a, b):
    """Events of two traces agree, but for the instants the Chrome writer adds for records
    ALOG has no form for (the generator's program begin/end): positions and pointers are
    compared counting the other events only."""
    def kept(events):
        rest = [e for e in events if e["type"] != "instant"]
        number = {e["pos"]: i for i, e in enumerate(rest, 1)}
        number[0] = 0
        out = []
        for e in rest:
            d = {k: e.get(k) for k in COMPARED}
            for k in ("pos", "enterptr", "sendptr"):
                if d[k] is not None:
                    d[k] = number[d[k]]
            out.append(d)
        return out
    x, y = kept(a), kept(b)
    assert len(x) == len(y)
    assert x == y


@pytest.mark.parametrize("out", ["o.json", "o.json.gz"])
@pytest.mark.parametrize("options", [dict(locations=4, seed=3), dict(locations=6, pattern="neighbors",
                                                                     late_sender_rate=0.3, seed=9)])
def test_alog_json_round_trip(tmp_path, out, options):
    src = str(tmp_path / "in.alog")
    generate(src, events=4000, **options)
    summary = convert(src, tmp_path / out)
    assert summary["output_format"] == "chrome" and summary["dropped"] == {}
    opener = gzip.open if out.endswith(".gz") else open
    with opener(tmp_path / out, "rt") as f:
        doc = json.load(f)                      # plain JSON for any tool
    evs = doc["traceEvents"]
    starts = {e["id"] for e in evs if e["ph"] == "s"}
    assert starts and starts == {e["id"] for e in evs if e["ph"] == "f"}
    for tid in {e["tid"] for e in evs if e["ph"] in "BE"}:
        depth = 0
        for e in evs:
            if e.get("tid") == tid and e["ph"] in "BE":
                depth += 1 if e["ph"] == "B" else -1
                assert depth >= 0
        assert depth == 0
    with earl.EventTrace(src) as a, earl.EventTrace(str(tmp_path / out)) as c:
        same_events(scan(a), scan(c))
        assert [a.locsym(l) for l in range(a.nrlocs())] == [c.locsym(l) for l in range(c.nrlocs())]
        # Chrome JSON declares no regions: those entered come back, in order of appearance.
        assert set(c.regions()) == {e["region"] for e in scan(a) if e["type"] == "enter"}


def test_gen_writes_chrome(tmp_path):
    truth = generate(str(tmp_path / "g.json"), format="chrome", events=3000, locations=3, seed=11)
    generate(str(tmp_path / "g.alog"), events=3000, locations=3, seed=11)
    with earl.EventTrace(str(tmp_path / "g.alog")) as a, earl.EventTrace(str(tmp_path / "g.json")) as c:
        assert len([e for e in scan(c) if e["type"] != "instant"]) == truth["events"]
        same_events(scan(a), scan(c))


@pytest.mark.skipif("otf2" not in earl._core.generator_formats(), reason="no OTF2 in this build")
def test_gen_collectives_match_otf2(tmp_path):
    """The generator's collectives (MPI_Allreduce, ...) written as Chrome JSON come back as
    collective exits with root, sent and recvd as the OTF2 output of the same run has them;
    OTF2's program begin/end are instants here; com (no field of the writer's) is -1."""
    generate(str(tmp_path / "g.otf2"), events=3000, locations=4, seed=5)
    generate(str(tmp_path / "g.json"), events=3000, locations=4, seed=5)
    keys = COMPARED + ("root", "sent", "recvd")
    with earl.EventTrace(str(tmp_path / "g.otf2")) as o, earl.EventTrace(str(tmp_path / "g.json")) as c:
        a, b = scan(o), scan(c)
        assert len(a) == len(b) and any("root" in e for e in b)
        for x, y in zip(a, b):
            if x["type"] in ("program_begin", "program_end"):
                assert (y["type"], y["data1"], y["time"]) == ("instant", x["type"], x["time"])
                continue
            assert {k: x.get(k) for k in keys} == {k: y.get(k) for k in keys}


def test_cli_gen_and_convert(tmp_path):
    out = tmp_path / "cli.json"
    earl_cli = str(Path(sys.executable).with_name("earl"))
    subprocess.run([earl_cli, "gen", "-f", "chrome", "-e", "500", str(out)], check=True)
    subprocess.run([earl_cli, "convert", str(out), str(tmp_path / "cli.alog")], check=True)
    with earl.EventTrace(str(out)) as t, earl.EventTrace(str(tmp_path / "cli.alog")) as a:
        assert t.format() == "chrome" and len(t) > 0
        same_events(scan(t), scan(a))


def test_names_are_escaped_and_unicode_kept(tmp_path):
    src = tmp_path / "n.json"
    src.write_text(json.dumps([X('q"uote\\ \u00e9\n', 1, 1), dict(ph="M", name="thread_name", pid=1, tid=1,
                                                                args=dict(name="t\u00fcr"))]))
    summary = convert(str(src), tmp_path / "back.json")
    assert summary["dropped"] == {}
    with earl.EventTrace(str(src)) as a, earl.EventTrace(str(tmp_path / "back.json")) as b:
        same_events(scan(a), scan(b))
        assert b.regions() == ['q"uote\\ \u00e9\n'] and b.locsym(0) == "t\u00fcr"


# ------------------------------------------------------------------ random access
def test_random_access_equals_scan(tmp_path, cache):
    rng = random.Random(1)
    events = []
    for i in range(3000):
        tid = rng.randrange(4)
        ts = rng.randrange(0, 10000) + rng.choice([0, 0.25, 0.5])
        kind = rng.randrange(5)
        if kind < 3:
            events.append(X("r%d" % rng.randrange(6), ts, rng.choice([0, 1, 5, 50]), tid=tid))
        elif kind == 3:
            events.append(dict(ph="s" if i % 2 else "f", cat="m", id=i // 2, ts=ts, pid=1, tid=tid))
        else:
            events.append(dict(ph="C", name="c", ts=ts, pid=1, args={"v": i}))
    with open_json(tmp_path, events, cache=cache, bdist=97, hsize=13) as t:
        whole = scan(t)
        times = [e["time"] for e in whole]
        assert times == sorted(times)
        for p in rng.sample(range(1, len(whole) + 1), 400):
            assert t.event(p) == whole[p - 1]


# ------------------------------------------------------------------ the other languages
def test_lua_opens_a_chrome_trace(tmp_path):
    lua = pytest.importorskip("earl.lua").runtime()
    lua.globals().path = write(tmp_path, SLICES)
    assert lua.execute("local e = EventTrace(path) return e:event(2).region .. e:format()") == "achrome"


def test_tcl_opens_a_chrome_trace(tmp_path):
    from test_tcl_common import LIBRARY, interp
    if LIBRARY is None:
        pytest.skip("no Tcl extension")
    tcl = interp()
    tcl.tk.call("set", "path", write(tmp_path, SLICES))
    assert tcl.eval("EventTrace c -file $path; c event a 3; set a(region)") == "b"


# ------------------------------------------------------------------ a real producer
def test_pytorch_profiler_trace(tmp_path):
    """PyTorch's profiler (torch==2.13.0, `make setup` installs it where it can) runs a tiny
    model; EARL reads its export_chrome_trace. References: the profiler's own events() and
    key_averages(), and the JSON read by Python's json module."""
    torch = pytest.importorskip("torch")
    from collections import Counter
    from torch.profiler import ProfilerActivity, profile
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(16, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
    x = torch.randn(4, 16)
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        for _ in range(3):
            model(x).sum().backward()
    path = str(tmp_path / "torch.json")
    prof.export_chrome_trace(path)
    with open(path) as f:
        doc = json.load(f)
    slices = [e for e in doc["traceEvents"] if e["ph"] == "X"]
    flows = [e for e in doc["traceEvents"] if e["ph"] in "sf"]
    with earl.EventTrace(path) as t:
        ev = scan(t)
        entered = Counter(e["region"] for e in ev if e["type"] == "enter")
        assert entered == Counter(e["name"] for e in slices)
        assert all(v["count"] == 0 for v in t.problems().values())   # the slices nest
        # The profiler's own list of operators: every one is a slice; the trace adds the
        # operators the profiler folds into a caller of the same name (their External id
        # is not among events()' ids).
        ids = {fe.id for fe in prof.events()}
        extra = Counter(e["name"] for e in slices if e.get("cat") == "cpu_op" and e["args"]["External id"] not in ids)
        ops = Counter({n: c for n, c in entered.items() if t.group(n) == "cpu_op"})
        assert ops == Counter(fe.name for fe in prof.events()) + extra
        assert ops == Counter({k.key: k.count for k in prof.key_averages()}) + extra
        # Times: ts microseconds exactly, as the text has them.
        first = min(slices, key=lambda e: (e["ts"], -e["dur"]))
        enter = next(e for e in ev if e["type"] == "enter")
        assert enter["region"] == first["name"]
        assert enter["time"] == pytest.approx(first["ts"] * 1e-6, rel=1e-15)
        # The forward-backward flows are messages, all matched.
        assert sum(e["type"] == "send" for e in ev) == sum(e["ph"] == "s" for e in flows)
        assert all(e["sendptr"] > 0 for e in ev if e["type"] == "recv")
        names = {t.locsym(l) for l in range(t.nrlocs())}
        assert "Spans / PyTorch Profiler" in names
        threads = {e["args"]["name"] for e in doc["traceEvents"] if e["ph"] == "M" and e["name"] == "thread_name"}
        assert threads <= names


def test_unnamed_locations_stay_unnamed_through_json(tmp_path):
    src = tmp_path / "u.alog"
    src.write_text("-3 0 0 2 0 0\n-13 0 1 2 0 0 main\n-15 1 0 0 0 0 second\n1 0 0 0 0 10\n1 1 0 0 0 11\n"
                   "2 0 0 0 0 20\n2 1 0 0 0 21\n")
    convert(str(src), tmp_path / "u.json")
    with earl.EventTrace(str(src)) as a, earl.EventTrace(str(tmp_path / "u.json")) as c:
        assert [c.locsym(l) for l in range(2)] == [a.locsym(l) for l in range(2)] == [0, "second"]
        same_events(scan(a), scan(c))


def test_persisted_index_serves_the_same_events(tmp_path, monkeypatch):
    monkeypatch.setenv("EARL_INDEX_MIN_BYTES", "0")
    path = str(tmp_path / "p.json")
    generate(path, format="chrome", events=2000, locations=3, seed=2)
    states, scans = [], []
    for _ in range(2):
        with earl.EventTrace(path, index=True, bdist=100) as t:
            states.append(t.index_info()["state"])
            scans.append(scan(t))
    assert states == ["built", "loaded"] and scans[0] == scans[1]


def test_a_restored_open_never_parses_the_json(tmp_path, monkeypatch):
    """With a persisted index the events come from the index's cache and the definitions
    from its state: the JSON is not parsed again. Proof: its middle (beyond the bytes the
    index's identity samples, first and last 16 KiB) replaced by bytes that are no JSON at
    all, same size and modification time, still opens from the index with the same events
    and no damage, while the file itself reads as damaged (an error when strict)."""
    import os
    monkeypatch.setenv("EARL_INDEX_MIN_BYTES", "0")
    monkeypatch.setenv("EARL_INDEX_DIR", str(tmp_path / "indexes"))
    path = tmp_path / "p.json"
    generate(str(path), format="chrome", events=6000, locations=3, seed=2)
    with earl.EventTrace(str(path), index=True, bdist=100) as t:
        assert t.index_info()["state"] == "built"
        names = [t.locsym(l) for l in range(t.nrlocs())]
        events, regions = scan(t), t.regions()
    data = path.read_bytes()
    sample = 16 * 1024
    assert len(data) > 3 * sample
    stat = path.stat()
    path.write_bytes(data[:sample] + b"\x00" * (len(data) - 2 * sample) + data[-sample:])
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    with pytest.raises(earl.EarlError):
        earl.EventTrace(str(path), index=False, strict=True)
    with earl.EventTrace(str(path), index=True, bdist=100) as t:
        assert t.index_info()["state"] == "loaded", t.index_info()
        assert [t.locsym(l) for l in range(t.nrlocs())] == names and t.regions() == regions
        assert scan(t) == events
        assert "damaged" not in t.problems()



@pytest.mark.skipif("otf2" not in earl._core.generator_formats(), reason="no OTF2 in this build")
def test_convert_keeps_collectives(tmp_path):
    """earl convert OTF2 -> JSON keeps each collective exit's root, sent and recvd (args of
    its E event) as the OTF2 input has them."""
    src = str(tmp_path / "g.otf2")
    generate(src, events=3000, locations=4, seed=5)
    summary = convert(src, tmp_path / "c.json")
    assert summary["collective_exits_plain"] == 0
    keys = ("type", "time", "loc", "region", "root", "sent", "recvd")
    with earl.EventTrace(src) as o, earl.EventTrace(str(tmp_path / "c.json")) as c:
        a = [{k: e.get(k) for k in keys} for e in scan(o) if "root" in e]
        b = [{k: e.get(k) for k in keys} for e in scan(c) if "root" in e]
    assert a and a == b
