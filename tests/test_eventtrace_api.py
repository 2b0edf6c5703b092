"""The EARL 2.0 EventTrace API in Python: one test per line A1-A18 of
../shared/notes/earl-conformance.md, with values worked out by hand on small ALOG traces
(docs/api-contract.md is the exact contract), plus error cases and the Python extras."""
import contextlib
import gc
import os

import pytest

import earl
from alog_traces import write_alog

# ----------------------------------------------------------------------------------------
# The hand-written trace T and its events, worked out by hand from the formal model.
T_LINES = [
    "-3 0 0 3 0 0",
    "-13 0 1 2 0 0 green:boxes main loop",
    "-13 0 3 4 0 0 MPI_Send",
    "-9 0 0 5 0 0 start",
    "-15 1 0 0 0 0 Server",
    "1 0 0 0 0 100",              # 1  loc0 enter main loop
    "1 1 0 0 0 110",              # 2  loc1 enter main loop
    "3 0 0 0 0 120",              # 3  loc0 enter MPI_Send
    "-101 0 0 1 0 130 7 64",      # 4  loc0 send -> 1 tag 7 len 64
    "4 0 0 0 0 140",              # 5  loc0 exit MPI_Send
    "-102 1 0 0 0 150 7 64",      # 6  loc1 recv <- 0 tag 7, matches 4
    "5 2 0 42 0 160",             # 7  loc2 start, data 42
    "-101 0 0 1 0 200 1 10",      # 8  loc0 send -> 1 tag 1
    "-101 2 0 1 0 210 2 20",      # 9  loc2 send -> 1 tag 2
    "-101 0 0 2 0 220 1 30",      # 10 loc0 send -> 2 tag 1
    "-102 1 0 0 0 230 1 10",      # 11 loc1 recv <- 0 tag 1, matches 8
    "2 1 0 0 0 240",              # 12 loc1 exit main loop
    "2 0 0 0 0 250",              # 13 loc0 exit main loop
]
M = 13


def us(x):
    return x * 1e-6


T_EVENTS = {
    1: dict(pos=1, loc=0, time=us(100), type="enter", enterptr=0, region="main loop"),
    2: dict(pos=2, loc=1, time=us(110), type="enter", enterptr=0, region="main loop"),
    3: dict(pos=3, loc=0, time=us(120), type="enter", enterptr=1, region="MPI_Send"),
    4: dict(pos=4, loc=0, time=us(130), type="send", enterptr=3, dest=1, tag=7, com=-1, len=64),
    5: dict(pos=5, loc=0, time=us(140), type="exit", enterptr=3, region="MPI_Send"),
    6: dict(pos=6, loc=1, time=us(150), type="recv", enterptr=2, src=0, tag=7, com=-1, len=64,
            sendptr=4),
    7: dict(pos=7, loc=2, time=us(160), type="start", enterptr=0, data1=42, data2=None),
    8: dict(pos=8, loc=0, time=us(200), type="send", enterptr=1, dest=1, tag=1, com=-1, len=10),
    9: dict(pos=9, loc=2, time=us(210), type="send", enterptr=0, dest=1, tag=2, com=-1, len=20),
    10: dict(pos=10, loc=0, time=us(220), type="send", enterptr=1, dest=2, tag=1, com=-1, len=30),
    11: dict(pos=11, loc=1, time=us(230), type="recv", enterptr=2, src=0, tag=1, com=-1, len=10,
             sendptr=8),
    12: dict(pos=12, loc=1, time=us(240), type="exit", enterptr=2, region="main loop"),
    13: dict(pos=13, loc=0, time=us(250), type="exit", enterptr=1, region="main loop"),
}

# stacks after each event, per location (hand-worked)
T_STACK0 = {0: [], 1: [1], 2: [1], 3: [1, 3], 4: [1, 3], 5: [1], 6: [1], 7: [1], 8: [1], 9: [1],
            10: [1], 11: [1], 12: [1], 13: []}
T_STACK1 = {p: ([2] if 2 <= p <= 11 else []) for p in range(0, M + 1)}
T_QUEUE = {0: [], 1: [], 2: [], 3: [], 4: [4], 5: [4], 6: [], 7: [], 8: [8], 9: [8, 9],
           10: [8, 9, 10], 11: [9, 10], 12: [9, 10], 13: [9, 10]}


@pytest.fixture
def tfile(tmp_path):
    return write_alog(tmp_path, T_LINES, "t.alog")


@pytest.fixture
def t(EventTrace, tfile):
    tr = EventTrace(tfile)
    yield tr
    try:
        tr.close()
    except Exception:
        pass


def assert_event_equal(got, want):
    assert list(got) == list(want), f"attribute order of event {want['pos']}"
    for k, v in want.items():
        if k == "time":
            assert got[k] == pytest.approx(v, rel=1e-14, abs=0)
            assert isinstance(got[k], float)
        else:
            assert got[k] == v, f"event {want['pos']} attribute {k}"
            assert type(got[k]) is type(v), f"event {want['pos']} attribute {k} type"


@contextlib.contextmanager
def raises_earl(words=()):
    """EarlError whose message contains every word (case-insensitive); a word may be a tuple
    of alternatives ("src", "source")."""
    with pytest.raises(earl.EarlError) as info:
        yield info
    msg = str(info.value).lower()
    missing = [w for w in words
               if not any(a.lower() in msg for a in ((w,) if isinstance(w, str) else w))]
    if missing:   # raised outside the handler, so the EarlError is not chained
        raise AssertionError(f"error message {str(info.value)!r} lacks {missing!r}") from None


def current(tr):
    """The iterator position, observed through event() (0 if it raises)."""
    try:
        return tr.event()["pos"]
    except earl.EarlError:
        return 0


# ----------------------------------------------------------------------------------------
# A lines
def test_A1_constructor_file_required_format_detected_defaults(EventTrace, tfile):
    tr = EventTrace(tfile)          # format None = detect, bdist 10000, hsize 1000
    assert tr.format() == "alog"
    assert tr.file() == tfile
    assert len(tr) == M
    with pytest.raises(TypeError):
        EventTrace()                # file is required
    # explicit defaults give the same trace
    tr2 = EventTrace(tfile, None, 10000, 1000)
    assert [tr2.event(p) for p in range(1, M + 1)] == [tr.event(p) for p in range(1, M + 1)]


def test_A2_positional_and_keyword_construction(EventTrace, tfile):
    a = EventTrace(tfile, "alog", 3, 2)
    b = EventTrace(file=tfile, format="alog", bdist=3, hsize=2)
    c = EventTrace(tfile, bdist=0, hsize=1)
    for tr in (a, b, c):
        assert isinstance(tr, earl.EventTrace)
        assert tr.format() == "alog"
        assert_event_equal(tr.event(6), T_EVENTS[6])


def test_A3_attributes_of_every_event_type(t):
    for pos, want in T_EVENTS.items():
        assert_event_equal(t.event(pos), want)
    assert list(t.event(1)) == ["pos", "loc", "time", "type", "enterptr", "region"]
    assert list(t.event(4)) == ["pos", "loc", "time", "type", "enterptr", "dest", "tag", "com",
                                "len"]
    assert list(t.event(6)) == ["pos", "loc", "time", "type", "enterptr", "src", "tag", "com",
                                "len", "sendptr"]
    assert list(t.event(7)) == ["pos", "loc", "time", "type", "enterptr", "data1", "data2"]


def test_A4_event_returns_dict_pos_omitted_is_iterator(t):
    ev = t.event(5)
    assert isinstance(ev, dict)
    assert_event_equal(ev, T_EVENTS[5])
    assert t.jump(7) == 7
    assert_event_equal(t.event(), T_EVENTS[7])
    assert t.next() == 8
    assert_event_equal(t.event(), T_EVENTS[8])


def test_A5_attributes_and_values_match_event(t):
    for pos, want in T_EVENTS.items():
        attrs, vals = t.attributes(pos), t.values(pos)
        assert isinstance(attrs, list) and isinstance(vals, list)
        assert attrs == list(want)
        assert dict(zip(attrs, vals)) == t.event(pos)
        assert vals[:2] == [pos, want["loc"]]
    t.jump(11)
    assert t.attributes() == list(T_EVENTS[11])
    assert t.values() == list(t.event(11).values())


def test_A6_missing_event_raises_also_at_iterator_0(t):
    for f in (t.event, t.attributes, t.values):
        for pos in (0, -1, M + 1, 10 ** 9):
            with raises_earl():
                f(pos)
        with raises_earl():
            f()                      # iterator 0
    t.jump(M)
    t.event()                        # exists now


def test_A7_stack_after_pos_ascending_pos0_empty(t):
    for p in range(0, M + 1):
        assert t.stack(0, p) == T_STACK0[p], f"stack(0, {p})"
        assert t.stack(1, p) == T_STACK1[p], f"stack(1, {p})"
        assert t.stack(2, p) == [], f"stack(2, {p})"
    # pos omitted = iterator (0 at start)
    assert t.stack(0) == []
    t.jump(4)
    assert t.stack(0) == [1, 3]


def test_A8_queue_wildcards_oldest_first_pos0_empty(t):
    for p in range(0, M + 1):
        assert t.queue(-1, -1, p) == T_QUEUE[p], f"queue(-1, -1, {p})"
    assert t.queue(0, -1, 10) == [8, 10]
    assert t.queue(-1, 1, 10) == [8, 9]
    assert t.queue(2, 1, 10) == [9]
    assert t.queue(0, 2, 10) == [10]
    assert t.queue(1, -1, 10) == []
    assert t.queue(0, 1, 4) == [4]
    assert t.queue(1, 0, 4) == []
    assert t.queue(-1, -1, 0) == []
    assert t.queue(-1, -1) == []     # iterator 0
    t.jump(10)
    assert t.queue(-1, -1) == [8, 9, 10]
    assert t.queue(0, -1) == [8, 10]


def test_A9_explicit_pos_never_moves_iterator(t):
    assert current(t) == 0
    t.event(5); t.attributes(6); t.values(7); t.stack(0, 3); t.queue(-1, -1, 9)
    assert current(t) == 0
    assert t.jump(2) == 2
    t.event(13); t.values(1); t.stack(1, 12); t.queue(0, 1, 10); t.attributes(M)
    assert current(t) == 2
    assert t.next() == 3             # continues from 2, not from the explicit positions


def test_A10_iterator_starts_at_0_and_reset(t):
    assert current(t) == 0
    assert t.next() == 1
    t.jump(9)
    assert t.reset() is None
    assert current(t) == 0
    assert t.stack(0) == [] and t.queue(-1, -1) == []
    assert t.next() == 1


def test_A11_jump_failure_keeps_iterator(t):
    assert t.jump(4) == 4
    for bad in (0, -1, -100, M + 1, 10 ** 12):
        assert t.jump(bad) == 0
        assert current(t) == 4
    assert t.jump(M) == M
    assert t.jump(1) == 1
    assert current(t) == 1


def test_A12_next_from_0_and_past_the_end(t):
    got = []
    while True:
        p = t.next()
        if not p:
            break
        got.append(p)
        assert current(t) == p
    assert got == list(range(1, M + 1))
    assert t.next() == 0
    assert current(t) == M


def test_A13_prev_stops_at_1_only_reset_reaches_0(t):
    assert t.prev() == 0             # at 0: no previous event
    assert current(t) == 0
    t.jump(3)
    assert t.prev() == 2
    assert t.prev() == 1
    assert t.prev() == 0
    assert current(t) == 1
    assert t.prev() == 0
    assert current(t) == 1
    t.reset()
    assert current(t) == 0


def test_A14_file_format_nrlocs_groups_group(t, tfile):
    assert t.file() == tfile
    assert t.format() == "alog"
    assert t.nrlocs() == 3
    assert t.groups() == ["All"]
    assert t.group("main loop") == "All"
    assert t.group("MPI_Send") == "All"
    with raises_earl(["no such region"]):
        t.group("no such region")


def test_A15_locsym_name_else_number(t):
    assert t.locsym(1) == "Server"
    assert t.locsym(0) == 0 and type(t.locsym(0)) is int
    assert t.locsym(2) == 2
    for bad in (-1, 3):
        with raises_earl([("loc", "location")]):
            t.locsym(bad)


def test_A16_regions_all_or_one_group(t):
    assert t.regions() == ["main loop", "MPI_Send"]
    assert t.regions("All") == ["main loop", "MPI_Send"]
    assert t.regions(None) == ["main loop", "MPI_Send"]
    with raises_earl(["nogroup"]):
        t.regions("nogroup")


def test_A17_types_and_eventTypes(t):
    assert t.types() == ["enter", "exit", "send", "recv", "start"]
    assert t.eventTypes() == t.types()


def _fds_on(path):
    """Open descriptors and memory mappings of the file in this process."""
    real = os.path.realpath(path)
    n = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            if os.path.realpath(os.readlink(f"/proc/self/fd/{fd}")) == real:
                n += 1
        except OSError:
            pass
    with open("/proc/self/maps") as maps:
        n += sum(1 for line in maps if line.rstrip().endswith(real))
    return n


def test_A18_deletion_frees_resources(EventTrace, tfile):
    before = _fds_on(tfile)
    for _ in range(50):
        tr = EventTrace(tfile, bdist=2, hsize=1)
        tr.jump(7); tr.event(3)
        del tr
    gc.collect()
    assert _fds_on(tfile) == before
    tr = EventTrace(tfile)
    tr.event(M)
    tr.close()
    assert _fds_on(tfile) == before


# ----------------------------------------------------------------------------------------
# error cases: EarlError whose message names the argument or the file
def test_error_event_positions(t):
    for pos in (0, M + 1, -1):
        with raises_earl(["pos"]):
            t.event(pos)
        with raises_earl(["pos"]):
            t.values(pos)
        with raises_earl(["pos"]):
            t.attributes(pos)


def test_error_stack_bad_loc_and_pos(t):
    for loc in (-1, 3, 100):
        with raises_earl([("loc", "location")]):
            t.stack(loc, 1)
    for pos in (M + 1, -1):
        with raises_earl(["pos"]):
            t.stack(0, pos)


def test_error_queue_bad_src_dest_pos(t):
    for src in (-2, 3):
        with raises_earl([("src", "source")]):
            t.queue(src, -1, 1)
    for dest in (-2, 3):
        with raises_earl([("dest", "destination")]):
            t.queue(-1, dest, 1)
    for pos in (M + 1, -1):
        with raises_earl(["pos"]):
            t.queue(-1, -1, pos)


def test_error_bad_bdist_hsize_format(EventTrace, tfile):
    with raises_earl(["bdist"]):
        EventTrace(tfile, bdist=-1)
    for h in (0, -1):
        with raises_earl(["hsize"]):
            EventTrace(tfile, hsize=h)
    with raises_earl([os.path.basename(tfile)]) as info:
        EventTrace(tfile, format="nosuchformat")
    msg = str(info.value).lower()
    assert "format" in msg or "nosuchformat" in msg


def test_repr_after_failed_construction_does_not_crash(tfile):
    """repr() of the object whose __init__ raised (pytest and debuggers show it in tracebacks)
    must not crash the interpreter; run in a subprocess so a crash fails only this test."""
    import subprocess
    import sys
    code = f"""
import sys, earl
for kw in (dict(bdist=-1), dict(format="nosuch"), dict()):
    try:
        earl.EventTrace({(tfile + '.missing')!r} if not kw else {tfile!r}, **kw)
    except earl.EarlError:
        tb = sys.exc_info()[2]
        selves = []
        while tb is not None:
            if "self" in tb.tb_frame.f_locals:
                selves.append(tb.tb_frame.f_locals["self"])
            tb = tb.tb_next
        for s in selves:
            for call in (repr, lambda s: s.event(1), len, lambda s: s.close()):
                try:
                    call(s)
                except earl.EarlError:
                    pass   # an error is fine; a crash is not
print("survived")
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "survived" in r.stdout, (r.returncode, r.stderr[-2000:])
    bare = ("import earl\nt = earl.EventTrace.__new__(earl.EventTrace)\n"
            "for call in (repr, len, lambda t: t.next(), lambda t: t.stack(0, 0)):\n"
            "    try:\n        call(t)\n    except earl.EarlError:\n        pass\n"
            "print('survived')")
    r = subprocess.run([sys.executable, "-c", bare], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "survived" in r.stdout, (r.returncode, r.stderr[-2000:])


def test_error_missing_file(EventTrace, tmp_path):
    missing = str(tmp_path / "does-not-exist.alog")
    with raises_earl(["does-not-exist.alog"]):
        EventTrace(missing)


def test_error_closed_trace(EventTrace, tfile):
    tr = EventTrace(tfile)
    tr.jump(2)
    tr.close()
    for call in (lambda: tr.event(1), lambda: tr.event(), lambda: tr.values(1),
                 lambda: tr.attributes(1), lambda: tr.stack(0, 1), lambda: tr.queue(-1, -1, 1),
                 lambda: tr.next(), lambda: tr.prev(), lambda: tr.jump(3), lambda: tr.nrlocs(),
                 lambda: tr.regions(), lambda: tr.types(), lambda: tr.locsym(0),
                 lambda: tr.problems(), lambda: list(tr), lambda: tr.to_numpy()):
        with raises_earl(["closed"]):
            call()


# ----------------------------------------------------------------------------------------
# Python extras
def test_len(t):
    assert len(t) == M


def test_iteration_yields_all_events_and_keeps_iterator(t):
    t.jump(5)
    evs = list(t)
    assert len(evs) == M
    for pos, ev in enumerate(evs, start=1):
        assert_event_equal(ev, T_EVENTS[pos])
    assert current(t) == 5
    t.reset()
    assert [ev["pos"] for ev in t] == list(range(1, M + 1))
    assert current(t) == 0
    # two iterations at once are independent
    it1, it2 = iter(t), iter(t)
    assert next(it1)["pos"] == 1 and next(it1)["pos"] == 2 and next(it2)["pos"] == 1


def test_context_manager_closes(EventTrace, tfile):
    with EventTrace(tfile) as tr:
        assert len(tr) == M
        assert_event_equal(tr.event(7), T_EVENTS[7])
    with raises_earl(["closed"]):
        tr.event(1)


def test_close(EventTrace, tfile):
    tr = EventTrace(tfile)
    assert tr.close() is None
    with raises_earl(["closed"]):
        tr.next()


def test_to_numpy_fields_and_values(t):
    np = pytest.importorskip("numpy")
    arr = t.to_numpy()
    expect = [("pos", "u8"), ("loc", "i4"), ("time", "f8"), ("type", "i4"), ("enterptr", "u8"),
              ("region", "i4"), ("peer", "i4"), ("tag", "i8"), ("com", "i8"), ("len", "i8"),
              ("sendptr", "u8")]
    assert isinstance(arr, np.ndarray)
    assert sorted(arr.dtype.names) == sorted(n for n, _ in expect)
    for name, dt in expect:
        assert arr.dtype[name] == np.dtype(dt), name
    assert arr.shape == (M,)
    types, regions = t.types(), t.regions()
    for row in arr:
        ev = t.event(int(row["pos"]))
        assert row["loc"] == ev["loc"]
        assert row["time"] == ev["time"]
        assert types[row["type"]] == ev["type"]
        assert row["enterptr"] == ev["enterptr"]
        if ev["type"] in ("enter", "exit"):
            assert regions[row["region"]] == ev["region"]
        else:
            assert row["region"] == -1
        if ev["type"] == "send":
            assert (row["peer"], row["tag"], row["com"], row["len"]) == \
                (ev["dest"], ev["tag"], ev["com"], ev["len"])
        elif ev["type"] == "recv":
            assert (row["peer"], row["tag"], row["com"], row["len"], row["sendptr"]) == \
                (ev["src"], ev["tag"], ev["com"], ev["len"], ev["sendptr"])
        else:
            assert row["peer"] == -1
    assert current(t) == 0


def test_to_numpy_field_order_as_in_contract(t):
    assert list(t.to_numpy().dtype.names) == ["pos", "loc", "time", "type", "enterptr", "region",
                                              "peer", "tag", "com", "len", "sendptr"]


def test_to_numpy_ranges(t):
    sub = t.to_numpy(4, 8)
    assert list(sub["pos"]) == [4, 5, 6, 7, 8]
    assert list(t.to_numpy(first=12)["pos"]) == [12, 13]
    assert list(t.to_numpy(last=2)["pos"]) == [1, 2]
    assert list(t.to_numpy(M, M)["pos"]) == [M]
    full = t.to_numpy()
    assert (t.to_numpy(1, M) == full).all()


# ----------------------------------------------------------------------------------------
# problems(), hand-worked
P_LINES = [
    "-13 0 1 2 0 0 a",
    "-13 0 3 4 0 0 b",
    "2 0 0 0 0 10",               # 1 exit a on an empty stack: enterptr 0
    "1 0 0 0 0 20",               # 2 enter a
    "4 0 0 0 0 30",               # 3 exit b while a is open: pops 2, mismatched
    "-102 1 0 0 0 40 5 8",        # 4 recv before its send: sendptr 0
    "-101 0 0 1 0 50 5 8",        # 5 send tag 5 (stays queued)
    "-101 0 0 1 0 60 6 8",        # 6 send tag 6
    "-102 1 0 0 0 70 6 8",        # 7 recv tag 6 overtakes: sendptr 6
    "-102 1 0 0 0 70 5 8",        # 8 recv tag 5, equal time: sendptr 5
]


def test_problems_hand_worked(EventTrace, tmp_path):
    tr = EventTrace(write_alog(tmp_path, P_LINES))
    assert len(tr) == 8
    assert tr.event(1)["enterptr"] == 0 and tr.event(1)["type"] == "exit"
    assert tr.event(3)["enterptr"] == 2 and tr.event(3)["region"] == "b"
    assert tr.stack(0, 3) == []
    assert tr.event(4)["sendptr"] == 0
    assert tr.queue(-1, -1, 6) == [5, 6]
    assert tr.event(7)["sendptr"] == 6
    assert tr.queue(-1, -1, 7) == [5]
    assert tr.event(8)["sendptr"] == 5
    assert tr.queue(-1, -1, 8) == []
    assert tr.problems() == {
        "unmatched_recv": {"count": 1, "first": [4]},
        "exit_on_empty_stack": {"count": 1, "first": [1]},
        "mismatched_exit": {"count": 1, "first": [3]},
        "unresolved_reference": {"count": 0, "first": []},
        "time_order": {"count": 0, "first": []},
        # 4 receives the first send of channel 0->1 tag 5, which is 5, 10 us later
        "clock_condition": {"count": 1, "first": [4]},
    }


def test_problems_clean_trace(t):
    assert t.problems() == {k: {"count": 0, "first": []}
                            for k in ("unmatched_recv", "exit_on_empty_stack", "mismatched_exit",
                                      "unresolved_reference", "time_order", "clock_condition")}


def test_problems_first_holds_at_most_10(EventTrace, tmp_path):
    lines = [f"-102 1 0 0 0 {10 * i} 3 4" for i in range(1, 13)]
    tr = EventTrace(write_alog(tmp_path, lines))
    pr = tr.problems()
    assert pr["unmatched_recv"] == {"count": 12, "first": list(range(1, 11))}
    assert pr["exit_on_empty_stack"]["count"] == 0


def test_to_numpy_dtype_is_the_cores(t):
    """One definition of the row layout (the C++ struct the rows are filled from): the
    array, earl.trace.event_dtype() and _core.event_dtype() agree, and every field is
    aligned so NumPy takes its fast paths."""
    pytest.importorskip("numpy")
    import earl.trace
    arr = t.to_numpy()
    assert arr.dtype == earl._core.event_dtype() == earl.trace.event_dtype()
    assert arr.flags.aligned
    for name in arr.dtype.names:
        field, offset = arr.dtype.fields[name][:2]
        assert offset % field.alignment == 0, name
