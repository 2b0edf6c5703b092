"""Damaged OTF2 archives (issue 20 point 5): EARL reads every location up to the damage in
its event file, reports what was lost in problems()["damaged"], and goes on; strict=True
fails instead with the error naming the archive, the location and the record.

The archives are copies, in tmp_path, of the real Score-P trace ../shared/traces/ping-pong-otf2
(one event chunk per location) and of a generated archive whose event files span several
chunks, cut at many offsets and with bytes flipped (fixed seeds). Each is read by EARL (through
the event cache and directly) and by the official reader (PyPI `otf2`), in child processes
with a timeout (tests/damaged_reading.py compares them): the same events up to the damage,
then EARL's damage entry. libotf2 cannot find a cut by itself (it reads on into whatever
its chunk buffer holds past the file's end), so for a cut file the point is worked out
here by a second reading of the format: the end offsets of the intact file's records; the
records up to it are the official reader's.
"""
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("otf2")

import earl  # noqa: E402
import earl.generate  # noqa: E402
from child_batches import run_batch  # noqa: E402
from otf2_archives import PING_PONG, SHARED_TRACES  # noqa: E402

HERE = Path(__file__).resolve().parent
# Chunk buffers of 1 MiB then come from fresh (zeroed) pages: the official reader, reading a
# file cut inside its only chunk, then stops at the cut instead of reading stale bytes.
CHILD_ENV = dict(os.environ, MALLOC_MMAP_THRESHOLD_="131072")

needs_ping_pong = pytest.mark.skipif(not PING_PONG.exists(), reason=f"shared traces not found in {SHARED_TRACES}")


def copy_archive(anchor, directory):
    """A writable copy of the archive of `anchor` in `directory`; its anchor."""
    shutil.copytree(Path(anchor).parent, directory)
    for path in Path(directory).rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    return Path(directory) / Path(anchor).name


def event_file(anchor, location_id):
    return anchor.with_suffix("") / f"{location_id}.evt"


def run_cases(intact, cases, tmp_path, timeout=300):
    """Runs tests/damaged_reading.py over `cases` in a child; fails on any difference, on a
    crash (naming the case it was reading) or on a hang."""
    run_batch(HERE / "damaged_reading.py", {"intact": str(intact), "cases": cases}, tmp_path, timeout,
              env=CHILD_ENV)

def cut_copies(intact, tmp_path, location_id, offsets, locations=2):
    """One copy of the archive per offset, its event file of `location_id` cut there; each
    case names the records per location that lie wholly in the files."""
    cases = []
    data = event_file(intact, location_id).read_bytes()
    ends = record_ends(data)
    whole = [len(record_ends(event_file(intact, loc).read_bytes())) for loc in range(locations)]
    for offset in offsets:
        anchor = copy_archive(intact, tmp_path / f"cut{location_id}-{offset}")
        event_file(anchor, location_id).write_bytes(data[:offset])
        readable = list(whole)
        readable[location_id] = sum(1 for end in ends if end <= offset)
        cases.append({"name": f"{location_id}.evt cut at {offset} of {len(data)}", "anchor": str(anchor),
                      "readable": readable})
    return cases


# ----------------------------------------------------------------------------------------
# the real Score-P trace: one chunk per event file
@needs_ping_pong
def test_ping_pong_cut_every_13_bytes(tmp_path):
    size = event_file(PING_PONG, 1).stat().st_size
    cases = cut_copies(PING_PONG, tmp_path, 1, range(0, size, 13))
    cases += cut_copies(PING_PONG, tmp_path, 0, [0, 17, 18, 19, 200, 500, event_file(PING_PONG, 0).stat().st_size - 1])
    run_cases(PING_PONG, cases, tmp_path)


@needs_ping_pong
def test_ping_pong_with_bytes_flipped(tmp_path):
    rnd = random.Random(20)
    data = event_file(PING_PONG, 1).read_bytes()
    ends = record_ends(data)
    whole = len(record_ends(event_file(PING_PONG, 0).read_bytes()))
    cases = []
    for k in range(24):
        changed = bytearray(data)
        flipped = [rnd.randrange(18, len(data)) for _ in range(1 if k < 16 else 8)]
        for offset in flipped:
            changed[offset] ^= 1 << rnd.randrange(8)
        anchor = copy_archive(PING_PONG, tmp_path / f"flip{k}")
        event_file(anchor, 1).write_bytes(bytes(changed))
        before = sum(1 for end in ends if end <= min(flipped))  # records wholly before the first change
        cases.append({"name": f"1.evt bits flipped at {sorted(flipped)}", "anchor": str(anchor),
                      "prefix": [whole, before]})
    run_cases(PING_PONG, cases, tmp_path)


@needs_ping_pong
@pytest.mark.parametrize("cache", [True, False])
def test_ping_pong_cut_names_what_was_lost(tmp_path, cache):
    anchor = copy_archive(PING_PONG, tmp_path / "cut")
    data = event_file(anchor, 1).read_bytes()
    event_file(anchor, 1).write_bytes(data[:400])
    trace = earl.EventTrace(str(anchor), cache=cache, progress=lambda f: None)
    damaged = trace.problems()["damaged"]
    assert damaged["count"] == 1 and damaged["first"] == []
    [entry] = damaged["locations"]
    # Worked out with the official reader (test_ping_pong_cut_every_13_bytes checks every
    # offset): 27 records of location 1 lie wholly in the first 400 bytes; it announces 60.
    assert (entry["loc"], entry["record"], entry["announced"]) == (1, 28, 60)
    assert entry["message"] == (
        f"{anchor}: location 1 (MPI Rank 1 / Master thread): the event file is cut short inside or "
        "before record 28; records 1 to 27 were read, 28 to 60 (33 of its 60) were not")
    assert len(trace) == 60 + 27  # location 0 whole, every record of location 1 one event here
    with pytest.raises(earl.EarlError) as raised:
        earl.EventTrace(str(anchor), cache=cache, strict=True, progress=lambda f: None)
    assert str(raised.value) == (f"{anchor}: location 1 (MPI Rank 1 / Master thread): the event file "
                                 "is cut short inside or before record 28")


@needs_ping_pong
def test_intact_archive_has_no_damage_entry(tmp_path):
    trace = earl.EventTrace(str(PING_PONG), strict=True, progress=lambda f: None)
    assert "damaged" not in trace.problems()
    assert len(trace) == 120


# ----------------------------------------------------------------------------------------
# a generated archive whose event files span several chunks
CHUNK = 1 << 20  # the event chunk size EARL's writer uses for a few locations
# libotf2's buffer layout: record types that hold one compressed number and no length
ONE_VALUE = {12, 13, 16, 17, 20, 21, 24, 28, 29, 30}


def record_ends(data):
    """The byte offset just past each event record of a whole event file, in order: the
    file read front to back, chunk by chunk."""
    ends = []
    for start in range(0, len(data), CHUNK):
        at = start + 18  # chunk header: type, endianness, first and last record number
        while True:
            kind = data[at]
            if kind in (0, 2):  # end of chunk, end of file
                break
            if kind == 5:  # timestamp
                at += 9
                continue
            if kind in ONE_VALUE:
                size = data[at + 1]
                at += 2 + (0 if size == 0xFF else size)
            else:
                length = data[at + 1]
                header = 2
                if length == 0xFF:
                    length = int.from_bytes(data[at + 2:at + 10], "little")
                    header = 10
                at += header + length
            if kind != 6:  # an attribute list belongs to the record after it
                ends.append(at)
    return ends


@pytest.fixture(scope="module")
def chunked(tmp_path_factory):
    directory = tmp_path_factory.mktemp("chunked")
    anchor = directory / "run.otf2"
    earl.generate.generate(str(anchor), locations=2, events=200000, seed=4,
                           truth_path=str(directory / "truth.json"))
    return anchor


def test_chunked_archive_cut_inside_later_chunks(chunked, tmp_path):
    data = event_file(chunked, 1).read_bytes()
    assert len(data) > CHUNK + 100000, "the event file must span more than one chunk"
    rnd = random.Random(3)
    offsets = [CHUNK, CHUNK + 5, CHUNK + 18, CHUNK + 19, len(data) - 1, 1000, CHUNK - 1]
    offsets += sorted(rnd.randrange(CHUNK + 18, len(data)) for _ in range(3))
    run_cases(chunked, cut_copies(chunked, tmp_path, 1, offsets), tmp_path, timeout=600)


# ----------------------------------------------------------------------------------------
# the command line on a cut archive
@needs_ping_pong
@pytest.mark.parametrize("command", ["info", "analyze"])
def test_command_line_reads_a_cut_archive_and_names_the_damage(tmp_path, command):
    anchor = copy_archive(PING_PONG, tmp_path / "cut")
    data = event_file(anchor, 1).read_bytes()
    event_file(anchor, 1).write_bytes(data[:400])
    earl_command = [sys.executable, "-m", "earl.cli", command]
    done = subprocess.run(earl_command + [str(anchor)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    out = done.stdout + done.stderr
    assert "location 1 (MPI Rank 1 / Master thread): the event file is cut short inside or before record 28" in out
    done = subprocess.run(earl_command + ["--json", str(anchor)], capture_output=True, text=True, timeout=120)
    saved = json.loads(done.stdout)
    damaged = saved["problems"]["damaged"] if command == "info" else saved["damaged"]
    if command == "info":
        assert [(d["loc"], d["record"], d["announced"]) for d in damaged["locations"]] == [(1, 28, 60)]
    else:
        assert len(damaged) == 1 and "location 1 " in damaged[0] and "record 28" in damaged[0]
    strict = subprocess.run(earl_command + ["--strict", str(anchor)], capture_output=True, text=True, timeout=120)
    assert strict.returncode != 0 and "Traceback" not in strict.stderr
    assert strict.stderr.strip().splitlines()[-1].endswith(
        f"{anchor}: location 1 (MPI Rank 1 / Master thread): the event file is cut short inside or before record 28")


@needs_ping_pong
def test_lua_and_tcl_see_the_damage(tmp_path):
    anchor = copy_archive(PING_PONG, tmp_path / "cut")
    data = event_file(anchor, 1).read_bytes()
    event_file(anchor, 1).write_bytes(data[:400])
    expected = earl.EventTrace(str(anchor), progress=lambda f: None).problems()["damaged"]["locations"][0]
    lua = pytest.importorskip("earl.lua").runtime()
    lua.globals().path = str(anchor)
    entry = lua.execute("return EventTrace{file=path}:problems().damaged.locations[1]")
    assert (entry["loc"], entry["record"], entry["announced"], entry["message"]) == \
        (expected["loc"], expected["record"], expected["announced"], expected["message"])
    with pytest.raises(Exception, match="cut short inside or before record 28"):
        lua.execute("EventTrace{file=path, strict=true}")
    from test_tcl_common import LIBRARY, interp
    if LIBRARY is None:
        pytest.skip("no Tcl extension")
    tcl = interp()
    tcl.tk.call("set", "path", str(anchor))
    tcl.eval("EventTrace e -file $path")
    assert tcl.eval("dict get [lindex [dict get [e problems] damaged locations] 0] message") == expected["message"]
    assert tcl.eval("dict get [e problems] damaged count") == "1"
    import tkinter
    with pytest.raises(tkinter.TclError, match="cut short inside or before record 28"):
        tcl.eval("EventTrace f -file $path -strict 1")


@needs_ping_pong
@pytest.mark.parametrize("cache", [True, False])
def test_no_index_is_kept_for_a_damaged_archive(tmp_path, monkeypatch, cache):
    # The damage is found again at every open: an index would hide it (it keeps no damage).
    directory = tmp_path / "indexes"
    monkeypatch.setenv("EARL_INDEX_DIR", str(directory))
    anchor = copy_archive(PING_PONG, tmp_path / "cut")
    earl.EventTrace(str(anchor), cache=cache, index=True, progress=lambda f: None)
    # the intact archive's index (the direct OTF2 reader keeps none)
    assert len(list(directory.iterdir()) if directory.exists() else []) == (1 if cache else 0)
    data = event_file(anchor, 1).read_bytes()
    event_file(anchor, 1).write_bytes(data[:400])
    for _ in range(2):
        trace = earl.EventTrace(str(anchor), cache=cache, index=True, progress=lambda f: None)
        assert trace.problems()["damaged"]["count"] == 1
        assert "not kept for a damaged trace" in trace.index_info()["note"], trace.index_info()
        assert trace.index_info()["state"] != "loaded"


@pytest.mark.parametrize("cache", [True, False])
def test_more_records_than_announced_ends_the_location_where_announced(tmp_path, cache):
    """An event file holding more records than its Location definition announces (written
    here with the official writer, its count lowered): the announced records are read, the
    rest is named as damage; strict=True refuses the archive."""
    from otf2_archives import ArchiveWriter, T
    from otf2_reference import Otf2Reference, check_event

    def write(directory, announced):
        aw = ArchiveWriter(directory, "over", 1000)
        a, = aw.process("MPI Rank 0")
        r = aw.region("main")
        e = aw.ev(a)
        for k in range(6):
            e.enter(T(10 * k), r)
            e.leave(T(10 * k + 5), r)
        if announced is not None:
            a._number_of_events_written = announced
        return aw.close()

    intact = write(tmp_path / "intact", None)
    over = write(tmp_path / "over", 9)
    trace = earl.EventTrace(str(over), cache=cache, progress=lambda f: None)
    want = Otf2Reference.load(str(intact)).events[1:10]  # the first 9 of the 12 records
    got = [trace.event(pos) for pos in range(1, len(trace) + 1)]
    assert len(got) == 9
    for pos, (g, w) in enumerate(zip(got, want), 1):
        check_event(g, w, f"event {pos}")
    [entry] = trace.problems()["damaged"]["locations"]
    assert (entry["loc"], entry["record"], entry["announced"]) == (0, 10, 9)
    assert "more event records than the 9 its definition announces" in entry["message"]
    with pytest.raises(earl.EarlError, match="more event records than the 9 its definition announces"):
        earl.EventTrace(str(over), cache=cache, strict=True, progress=lambda f: None)
