"""Damaged ALOG files (issue 20 point 5): EARL reads an ALOG file up to its first line after
the first event record that cannot be read, reports the loss in problems()["damaged"] (one
entry for the whole file: every location loses what follows), in `earl info` and in the
analysis report; strict=True fails instead with the error of that line, word for word as
before. A bad header or first event record stays an error in both modes, so a file that is
not ALOG is never read as a damaged one.

Traces written by EARL and the imperfect ones of tests/alog_traces.py are cut at many offsets
and corrupted (fixed seeds) in tmp_path; tests/damaged_alog_reading.py reads each in a child
process with a timeout and compares EARL with an independent reading of the same bytes (the
reference model of the lines before the damage) and, for cuts, with the intact file.
"""
import collections
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import earl
import earl.generate
from alog_traces import random_alog
from child_batches import run_batch
from damaged_alog_reading import is_event_record

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def run_cases(cases, tmp_path, timeout=600):
    """Runs tests/damaged_alog_reading.py over `cases` in a child; fails on any difference,
    on a crash (naming the case it was reading) or on a hang. Returns how many cases were
    checked as what ("whole", "damaged", "error", "header", "intact")."""
    results = run_batch(HERE / "damaged_alog_reading.py", {"cases": cases}, tmp_path, timeout)
    return collections.Counter(what for r in results for what in r["seen"])


def cut_copies(intact, directory, offsets):
    """One copy of `intact` per offset, cut there; each case names the intact file."""
    data = Path(intact).read_bytes()
    directory.mkdir(exist_ok=True)
    cases = []
    for offset in offsets:
        path = directory / f"cut{offset}.alog"
        path.write_bytes(data[:offset])
        cases.append({"name": f"{Path(intact).name} cut at {offset} of {len(data)}", "path": str(path),
                      "intact": str(intact)})
    return cases


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """A trace EARL writes (in time order, as `earl gen` does): 3 locations, ~3000 events."""
    path = tmp_path_factory.mktemp("generated") / "run.alog"
    earl.generate.generate(str(path), format="alog", locations=3, events=3000, seed=5)
    return path


def line_ends(data):
    return [i + 1 for i, byte in enumerate(data) if byte == ord("\n")]


# ----------------------------------------------------------------------------------------
# cuts
def test_a_generated_trace_cut_every_97_bytes(generated, tmp_path):
    data = generated.read_bytes()
    ends = line_ends(data)
    # around the header's end and the first event record's, inside the first event record's
    # fields, and the very end
    first_event = next(i for i, line in enumerate(data.split(b"\n")) if is_event_record(line.decode()))
    special = {0, 1, len(data) - 1, len(data) - 2, ends[first_event - 1] + 3}
    for end in ends[first_event - 1:first_event + 2]:
        special |= {end - 2, end - 1, end, end + 1}
    seen = run_cases(cut_copies(generated, tmp_path / "cuts", sorted(special | set(range(0, len(data), 97)))),
                     tmp_path)
    # Cuts inside a line's first fields are damage, inside its timestamp a shorter record
    # that reads whole; a few fall in the header or the first event record (errors).
    assert seen["damaged"] > 300 and seen["intact"] > 300 and seen["error"] >= 4 and seen["whole"] > 100, seen


def test_imperfect_traces_cut_at_every_byte(tmp_path):
    """Unsorted lines, roll-over cycles, unknown records among the events, blank lines,
    tabs, no final line ending: cut anywhere, read as the reference reads the bytes."""
    cases = []
    for seed, options in ((1, {"unsorted": "swaps"}), (2, {"rollover": True}), (3, {"unsorted": "shuffled"}), (4, {})):
        trace = random_alog(seed, max_events=60, min_events=30, **options)
        intact = Path(trace.write(tmp_path, f"imperfect{seed}.alog"))
        cases += cut_copies(intact, tmp_path / f"cuts{seed}", range(len(intact.read_bytes())))
    for case in cases:
        case.pop("intact")  # not in time order: the reference alone
    seen = run_cases(cases, tmp_path)
    assert seen["damaged"] > 2500 and seen["error"] > 300 and seen["whole"] > 1000, seen


def test_crlf_trace_cut_at_every_byte_also_between_cr_and_lf(tmp_path):
    trace = random_alog(6, max_events=40, min_events=20, allow_unsorted=False)
    intact = tmp_path / "crlf.alog"
    intact.write_bytes(trace.text.replace("\n", "\r\n").encode())
    cases = cut_copies(intact, tmp_path / "cuts", range(len(intact.read_bytes())))
    for case in cases:
        case.pop("intact")  # the intact prefix check splits lines at LF only
    seen = run_cases(cases, tmp_path)
    assert seen["damaged"] > 500 and seen["whole"] > 100, seen


# ----------------------------------------------------------------------------------------
# corruption
def corrupted_copies(intact, directory, count, seed, header=False):
    """`count` copies of `intact`, each with one line after the first event record (or, with
    `header`, one header line) changed: a byte replaced, a block of zero bytes written
    over it (a crash's hole), a part cut out, text put in."""
    rnd = random.Random(seed)
    lines = Path(intact).read_bytes().split(b"\n")
    first_event = next(i for i, line in enumerate(lines) if is_event_record(line.decode()))
    candidates = [i for i in (range(first_event) if header else range(first_event + 1, len(lines))) if lines[i].strip()]
    directory.mkdir(exist_ok=True)
    cases = []
    for k in range(count):
        index = rnd.choice(candidates)
        line = bytearray(lines[index])
        at = rnd.randrange(len(line))
        how = rnd.choice(["byte", "text byte", "zeros", "cut out", "text in"] if not header
                         else ["text byte", "cut out", "text in"])
        if how == "byte":
            line[at] = rnd.choice([b for b in range(256) if b != ord("\r")])
        elif how == "text byte":
            line[at] = rnd.choice(b"0123456789 -+x.:\t")
        elif how == "zeros":
            line[at:] = bytes(rnd.randrange(1, 600))
        elif how == "cut out":
            del line[at:at + rnd.randrange(1, 12)]
        else:
            line[at:at] = rnd.choice([b"oops", b" 7", b"-", b"1.5", b"\xff\xfe", b"  "])
        changed = lines[:index] + [bytes(line)] + lines[index + 1:]
        path = directory / f"changed{k}.alog"
        path.write_bytes(b"\n".join(changed))
        cases.append({"name": f"line {index + 1}: {how} at byte {at + 1}", "path": str(path), "header": header})
    return cases


def test_a_generated_trace_with_lines_corrupted(generated, tmp_path):
    seen = run_cases(corrupted_copies(generated, tmp_path / "changed", 120, seed=20), tmp_path)
    assert seen["damaged"] > 80, seen  # a few changes leave a line that reads, as another


def test_imperfect_traces_with_lines_corrupted(tmp_path):
    cases = []
    for seed in (7, 8, 9):
        intact = random_alog(seed, max_events=60, min_events=40).write(tmp_path, f"imperfect{seed}.alog")
        cases += corrupted_copies(intact, tmp_path / f"changed{seed}", 60, seed=seed)
    seen = run_cases(cases, tmp_path)
    assert seen["damaged"] > 100, seen


def test_a_changed_header_fails_alike_in_both_modes_or_reads_as_another(generated, tmp_path):
    """A changed header line fails in both modes alike, or reads as another header; damage
    then comes only where an event record names a type the changed header lost. (Not
    against the reference model: it reads a -13 comment of one "colour:pattern" token as no
    name, EARL as the name.)"""
    run_cases(corrupted_copies(generated, tmp_path / "header", 40, seed=21, header=True), tmp_path)


def test_a_crash_hole_at_the_end_reads_up_to_it(generated, tmp_path):
    """A file system that lost the end of a file after a crash leaves zeros where its last
    blocks were: read up to the hole, named as bytes that are not text."""
    data = generated.read_bytes()
    hole = data.rfind(b"\n", 0, len(data) // 2) + 1 + 5  # five bytes into a line
    path = tmp_path / "hole.alog"
    path.write_bytes(data[:hole] + bytes(len(data) - hole))
    line = data[:hole].count(b"\n") + 1
    trace = earl.EventTrace(str(path), progress=lambda f: None)
    [entry] = trace.problems()["damaged"]["locations"]
    assert entry["message"].startswith(f"{path}: line {line}: bytes that are not text (byte 6 of the line is \\x00); ")
    assert entry["message"].endswith(f", line {line}, the file's last, was not")  # the zeros hold no line ending
    assert entry["record"] == len(trace) + 1
    run_cases([{"name": "hole", "path": str(path)}], tmp_path)


# ----------------------------------------------------------------------------------------
# the brief's example, by hand
@pytest.fixture(scope="module")
def cut_example(tmp_path_factory):
    """earl gen -n 2 -e 2000, its first 30000 bytes."""
    directory = tmp_path_factory.mktemp("example")
    intact = directory / "a.alog"
    earl.generate.generate(str(intact), format="alog", locations=2, events=2000, seed=1)
    data = intact.read_bytes()
    cut = directory / "cut.alog"
    cut.write_bytes(data[:30000])
    line = data[:30000].count(b"\n") + 1
    complete = data[:data.rfind(b"\n", 0, 30000) + 1].split(b"\n")
    events = sum(1 for text in complete if text and not text.startswith(b"-") or text.startswith((b"-101 ", b"-102 ")))
    fields = len(data[:30000].split(b"\n")[-1].split())
    assert 0 < fields < 6, "the cut must fall inside a line's six fields"
    message = (f"{cut}: line {line}: truncated record: {fields} of the 6 fields 'type process task data cycle "
               f"timestamp'")
    return {"intact": intact, "cut": cut, "line": line, "events": events, "strict": message,
            "damaged": f"{message}; the {events} event records before it were read, line {line}, the file's last, "
                       "was not"}


def test_the_cut_example_names_the_line_and_what_was_lost(cut_example):
    trace = earl.EventTrace(str(cut_example["cut"]), progress=lambda f: None)
    assert len(trace) == cut_example["events"]
    assert trace.problems()["damaged"] == {
        "count": 1, "first": [],
        "locations": [{"loc": -1, "record": cut_example["events"] + 1, "announced": 0,
                       "message": cut_example["damaged"]}]}
    intact = earl.EventTrace(str(cut_example["intact"]), progress=lambda f: None)
    assert "damaged" not in intact.problems()
    for pos in (1, 2, len(trace) // 2, len(trace) - 1, len(trace)):
        assert trace.event(pos) == intact.event(pos)
    with pytest.raises(earl.EarlError) as raised:
        earl.EventTrace(str(cut_example["cut"]), strict=True, progress=lambda f: None)
    assert str(raised.value) == cut_example["strict"]


@pytest.mark.parametrize("command", ["info", "analyze"])
def test_command_line_reads_the_cut_example_and_names_the_damage(cut_example, command):
    earl_command = [sys.executable, "-m", "earl.cli", command]
    path = str(cut_example["cut"])
    done = subprocess.run(earl_command + [path], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert f"damaged: {cut_example['damaged']}" in " ".join(done.stdout.split())  # however it wraps
    done = subprocess.run(earl_command + ["--json", path], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    saved = json.loads(done.stdout)
    if command == "info":
        assert saved["events"] == cut_example["events"]
        assert saved["problems"]["damaged"]["locations"] == [
            {"loc": -1, "record": cut_example["events"] + 1, "announced": 0, "message": cut_example["damaged"]}]
    else:
        assert saved["damaged"] == [cut_example["damaged"]]
    strict = subprocess.run(earl_command + ["--strict", path], capture_output=True, text=True, timeout=120)
    assert strict.returncode == 1 and "Traceback" not in strict.stderr
    assert strict.stderr == f"earl: {cut_example['strict']}\n"


def test_python_analysis_reads_up_to_the_damage(cut_example):
    """earl.analyze: the native engine and the Python reference engine name the damage."""
    report = earl.analyze(str(cut_example["cut"]), progress=lambda f: None)
    assert report.damaged == [cut_example["damaged"]]
    with pytest.raises(earl.EarlError, match="truncated record"):
        earl.analyze(str(cut_example["cut"]), strict=True, progress=lambda f: None)


def test_lua_and_tcl_see_the_damage(cut_example):
    path = str(cut_example["cut"])
    lua = pytest.importorskip("earl.lua").runtime()
    lua.globals().path = path
    entry = lua.execute("return EventTrace{file=path}:problems().damaged.locations[1]")
    assert (entry["loc"], entry["record"], entry["announced"], entry["message"]) == \
        (-1, cut_example["events"] + 1, 0, cut_example["damaged"])
    with pytest.raises(Exception, match="truncated record"):
        lua.execute("EventTrace{file=path, strict=true}")
    from test_tcl_common import LIBRARY, interp
    if LIBRARY is None:
        pytest.skip("no Tcl extension")
    tcl = interp()
    tcl.tk.call("set", "path", path)
    tcl.eval("EventTrace e -file $path")
    assert tcl.eval("dict get [lindex [dict get [e problems] damaged locations] 0] message") == cut_example["damaged"]
    assert tcl.eval("dict get [lindex [dict get [e problems] damaged locations] 0] loc") == "-1"
    import tkinter
    with pytest.raises(tkinter.TclError, match="truncated record"):
        tcl.eval("EventTrace f -file $path -strict 1")


def test_no_index_is_kept_for_a_damaged_file(cut_example, tmp_path, monkeypatch):
    # The damage is found again at every open: an index would hide it (it keeps no damage).
    monkeypatch.setenv("EARL_INDEX_DIR", str(tmp_path / "indexes"))
    for _ in range(2):
        trace = earl.EventTrace(str(cut_example["cut"]), index=True, progress=lambda f: None)
        assert trace.problems()["damaged"]["count"] == 1
        assert "not kept for a damaged trace" in trace.index_info()["note"], trace.index_info()
        assert trace.index_info()["state"] != "loaded"


# ----------------------------------------------------------------------------------------
# what is not ALOG stays an error
NOT_ALOG = {
    "a table of numbers": "1 2 3 4 5 6\n7 8 9 10 11 12\n13 14 15 16 17 18\n",
    "numbers, then prose": "-1 0 0 0 0 0\nThe quick brown fox\njumps over the lazy dog\n",
    "random bytes": bytes(random.Random(3).randrange(256) for _ in range(4000)),
}


@pytest.mark.parametrize("name", list(NOT_ALOG))
def test_a_file_that_is_not_alog_is_an_error_in_both_modes(tmp_path, name):
    content = NOT_ALOG[name]
    path = tmp_path / "not.alog"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    for strict in (False, True):
        for fmt in (None, "alog"):
            with pytest.raises(earl.EarlError) as raised:
                earl.EventTrace(str(path), format=fmt, strict=strict, progress=lambda f: None)
            assert str(path) in str(raised.value)


def test_alog_followed_by_other_bytes_is_damaged_alog(tmp_path):
    # One event read whole, then every byte value: ALOG whose end was overwritten.
    path = tmp_path / "then-binary.alog"
    path.write_bytes(b"-101 0 0 1 0 5 1 1\n" + bytes(range(256)))
    trace = earl.EventTrace(str(path), progress=lambda f: None)
    assert len(trace) == 1 and trace.event(1)["type"] == "send"
    [entry] = trace.problems()["damaged"]["locations"]
    # bytes 0-9 are line 2 (byte 10 ends it), 11-12 line 3 (13 is a CR), 14-255 line 4
    assert entry["message"] == (f"{path}: line 2: bytes that are not text (byte 1 of the line is \\x00); the "
                                "event record before it was read, lines 2 to 4 (3 of the file's 4) were not")


# ----------------------------------------------------------------------------------------
# the fuzz findings
def test_alog_fuzz_findings_fail_alike_with_and_without_strict():
    """fuzz/regressions/alog_decoder/: each fails in its header or first event record, so
    without strict as with it (the ctest alog_decoder_regressions replays them in C++)."""
    for finding in sorted((ROOT / "fuzz" / "regressions" / "alog_decoder").iterdir()):
        messages = []
        for strict in (True, False):
            with pytest.raises(earl.EarlError) as raised:
                earl.EventTrace(str(finding), format="alog", strict=strict, progress=lambda f: None)
            messages.append(str(raised.value))
        assert messages[0] == messages[1] and messages[0].startswith(f"{finding}: line ")
