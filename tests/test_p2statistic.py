"""P2Statistic (EARL 2.0 reference section 5; conformance checklist B1-B5)."""
import copy
import json
import math
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from earl import EarlError, P2Statistic

EMPTY_STATE = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 0.0, 0.0]


def make(values):
    p = P2Statistic()
    for v in values:
        p.add(v)
    return p


# --- an independent pure-Python P^2 (Jain & Chlamtac 1985, 4 equiprobable cells) -----------

P = (0.0, 0.25, 0.5, 0.75, 1.0)


def reference_p2(values):
    """Returns (heights, positions) after the values; written from the paper, not the C++."""
    q, n, count = [], [1, 2, 3, 4, 5], 0
    for x in values:
        count += 1
        if count <= 5:
            q.append(x)
            q.sort()
            continue
        if x < q[0]:
            q[0], k = x, 0
        elif x > q[4]:
            q[4], k = x, 3
        else:
            k = max(i for i in range(4) if q[i] <= x)
        for i in range(k + 1, 5):
            n[i] += 1
        for i in (1, 2, 3):
            dn = 1 + (count - 1) * P[i] - n[i]
            if (dn >= 1 and n[i + 1] - n[i] > 1) or (dn <= -1 and n[i - 1] - n[i] < -1):
                d = 1 if dn > 0 else -1
                qp = q[i] + d / (n[i + 1] - n[i - 1]) * (
                    (n[i] - n[i - 1] + d) * (q[i + 1] - q[i]) / (n[i + 1] - n[i])
                    + (n[i + 1] - n[i] - d) * (q[i] - q[i - 1]) / (n[i] - n[i - 1])
                )
                if not q[i - 1] < qp < q[i + 1]:
                    qp = q[i] + d * (q[i + d] - q[i]) / (n[i + d] - n[i])
                q[i], n[i] = qp, n[i] + d
    return q + [0.0] * (5 - len(q)), n


# --- B1-B5 --------------------------------------------------------------------------------


def test_b1_constructor_and_copy_from_state():
    p = P2Statistic()
    assert isinstance(p, P2Statistic)
    assert p.count() == 0
    for v in (3.0, 1.5, 9.25, -2.0, 4.0, 7.5, 0.125):
        p.add(v)
    q = P2Statistic(p.state())  # q is a copy of p
    assert q.state() == p.state()
    assert (q.count(), q.min(), q.max(), q.mean(), q.sum(), q.var()) == (
        p.count(), p.min(), p.max(), p.mean(), p.sum(), p.var())
    assert (q.q25(), q.med(), q.q75()) == (p.q25(), p.med(), p.q75())
    q.add(100.0)  # independent objects
    assert p.count() == 7 and q.count() == 8
    assert P2Statistic(state=None).state() == EMPTY_STATE
    assert P2Statistic(state=p.state()).state() == p.state()


def test_b2_add_count_reset():
    p = P2Statistic()
    p.add(3.1415)
    assert p.count() == 1
    p.add(2)  # ints are numbers too
    p.add(np.float32(1.5))
    assert p.count() == 3
    assert isinstance(p.count(), int)
    p.reset()
    assert p.count() == 0
    assert p.state() == EMPTY_STATE
    with pytest.raises(EarlError):
        p.mean()


def test_b3_state_is_a_storable_numeric_list(tmp_path):
    p = make([0.1 * i for i in range(1, 40)])
    s = p.state()
    assert isinstance(s, list) and len(s) == 13
    assert all(type(v) is float for v in s)
    # Stored as text (repr keeps full precision) and read back, the copy is identical.
    path = tmp_path / "state.txt"
    path.write_text(" ".join(repr(v) for v in s))
    back = [float(t) for t in path.read_text().split()]
    assert P2Statistic(back).state() == s
    assert P2Statistic(json.loads(json.dumps(s))).state() == s
    assert P2Statistic(tuple(s)).state() == s
    assert P2Statistic(np.array(s)).state() == s


# B4 and B5 (quantiles need five values, moments one; five values are their own
# quantiles; one value has variance 0) are conformance cases run in Python, Lua and Tcl:
# tests/conformance/p2statistic.toml. Only Python has the 1998 dialect's strict variance.
def test_variance_strict_needs_two_values():
    p = P2Statistic()
    p.add(2.5)
    assert p.var() == 0.0  # EARL 2.0 mapping: one value -> 0.0
    with pytest.raises(EarlError, match="needs at least 2 values"):
        p.variance_strict()  # the 1998 Tcl dialect's var
    p.add(4.5)
    assert p.var() == 2.0 and p.variance_strict() == 2.0


# --- accuracy ----------------------------------------------------------------------------

@pytest.mark.parametrize(
    "name, bounds",
    [
        # maximal |estimate - exact| as a fraction of the interquartile range, for q25 med q75
        ("uniform", (0.01, 0.01, 0.01)),
        ("normal", (0.01, 0.01, 0.01)),
        ("exponential", (0.01, 0.01, 0.03)),
    ],
)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_estimates_close_to_exact_quantiles(name, bounds, seed):
    rng = np.random.default_rng(seed)
    x = getattr(rng, name)(size=100_000)
    p = P2Statistic()
    p.add_many(x)
    exact = np.quantile(x, [0.25, 0.5, 0.75])
    iqr = exact[2] - exact[0]
    estimate = np.array([p.q25(), p.med(), p.q75()])
    assert np.all(np.abs(estimate - exact) <= np.array(bounds) * iqr), (estimate, exact)
    # The outer markers are exact.
    assert p.min() == x.min() and p.max() == x.max()


def test_exact_statistics_match_numpy():
    rng = np.random.default_rng(11)
    x = rng.normal(loc=1e3, scale=7.0, size=50_000)
    p = P2Statistic()
    p.add_many(x)
    assert p.count() == x.size
    assert p.min() == x.min()
    assert p.max() == x.max()
    assert p.sum() == pytest.approx(x.sum(), rel=1e-12)
    assert p.mean() == pytest.approx(x.mean(), rel=1e-12)
    assert p.var() == pytest.approx(x.var(ddof=1), rel=1e-9)
    assert p.variance_strict() == p.var()


def test_variance_stays_accurate_with_a_large_offset():
    # A raw sum of squares would lose every digit here; the Welford-style m2 does not.
    x = 1e9 + np.array([4.0, 7.0, 13.0, 16.0] * 250)
    p = P2Statistic()
    p.add_many(x)
    assert p.var() == pytest.approx(np.var(x, ddof=1), rel=1e-6)


@pytest.mark.parametrize("seed", range(5))
def test_matches_independent_reference_implementation(seed):
    rng = np.random.default_rng(seed)
    # Mixed data with ties, so all cells, both directions and the linear fallback occur.
    x = np.concatenate([rng.exponential(size=700), rng.integers(0, 5, size=300).astype(float)])
    rng.shuffle(x)
    p = P2Statistic()
    for k, v in enumerate(x, start=1):
        p.add(float(v))
        if k in (1, 4, 5, 6, 7, 50, 333, 1000):
            q, n = reference_p2(x[:k].tolist())
            s = p.state()
            assert s[6:11] == [float(v) for v in n]
            assert s[1:6] == pytest.approx(q, rel=1e-12, abs=1e-15)


def test_hand_computed_linear_fallback():
    # Worked out by hand in tests/cpp/p2_statistic_test.cpp.
    s = make([1, 2, 3, 4, 5, 5, 5, 5]).state()
    assert s[0] == 8
    assert s[1:6] == pytest.approx([1, 2, 35 / 9, 43 / 9, 5], rel=1e-14)
    assert s[6:11] == [1, 2, 4, 6, 8]
    assert s[11] == 30 and s[12] == pytest.approx(17.5)


# --- state -------------------------------------------------------------------------------

def test_state_layout():
    assert P2Statistic.STATE_FIELDS == (
        "count", "q0", "q1", "q2", "q3", "q4", "n0", "n1", "n2", "n3", "n4", "sum", "m2")
    assert P2Statistic().state() == EMPTY_STATE
    # Fewer than five values: sorted values, unused heights 0, positions 1..5.
    assert make([4.0, -2.0, 7.0]).state() == [3, -2, 4, 7, 0, 0, 1, 2, 3, 4, 5, 9, 42]
    rng = np.random.default_rng(5)
    x = rng.normal(size=5000)
    p = P2Statistic()
    p.add_many(x)
    s = p.state()
    count, q, n, total, m2 = s[0], s[1:6], s[6:11], s[11], s[12]
    assert count == 5000
    assert q[0] == x.min() and q[4] == x.max()
    assert q == sorted(q)
    assert n[0] == 1 and n[4] == count and n == sorted(set(n))
    assert (q[1], q[2], q[3]) == (p.q25(), p.med(), p.q75())
    assert total == p.sum() and m2 == pytest.approx(p.var() * (count - 1))
    # Each inner marker is within a couple of positions of its desired position 1+(count-1)p.
    for i, pi in ((1, 0.25), (2, 0.5), (3, 0.75)):
        assert abs(n[i] - (1 + (count - 1) * pi)) < 2


@pytest.mark.parametrize("stop", [0, 1, 2, 4, 5, 6, 9, 100, 4321])
def test_state_round_trip_mid_stream_continues_identically(stop):
    rng = np.random.default_rng(stop)
    x = rng.lognormal(size=stop + 3000)
    p = P2Statistic()
    p.add_many(x[:stop])
    q = P2Statistic(p.state())
    assert q.state() == p.state()
    for v in x[stop:stop + 1500]:
        p.add(float(v))
        q.add(float(v))
    assert q.state() == p.state()
    p.add_many(x[stop + 1500:])
    q.add_many(x[stop + 1500:])
    assert q.state() == p.state()


def test_pickle_and_copy():
    p = make([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0])
    assert pickle.loads(pickle.dumps(p)).state() == p.state()
    c = copy.copy(p)
    d = copy.deepcopy(p)
    c.add(1.0)
    assert d.state() == p.state() and c.count() == p.count() + 1


def test_reset():
    p = make(range(100))
    p.reset()
    assert p.state() == EMPTY_STATE
    assert p.count() == 0
    p.add_many([5.0, 6.0])
    assert p.state() == make([5.0, 6.0]).state()


GOOD7 = [7, 1, 2, 3, 5, 7, 1, 2, 3, 5, 7, 28, 28]  # the state of 1..7


def _with(state, index, value):
    s = list(state)
    s[index] = value
    return s


@pytest.mark.parametrize(
    "state, message",
    [
        ([], "expected 13 numbers"),
        ([0.0] * 12, "got 12"),
        (EMPTY_STATE + [0.0], "got 14"),
        (_with(EMPTY_STATE, 0, -1), "nonnegative integer"),
        (_with(EMPTY_STATE, 0, 1.5), "nonnegative integer"),
        (_with(EMPTY_STATE, 11, math.nan), r"state\[11\] \(sum\) is not a finite number"),
        (_with(EMPTY_STATE, 1, math.inf), r"state\[1\] \(q0\) is not a finite number"),
        (_with(EMPTY_STATE, 7, 7), "positions n0..n4 must be 1 2 3 4 5"),
        (_with(EMPTY_STATE, 11, 2.0), "sum and m2 must be 0"),
        ([1, 2, 0, 0, 0, 0, 1, 2, 3, 4, 5, 3, 0], "sum must equal q0"),
        ([1, 2, 0, 0, 0, 0, 1, 2, 3, 4, 5, 2, 1], "m2 must be 0"),
        ([2, 3, 1, 0, 0, 0, 1, 2, 3, 4, 5, 4, 2], "heights must not decrease"),
        ([2, 1, 3, 5, 0, 0, 1, 2, 3, 4, 5, 4, 2], r"unused height state\[3\] \(q2\)"),
        ([2, 1, 3, 0, 0, 0, 1, 2, 3, 4, 5, 4, -2], "must not be negative"),
        (_with(GOOD7, 10, 8), "must equal count"),
        (_with(GOOD7, 6, 0), r"state\[6\] \(n0\) must be 1"),
        (_with(GOOD7, 8, 5), "positions must increase strictly"),
        (_with(GOOD7, 7, 1.5), r"state\[7\] \(n1\) must be an integer"),
        (_with(GOOD7, 4, 8), "heights must not decrease"),
        (_with(GOOD7, 11, 1000), r"outside \[min, max\]"),
        ("1 2 3", "sequence of numbers, not str"),
        (42, "sequence of numbers, not int"),
        (_with(EMPTY_STATE, 3, "x"), "state item 3 is not a number"),
        (_with(EMPTY_STATE, 3, None), "state item 3 is not a number"),
    ],
)
def test_bad_states(state, message):
    with pytest.raises(EarlError, match=message):
        P2Statistic(state)


def test_good_state_is_accepted():
    p = P2Statistic(GOOD7)
    assert p.state() == make(range(1, 8)).state()
    assert P2Statistic([float(v) for v in GOOD7]).count() == 7


# --- values ------------------------------------------------------------------------------

@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_non_finite_values_are_errors(bad):
    p = make([1.0, 2.0])
    before = p.state()
    with pytest.raises(EarlError, match="not a finite number"):
        p.add(bad)
    with pytest.raises(EarlError, match="index 1"):
        p.add_many([3.0, bad, 4.0])
    with pytest.raises(EarlError, match="index 2"):
        p.add_many(np.array([3.0, 4.0, bad]))
    assert p.state() == before  # all or nothing


def test_overflow_is_refused_and_leaves_the_object_unchanged():
    p = make([1.0e308])
    with pytest.raises(EarlError, match="overflow"):
        p.add(1.0e308)
    assert p.count() == 1
    p = make([0.0, 1.0])
    with pytest.raises(EarlError, match="overflow"):
        p.add(1e300)  # the squared deviation overflows
    assert p.state() == make([0.0, 1.0]).state()


def test_add_type_errors():
    p = P2Statistic()
    with pytest.raises(TypeError):
        p.add("1.0")
    with pytest.raises(EarlError, match="not a number"):
        p.add_many(["1.0"])
    with pytest.raises(EarlError, match="not a number"):
        p.add_many(np.array(["1.0", "2.0"]))
    with pytest.raises(EarlError, match="sequence of numbers"):
        p.add_many(3.0)
    assert p.count() == 0


def test_add_many_equals_repeated_add():
    rng = np.random.default_rng(3)
    x = rng.normal(size=20_000)
    expected = make(x.tolist()).state()
    for source in (x, x.tolist(), tuple(x.tolist()), (float(v) for v in x), x.reshape(100, 200),
                   x.astype(object)):
        p = P2Statistic()
        p.add_many(source)
        assert p.state() == expected
    # Strided and non-float64 arrays are converted.
    y = np.arange(40, dtype=np.int32)[::2]
    p = P2Statistic()
    p.add_many(y)
    assert p.state() == make([float(v) for v in y]).state()
    p = P2Statistic()
    p.add_many(np.arange(10, dtype=np.float32))
    assert p.state() == make(range(10)).state()
    # Adding in chunks is the same as adding at once.
    p = P2Statistic()
    for chunk in np.array_split(x, 7):
        p.add_many(chunk)
    assert p.state() == expected
    p.add_many([])
    assert p.state() == expected


def test_repr():
    assert repr(P2Statistic()) == "P2Statistic(count=0)"
    assert repr(make([1.0, 2.0])) == "P2Statistic(count=2, mean=1.5)"


def test_errors_are_runtime_errors():
    assert issubclass(EarlError, RuntimeError)
    with pytest.raises(RuntimeError):
        P2Statistic().med()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(min_value=-1e12, max_value=1e12, allow_nan=False), min_size=5, max_size=300))
def test_property_markers_are_ordered(values):
    p = make(values)
    assert p.min() <= p.q25() <= p.med() <= p.q75() <= p.max()
    assert p.min() == min(values) and p.max() == max(values)
    assert p.count() == len(values)
    assert p.var() >= 0.0
    # The state is always valid: it rebuilds an identical object.
    assert P2Statistic(p.state()).state() == p.state()


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(min_value=-20, max_value=20).map(float), min_size=1, max_size=200))
def test_property_matches_reference_on_ties(values):
    q, n = reference_p2(values)
    s = make(values).state()
    assert s[6:11] == [float(v) for v in n]
    assert s[1:6] == pytest.approx(q, rel=1e-12, abs=1e-12)
