"""The shipped ALOG description (python/earl/descriptions/alog.toml) reads every ALOG test
trace to the events and definitions of EARL's native ALOG reader: the generator of
tests/alog_traces.py (unsorted lines, roll-over cycles, -9 types overridden by -13,
colour prefixes, unknown header records, blank lines, tabs), the golden file, the hand
trace, and `earl gen` output."""
import subprocess
import sys
from pathlib import Path

import pytest

import earl
from alog_traces import random_alog
from described_helpers import events_of, model_of, same_trace

HERE = Path(__file__).parent


def assert_same(path):
    native, described = same_trace(str(path), "alog", "described:alog")
    assert described[0] == native[0]
    assert described[1] == native[1]
    return native[0]


@pytest.mark.parametrize("seed", range(40))
def test_generated_alog_traces(tmp_path, seed):
    trace = random_alog(seed, max_events=120)
    assert len(assert_same(trace.write(tmp_path))) == trace.n_events


@pytest.mark.parametrize("disorder", ["shuffled", "swaps"])
def test_unsorted_and_rolled_over(tmp_path, disorder):
    trace = random_alog(7, max_events=200, min_events=100, unsorted=disorder, rollover=True)
    assert_same(trace.write(tmp_path))


def test_golden_and_hand_traces(hand):
    assert_same(HERE / "golden" / "small.alog")
    assert_same(hand)


def test_earl_gen_alog(tmp_path):
    path = tmp_path / "gen.alog"
    subprocess.run([sys.executable, "-m", "earl.cli", "gen", str(path), "-n", "4", "-e", "4000"],
                   check=True, capture_output=True)
    assert len(assert_same(path)) >= 4000


def test_short_name_and_path_agree(tmp_path):
    path = random_alog(3, max_events=50).write(tmp_path)
    shipped = Path(earl.__file__).parent / "descriptions" / "alog.toml"
    a, b = same_trace(path, "described:alog", f"described:{shipped}")
    assert a == b


def test_errors_name_line(tmp_path):
    path = tmp_path / "bad.alog"
    path.write_text("-13 0 1 2 0 0 main\n1 0 0 0 0 10\n2 0 0 zero 0 20\n")
    with pytest.raises(earl.EarlError, match=r"bad\.alog: line 3: field data is not an integer: 'zero'"):
        with earl.EventTrace(str(path), format="described:alog", strict=True) as trace:
            events_of(trace)
    path.write_text("-13 0 1 2 0 0 main\n5 0 0 0 0 10\n")
    with pytest.raises(earl.EarlError, match=r"bad\.alog: line 2: code 5 is not defined"):
        with earl.EventTrace(str(path), format="described:alog") as trace:
            events_of(trace)


def test_analysis_through_the_description_equals_native(tmp_path):
    path = tmp_path / "gen.alog"
    subprocess.run([sys.executable, "-m", "earl.cli", "gen", str(path), "-n", "3", "-e", "3000"],
                   check=True, capture_output=True)
    native = earl.analyze(str(path), format="alog").to_dict()
    described = earl.analyze(str(path), format="described:alog").to_dict()
    for report in (native, described):  # what names the reader differs, nothing else
        report.pop("format", None)
        report.get("engine_result", {}).pop("format", None)
    assert described == native
