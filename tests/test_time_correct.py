"""Clock correction (issue 12, part 3): EventTrace(..., time_correct=True) corrects
clock-condition violations by the controlled logical clock's forward amortisation
(cpp/timecorrect/clock_corrections.h states the rule):

    C(e_i) = max(O(e_i), C(e_{i-1}) + gamma * (O(e_i) - O(e_{i-1})), bound(e_i))

bound: a receive's corrected send + min_latency, an N-to-N collective exit's latest
corrected enter of its instance. Expected values come from that rule worked out by hand,
from the generator's true times (`earl gen --clock-offset/--clock-drift` skews only the
written clocks; the same seed without skew is the true trace), and from the time checks
of part 2, which count clock_condition independently of the correction.
"""
import json
import random
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

import earl
from alog_traces import write_alog
from earl.generate import generate
from script_checks import have_otf2

GAMMA = 0.99  # the default (ClockCorrectionOptions::gamma)
NO_PROGRESS = {"progress": lambda f: None}


def open_trace(path, **kw):
    return earl.EventTrace(str(path), **NO_PROGRESS, **kw)


def all_events(trace):
    return [trace.event(p) for p in range(1, len(trace) + 1)]


def per_location(events):
    """Each location's events in its own order (the merge keeps it)."""
    out = defaultdict(list)
    for e in events:
        out[e["loc"]].append(e)
    return out


def message_pairs(events):
    """(send, recv) pairs: on each channel (src, dest, tag, com) the k-th send with the
    k-th receive, both counted in their location's order."""
    sends, recvs = defaultdict(list), defaultdict(list)
    for e in events:
        if e["type"] == "send":
            sends[(e["loc"], e["dest"], e["tag"], e["com"])].append(e)
        elif e["type"] == "recv":
            recvs[(e["src"], e["loc"], e["tag"], e["com"])].append(e)
    return [pair for channel in recvs for pair in zip(sends[channel], recvs[channel])]


def violation_total(events):
    """The sizes of the receive-before-send violations, summed (seconds)."""
    return sum(max(0.0, s["time"] - r["time"]) for s, r in message_pairs(events))


# ------------------------------------------------------------------ the rule by hand
LAG = [
    "-3 0 0 2 0 0",
    "-13 0 1 2 0 0 main",
    "1 0 0 0 0 10",          # loc 0 enters main at 10 us
    "-101 0 0 1 0 100 5 8",  # loc 0 sends to 1 (tag 5) at 100
    "1 1 0 0 0 20",          # loc 1 enters main at 20: its clock lags
    "-101 1 0 0 0 30 7 8",   # loc 1 sends to 0 (tag 7) at 30
    "-102 0 0 1 0 50 7 8",   # ... received at 50
    "-102 1 0 0 0 60 5 8",   # loc 1 receives tag 5 at 60, before it was sent
    "-101 1 0 0 0 160 6 8",  # loc 1 sends back at 160
    "-102 0 0 1 0 300 6 8",  # loc 0 receives it at 300
    "2 1 0 0 0 1160",        # loc 1 leaves main at 1160
    "2 0 0 0 0 5000",        # loc 0 leaves main at 5000
]


def us(x):
    return x * 1e-6


def expected_lag_times(backward):
    """The rule by hand (gamma 0.99, min_latency 0). The receive at 60 jumps to its send:
    shift 40 us; later events of loc 1 keep max(0, 40 - 0.01 * (t - 60)) of it. Backward,
    the ramp 40 - 0.01 * (60 - t) before the jump is limited by the send at 30, whose
    receive is at 50: at most 20 us there, so the ramp's height is 20 + 0.01 * 30."""
    times = {(1, 60): 100, (1, 160): 160 + 40 - 0.01 * 100, (1, 1160): 1160 + 40 - 0.01 * 1100,
             (0, 10): 10, (0, 50): 50, (0, 100): 100, (0, 300): 300, (0, 5000): 5000,
             (1, 20): 20, (1, 30): 30}
    if backward:
        height = 20 + 0.01 * 30
        times[(1, 20)] = 20 + height - 0.01 * 40
        times[(1, 30)] = 30 + height - 0.01 * 30
    return times


def test_the_rule_worked_by_hand(tmp_path):
    path = write_alog(tmp_path, LAG)
    plain, fixed = open_trace(path), open_trace(path, time_correct=True)
    assert plain.problems()["clock_condition"]["count"] == 1
    assert fixed.problems()["clock_condition"] == {"count": 0, "first": []}
    expected = expected_lag_times(backward=True)
    for before, after in zip(all_events(plain), all_events(fixed), strict=True):
        key = (before["loc"], round(before["time"] * 1e6))
        assert after["time"] == pytest.approx(us(expected[key]), abs=1e-15), key
        assert {k: v for k, v in after.items() if k != "time"} == \
               {k: v for k, v in before.items() if k != "time"}
    assert fixed.time_correction() == {"jumps": 1, "max_shift": pytest.approx(us(40)),
                                       "min_latency": 0.0, "gamma": GAMMA,
                                       "memory": fixed.time_correction()["memory"]}
    assert plain.time_correction() is None


def test_min_latency_and_a_shift_that_decays_to_nothing(tmp_path):
    lines = LAG[:-2] + ["2 1 0 0 0 9160", "2 0 0 0 0 9500"]
    fixed = open_trace(write_alog(tmp_path, lines), time_correct=True, min_latency=us(5))
    times = {(e["loc"], e["type"], e["region"] if "region" in e else e["tag"]): e["time"]
             for e in all_events(fixed)}
    assert times[(1, "recv", 5)] == pytest.approx(us(105))
    assert times[(1, "send", 6)] == pytest.approx(us(160 + 45 - 1))
    # The send at 30 may rise only to its receive at 50 - 5; 45 us decay by 0.01 per
    # us: gone after 4500 us, so 9160 keeps its recorded time.
    assert times[(1, "send", 7)] == pytest.approx(us(45))
    assert times[(1, "exit", "main")] == us(9160)
    assert fixed.time_correction()["min_latency"] == us(5)


def test_bad_options(tmp_path):
    path = write_alog(tmp_path, LAG)
    with pytest.raises(earl.EarlError, match="min_latency"):
        open_trace(path, time_correct=True, min_latency=-1.0)
    for bad in ("1us", True):
        with pytest.raises(TypeError, match="min_latency"):
            open_trace(path, time_correct=True, min_latency=bad)


# ------------------------------------------------------------------ generated traces
def lag_one_location(true_alog, out, lagging, lag_us):
    """The true trace with every location but `lagging` recorded lag_us later: relative
    to the others, that location's clock lags by lag_us (a constant offset)."""
    lines = []
    for line in Path(true_alog).read_text().splitlines():
        f = line.split()
        kind = int(f[0])
        if (kind > 0 or kind in (-101, -102)) and int(f[1]) != lagging:
            f[5] = str(int(f[5]) + lag_us)
        lines.append(" ".join(f))
    Path(out).write_text("\n".join(lines) + "\n")


def test_a_lagging_clock_is_pulled_towards_the_true_times(tmp_path):
    true_path = tmp_path / "true.alog"
    generate(true_path, events=4000, locations=4, seed=5, late_sender_rate=0.0)
    lagged = tmp_path / "lagged.alog"
    lag_one_location(true_path, lagged, lagging=2, lag_us=40)
    truth = per_location(all_events(open_trace(true_path)))
    recorded = per_location(all_events(open_trace(lagged)))
    fixed_trace = open_trace(lagged, time_correct=True)
    corrected = per_location(all_events(fixed_trace))
    assert open_trace(lagged).problems()["clock_condition"]["count"] > 0
    assert fixed_trace.problems()["clock_condition"]["count"] == 0
    moved = 0
    for loc in truth:
        for t, o, c in zip(truth[loc], recorded[loc], corrected[loc], strict=True):
            true_time = t["time"] + us(40)  # in the frame of the others' clocks
            # Forward only, and never past the truth: each event is at least as close.
            assert o["time"] <= c["time"] <= true_time + 1e-12
            if loc != 2:
                assert c["time"] == o["time"]
            moved += c["time"] > o["time"]
    assert moved > 0
    error = lambda events, loc: sum(abs(e["time"] - t["time"] - us(40))
                                    for e, t in zip(events[loc], truth[loc]))
    assert error(corrected, 2) < error(recorded, 2)


@pytest.fixture(scope="module")
def skewed(tmp_path_factory):
    """The same program (seed 7) with exact and with skewed clocks, ALOG and OTF2."""
    d = tmp_path_factory.mktemp("skew")
    out = {}
    for fmt in ["alog", "otf2"] if have_otf2() else ["alog"]:
        common = dict(events=6000, locations=6, seed=7, format=fmt)
        true_path, skew_path = d / f"true.{fmt}", d / f"skew.{fmt}"
        generate(true_path, **common)
        truth = generate(skew_path, clock_offset=0.0003, clock_drift=200, **common)
        out[fmt] = (true_path, skew_path, truth)
    return out


@pytest.mark.parametrize("fmt,cache", [("alog", True), ("otf2", True), ("otf2", False)])
def test_skewed_clocks_corrected(skewed, fmt, cache):
    if fmt not in skewed:
        pytest.skip("no OTF2 in this build")
    true_path, skew_path, truth = skewed[fmt]
    assert len(truth["clocks"]) == 6 and any(c["offset"] > 0 for c in truth["clocks"])
    plain = open_trace(skew_path, cache=cache)
    fixed = open_trace(skew_path, cache=cache, time_correct=True, min_latency=us(1))
    before, after = all_events(plain), all_events(fixed)
    exact = all_events(open_trace(true_path, cache=cache))
    assert plain.problems()["clock_condition"]["count"] > 0
    assert fixed.problems()["clock_condition"]["count"] == 0
    assert fixed.problems()["time_order"] == plain.problems()["time_order"]
    # Same events at the same positions; only times change, and only forward.
    times = ("time", "collbegin", "collend")
    for b, a in zip(before, after, strict=True):
        assert {k: v for k, v in a.items() if k not in times} == {k: v for k, v in b.items() if k not in times}
        assert a["time"] >= b["time"]
    # Each location's order and the gaps: no interval shrinks below gamma of its length.
    for loc, events in per_location(after).items():
        recorded = per_location(before)[loc]
        for i in range(1, len(events)):
            gap = recorded[i]["time"] - recorded[i - 1]["time"]
            assert events[i]["time"] - events[i - 1]["time"] >= GAMMA * gap - 1e-12
    pairs = message_pairs(after)
    assert len(pairs) == len(message_pairs(exact))
    assert all(r["time"] >= s["time"] + us(1) - 1e-12 for s, r in pairs)
    # The measure of closeness to the true times: the violations' sizes (a receive before
    # its send, by how much), zero for the true trace, now zero again.
    assert violation_total(exact) == 0.0
    assert violation_total(before) > 0.0 and violation_total(after) == 0.0
    # Closer to the true times, frame-free: each message's latency (receive - send)
    # against its true latency, summed over all messages, drops (by 60-70% here).
    latency_error = lambda events: sum(abs((r["time"] - s["time"]) - (tr["time"] - ts["time"]))
                                       for (s, r), (ts, tr) in zip(message_pairs(events),
                                                                   message_pairs(exact), strict=True))
    assert latency_error(after) < 0.6 * latency_error(before)
    # The true times are those of the unskewed run: same per-location event sequences.
    true_locs, after_locs = per_location(exact), per_location(after)
    for loc in true_locs:
        assert [e["type"] for e in true_locs[loc]] == [e["type"] for e in after_locs[loc]]


@pytest.mark.parametrize("cache", [True, False])
def test_collective_begin_and_end_move_with_enter_and_exit(skewed, cache):
    """The generator writes MpiCollectiveBegin at the collective's enter and
    MpiCollectiveEnd at its exit; corrected, they still coincide with them (the analysis
    bounds OTF2 collectives by begin and end, so recorded ones would mix two clocks)."""
    if "otf2" not in skewed:
        pytest.skip("no OTF2 in this build")
    path = skewed["otf2"][1]
    plain = all_events(open_trace(path, cache=cache))
    fixed = all_events(open_trace(path, cache=cache, time_correct=True))
    exits = [e for e in fixed if e.get("collend") is not None]
    assert len(exits) > 100
    moved = 0
    for e in exits:
        enter = fixed[e["enterptr"] - 1]
        assert e["collbegin"] == enter["time"] and e["collend"] == e["time"]
        recorded = plain[e["pos"] - 1]
        assert recorded["collbegin"] == plain[e["enterptr"] - 1]["time"]
        moved += e["collbegin"] != recorded["collbegin"] or e["collend"] != recorded["collend"]
    assert moved > 0


@pytest.mark.parametrize("fmt,cache", [("alog", True), ("otf2", True), ("otf2", False)])
def test_random_access_gives_the_scan_times(skewed, fmt, cache):
    if fmt not in skewed:
        pytest.skip("no OTF2 in this build")
    path = skewed[fmt][1]
    scan = [e["time"] for e in all_events(open_trace(path, cache=cache, time_correct=True))]
    jumpy = open_trace(path, cache=cache, time_correct=True, bdist=97, hsize=8)
    order = list(range(1, len(scan) + 1))
    random.Random(3).shuffle(order)
    for pos in order[:1500]:
        assert jumpy.event(pos)["time"] == scan[pos - 1], pos
    jumpy.reset()
    while jumpy.next():
        pass
    while jumpy.prev():
        assert jumpy.event()["time"] == scan[jumpy.iterator - 1]


def test_a_trace_without_violations_is_unchanged(skewed):
    for fmt, (true_path, _, _) in skewed.items():
        plain, fixed = open_trace(true_path), open_trace(true_path, time_correct=True)
        assert plain.problems()["clock_condition"]["count"] == 0
        assert all_events(fixed) == all_events(plain)
        assert fixed.time_correction()["jumps"] == 0


def test_the_analysis_reads_corrected_times(skewed):
    from earl.analysis import analyze
    path = skewed["alog"][1]
    report = analyze(path, progress=lambda f: None, time_correct=True)
    assert report.raw["clock_jumps"] == open_trace(path, time_correct=True).time_correction()["jumps"] > 0
    assert analyze(path, progress=lambda f: None).raw["clock_jumps"] == 0
    with pytest.raises(earl.EarlError, match="native"):
        analyze(path, engine="scripts", time_correct=True)


def test_command_line(skewed):
    path = str(skewed["alog"][1])
    run = lambda *args: subprocess.run([sys.executable, "-m", "earl.cli", *args], capture_output=True,
                                       text=True, timeout=120)
    info = run("info", "--time-correct", path)
    assert info.returncode == 0, info.stderr
    assert "clocks:    corrected" in info.stdout and "clock condition" not in info.stdout
    assert "clock condition" in run("info", path).stdout
    analysis = run("analyze", "--time-correct", "--min-latency", "1e-6", "--json", path)
    assert analysis.returncode == 0, analysis.stderr
    assert json.loads(analysis.stdout)["clock_jumps"] > 0
    assert "clocks corrected" in run("analyze", "--time-correct", path).stdout
    assert "clock_jumps" not in json.loads(run("analyze", "--json", path).stdout)


def test_real_score_p_traces_open_corrected():
    from otf2_archives import PING_PONG, PING_PONG_PAPI
    for anchor in (PING_PONG, PING_PONG_PAPI):
        if not anchor.exists():
            pytest.skip(f"{anchor} is not on this machine")
        plain, fixed = open_trace(anchor), open_trace(anchor, time_correct=True)
        assert len(fixed) == len(plain)
        assert fixed.problems()["clock_condition"]["count"] == 0
        for loc, events in per_location(all_events(fixed)).items():
            assert all(a["time"] <= b["time"] for a, b in zip(events, events[1:]))


def test_lua_and_tcl_open_corrected(tmp_path):
    path = write_alog(tmp_path, LAG)
    corrected = [e["time"] for e in all_events(open_trace(path, time_correct=True))]
    recorded = [e["time"] for e in all_events(open_trace(path))]
    assert corrected != recorded
    lua_times = "local t = {} while e:next() do t[#t + 1] = e:event().time end return t"
    lua = pytest.importorskip("earl.lua").runtime()
    lua.globals().path = path
    for flag, expected in (("true", corrected), ("false", recorded)):
        lua.execute(f"e = EventTrace{{file=path, time_correct={flag}}}")
        assert list(lua.execute(lua_times).values()) == expected
    from test_tcl_common import interp, needs_extension  # noqa: F401
    tcl = interp()
    tcl.tk.call("set", "path", path)
    for flag, expected in (("1", corrected), ("0", recorded)):
        tcl.eval(f"EventTrace e -file $path -timecorrect {flag}")
        times = tcl.eval("set t {}; while {[e next]} {e event a; lappend t $a(time)}; set t")
        assert [float(x) for x in times.split()] == pytest.approx(expected, rel=1e-12)
        tcl.eval("rename e {}")
