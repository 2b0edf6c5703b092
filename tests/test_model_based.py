"""Model-based tests: random valid-but-imperfect ALOG traces opened with earl.EventTrace are
compared, attribute by attribute and state by state, against the pure-Python reference model
(tests/reference_model.py), at random positions in random access order (iterator walks
forwards and backwards, far jumps, explicit positions), on every bdist/hsize corner.

The first tests check the reference model itself and run without the C++ core."""
import math

import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

import earl
from alog_traces import (DrawSource, SeededSource, alog_traces, open_trace, random_alog,
                         write_alog)
from reference_model import AlogError, ReferenceTrace, check_invariants

_EventTrace = getattr(earl, "EventTrace", None)
needs_impl = pytest.mark.skipif(_EventTrace is None, reason="earl.EventTrace not built yet")


def EventTrace(*args, **kw):
    return open_trace(_EventTrace, *args, **kw)


HYP = dict(deadline=None, database=None, print_blob=True, report_multiple_bugs=False,
           suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                  HealthCheck.large_base_example,
                                  HealthCheck.function_scoped_fixture])


# ========================================================================================
# self-checks of the reference model (no C++ needed)
def test_reference_hand_worked_example():
    ref = ReferenceTrace.parse("\n".join([
        "-13 0 1 2 0 0 green:boxes outer part",
        "-13 0 3 4 0 0 inner",
        "-11 0 0 0 0 100",
        "2 1 0 0 0 1",            # exit on empty stack (loc 1)
        "1 0 0 0 0 10",           # 2 enter outer
        "3 0 0 0 0 20",           # 3 enter inner
        "-102 1 0 0 0 25 9 1",    # 4 recv before the send: unmatched
        "-101 0 0 1 0 30 9 1",    # 5 send 0->1 tag 9
        "-101 0 0 1 0 30 8 1",    # 6 send 0->1 tag 8
        "-102 1 0 0 0 40 8 1",    # 7 recv tag 8: overtakes, sendptr 6
        "2 0 0 0 0 50",           # 8 exit outer while inner open: mismatched, pops 3
        "4 0 0 0 1 0",            # 10 exit inner at 100: pops 2, mismatched too
        "-102 1 0 0 0 99 9 1",    # 9 (before it in time) recv tag 9: sendptr 5
    ]))
    assert ref.m == 10
    assert [ref.event(p).pos for p in range(1, 11)] == list(range(1, 11))
    order = [ref.event(p).type for p in range(1, 11)]
    assert order == ["exit", "enter", "enter", "recv", "send", "send", "recv", "exit", "recv",
                     "exit"]
    assert ref.event(10).time == 100 * 1e-6 and ref.event(9).sendptr == 5
    assert ref.event(7).sendptr == 6 and ref.event(4).sendptr == 0
    assert ref.event(8).enterptr == 3 and ref.event(10).enterptr == 2
    assert ref.stack(0, 3) == [2, 3] and ref.stack(0, 8) == [2] and ref.stack(0, 10) == []
    assert ref.queue(-1, -1, 6) == [5, 6] and ref.queue(0, 1, 7) == [5]
    assert ref.queue(-1, -1, 9) == []
    assert ref.regions == ["outer part", "inner"] and ref.nrlocs == 2
    assert ref.problems() == {"unmatched_recv": {"count": 1, "first": [4]},
                              "exit_on_empty_stack": {"count": 1, "first": [1]},
                              "mismatched_exit": {"count": 2, "first": [8, 10]},
                              "unresolved_reference": {"count": 0, "first": []},
                              "time_order": {"count": 0, "first": []},
                              # 4 (25 us) belongs to the first send 0->1 tag 9 (5, 30 us)
                              "clock_condition": {"count": 1, "first": [4]}}


def test_reference_invariants_on_random_traces():
    kinds = set()
    for seed in range(200):
        g = random_alog(seed)
        ref = ReferenceTrace.parse(g.text)
        assert ref.m == g.n_events
        check_invariants(ref)
        kinds |= {k for k, v in ref.problems().items() if v["count"]}
        kinds |= set(g.notes)
    # the generator does produce every kind of imperfection
    assert kinds >= {"unmatched_recv", "exit_on_empty_stack", "mismatched_exit", "unsorted",
                     "overridden"}


def test_reference_rejects_late_definition():
    with pytest.raises(AlogError) as info:
        ReferenceTrace.parse("-13 0 1 2 0 0 r\n1 0 0 0 0 1\n-9 0 0 5 0 0 x\n")
    assert info.value.line == 3


# ========================================================================================
# comparison machinery
def time_eq(a, b):
    return a == b or math.isclose(a, b, rel_tol=1e-14, abs_tol=0.0)


def check_event_dict(got, want, ctx):
    assert isinstance(got, dict), ctx
    assert list(got) == list(want), f"{ctx}: attributes {list(got)} != {list(want)}"
    for k, v in want.items():
        g = got[k]
        if k == "time":
            assert isinstance(g, float) and time_eq(g, v), f"{ctx}: time {g!r} != {v!r}"
        else:
            assert g == v and type(g) is type(v), f"{ctx}: {k} = {g!r}, expected {v!r}"


class Checker:
    """Drives one EventTrace and the reference side by side; `cur` mirrors the iterator."""

    def __init__(self, tr, ref, src, label=""):
        self.tr, self.ref, self.src = tr, ref, src
        self.cur = 0
        self.label = label
        self.m = ref.m
        self.n = ref.nrlocs

    def ctx(self, what):
        return f"{self.label} {what} (iterator {self.cur})"

    # ---- single comparisons
    def event(self, pos=None, full=True):
        p = self.cur if pos is None else pos
        args = () if pos is None else (pos,)
        if not 1 <= p <= self.m:
            with pytest.raises(earl.EarlError):
                self.tr.event(*args)
            return
        want = self.ref.event(p).as_dict()
        check_event_dict(self.tr.event(*args), want, self.ctx(f"event({pos})"))
        if full:
            assert self.tr.attributes(*args) == list(want), self.ctx(f"attributes({pos})")
            vals = self.tr.values(*args)
            check_event_dict(dict(zip(want, vals)), want, self.ctx(f"values({pos})"))
            assert len(vals) == len(want)

    def stack(self, loc, pos=None):
        p = self.cur if pos is None else pos
        args = (loc,) if pos is None else (loc, pos)
        got = self.tr.stack(*args)
        assert got == self.ref.stack(loc, p), self.ctx(f"stack({loc}, {pos}) at {p}")

    def queue(self, s, d, pos=None):
        p = self.cur if pos is None else pos
        args = (s, d) if pos is None else (s, d, pos)
        got = self.tr.queue(*args)
        assert got == self.ref.queue(s, d, p), self.ctx(f"queue({s}, {d}, {pos}) at {p}")

    def state(self, pos=None, thorough=False):
        locs = range(self.n) if thorough or self.n <= 4 else \
            [self.src.randint(0, self.n - 1) for _ in range(3)]
        for loc in locs:
            self.stack(loc, pos)
        self.queue(-1, -1, pos)
        pairs = [(s, d) for s in range(-1, self.n) for d in range(-1, self.n)]
        if not thorough:
            pairs = [self.src.choice(pairs) for _ in range(3)]
        for s, d in pairs:
            self.queue(s, d, pos)

    # ---- iterator moves
    def next(self):
        want = self.cur + 1 if self.cur < self.m else 0
        got = self.tr.next()
        assert got == want, self.ctx("next()")
        if want:
            self.cur = want

    def prev(self):
        want = self.cur - 1 if self.cur > 1 else 0
        got = self.tr.prev()
        assert got == want, self.ctx("prev()")
        if want:
            self.cur = want

    def jump(self, p):
        want = p if 1 <= p <= self.m else 0
        got = self.tr.jump(p)
        assert got == want, self.ctx(f"jump({p})")
        if want:
            self.cur = want

    def reset(self):
        assert self.tr.reset() is None
        self.cur = 0

    # ---- whole-trace comparisons
    def static(self, exact_types=False):
        tr, ref = self.tr, self.ref
        assert len(tr) == ref.m
        assert tr.nrlocs() == ref.nrlocs
        assert tr.format() == "alog"
        assert tr.regions() == ref.regions
        types = [t for t in tr.types() if t not in ref.overridden_types]
        if exact_types:
            assert types == ref.types, f"types {tr.types()} vs reference {ref.types}"
        else:   # the order is checked by test_static_information_matches_reference
            assert sorted(types) == sorted(ref.types), f"types {tr.types()} vs {ref.types}"
            assert tr.types()[:4] == ["enter", "exit", "send", "recv"]
        for loc in range(ref.nrlocs):
            assert tr.locsym(loc) == ref.locsym(loc), f"locsym({loc})"
        assert tr.problems() == ref.problems()

    # ---- random plan
    def random_plan(self, n_ops, max_walk=8):
        src, m = self.src, self.m
        last = 1
        for _ in range(n_ops):
            k = src.randint(0, 99)
            if k < 18:                                   # forward walk
                for _ in range(src.randint(1, max_walk)):
                    self.next()
                    self.event(full=False)
                self.state(thorough=False)
            elif k < 32:                                 # backward walk
                for _ in range(src.randint(1, max_walk)):
                    self.prev()
                    self.event(full=False)
                self.state(thorough=False)
            elif k < 50:                                 # explicit far position
                last = src.randint(1, max(1, m))
                self.event(last)
            elif k < 58:                                 # explicit near the last one
                last = min(max(1, last + src.randint(-3, 3)), max(1, m))
                self.event(last, full=False)
                self.state(last)
            elif k < 68:                                 # jump, sometimes to nowhere
                p = src.choice([src.randint(1, max(1, m)), src.randint(1, max(1, m)), 0, -1,
                                m + 1, 1, m])
                self.jump(p)
                self.event()
            elif k < 82:                                 # explicit state, pos 0 included
                self.state(src.choice([0, src.randint(0, m), m, 1]))
            elif k < 90:                                 # state at the iterator
                self.state()
            elif k < 94:
                self.reset()
                self.event()                             # raises: iterator 0
                self.state()
            else:                                        # missing events
                p = src.choice([0, -1, m + 1])
                with pytest.raises(earl.EarlError):
                    self.tr.event(p)
            self.event()                                 # the iterator did not move


def corner(kind, m):
    return m + 10 if kind == "big" else kind


BDISTS = [0, 1, 2, 7, "big"]
HSIZES = [1, 2, 5, "big"]


# ========================================================================================
# hypothesis: small traces on every bdist/hsize corner
@needs_impl
@pytest.mark.parametrize("hsize_kind", HSIZES, ids=[f"h{h}" for h in HSIZES])
@pytest.mark.parametrize("bdist_kind", BDISTS, ids=[f"b{b}" for b in BDISTS])
@settings(max_examples=20, phases=[Phase.explicit, Phase.reuse, Phase.generate], **HYP)
@given(data=st.data())
def test_random_traces_match_reference(tmp_path_factory, bdist_kind, hsize_kind, data):
    g = data.draw(alog_traces(max_events=40, min_events=1), label="trace")
    path = g.write(tmp_path_factory.mktemp("hyp"))
    ref = ReferenceTrace.parse(g.text)
    bdist, hsize = corner(bdist_kind, ref.m), corner(hsize_kind, ref.m)
    tr = EventTrace(path, bdist=bdist, hsize=hsize)
    try:
        chk = Checker(tr, ref, DrawSource(data.draw), f"[bdist={bdist} hsize={hsize}]")
        chk.static()
        chk.random_plan(n_ops=25)
    finally:
        tr.close()


@needs_impl
@settings(max_examples=100, **HYP)
@given(data=st.data(), bdist=st.integers(0, 30), hsize=st.integers(1, 30))
def test_random_traces_random_parameters(tmp_path_factory, data, bdist, hsize):
    g = data.draw(alog_traces(max_events=60, min_events=1, max_locs=5), label="trace")
    path = g.write(tmp_path_factory.mktemp("hyp"))
    ref = ReferenceTrace.parse(g.text)
    tr = EventTrace(path, bdist=bdist, hsize=hsize)
    try:
        chk = Checker(tr, ref, DrawSource(data.draw), f"[bdist={bdist} hsize={hsize}]")
        chk.static()
        chk.random_plan(n_ops=30)
        # every position once, backwards, with the whole state
        for p in range(ref.m, -1, -1):
            chk.event(p)
            chk.state(p, thorough=True)
        # iteration and bulk export agree and leave the iterator alone
        for pos, ev in enumerate(tr, start=1):
            check_event_dict(ev, ref.event(pos).as_dict(), f"iteration, event {pos}")
        first = data.draw(st.integers(1, ref.m), label="first")
        last = data.draw(st.integers(first - 1, ref.m), label="last")
        check_numpy(tr.to_numpy(first, last), tr, ref, first, last)
        chk.event()
    finally:
        tr.close()


@needs_impl
@pytest.mark.parametrize("bdist_kind", BDISTS, ids=[f"b{b}" for b in BDISTS])
@pytest.mark.parametrize("hsize_kind", HSIZES, ids=[f"h{h}" for h in HSIZES])
def test_seeded_traces_every_position_every_corner(tmp_path, bdist_kind, hsize_kind):
    """Deterministic: 12 seeded traces, every event and state, in three orders."""
    for seed in range(12):
        g = random_alog(1000 + seed, max_events=50, min_events=1)
        path = g.write(tmp_path, f"s{seed}.alog")
        ref = ReferenceTrace.parse(g.text)
        bdist, hsize = corner(bdist_kind, ref.m), corner(hsize_kind, ref.m)
        tr = EventTrace(path, bdist=bdist, hsize=hsize)
        chk = Checker(tr, ref, SeededSource(seed), f"[seed {1000 + seed} bdist={bdist} "
                                                    f"hsize={hsize}]")
        chk.static()
        for p in range(ref.m + 1):                    # forwards: events and stacks
            if p:
                chk.event(p, full=False)
            for loc in range(ref.nrlocs):
                chk.stack(loc, p)
            chk.queue(-1, -1, p)
        for p in range(ref.m, -1, -1):                # backwards: events and queues
            if p:
                chk.event(p, full=(p % 5 == 0))
            chk.queue(-1, -1, p)
            chk.queue(p % ref.nrlocs, -1, p)
            chk.queue(-1, p % ref.nrlocs, p)
        rnd = list(range(ref.m + 1))
        SeededSource(seed).shuffle(rnd)
        for p in rnd:                                 # random order: the whole state
            if p:
                chk.event(p, full=False)
            chk.state(p, thorough=True)
        # iterator walks over everything
        while tr.next():
            chk.cur += 1
            chk.event()
        assert chk.cur == ref.m
        while tr.prev():
            chk.cur -= 1
            chk.event()
        assert chk.cur == 1
        tr.close()


@needs_impl
def test_static_information_matches_reference(tmp_path):
    """nrlocs, regions, types (enter exit send recv, then -9 types in definition order),
    locsym and problems() on many seeded traces."""
    for seed in range(150):
        g = random_alog(5000 + seed, max_events=30)
        path = g.write(tmp_path, f"s{seed}.alog")
        ref = ReferenceTrace.parse(g.text)
        tr = EventTrace(path)
        Checker(tr, ref, SeededSource(seed), f"[seed {5000 + seed}]").static(exact_types=True)
        tr.close()


# ========================================================================================
# larger seeded traces
LARGE = [(0, 1, None), (1, 2, "swaps"), (7, 5, "shuffled"), (100, 1000, None),
         (10000, 1000, "swaps"), (5001, 1, "shuffled"), (997, 333, "swaps")]


@needs_impl
@pytest.mark.parametrize("bdist,hsize,unsorted", LARGE,
                         ids=[f"b{b}-h{h}-{u or 'sorted'}" for b, h, u in LARGE])
def test_large_seeded_trace(tmp_path, bdist, hsize, unsorted):
    seed = 77 + bdist
    m = 20000 if bdist == 997 else 5000
    g = random_alog(seed, max_events=m, min_events=m, max_locs=8, unsorted=unsorted,
                    allow_unsorted=False, rollover=bdist % 2 == 0 or None)
    path = g.write(tmp_path)
    ref = ReferenceTrace.parse(g.text)
    assert ref.m == m
    tr = EventTrace(path, bdist=bdist, hsize=hsize)
    chk = Checker(tr, ref, SeededSource(seed), f"[large seed {seed} bdist={bdist} hsize={hsize}]")
    chk.static()
    # whole trace through iteration (does not move the iterator)
    for pos, ev in enumerate(tr, start=1):
        check_event_dict(ev, ref.event(pos).as_dict(), f"iteration, event {pos}")
    assert chk.cur == 0
    chk.event()                                # still at 0: raises
    # forward with next(), state every 97 events
    for p in range(1, ref.m + 1):
        chk.next()
        chk.event(full=(p % 50 == 0))
        if p % 97 == 0:
            chk.state(thorough=True)
    chk.next()                                 # past the end
    # backwards 300 events with prev()
    for _ in range(300):
        chk.prev()
        chk.event(full=False)
    chk.state(thorough=True)
    # random far jumps and walks
    chk.random_plan(n_ops=250, max_walk=30)
    for p in (0, 1, ref.m // 2, ref.m - 1, ref.m):
        chk.state(p, thorough=True)
    # bulk export agrees with event()
    if hasattr(tr, "to_numpy"):
        arr = tr.to_numpy()
        check_numpy(arr, tr, ref)
    tr.close()


def check_numpy(arr, tr, ref, first=1, last=None):
    last = ref.m if last is None else last
    types, regions = tr.types(), tr.regions()
    assert list(arr["pos"]) == list(range(first, last + 1))
    for row in arr:
        e = ref.event(int(row["pos"]))
        assert row["loc"] == e.loc and time_eq(float(row["time"]), e.time)
        assert types[row["type"]] == e.type
        assert row["enterptr"] == e.enterptr
        assert row["region"] == (regions.index(e.region) if e.region is not None else -1)
        if e.type == "send":
            assert (row["peer"], row["tag"], row["com"], row["len"]) == (e.dest, e.tag, -1, e.len)
        elif e.type == "recv":
            assert (row["peer"], row["tag"], row["com"], row["len"], row["sendptr"]) == \
                (e.src, e.tag, -1, e.len, e.sendptr)
        else:
            assert row["peer"] == -1


@needs_impl
def test_large_trace_two_instances_interleaved(tmp_path):
    """Two EventTrace objects on the same file do not disturb each other."""
    g = random_alog(4242, max_events=3000, min_events=3000, max_locs=6)
    path = g.write(tmp_path)
    ref = ReferenceTrace.parse(g.text)
    a = Checker(EventTrace(path, bdist=13, hsize=4), ref, SeededSource(1), "[a]")
    b = Checker(EventTrace(path, bdist=0, hsize=50), ref, SeededSource(2), "[b]")
    for _ in range(40):
        a.random_plan(3, max_walk=20)
        b.random_plan(3, max_walk=20)


@needs_impl
def test_huge_bdist_and_hsize(tmp_path):
    g = random_alog(99, max_events=200, min_events=200)
    path = g.write(tmp_path)
    ref = ReferenceTrace.parse(g.text)
    tr = EventTrace(path, bdist=10 ** 9, hsize=10 ** 9)
    chk = Checker(tr, ref, SeededSource(99), "[huge]")
    chk.static()
    chk.random_plan(100, max_walk=20)


@needs_impl
def test_rewritten_file_is_read_again(tmp_path):
    """A trace rewritten in place right away (same size, other content) is not read from
    stale state, e.g. a bookmark index persisted beside the trace."""
    a = ["-9 0 0 5 0 0 mark"] + [f"5 0 0 {i} 0 {10 + i}" for i in range(100, 400)]
    b = ["-9 0 0 5 0 0 mark"] + [f"5 1 0 {i} 0 {10 + i}" for i in range(100, 400)]
    text_a, text_b = "\n".join(a) + "\n", "\n".join(b) + "\n"
    assert len(text_a) == len(text_b)
    path = write_alog(tmp_path, text_a)
    t1 = EventTrace(path, bdist=10)
    assert t1.event(300)["loc"] == 0
    t1.close()
    write_alog(tmp_path, text_b)
    t2 = EventTrace(path, bdist=10)
    assert t2.nrlocs() == 2
    assert t2.event(300)["loc"] == 1
    t2.close()
