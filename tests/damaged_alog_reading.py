"""Reads damaged ALOG files with EARL and compares them with an independent reading, in a
child process of tests/test_damaged_alog.py (a crash or hang then fails one test, not the
run).

    python damaged_alog_reading.py CASES.json

CASES.json: {"cases": [{"name", "path", and optionally "intact": the path of the file
`path` is a cut of, written by EARL in time order, or "header": true for a file changed in
its header (header_changed)}]}. For each case the child prints
"START name", then one line "RESULT {json}" with the differences it found (none: the case
passed) and what it checked ("seen": the kind expected, "intact" where also the intact file).

The independent reading (expected()): the first line that cannot be read is the first the
reference model (tests/reference_model.py, written from the contract, not from the C++
core) rejects, or the first from the first event record on that holds bytes that are not
text (a control byte other than the blanks), whichever comes first. At or before the first
event record that is an error in both modes (the header and the first event are what show
a file is ALOG); after it, EARL must give exactly the reference model's reading of the lines
before it, one "damaged" entry for the whole file, and with strict=True the error that opens
that entry's message. A cut of an intact file whose lines the reference reads whole up to
the cut (no partial last line read as a shorter record) must also give the intact file's
first events, positions and pointers included.
"""
from __future__ import annotations

import json
import random
import re
import sys
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from reference_model import AlogError, ReferenceTrace  # noqa: E402
from test_model_based import check_event_dict  # noqa: E402

import earl  # noqa: E402

NON_TEXT = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")
INTEGER = re.compile(r"^[+-]?[0-9]+$")


def is_event_record(line):
    words = line.split()
    if len(words) < 6 or not all(INTEGER.match(w) for w in words[:6]):
        return False
    kind = int(words[0])
    return kind >= 0 or kind in (-101, -102)


def with_named_regions(line):
    """The contract leaves open whether a -13 comment of one token holding ':' (a region
    definition cut inside "colour:pattern Name") is the colour prefix or the name: EARL
    takes it as the name, the reference model as a missing name. Here the reference is
    given that token as prefix and name, so that both read the same."""
    words = line.split()
    if len(words) == 7 and words[0] == "-13" and INTEGER.match(words[0]) and ":" in words[6]:
        return f"{line} {words[6]}"
    return line


def expected(data):
    """What EARL must read of the file `data`: (kind, line, reference, lines), kind one of
    "whole", "damaged", "error"; line: the first line that cannot be read (None: the file
    holds no record at all); reference: the reference model of the lines before it; lines:
    the file's lines."""
    text = data.decode("utf-8", "surrogateescape")
    lines = [with_named_regions(line) for line in text.split("\n")]
    text = "\n".join(lines)
    if lines and lines[-1] == "":
        lines.pop()  # the file's last line ending ends no further line
    if all(not line.strip() for line in lines):
        return "error", None, None, lines
    first_event = next((n for n, line in enumerate(lines, 1) if is_event_record(line)), None)
    bad = None
    try:
        ReferenceTrace.parse(text)
    except AlogError as error:
        bad = error.line
    if first_event is not None:
        binary = next((n for n, line in enumerate(lines, 1) if n >= first_event and NON_TEXT.search(line)), None)
        if binary is not None and (bad is None or binary < bad):
            bad = binary
    if bad is None:
        return "whole", None, ReferenceTrace.parse(text), lines
    if first_event is None or bad <= first_event:
        return "error", bad, None, lines
    return "damaged", bad, ReferenceTrace.parse("\n".join(lines[:bad - 1])), lines


def opened(path, **options):
    return earl.EventTrace(path, format="alog", progress=lambda f: None, **options)


def error_of(path, **options):
    try:
        opened(path, **options)
    except earl.EarlError as error:
        return str(error)
    return None


def lost_lines(line, total):
    if total == line:
        return f"line {line}, the file's last, was not"
    return f"lines {line} to {total} ({total - line + 1} of the file's {total}) were not"


def as_error_shows(value):
    """A text value (bytes that are not UTF-8 as surrogate escapes) with those bytes as the
    \\xNN an EarlError's message shows."""
    return value.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def compare_events(trace, ref, where):
    if len(trace) != ref.m:
        return [f"{where}: {len(trace)} events, the reference reads {ref.m}"]
    for pos in range(1, ref.m + 1):
        try:
            check_event_dict(trace.event(pos), ref.event(pos).as_dict(), f"{where} event {pos}")
        except AssertionError as error:
            return [str(error)]
    return []


def random_access_differences(path, ref, probes=40):
    """Positions in a seeded random order with a bookmark every 5 events and a history of 2:
    every event is reached by restoring a bookmark, never past the damage."""
    trace = opened(path, bdist=5, hsize=2)
    rnd = random.Random(ref.m)
    for pos in (rnd.randint(1, ref.m) for _ in range(probes if ref.m else 0)):
        try:
            check_event_dict(trace.event(pos), ref.event(pos).as_dict(), f"random access event {pos}")
            loc = trace.event(pos)["loc"]
            assert trace.stack(loc, pos) == ref.stack(loc, pos), f"random access stack({loc}, {pos})"
        except AssertionError as error:
            return [str(error)]
    return []


def header_changed(path):
    """A file changed in its header: an error naming a line in both modes alike, or a trace
    that strict reading reads the same; or, where the change left an event type undefined,
    damage at an event record after the first that strict reading names word for word."""
    message, strict = error_of(path), error_of(path, strict=True)
    if message is not None:
        if strict != message:
            return [f"strict gave {strict!r}, the default {message!r}"]
        return [] if re.match(re.escape(f"{path}: line ") + r"[0-9]+: ", message) else [f"error {message!r}"]
    default = opened(path)
    damaged = default.problems().get("damaged")
    if damaged is None:
        if strict is not None:
            return [f"read whole by default, but strict gave {strict!r}"]
        read = opened(path, strict=True)
        same = len(read) == len(default) and all(read.event(p) == default.event(p) for p in range(1, len(read) + 1))
        return [] if same else ["the default and strict readings differ"]
    [entry] = damaged["locations"]
    if strict is None or not entry["message"].startswith(strict + "; ") or "is not defined in the header" not in strict:
        return [f"damage {entry['message']!r} after a changed header, strict {strict!r}"]
    return []


def compare(case, seen):
    """The differences between EARL's reading of the case and the expectation; `seen` gets
    what was checked: the expected kind, and "intact" where the intact file was too."""
    path = case["path"]
    if case.get("header"):
        seen.append("header")
        return header_changed(path)
    data = Path(path).read_bytes()
    kind, line, ref, lines = expected(data)
    seen.append(kind)
    differences = []
    if kind == "error":
        message = error_of(path)
        where = f"{path}: line {line}: " if line else f"{path}: no ALOG records in the file"
        if message is None or not message.startswith(where):
            differences.append(f"line {line} is in the header or the first event record: an error naming it "
                               f"expected, got {message!r}")
        if error_of(path, strict=True) != message:
            differences.append(f"strict gave {error_of(path, strict=True)!r}, not {message!r}")
        return differences
    trace = opened(path)
    differences += compare_events(trace, ref, "in order")
    if trace.nrlocs() != ref.nrlocs:
        differences.append(f"{trace.nrlocs()} locations, the reference {ref.nrlocs}")
    problems = trace.problems()
    damaged = problems.pop("damaged", None)
    if problems != ref.problems():
        differences.append(f"problems {problems} != {ref.problems()}")
    strict = error_of(path, strict=True)
    if kind == "whole":
        if damaged is not None or strict is not None:
            differences.append(f"read whole by the reference, but damaged {damaged}, strict {strict!r}")
    else:
        if damaged is not None:
            for entry in damaged["locations"]:  # bytes as errors show them (surrogates in values)
                entry["message"] = as_error_shows(entry["message"])
        want = {"loc": -1, "record": ref.m + 1, "announced": 0,
                "message": f"{strict}; " + (f"the {ref.m} event records before it were read" if ref.m != 1
                                            else "the event record before it was read") +
                           ", " + lost_lines(line, len(lines))}
        if damaged != {"count": 1, "first": [], "locations": [want]}:
            differences.append(f"damaged {damaged}, expected {want}")
        if strict is None or not strict.startswith(f"{path}: line {line}: "):
            differences.append(f"strict gave {strict!r}, not an error naming line {line}")
    differences += random_access_differences(path, ref)
    if case.get("intact") and not differences:
        differences += intact_prefix_differences(case["intact"], trace, data, ref, seen)
    return differences


def intact_prefix_differences(intact_path, trace, data, ref, seen):
    """A cut of a file in time order whose complete event lines are all the reference read:
    the intact file's first events, positions and pointers included."""
    complete = data[:data.rfind(b"\n") + 1].decode("utf-8", "surrogateescape").split("\n")
    whole_events = sum(1 for line in complete if is_event_record(line))
    if whole_events != ref.m:
        return []  # the cut left a shorter record that reads whole: the reference has it
    seen.append("intact")
    intact = opened(intact_path)
    for pos in range(1, ref.m + 1):
        if trace.event(pos) != intact.event(pos):
            return [f"event {pos}: {trace.event(pos)} != the intact file's {intact.event(pos)}"]
    return []


def main(spec_path):
    spec = json.loads(Path(spec_path).read_text())
    for case in spec["cases"]:
        print("START " + case["name"], flush=True)
        seen = []
        try:
            differences = compare(case, seen)
        except Exception:
            differences = ["traceback:\n" + traceback.format_exc()]
        print("RESULT " + json.dumps({"name": case["name"], "differences": differences, "seen": seen}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
