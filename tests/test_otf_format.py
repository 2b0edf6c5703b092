"""OTF (version 1): archives written in the test by libotf's own writer
(tests/otf_archives.py compiles tests/otf/otf_script_writer.c against libotf), read with
EARL and checked event by event against the mapping of docs/api-contract.md "OTF" applied
to the script independently (otf_archives.expected_events), and against libotf's own
`otfprint` for the record counts. Both ways of reading (the event cache and the direct
reader), random access against the scan, damaged archives, the "vampir" alias, and one
open from Lua and from Tcl."""
import math
import random
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

import earl
from otf_archives import expected_events, random_script, script_writer, write_otf

COUNTER_ACC_START_U8 = 0          # accumulated, start scope, unsigned 64-bit
COUNTER_ABS_POINT_S8 = 1 | 4 | 32  # absolute, point scope, signed 64-bit

# Every record kind EARL maps, on three processes with ids 1, 5 and 3 (locations by id:
# 1 -> 0, 3 -> 1, 5 -> 2), ties between processes at times 10, 40 and 95.
RICH = [
    "timer 1000",
    "proc 1 rank0", "proc 5 rank2", "proc 3 rank1",
    "fgroup 1 USER", "fgroup 2 MPI",
    "func 1 main 1", "func 2 MPI_Send 2", "func 3 MPI_Recv 2", "func 4 MPI_Bcast 2",
    "func 5 MPI_Reduce 2", "func 6 write 1",
    "pgroup 7 WORLD 3 1 3 5",
    f"counter 1 cycles {COUNTER_ACC_START_U8} #",
    f"counter 2 level {COUNTER_ABS_POINT_S8} bytes",
    "collop 1 MPI_Bcast 2",
    "file 1 /tmp/out.dat",
    "defmarker 1 phase 1",
    "enter 10 1 1", "enter 10 1 3", "enter 10 1 5",
    "enter 20 2 1", "send 21 1 3 7 42 1024", "leave 22 2 1",
    "enter 25 3 3", "recv 30 3 1 7 42 1024", "leave 31 3 3",
    "enter 40 4 1", "coll 40 1 1 7 1 8 8 6", "leave 46 4 1",
    "enter 40 4 3", "coll 40 3 1 7 1 0 8 7", "leave 47 4 3",
    "enter 40 4 5", "coll 40 5 1 7 1 0 8 9", "leave 49 4 5",
    "enter 50 5 1", "bcoll 50 1 2 77 7 3 16 0", "ecoll 58 1 77", "leave 59 5 1",
    "enter 51 5 3", "bcoll 51 3 2 78 7 3 16 48", "ecoll 60 3 78", "leave 61 5 3",
    "count 62 1 1 123456", "count 63 5 2 18446744073709551611",
    "enter 64 6 5", "fileop 65 1 5 9 3 4096 2", "fileop 66 1 5 9 1 0 1", "leave 67 6 5",
    "marker 70 3 1 begin_phase", "comment 71 1 checkpoint",
    "leave 95 1 1", "leave 95 1 3", "leave 95 1 5",
]


@pytest.fixture(scope="module")
def writer(tmp_path_factory):
    return script_writer(tmp_path_factory)


@pytest.fixture(scope="module")
def rich(writer, tmp_path_factory):
    return write_otf(writer, tmp_path_factory.mktemp("otf-rich"), RICH, streams=2)


@pytest.fixture(params=[True, False], ids=["cached", "direct"])
def cache(request):
    return request.param


def check_events(trace, expected):
    got = list(trace)
    assert len(got) == len(expected)
    for pos, (ev, want) in enumerate(zip(got, expected), start=1):
        assert ev["pos"] == pos
        for key, value in want.items():
            if isinstance(value, float):
                assert math.isclose(ev[key], value, rel_tol=0, abs_tol=1e-12), (pos, key, ev, want)
            else:
                assert ev[key] == value, (pos, key, ev, want)
        # nothing more than the kind's attributes
        assert set(want) - {"data2"} <= set(ev), (pos, ev, want)


def test_every_mapped_record_reads_as_written(rich, cache):
    expected, defs = expected_events(RICH)
    with earl.EventTrace(str(rich), cache=cache) as trace:
        assert trace.format() == "otf"
        check_events(trace, expected)
        assert trace.nrlocs() == 3
        assert [trace.locsym(loc) for loc in range(3)] == ["rank0", "rank1", "rank2"]
        assert sorted(trace.regions()) == sorted(name for name, _ in defs["funcs"].values())
        for name, group in defs["funcs"].values():
            assert trace.group(name) == defs["fgroups"][group]
        assert sorted(trace.groups()) == ["MPI", "USER"]
        assert sorted(trace.types()) == sorted({e["type"] for e in expected})
        metrics = trace.metrics()
        assert [m["name"] for m in metrics] == ["cycles", "level"]
        assert [m["unit"] for m in metrics] == ["#", "bytes"]
        assert [m["value_type"] for m in metrics] == ["uint64", "int64"]
        assert [m["mode"] for m in metrics] == ["accumulated_start", "absolute_point"]
        assert trace.members(7) == trace.ranks(7) == [0, 1, 2]
        # every send matched to its receive, the collective exits nested as written
        problems = trace.problems()
        assert problems["unresolved_reference"]["count"] == 0
        recv = next(e for e in trace if e["type"] == "recv")
        assert trace.event(recv["sendptr"])["type"] == "send"


def test_the_directory_and_the_vampir_name_open_the_same_trace(rich):
    expected, _ = expected_events(RICH)
    with earl.EventTrace(str(rich.parent), format="vampir") as trace:
        assert trace.format() == "otf"
        check_events(trace, expected)


def test_compressed_archives_read_the_same(writer, tmp_path):
    anchor = write_otf(writer, tmp_path, RICH, streams=3, compress=True)
    assert any(p.name.endswith(".events.z") for p in tmp_path.iterdir())
    expected, _ = expected_events(RICH)
    with earl.EventTrace(str(anchor)) as trace:
        check_events(trace, expected)


OTFPRINT_KINDS = {"Enter": "enter", "Leave": "exit", "SendMessage": "send",
                  "ReceiveMessage": "recv", "Counter": "metric", "Marker": "marker",
                  "EventComment": "comment", "FileOperation": "file_"}


@pytest.mark.skipif(shutil.which("otfprint") is None, reason="no otfprint (Debian: otf-trace)")
def test_otfprint_lists_the_records_earl_reads(rich):
    """libotf's own printer: its records per kind are EARL's events per type (collective
    records become the attributes of the exit that follows them, not events)."""
    out = subprocess.run(["otfprint", str(rich)], capture_output=True, text=True, check=True).stdout
    printed = Counter()
    for line in out.splitlines():
        words = line.split()
        # "(#12) \t10 Enter: function 1, ..." and "(#20) \t41 Marker: ID 1, ..."
        if len(words) >= 3 and words[0].startswith("(#") and words[2].endswith(":"):
            printed[words[2][:-1]] += 1
    with earl.EventTrace(str(rich)) as trace:
        got = Counter(ev["type"] for ev in trace)
    files = sum(n for t, n in got.items() if t.startswith("file_"))
    mapped = Counter({kind: got[name] if name != "file_" else files
                      for kind, name in OTFPRINT_KINDS.items()})
    assert +mapped == Counter({k: printed[k] for k in OTFPRINT_KINDS if printed[k]})
    assert printed["Collective"] == 3 and printed["BeginCollective"] == printed["EndCollective"] == 2
    assert sum(got.values()) == sum(mapped.values())


def test_random_traces_read_as_written(writer, tmp_path, cache):
    for seed in range(3):
        script = random_script(seed)
        anchor = write_otf(writer, tmp_path / str(seed), script, streams=1 + seed)
        expected, _ = expected_events(script)
        with earl.EventTrace(str(anchor), cache=cache) as trace:
            check_events(trace, expected)
            assert trace.problems()["unmatched_recv"]["count"] == 0


def test_random_access_equals_the_scan(writer, tmp_path, cache):
    anchor = write_otf(writer, tmp_path, random_script(7, steps=1500), streams=2)
    with earl.EventTrace(str(anchor), cache=cache) as trace:
        scan = list(trace)
    rng = random.Random(3)
    with earl.EventTrace(str(anchor), cache=cache, bdist=50, hsize=10) as trace:
        for pos in [rng.randrange(1, len(scan) + 1) for _ in range(150)] + [len(scan), 1]:
            assert trace.event(pos) == scan[pos - 1]
            assert trace.stack(scan[pos - 1]["loc"], pos) == trace.stack(scan[pos - 1]["loc"], pos)


def test_references_to_nothing_are_flagged(writer, tmp_path, cache):
    script = ["timer 100", "proc 1 a", "proc 2 b", "fgroup 1 G", "func 1 f 1",
              "pgroup 4 W 2 1 2", "collop 1 X 1",
              "enter 1 1 1",
              "enter 2 9 1",              # undefined function 9
              "leave 3 9 1",
              "send 4 1 8 4 0 1",         # to undefined process 8
              "send 5 1 2 6 0 1",         # undefined communicator 6
              "ecoll 6 1 55",             # end of a collective never begun
              "leave 7 1 1",
              "count 8 2 3 5",            # undefined counter
              "enter 9 1 2", "leave 10 1 2"]
    anchor = write_otf(writer, tmp_path, script)
    with earl.EventTrace(str(anchor), cache=cache) as trace:
        events = list(trace)
        flagged = [1, 2, 3, 4, 5, 6]    # enter/leave of 9, two sends, the exit, the counter
        positions = [e["pos"] for e in events
                     if (e["type"] in ("enter", "exit") and e["region"] == "function 9")
                     or e["type"] == "send"
                     or (e["type"] == "exit" and e["loc"] == 0 and e["time"] == 0.07)
                     or e["type"] == "metric"]
        assert len(positions) == len(flagged)
        assert trace.problems()["unresolved_reference"] == {"count": len(positions),
                                                            "first": positions}
        sends = [e for e in events if e["type"] == "send"]
        assert sends[0]["dest"] == -1 and sends[1]["com"] == 6
        assert [e for e in events if e["type"] == "metric"][0]["metric"] == "counter 3"


# ---------------------------------------------------------------------- damaged archives
def error_text(path, cache=True, **kw):
    with pytest.raises(earl.EarlError) as raised:
        with earl.EventTrace(str(path), cache=cache, **kw) as trace:
            list(trace)
    return str(raised.value)


def test_missing_definitions_name_the_file(rich, tmp_path):
    for f in rich.parent.iterdir():
        shutil.copy(f, tmp_path / f.name)
    (tmp_path / "trace.0.def").unlink()
    message = error_text(tmp_path / "trace.otf")
    assert "trace.0.def" in message and "missing" in message


def test_garbage_anchor(tmp_path, rich):
    bad = tmp_path / "trace.otf"
    bad.write_bytes(b"\x00\x01garbage\xff\n")
    assert "cannot detect the trace format" in error_text(bad)
    assert "no OTF trace" in error_text(bad, format="otf")


def streams_of(anchor):
    """{stream file name: [process ids]} from the master control file (hexadecimal)."""
    streams = {}
    for line in anchor.read_text().split():
        stream, procs = line.split(":")
        streams[f"trace.{stream}.events"] = [int(p, 16) for p in procs.split(",")]
    return streams


def check_damaged_stream(anchor, events_file, script, cache):
    """Cut inside a record: strict -> an error naming the event file; otherwise the
    stream's processes end early, every event read is as written (a prefix of each of
    their locations), the other streams are whole, and problems() names the damage."""
    expected, defs = expected_events(script)
    with pytest.raises(earl.EarlError) as raised:
        with earl.EventTrace(str(anchor), cache=cache, strict=True) as trace:
            list(trace)
    assert events_file.name in str(raised.value), str(raised.value)
    cut_locs = {defs["loc_of"][p] for p in streams_of(anchor)[events_file.name.replace(".z", "")]}
    with earl.EventTrace(str(anchor), cache=cache) as trace:
        got = list(trace)
        damaged = trace.problems()["damaged"]
    assert {d["loc"] for d in damaged["locations"]} == cut_locs
    assert all(events_file.name in d["message"] for d in damaged["locations"])
    for loc in range(len(defs["loc_of"])):
        mine = [e for e in got if e["loc"] == loc and e["type"] != "marker"]
        want = [e for e in expected if e["loc"] == loc and e["type"] != "marker"]
        if loc in cut_locs:
            assert len(mine) < len(want)
            want = want[:len(mine)]
            record = next(d["record"] for d in damaged["locations"] if d["loc"] == loc)
            assert record == len(mine) + 1
        else:
            assert len(mine) == len(want)
        for a, b in zip(mine, want):
            assert all(a[k] == b[k] for k in b), (a, b)


@pytest.mark.parametrize("cut", [0.3, 0.6, 0.95])
def test_truncated_event_files(writer, tmp_path, cut, cache):
    script = random_script(11, steps=600)
    anchor = write_otf(writer, tmp_path, script, streams=2)
    events = tmp_path / "trace.1.events"
    data = events.read_bytes()
    at = int(len(data) * cut)
    while data[at - 1:at] == b"\n":  # inside a record, not at a line's end
        at -= 1
    events.write_bytes(data[:at])
    check_damaged_stream(anchor, events, script, cache)


def test_truncated_compressed_event_files(writer, tmp_path, cache):
    script = random_script(12, steps=600)
    anchor = write_otf(writer, tmp_path, script, streams=2, compress=True)
    events = tmp_path / "trace.2.events.z"
    data = events.read_bytes()
    events.write_bytes(data[: len(data) // 2])
    try:
        check_damaged_stream(anchor, events, script, cache)
    except AssertionError:
        # zlib may end the stream at a record's end: then the trace is shorter, never wrong
        with earl.EventTrace(str(anchor), cache=cache) as trace:
            assert len(list(trace)) < len(expected_events(script)[0])
        raise


# ---------------------------------------------------------------------- the other languages
def test_lua_opens_one(rich):
    pytest.importorskip("lupa.lua54")
    import earl.lua
    lua = earl.lua.runtime()
    lua.globals().path = str(rich)
    assert lua.execute("local t = EventTrace{file=path, format='vampir'}; "
                       "local e = t:event(3); return t:format(), e.type, e.loc") == ("otf", "enter", 2)


def test_tcl_opens_one(rich):
    from test_tcl_common import LIBRARY, interp
    if LIBRARY is None:
        pytest.skip("no Tcl extension")
    tcl = interp()
    tcl.eval(f"EventTrace otf_t -file {{{rich}}}")
    assert tcl.eval("otf_t format") == "otf"
    tcl.eval("otf_t event ev 3")
    assert tcl.eval("set ev(type)") == "enter" and tcl.eval("set ev(loc)") == "2"
    tcl.eval("rename otf_t {}")


def test_records_back_in_time_are_damage(writer, tmp_path, cache):
    """libotf's writer refuses a stream going back in time; a file that does anyway ends
    its stream's locations there (strict: an error), whichever way it is read."""
    script = ["timer 1000", "proc 1 a", "proc 2 b", "fgroup 1 G", "func 1 f 1",
              "enter 16 1 1", "enter 16 1 2", "enter 32 1 1", "leave 48 1 1", "leave 64 1 1",
              "leave 64 1 2"]
    anchor = write_otf(writer, tmp_path, script)
    events = tmp_path / "trace.1.events"
    lines = events.read_text().split("\n")
    assert lines.count("30") == 1          # the timestamp line of "leave 48" (hexadecimal)
    lines[lines.index("30")] = "8"
    events.write_text("\n".join(lines))
    with pytest.raises(earl.EarlError, match=r"trace\.1\.events: .*time 8 is before the time 32"):
        with earl.EventTrace(str(anchor), cache=cache, strict=True) as trace:
            list(trace)
    with earl.EventTrace(str(anchor), cache=cache) as trace:
        got = [(e["loc"], e["type"], e["time"]) for e in trace]
        damaged = trace.problems()["damaged"]["locations"]
    assert got == [(0, "enter", 0.016), (1, "enter", 0.016), (0, "enter", 0.032)]
    assert [(d["loc"], d["record"]) for d in damaged] == [(0, 3), (1, 2)]


def test_damaged_definitions_and_markers_name_their_files(rich, tmp_path):
    for f in rich.parent.iterdir():
        shutil.copy(f, tmp_path / f.name)
    anchor = tmp_path / "trace.otf"
    definitions = (tmp_path / "trace.0.def").read_bytes()
    (tmp_path / "trace.0.def").write_bytes(definitions + b"\x01\x02garbage\n")
    message = error_text(anchor)
    assert "trace.0.def" in message and "cannot read the definitions" in message
    (tmp_path / "trace.0.def").write_bytes(definitions)
    markers = tmp_path / "trace.0.marker"
    markers.write_bytes(markers.read_bytes() + b"garbage line\n")
    message = error_text(anchor)
    assert str(anchor) in message and "marker" in message


def test_a_trace_without_events_is_recognised_and_named(writer, tmp_path):
    """libotf writes an empty master control file for a trace without events and cannot
    open it again: EARL recognises it by its definitions and says so."""
    anchor = write_otf(writer, tmp_path, ["timer 1000", "proc 1 a"])
    assert anchor.read_bytes() == b""
    message = error_text(anchor)  # detected: not "empty file, not a trace"
    assert str(anchor) in message and "names no stream" in message


def configure(tmp_path, mode):
    """CMake's configure step (no Python module) with libotf's headers hidden from it."""
    cmake = shutil.which("cmake")
    if not cmake:
        pytest.skip("cmake not on PATH")
    root = Path(__file__).resolve().parents[1]
    return subprocess.run([cmake, "-S", str(root), "-B", str(tmp_path / f"build-{mode}"),
                           f"-DEARL_OTF={mode}", "-DEARL_BUILD_PYTHON=OFF", "-DOTF_ROOT=",
                           "-DCMAKE_IGNORE_PATH=/usr/include/open-trace-format;/usr/local/include/open-trace-format"],
                          capture_output=True, text=True, timeout=300)


def test_cmake_without_libotf_says_what_to_install(tmp_path):
    required = configure(tmp_path, "ON")
    assert required.returncode != 0
    message = " ".join(required.stderr.split())  # CMake wraps its messages
    assert "apt-get install libopen-trace-format-dev" in message and "OTF_ROOT" in message
    optional = configure(tmp_path, "AUTO")
    assert optional.returncode == 0, optional.stderr
    assert "Building without OTF support" in " ".join(optional.stderr.split())
    assert "EARL OTF support: OFF" in optional.stdout
    off = configure(tmp_path, "OFF")
    assert off.returncode == 0 and "EARL OTF support: OFF" in off.stdout
