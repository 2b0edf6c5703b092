"""The conformance cases of tests/conformance/ (README there) and what their runners share:
one runner per language (tests/test_conformance_python.py, _lua.py, _tcl.py) opens each
case's trace (or makes a P2Statistic), performs its operations in order and compares each
answer, brought into the neutral form below, with the case file's.

Neutral form: positions are integers, `false` where the language says "no position"
(Python 0, Lua nil, Tcl 0); lists are lists; an event is a dict without its absent
attributes; a missing value in values() is "<none>"; a call that returns nothing gives
"<nothing>"; an error is Failure(message)."""
from __future__ import annotations

import re
import shlex
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

FOLDER = Path(__file__).parent / "conformance"
ANY, NOTHING, NONE, FILE = "<any>", "<nothing>", "<none>", "<file>"
POSITION_METHODS = {"next", "prev", "jump"}
INTEGER = re.compile(r"-?\d+$")
DECIMAL = re.compile(r"-?\d+\.\d+$")


@dataclass(frozen=True)
class Failure:
    message: str


def load_cases(stem):
    """The case file tests/conformance/STEM.toml: its trace and its [[case]]s."""
    with open(FOLDER / f"{stem}.toml", "rb") as f:
        return tomllib.load(f)


def cases():
    """pytest params (file name, case name) of every case, with its trace (None: the case
    is about a new P2Statistic) and operations."""
    out = []
    for path in sorted(FOLDER.glob("*.toml")):
        data = load_cases(path.stem)
        for case in data["case"]:
            out.append(pytest.param(data.get("trace"), case["ops"], id=f"{path.stem}-{case['name']}"))
    return out


def write_trace(folder, text):
    path = Path(folder) / "trace.alog"
    path.write_text(text, encoding="utf-8")
    return str(path)


def parse_call(call):
    """'stack 0 3' -> ('stack', [0, 3]); words in quotes stay one string ('group "main loop"')."""
    method, *words = shlex.split(call)
    return method, [int(w) if INTEGER.match(w) else float(w) if DECIMAL.match(w) else w
                    for w in words]


def run(ops, perform, path):
    """Performs each [call, expected] with perform(method, args, expected) (the language's
    answer in neutral form) and checks it."""
    for number, (call, expected) in enumerate(ops, 1):
        method, args = parse_call(call)
        if expected == FILE:
            expected = path
        got = perform(method, args, expected)
        if expected == ANY:
            assert not isinstance(got, Failure), f"op {number} {call!r}: {got}"
            continue
        check(got, expected, f"op {number} {call!r}")


def check(got, expected, where):
    if isinstance(expected, dict) and set(expected) in ({"error"}, {"error_starts"}):
        assert isinstance(got, Failure), f"{where}: no error, got {got!r}"
        if "error" in expected:
            assert got.message == expected["error"], where
        else:
            assert got.message.startswith(expected["error_starts"]), (where, got.message)
        return
    assert not isinstance(got, Failure), f"{where}: {got.message}"
    assert same(got, expected), f"{where}: got {got!r}, expected {expected!r}"


def same(got, expected):
    if isinstance(expected, bool):
        return got is expected or (not expected and got == 0 and not isinstance(got, bool))
    if isinstance(expected, float):
        return isinstance(got, float) and got == pytest.approx(expected, rel=1e-12, abs=0)
    if isinstance(expected, list):
        return isinstance(got, list) and len(got) == len(expected) and \
            all(same(g, e) for g, e in zip(got, expected))
    if isinstance(expected, dict):
        return isinstance(got, dict) and got.keys() == expected.keys() and \
            all(same(got[k], e) for k, e in expected.items())
    return type(got) is type(expected) and got == expected
