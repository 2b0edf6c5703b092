"""The EARL 2.0 EventTrace API in Python, what only Python has: lines A1-A3 and A18 of the
conformance notes (construction, event dicts with their attribute order and types,
deletion), error cases of construction and closing, and the Python extras (len, iteration,
context manager, NumPy). Lines A3-A17 on hand-worked traces are data, run in Python, Lua
and Tcl alike: tests/conformance/, tests/test_conformance_python.py (docs/api-contract.md
is the exact contract)."""
import contextlib
import gc
import os

import pytest

import earl
from alog_traces import write_alog
from conformance_cases import NONE, load_cases

# ----------------------------------------------------------------------------------------
# The hand-written trace T and its events, worked out by hand from the formal model: one
# source, tests/conformance/trace_t.toml (its cases run in every language); the events in
# Python's form (attribute order, None for a missing value) from its A5 case.
T_CASES = load_cases("trace_t")
T_TEXT = T_CASES["trace"]


def events_of(cases):
    ops = next(c["ops"] for c in cases["case"] if c["name"].startswith("A5 "))
    names = {call: want for call, want in ops if call.startswith("attributes ")}
    events = {}
    for call, want in ops:
        if call.startswith("values "):
            pos = int(call.split()[1])
            events[pos] = dict(zip(names[f"attributes {pos}"], [None if v == NONE else v for v in want]))
    return events


T_EVENTS = events_of(T_CASES)
M = len(T_EVENTS)


@pytest.fixture
def tfile(tmp_path):
    return write_alog(tmp_path, T_TEXT, "t.alog")


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


def test_A16_regions_of_None_are_all_groups(t):
    assert t.regions(None) == t.regions() == ["main loop", "MPI_Send"]


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
              ("region", "i4"), ("peer", "i4"), ("tag", "i8"), ("com", "i8"), ("len", "u8"),
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
