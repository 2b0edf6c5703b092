"""Damaged described traces (docs/formats.md#damaged-described-traces), as damaged ALOG
files (tests/test_damaged_alog.py): a record after the first event record that cannot be
read or mapped ends the trace there, the events before it are read and problems()["damaged"]
names it (one entry, loc -1); strict=True fails with the error that opens that entry's
message. A bad definition or first event record is an error in both modes.

Text: ALOG files read through described:alog against EARL's native ALOG reader (a second
implementation) when cut and when a line is corrupted, and a small case by hand. Binary:
the shipped sample layout written with struct (tests/test_described_binary.py), cut at every
byte and corrupted one byte at a time, expected from the records written.
"""
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

import earl
import earl.generate
from alog_traces import random_alog
from described_helpers import events_of, text_description
from test_damaged_alog import corrupted_copies
from test_described_binary import EXPECTED, SHIPPED, picked, sample_records


def reading(path, fmt, strict=False):
    """("read", events, damage entry or None) or ("error", message)."""
    try:
        with earl.EventTrace(str(path), format=fmt, strict=strict, progress=lambda f: None) as trace:
            damaged = trace.problems().get("damaged")
            assert damaged is None or damaged["count"] == 1
            return "read", events_of(trace), damaged and damaged["locations"][0]
    except earl.EarlError as error:
        return "error", str(error)


def assert_as_native(path):
    """described:alog reads `path` as the native ALOG reader does: both fail, or both read the
    same events and name the damage at the same record, losing the same lines (the reason's
    wording differs: each reader says it its way). Strict: the error opening the message.
    Returns what happened: "error", "damaged" or "whole"."""
    native, described = reading(path, "alog"), reading(path, "described:alog")
    assert native[0] == described[0], (native, described)
    if native[0] == "error":
        return "error"
    assert described[1] == native[1]
    if native[2] is None:
        assert described[2] is None
        return "whole"
    ours, theirs = described[2], native[2]
    assert (ours["loc"], ours["record"], ours["announced"]) == (theirs["loc"], theirs["record"], theirs["announced"])
    assert ours["message"].split("; ", 1)[1] == theirs["message"].split("; ", 1)[1]
    kind, error = reading(path, "described:alog", strict=True)
    # The error shows bytes that are not UTF-8 as "\xff", problems() as surrogates.
    shown = re.sub("[\udc80-\udcff]", lambda m: f"\\x{ord(m.group()) - 0xdc00:02x}", ours["message"])
    assert kind == "error" and shown == error + "; " + ours["message"].split("; ", 1)[1]
    return "damaged"


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    path = tmp_path_factory.mktemp("generated") / "run.alog"
    earl.generate.generate(str(path), format="alog", locations=3, events=800, seed=11)
    return path


def test_a_generated_trace_cut_every_41_bytes_reads_as_natively(generated, tmp_path):
    data = generated.read_bytes()
    seen = []
    for offset in range(1, len(data), 41):  # 0: an empty file, which only the native reader refuses
        cut = tmp_path / "cut.alog"
        cut.write_bytes(data[:offset])
        seen.append(assert_as_native(cut))
    assert seen.count("damaged") > 200 and seen.count("whole") > 50 and seen.count("error") >= 2, seen


def test_an_unsorted_trace_cut_at_every_byte_reads_as_natively(tmp_path):
    """The time-sorted index stops at the damage too."""
    data = random_alog(3, max_events=40, min_events=25, unsorted="shuffled").write(tmp_path, "u.alog")
    data = Path(data).read_bytes()
    seen = []
    for offset in range(1, len(data)):
        cut = tmp_path / "cut.alog"
        cut.write_bytes(data[:offset])
        seen.append(assert_as_native(cut))
    assert seen.count("damaged") > 300, seen


def test_corrupted_lines_after_the_first_event_read_as_natively(generated, tmp_path):
    """One line after the first event record changed as tests/test_damaged_alog.py changes
    them (a byte, zeros from a crash, a part cut out, text put in). Not where the change
    brings a '.': described:alog's timestamps may have decimals, the native reader's not."""
    assert b"." not in generated.read_bytes()
    seen = [assert_as_native(case["path"]) for case in corrupted_copies(generated, tmp_path / "changed", 200, seed=3)
            if b"." not in Path(case["path"]).read_bytes()]
    assert seen.count("damaged") > 100, seen


def test_a_corrupted_line_by_hand(tmp_path):
    path = tmp_path / "t.alog"
    path.write_text("-13 0 1 2 0 0 main\n1 0 0 0 0 10\n\n2 0 0 0 0 20\n1 0 0 zero 0 30\n2 0 0 0 0 40\n")
    kind, events, damage = reading(path, "described:alog")
    assert [(e["type"], e["time"]) for e in events] == [("enter", 10e-6), ("exit", 20e-6)]
    reason = f"{path}: line 5: field data is not an integer: 'zero'"
    assert damage == {"loc": -1, "record": 3, "announced": 0,
                      "message": f"{reason}; the 2 event records before it were read, lines 5 to 6 (2 of the "
                                 "file's 6) were not"}
    assert reading(path, "described:alog", strict=True) == ("error", reason)
    # Bad definitions or a bad first event record: an error in both modes.
    for text, reason in (("-13 0 1 x 0 0 main\n1 0 0 0 0 10\n", "line 1: field data is not an integer: 'x'"),
                         ("-13 0 1 2 0 0 main\n1 0 0 0 0\n2 0 0 0 0 20\n", "line 2: missing field timestamp"),
                         ("-13 0 1 2 0 0 main\n7 0 0 0 0 10\n", "line 2: code 7 is not defined")):
        path.write_text(text)
        for strict in (False, True):
            kind, message = reading(path, "described:alog", strict=strict)
            assert kind == "error" and message.startswith(f"{path}: {reason}")


def test_command_line_names_the_damage_or_fails_with_strict(tmp_path):
    path = tmp_path / "t.alog"
    path.write_text("-13 0 1 2 0 0 main\n1 0 0 0 0 10\n2 0 0 0 0 20\n1 0 0 zero 0 30\n")
    reason = f"{path}: line 4: field data is not an integer: 'zero'"
    earl_info = [sys.executable, "-m", "earl.cli", "info", "-f", "described:alog"]
    done = subprocess.run(earl_info + ["--json", str(path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["problems"]["damaged"]["locations"] == [
        {"loc": -1, "record": 3, "announced": 0,
         "message": f"{reason}; the 2 event records before it were read, line 4, the file's last, was not"}]
    strict = subprocess.run(earl_info + ["--strict", str(path)], capture_output=True, text=True, timeout=120)
    assert strict.returncode == 1 and strict.stderr == f"earl: {reason}\n"


THREADED = text_description(
    ["k string", "p int", "th int", "t time s", "id int", "name string optional"],
    [{"name": "region", "match": "R", "define": "region", "id": "id", "label": "name"},
     {"name": "enter", "match": "E", "event": "enter", "location": "p", "thread": "th", "time": "t",
      "region_id": "id"}])


def test_a_damaged_record_leaves_no_location(tmp_path):
    """Its (process, thread) pair would be a new location: the record is not read whole, so
    the trace has the locations of the records before it alone."""
    (tmp_path / "d.toml").write_text(THREADED)
    path = tmp_path / "t.txt"
    path.write_text("R 0 0 0 1 main\nE 0 0 1 1\nE 1 0 2 1\nE 0 5 3 99\nE 2 0 4 1\n")
    with earl.EventTrace(str(path), format=f"described:{tmp_path / 'd.toml'}", progress=lambda f: None) as trace:
        assert len(trace) == 2
        assert [trace.locsym(loc) for loc in range(trace.nrlocs())] == ["process 0 thread 0", "process 1 thread 0"]
        [entry] = trace.problems()["damaged"]["locations"]
        assert entry["message"] == (f"{path}: line 4: region id 99 is not defined (no define = \"region\" record "
                                    "gives it); the 2 event records before it were read, lines 4 to 5 (2 of the "
                                    "file's 5) were not")


# ----------------------------------------------------------------------------------------
# binary
def written(tmp_path, records, name="t.ebt"):
    path = tmp_path / name
    path.write_bytes(b"EBT1\0\0\0\0" + b"".join(records))
    return path


def starts(records):
    """Each record's first byte in the file (after the 8 header bytes), and the end."""
    out = [8]
    for r in records:
        out.append(out[-1] + len(r))
    return out


def damaged_binary(path, events, number, start, reason):
    """The damage entry of record `number` starting at byte `start`, `events` read before it."""
    size = path.stat().st_size
    read = "the event record before it was read" if events == 1 else f"the {events} event records before it were read"
    lost = (f"byte {start}, the file's last, was not" if size - start == 1 else
            f"bytes {start} to {size - 1} ({size - start} of the file's {size}) were not")
    return {"loc": -1, "record": events + 1, "announced": 0,
            "message": f"{path}: record {number} (byte {start}): {reason}; {read}, {lost}"}


@pytest.mark.parametrize("unsorted", [False, True], ids=["sorted", "unsorted"])
def test_a_binary_trace_cut_at_every_byte(tmp_path, unsorted):
    records = sample_records("<")
    if unsorted:  # the definitions first, the events backwards
        records = records[:2] + records[2:][::-1]
    data = written(tmp_path, records, "intact.ebt").read_bytes()
    at = starts(records)
    seen = set()
    for offset in range(at[3] + 1, len(data)):  # the first event record whole: up to the damage
        path = tmp_path / "cut.ebt"
        path.write_bytes(data[:offset])
        whole = max(k for k in range(len(records) + 1) if at[k] <= offset)  # records read whole
        kept = [e for e in EXPECTED if e["time"] in {t for t in times_of(records[2:whole])}]
        kind, events, damage = reading(path, f"described:{SHIPPED}")
        assert kind == "read"
        assert [picked(e, w) for e, w in zip(events, kept)] == kept and len(events) == len(kept)
        if offset == at[whole]:
            assert damage is None
            seen.add("whole")
            continue
        left = offset - at[whole]
        reason = (f"the file ends inside it ({left} bytes left)" if left < 20 else
                  f"its length field says {len(records[whole])} bytes, but only {left} are left in the file")
        assert damage == damaged_binary(path, whole - 2, whole + 1, at[whole], reason)
        assert reading(path, f"described:{SHIPPED}", strict=True) == ("error", damage["message"].split("; ")[0])
        seen.add("damaged")
    assert seen == {"whole", "damaged"}


def times_of(records):
    """The times (s) of records as sample_records writes them: int64 ns at byte 12."""
    return [int.from_bytes(r[12:20], "little", signed=True) / 1e9 for r in records]


def test_a_binary_trace_with_a_byte_changed_in_an_event_record(tmp_path):
    """Any change of a byte other than the size's is found at that record (its checksum, its
    kind, or fields beyond its bytes), the events before it are read."""
    records = sample_records("<")
    at = starts(records)
    rnd = random.Random(9)
    for _ in range(60):
        index = rnd.randrange(3, len(records))  # the first event record (2) stays whole
        changed = bytearray(records[index])
        byte = rnd.randrange(2, len(changed))
        changed[byte] = (changed[byte] + rnd.randrange(1, 256)) % 256
        path = written(tmp_path, records[:index] + [bytes(changed)] + records[index + 1:])
        kind, events, damage = reading(path, f"described:{SHIPPED}")
        assert kind == "read"
        assert [picked(e, w) for e, w in zip(events, EXPECTED)] == EXPECTED[:index - 2] and len(events) == index - 2
        expected = damaged_binary(path, index - 2, index + 1, at[index], "REASON")
        assert {**damage, "message": None} == {**expected, "message": None}
        head, tail = expected["message"].split("REASON")
        assert damage["message"].startswith(head) and damage["message"].endswith(tail)
        assert reading(path, f"described:{SHIPPED}", strict=True) == ("error", damage["message"].split("; ")[0])


def test_a_bad_checksum_in_a_definition_or_the_first_event_is_an_error(tmp_path):
    for index in (1, 2):
        records = sample_records("<")
        records[index] = bytes(records[index][:4]) + bytes([(records[index][4] + 1) % 256]) + records[index][5:]
        path = written(tmp_path, records)
        for strict in (False, True):
            kind, message = reading(path, f"described:{SHIPPED}", strict=strict)
            assert kind == "error" and message.startswith(f"{path}: record {index + 1} (byte {starts(records)[index]}): "
                                                          "checksum checksum is ")
