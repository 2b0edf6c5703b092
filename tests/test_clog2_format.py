"""The CLOG2 mapping (MPE's binary logs; docs/api-contract.md, "CLOG2"). Files come from
tests/clog2_files.py, a CLOG2 writer and reader in plain Python written from the layout
MPE's headers publish, so every expected event below is worked out from what the test
wrote, not from EARL's output; EARL's own writer is checked against EARL's ALOG reading
of the same generated program and against the Python reader."""
import os
import random
import struct

import pytest

import earl
from clog2_files import (BAREEVT, CARGOEVT, COLLEVT, COMM_INTRA_CREATE, CONSTDEF, ENDBLOCK,
                         ENDLOG, MSGEVT, RECV, SEND, SRCLOC, STATEDEF, TIMESHIFT, Clog2Builder,
                         cstr, read_clog2, record_size)


def events(tr):
    return [tr.event(p) for p in range(1, len(tr) + 1)]


def every_kind(big, block_size=256):
    """Three ranks; communicator 5 holds world ranks 2 and 0 as its ranks 0 and 1; the
    state definition comes last, as MPE writes MPI's states at finalize."""
    b = Clog2Builder(big=big, block_size=block_size, world_size=3)
    b.world(3)
    b.comm(0.5, COMM_INTRA_CREATE, 5, 0, 2)
    b.comm(0.5, COMM_INTRA_CREATE, 5, 1, 0)
    b.eventdef(0.6, 5001, "marker")
    b.add(CONSTDEF, 0.7, etype=-201, value=3, name=b"const")
    b.add(SRCLOC, 0.7, srcloc=1, line=42, file=b"main.c")
    b.add(TIMESHIFT, 0.7, 1, shift=0.25)
    b.bare(1.0, 0, 20)
    b.msg(1.5, 0, SEND, 1, 7, 64)
    b.bare(2.0, 0, 21)
    b.msg(2.5, 1, RECV, 0, 7, 64)
    b.msg(3.0, 1, SEND, 0, 9, 8, icomm=5)        # header: rank 1 of comm 5 = world 0
    b.msg(3.5, 0, RECV, 1, 9, 8, icomm=5)        # rank 0 of comm 5 = world 2
    b.add(CARGOEVT, 4.0, 2, etype=5001, bytes=b"hello")
    b.bare(4.5, 1, 4242)
    b.add(COLLEVT, 5.0, 2, etype=77, root=1, size=100)
    b.add(CARGOEVT, 5.5, 1, etype=20, bytes=b"x")   # cargo on a state's start: still an enter
    b.bare(6.0, 1, 21)
    b.state(7.0, 10, 20, 21, "MPI_Send")
    return b


EXPECTED = [
    {"pos": 1, "loc": 0, "time": 1.0, "type": "enter", "enterptr": 0, "region": "MPI_Send"},
    {"pos": 2, "loc": 0, "time": 1.5, "type": "send", "enterptr": 1, "dest": 1, "tag": 7, "com": 0, "len": 64},
    {"pos": 3, "loc": 0, "time": 2.0, "type": "exit", "enterptr": 1, "region": "MPI_Send"},
    {"pos": 4, "loc": 1, "time": 2.5, "type": "recv", "enterptr": 0, "src": 0, "tag": 7, "com": 0, "len": 64,
     "sendptr": 2},
    {"pos": 5, "loc": 0, "time": 3.0, "type": "send", "enterptr": 0, "dest": 2, "tag": 9, "com": 5, "len": 8},
    {"pos": 6, "loc": 2, "time": 3.5, "type": "recv", "enterptr": 0, "src": 0, "tag": 9, "com": 5, "len": 8,
     "sendptr": 5},
    {"pos": 7, "loc": 2, "time": 4.0, "type": "marker", "enterptr": 0, "data1": "hello", "data2": None},
    {"pos": 8, "loc": 1, "time": 4.5, "type": "event 4242", "enterptr": 0, "data1": None, "data2": None},
    {"pos": 9, "loc": 2, "time": 5.0, "type": "collective 77", "enterptr": 0, "data1": 1, "data2": 100},
    {"pos": 10, "loc": 1, "time": 5.5, "type": "enter", "enterptr": 0, "region": "MPI_Send"},
    {"pos": 11, "loc": 1, "time": 6.0, "type": "exit", "enterptr": 10, "region": "MPI_Send"},
]


@pytest.mark.parametrize("big", [True, False], ids=["big-endian", "little-endian"])
def test_every_record_kind_in_both_byte_orders(EventTrace, tmp_path, big):
    path = every_kind(big).write(tmp_path / "t.clog2")
    tr = EventTrace(path)
    assert tr.format() == "clog2"
    assert events(tr) == EXPECTED
    assert tr.types() == ["enter", "exit", "send", "recv", "marker", "event 4242", "collective 77"]
    assert tr.regions() == ["MPI_Send"]
    assert tr.nrlocs() == 3


def test_detected_by_content_and_named_clog2(EventTrace, tmp_path):
    path = every_kind(True).write(tmp_path / "no_ending.bin")
    assert EventTrace(path).format() == "clog2"
    assert EventTrace(path, format="clog2").format() == "clog2"


def test_threads_are_locations_of_their_process(EventTrace, tmp_path):
    b = Clog2Builder(big=True, world_size=2, threads=2).world(2)
    b.state(0.1, 300, 600, 601, "work")
    b.bare(1.0, 1, 600, thread=1)                 # world 1, thread 1 -> location 3
    b.msg(2.0, 0, SEND, 1, 3, 16, thread=1)       # from location 1 to process 1's location 2
    b.msg(3.0, 1, RECV, 0, 3, 16)
    b.bare(4.0, 1, 601, thread=1)
    tr = EventTrace(b.write(tmp_path / "t.clog2"))
    assert tr.nrlocs() == 4
    assert [(e["loc"], e["type"]) for e in events(tr)] == [(3, "enter"), (1, "send"), (2, "recv"), (3, "exit")]
    # A message names processes: the receive's source is process 0's first thread, so it
    # does not match the send of process 0's second thread (docs/api-contract.md, CLOG2).
    assert tr.event(2)["dest"] == 2 and tr.event(3)["src"] == 0 and tr.event(3)["sendptr"] == 0


def test_without_communicator_records_ranks_are_world_ranks(EventTrace, tmp_path):
    b = Clog2Builder(big=False, world_size=2)
    b.msg(1.0, 1, SEND, 0, 1, 4)
    b.msg(2.0, 0, RECV, 1, 1, 4)
    tr = EventTrace(b.write(tmp_path / "t.clog2"))
    assert [(e["loc"], e["type"]) for e in events(tr)] == [(1, "send"), (0, "recv")]
    assert tr.event(2)["sendptr"] == 1


def test_random_access_equals_the_scan(EventTrace, tmp_path):
    rng = random.Random(5)
    b = Clog2Builder(big=True, block_size=512, world_size=4).world(4)
    b.state(0.0, 300, 600, 601, "A")
    b.eventdef(0.0, 5000, "tick")
    depth = [0] * 4
    t = 1.0
    for _ in range(3000):
        t += rng.random()
        r = rng.randrange(4)
        what = rng.random()
        if what < 0.4 and depth[r] < 5:
            b.bare(t, r, 600)
            depth[r] += 1
        elif what < 0.8 and depth[r]:
            b.bare(t, r, 601)
            depth[r] -= 1
        elif what < 0.9:
            b.add(CARGOEVT, t, r, etype=5000, bytes=str(rng.randrange(99)).encode())
        else:
            b.msg(t, r, SEND, rng.randrange(4), 1, 10)
    path = b.write(tmp_path / "t.clog2")
    scan = []
    tr = EventTrace(path, bdist=50, hsize=10)
    while tr.next():
        scan.append(tr.event())
    assert len(scan) == len(tr) > 2000
    jumper = EventTrace(path, bdist=50, hsize=10)
    for p in rng.sample(range(1, len(scan) + 1), 400):
        assert jumper.event(p) == scan[p - 1]


# ------------------------------------------------------------------ EARL's writer
SHAPES = [
    dict(locations=2, events=300, seed=1),
    dict(locations=3, events=500, seed=2, pattern="neighbors"),
    dict(locations=4, events=800, seed=4, permute_ranks=True, in_flight=4),
    dict(locations=5, events=1500, seed=7, collectives="bcast,reduce,gather,alltoall"),
    dict(locations=6, events=12000, seed=9),  # several 64 KiB blocks
]


def generated(tmp_path, fmt, shape):
    from earl.generate import generate
    path = str(tmp_path / f"g.{fmt}")
    generate(path, format=fmt, truth_path=str(tmp_path / f"g.{fmt}.truth.json"), **shape)
    return path


def without_com(ev):
    return {k: v for k, v in ev.items() if k != "com"}


@pytest.mark.parametrize("shape", SHAPES, ids=[f"shape{i}" for i in range(len(SHAPES))])
def test_written_file_reads_back_as_the_alog_of_the_same_program(EventTrace, tmp_path, shape):
    """ALOG has no communicators (com -1); CLOG2 writes MPI_COMM_WORLD (com 0)."""
    clog = EventTrace(generated(tmp_path, "clog2", shape))
    alog = EventTrace(generated(tmp_path, "alog", shape))
    assert len(clog) == len(alog) > 0
    assert clog.nrlocs() == alog.nrlocs() and clog.regions() == alog.regions()
    a, c = events(alog), events(clog)
    assert [without_com(e) for e in c] == [without_com(e) for e in a]
    assert {e["com"] for e in c if e["type"] in ("send", "recv")} <= {0}


@pytest.mark.parametrize("shape", SHAPES, ids=[f"shape{i}" for i in range(len(SHAPES))])
def test_python_reader_parses_earls_written_file(EventTrace, tmp_path, shape):
    """The writer's bytes, read by tests/clog2_files.py: MPE's merged layout (big-endian,
    blocks, world communicator, state definitions), and the events of EARL's ALOG reading
    of the same program."""
    path = generated(tmp_path, "clog2", shape)
    version, values, records, table = read_clog2(path)
    assert version.startswith("CLOG-02.") and values["is_big_endian="] == ["TRUE "]
    assert values["max_comm_world_size="] == [str(shape["locations"])]
    assert [(lid, kind) for _, _, _, lid, kind in table] == [(0, 1)]
    assert records[-1][5] == ENDLOG
    assert sum(r[5] == ENDBLOCK for r in records) == (len(shape_blocks := {(r[0] - 1024) // int(values["block_size="][0]) for r in records}) - 1)
    block = int(values["block_size="][0])
    for off, time, icomm, rank, thread, rectype, body in records:
        assert (off - 1024) // block == (off + record_size(rectype) - 1 - 1024) // block
    states = {}
    for r in records:
        if r[5] == STATEDEF:
            states[r[6]["start"]] = ("enter", cstr(r[6]["name"]))
            states[r[6]["final"]] = ("exit", cstr(r[6]["name"]))
    world = {r[6]["rank"]: r[6]["wrank"] for r in records if r[5] == 9 and r[6]["icomm"] == 0}
    assert world == {r: r for r in range(shape["locations"])}
    mine = []
    for off, time, icomm, rank, thread, rectype, body in records:
        if rectype == BAREEVT:
            kind, region = states[body["etype"]]
            mine.append((rank, time, kind, region))
        elif rectype == MSGEVT:
            kind = {SEND: "send", RECV: "recv"}[body["etype"]]
            mine.append((rank, time, kind, world[body["rank"]], body["tag"], body["size"]))
        else:
            assert rectype in (ENDBLOCK, ENDLOG, STATEDEF, 9)
    alog = EventTrace(generated(tmp_path, "alog", shape))
    theirs = []
    for e in events(alog):
        if e["type"] in ("enter", "exit"):
            theirs.append((e["loc"], e["time"], e["type"], e["region"]))
        else:
            peer = e["dest"] if e["type"] == "send" else e["src"]
            theirs.append((e["loc"], e["time"], e["type"], peer, e["tag"], e["len"]))
    assert mine == theirs


def test_convert_counts_what_clog2_cannot_hold(tmp_path):
    from earl.generate import generate
    src = str(tmp_path / "t.alog")
    generate(src, locations=2, events=400, seed=3, threads=2, truth_path=str(tmp_path / "t.json"))
    out = tmp_path / "t.clog2"
    from earl.convert import convert
    summary = convert(src, str(out), format="clog2")
    left_out = list(summary["refused"]) + list(summary["dropped"])
    assert any("fork" in reason for reason in left_out), summary
    assert summary["events_written"] < summary["events_read"]
    assert earl.EventTrace(str(out)).format() == "clog2"


def test_cut_names_stay_distinct_regions(tmp_path):
    """State names hold 31 bytes. Worked out by hand from the rule (docs/api-contract.md,
    CLOG2 writer): the name of exactly 31 bytes fits and keeps its text; the two longer ones
    cut to that same text get "~2" and "~3" instead; a name of 20 two-byte characters is
    cut before the character the 31st byte would split."""
    from earl.convert import convert
    x31 = "x" * 31
    names = ["x" * 40 + "one", "x" * 40 + "two", x31, "short", "\u00e9" * 20]
    lines = ["-3 0 0 1 0 0"]
    lines += [f"-13 0 {2 * i + 1} {2 * i + 2} 0 0 red:solid {name}" for i, name in enumerate(names)]
    t = 10
    for i in range(len(names)):
        lines.append(f"{2 * i + 1} 0 0 0 0 {t}")
        lines.append(f"{2 * i + 2} 0 0 0 0 {t + 1}")
        t += 10
    source = tmp_path / "long.alog"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    summary = convert(str(source), str(tmp_path / "out.clog2"))
    assert summary["renamed"] == {"region": 3}
    written = ["x" * 29 + "~2", "x" * 29 + "~3", x31, "short", "\u00e9" * 15]
    tr = earl.EventTrace(str(tmp_path / "out.clog2"))
    assert tr.regions() == written
    assert [(e["type"], e["region"]) for e in events(tr)] == \
        [(kind, name) for name in written for kind in ("enter", "exit")]
    _, _, records, _ = read_clog2(str(tmp_path / "out.clog2"))
    assert [cstr(r[6]["name"]) for r in records if r[5] == STATEDEF] == written


# ------------------------------------------------------------------ damaged files
def damaged(tmp_path, data, name="bad.clog2"):
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def error_of(EventTrace, path, strict=True, **kw):
    """The error reading `path` gives (strict: damage after the first block too)."""
    with pytest.raises(earl.EarlError) as caught:
        tr = EventTrace(path, format="clog2", strict=strict, **kw)
        events(tr)
    return str(caught.value)


def test_cut_short_files_name_file_and_offset(EventTrace, tmp_path):
    data = every_kind(True).bytes()
    for cut in (1500, 1024 + 256 + 30, len(data) - 50, 600):
        message = error_of(EventTrace, damaged(tmp_path, data[:cut], f"cut{cut}.clog2"))
        assert f"cut{cut}.clog2" in message
        assert "preamble" in message or "byte" in message or "outside the file" in message


def test_cut_block_names_its_record(EventTrace, tmp_path):
    b = every_kind(True)
    data = b.bytes()
    path = damaged(tmp_path, data[:1024 + 256 + 100], "cut.clog2")
    # without the communicator table the preamble's offset is wrong: say so; with it
    # pointing at the end, the cut block is what is named
    assert "outside the file" in error_of(EventTrace, path)
    short = b.preamble(1024 + 256 + 100) + data[1024:1024 + 256 + 100]
    message = error_of(EventTrace, damaged(tmp_path, short, "short.clog2"))
    assert "cut short" in message and "byte 1" in message


def test_bad_record_type_names_its_offset(EventTrace, tmp_path):
    data = bytearray(every_kind(True).bytes())
    off = 1024 + 3 * record_size(9)   # the fourth record, a communicator record
    struct.pack_into(">i", data, off + 20, 99)
    message = error_of(EventTrace, damaged(tmp_path, bytes(data)))
    assert f"byte {off}" in message and "unknown record type 99" in message


def test_absurd_preamble_values(EventTrace, tmp_path):
    b = every_kind(True)
    for override, words in [({"block_size=": ["0"]}, "block size"),
                            ({"block_size=": ["99999999999"]}, "block size"),
                            ({"max_comm_world_size=": ["2000000000"]}, "max_comm_world_size"),
                            ({"max_thread_count=": ["-3"]}, "max_thread_count"),
                            ({"block_size=": ["12ab"]}, "not a number"),
                            ({"commtable_fptr=": ["0", "1073741824", "99999999"]}, "outside the file")]:
        message = error_of(EventTrace, damaged(tmp_path, b.bytes(**override)))
        assert words in message and "bad.clog2" in message


def test_wrong_preamble(EventTrace, tmp_path):
    b = every_kind(True)
    b.version = "CLOG-01.00"
    path = damaged(tmp_path, b.bytes())
    assert "CLOG-02" in error_of(EventTrace, path)
    with pytest.raises(earl.EarlError):
        EventTrace(path)           # not detected as any format
    assert "CLOG-02" in error_of(EventTrace, damaged(tmp_path, b"\0" * 2000, "zeros.clog2"))


def test_missing_end_of_log(EventTrace, tmp_path):
    b = every_kind(True)
    data = bytearray(b.bytes())
    _, _, records, _ = read_clog2(damaged(tmp_path, bytes(data), "good.clog2"))
    endlog = records[-1][0]
    struct.pack_into(">i", data, endlog + 20, ENDBLOCK)
    assert "end-of-log" in error_of(EventTrace, damaged(tmp_path, bytes(data)))


def test_records_the_header_cannot_explain(EventTrace, tmp_path):
    for build, words in [
        (lambda b: b.msg(9.0, 0, -5, 1, 0, 0), "neither send"),
        (lambda b: b.bare(9.0, 0, 20, thread=4), "thread 4"),
        (lambda b: b.bare(9.0, 1, 20, icomm=8), "communicator 8"),
        (lambda b: b.comm(9.0, COMM_INTRA_CREATE, 6, 0, 1 << 30), "world rank"),
    ]:
        b = every_kind(False)
        build(b)
        message = error_of(EventTrace, damaged(tmp_path, b.bytes()))
        assert words in message and "byte" in message


def test_undefined_peer_is_flagged_not_fatal(EventTrace, tmp_path):
    b = Clog2Builder(world_size=2).world(2)
    b.msg(1.0, 0, SEND, 1, 0, 1, peer_icomm=44)
    tr = EventTrace(b.write(tmp_path / "t.clog2"))
    assert tr.event(1)["dest"] == -1


# ------------------------------------------------------------------ the persisted index
def test_a_second_open_restores_the_definitions_from_the_index(EventTrace, tmp_path, index_dir):
    """The index identifies a trace by size, modification time and its first and last
    16 KiB: a state's name changed in the middle of the file with the time set back goes
    unseen, so a second open that still shows the old name took the definitions from the
    index, not from a pass over the file."""
    b = Clog2Builder(block_size=4096, world_size=2).world(2)
    for i in range(1200):
        b.bare(1.0 + i, i % 2, 600 if i % 4 < 2 else 601)
    b.state(1300.0, 300, 600, 601, "AAAAAAAA")
    for i in range(1200):
        b.bare(1400.0 + i, i % 2, 600 if i % 4 < 2 else 601)
    path = tmp_path / "t.clog2"
    b.write(path)
    data = path.read_bytes()
    at = data.index(b"AAAAAAAA")
    assert 16 * 1024 < at < len(data) - 16 * 1024
    first = EventTrace(str(path), bdist=100)
    assert first.index_info()["state"] == "built"
    expected = events(first)
    assert first.regions() == ["AAAAAAAA"] and len(expected) == 2400
    first.close()
    stat = path.stat()
    path.write_bytes(data[:at] + b"BBBBBBBB" + data[at + 8:])
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    again = EventTrace(str(path), bdist=100)
    assert again.index_info() == {"path": again.index_info()["path"], "state": "loaded", "note": ""}
    assert again.regions() == ["AAAAAAAA"]
    rng = random.Random(5)
    for pos in [rng.randint(1, 2400) for _ in range(100)]:
        assert again.event(pos) == expected[pos - 1]
    assert list(again) == expected
    assert EventTrace(str(path), index=False).regions() == ["BBBBBBBB"]
    # A visible change (the modification time): the index is not used, the file is read.
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    changed = EventTrace(str(path), bdist=100)
    assert changed.index_info()["state"] == "rebuilt"
    assert "was modified" in changed.index_info()["note"]
    assert changed.regions() == ["BBBBBBBB"]
    assert [e.get("region") for e in events(changed)] == ["BBBBBBBB"] * 2400


def test_a_damaged_trace_keeps_no_index(EventTrace, tmp_path, index_dir):
    b = ping_pong()
    data = b.bytes()
    path = damaged(tmp_path, data[:1024 + 3 * 512 + 100], "cut.clog2")
    tr = EventTrace(path)
    assert tr.problems()["damaged"]["count"] == 1
    assert tr.index_info()["state"] == "off" or "damaged" in tr.index_info()["note"]
    assert not index_dir.exists() or not list(index_dir.iterdir())


# ------------------------------------------------------------------ read up to the damage
def ping_pong(cycles=40, block_size=512):
    """Two ranks, the state defined first (as a program's MPE_Describe_state does), then
    `cycles` of enter, send / receive, exit: many blocks of `block_size` bytes."""
    b = Clog2Builder(block_size=block_size, world_size=2).world(2)
    b.state(0.1, 300, 600, 601, "Exchange")
    t = 1.0
    for _ in range(cycles):
        b.bare(t, 0, 600).bare(t + 0.1, 1, 600)
        b.msg(t + 0.2, 0, SEND, 1, 3, 16).msg(t + 0.3, 1, RECV, 0, 3, 16)
        b.bare(t + 0.4, 0, 601).bare(t + 0.5, 1, 601)
        t += 1.0
    return b


def expected_before(records, stop):
    """(time, loc, type, region) of the event records wholly before byte `stop`, worked out
    from the records the Python reader parsed (state 600/601 of "Exchange")."""
    out = []
    for offset, time, icomm, rank, thread, rectype, body in records:
        if offset + record_size(rectype) > stop or rectype not in (BAREEVT, MSGEVT):
            continue
        if rectype == BAREEVT:
            out.append((time, rank, "enter" if body["etype"] == 600 else "exit", "Exchange"))
        else:
            out.append((time, rank, "send" if body["etype"] == SEND else "recv", None))
    return out


def got_events(tr):
    return [(e["time"], e["loc"], e["type"], e.get("region")) for e in events(tr)]


def damage_of(tr):
    [entry] = tr.problems()["damaged"]["locations"]
    assert (entry["loc"], entry["announced"]) == (-1, 0)
    return entry


def test_a_file_cut_short_is_read_up_to_the_cut(EventTrace, tmp_path):
    b = ping_pong()
    good = b.write(tmp_path / "good.clog2")
    _, _, records, _ = read_clog2(good)
    data = open(good, "rb").read()
    cut = 1024 + 3 * 512 + 100            # inside the fourth block
    path = damaged(tmp_path, data[:cut], "cut.clog2")
    first_lost = min(r[0] for r in records if r[0] + record_size(r[5]) > cut)
    expected = expected_before(records, cut)
    assert 20 < len(expected) < 6 * 40
    tr = EventTrace(path)
    assert got_events(tr) == expected
    entry = damage_of(tr)
    assert entry["record"] == len(expected) + 1
    assert entry["message"].startswith(f"'{path}', record at byte {first_lost}: ")
    assert "cut short" in entry["message"]
    assert entry["message"].endswith(f"; the {len(expected)} event records before it were read, "
                                     f"the file's bytes {first_lost} to {cut} were not")
    # random access within what was read
    for pos in random.Random(2).sample(range(1, len(tr) + 1), 20):
        assert got_events(tr)[pos - 1] == (tr.event(pos)["time"], tr.event(pos)["loc"], tr.event(pos)["type"],
                                           tr.event(pos).get("region"))
    # strict: the preamble's communicator table lies beyond the cut, and that is the error
    assert "outside the file" in error_of(EventTrace, path)


@pytest.mark.parametrize("big", [True, False], ids=["big-endian", "little-endian"])
def test_a_corrupted_record_mid_way_ends_the_trace_there(EventTrace, tmp_path, big):
    b = ping_pong()
    b.big = big
    good = b.write(tmp_path / "good.clog2")
    _, _, records, _ = read_clog2(good)
    data = bytearray(open(good, "rb").read())
    bad = next(r for r in records if r[0] > 1024 + 2 * 512 and r[5] == MSGEVT)[0]
    struct.pack_into((">" if big else "<") + "i", data, bad + 20, 99)
    path = damaged(tmp_path, bytes(data))
    expected = expected_before(records, bad)
    table_at = len(data) - (4 + 40)       # the blocks end where the communicator table starts
    tr = EventTrace(path)
    assert got_events(tr) == expected
    entry = damage_of(tr)
    problem = f"'{path}', record at byte {bad}: unknown record type 99"
    assert entry == {"loc": -1, "record": len(expected) + 1, "announced": 0,
                     "message": f"{problem}; the {len(expected)} event records before it were read, "
                                f"the file's bytes {bad} to {table_at} were not"}
    assert error_of(EventTrace, path) == problem
    assert "damaged" not in EventTrace(good).problems()


def test_cuts_everywhere_after_the_first_block(EventTrace, tmp_path):
    """Every 37th length from the second block on: the events are those of the records
    wholly before the cut, the damage names the first record that is not (or, where the
    end-of-log record is whole, nothing lost); strict reading fails."""
    good = ping_pong(cycles=25).write(tmp_path / "good.clog2")
    _, _, records, _ = read_clog2(good)
    data = open(good, "rb").read()
    path = tmp_path / "cut.clog2"
    seen = set()
    for cut in list(range(1024 + 512, len(data), 37)) + [1024 + 3 * 512]:
        path.write_bytes(data[:cut])
        tr = EventTrace(str(path))
        expected = expected_before(records, cut)
        assert got_events(tr) == expected, cut
        entry = damage_of(tr)
        assert entry["record"] == len(expected) + 1
        cut_records = [r[0] for r in records if r[0] + record_size(r[5]) > cut]
        if not cut_records:   # the end-of-log record is whole: only the table is cut
            assert "nothing after them was lost" in entry["message"]
        else:   # the first record not wholly in the file (in padding: the next block's first)
            lost = min(cut_records)
            assert entry["message"].startswith(f"'{path}', record at byte {lost}: ")
            assert entry["message"].endswith(f" to {cut} were not" if lost < cut else
                                             "the rest of the file is missing")
            seen.add(lost < cut)
        tr.close()
        with pytest.raises(earl.EarlError):
            events(EventTrace(str(path), strict=True))
    assert seen == {True, False}


def test_each_record_after_the_first_block_corrupted_in_turn(EventTrace, tmp_path):
    """Record types 99 and -1, a message type neither send nor receive, an undefined rank:
    each record after the first block in turn; the events are those before it."""
    good = ping_pong(cycles=12).write(tmp_path / "good.clog2")
    _, _, records, _ = read_clog2(good)
    data = open(good, "rb").read()
    path = tmp_path / "bad.clog2"
    later = [r for r in records if r[0] >= 1024 + 512 and r[5] != ENDLOG]
    assert len(later) > 30
    for k, (offset, _, _, _, _, rectype, _) in enumerate(later):
        bad = bytearray(data)
        if rectype == MSGEVT and k % 2:
            struct.pack_into(">i", bad, offset + 24, 5)          # message etype
            words = "neither send (-101) nor receive (-102)"
        elif rectype == BAREEVT and k % 3 == 0:
            struct.pack_into(">i", bad, offset + 12, 7)          # header rank 7 of MPI_COMM_WORLD
            words = "rank 7 of communicator 0 is not defined"
        else:
            struct.pack_into(">i", bad, offset + 20, 99 if k % 2 else -1)
            words = f"unknown record type {99 if k % 2 else -1}"
        path.write_bytes(bytes(bad))
        tr = EventTrace(str(path))
        expected = expected_before(records, offset)
        assert got_events(tr) == expected
        entry = damage_of(tr)
        assert entry["record"] == len(expected) + 1
        assert entry["message"].startswith(f"'{path}', record at byte {offset}: ") and words in entry["message"]
        tr.close()
        assert error_of(EventTrace, str(path)) == entry["message"].split("; ")[0]


def test_definitions_after_the_damage_are_not_used(EventTrace, tmp_path):
    """every_kind() defines its state last: damage before that definition leaves the
    state's events as events of their own etype."""
    b = every_kind(True, block_size=256)
    good = b.write(tmp_path / "good.clog2")
    _, _, records, _ = read_clog2(good)
    data = bytearray(open(good, "rb").read())
    bad = next(r for r in records if r[0] >= 1024 + 256 and r[5] == BAREEVT and r[6]["etype"] == 4242)[0]
    struct.pack_into(">i", data, bad + 20, -7)
    tr = EventTrace(damaged(tmp_path, bytes(data)))
    got = [(e["time"], e["type"]) for e in events(tr)]
    assert got == [(1.0, "event 20"), (1.5, "send"), (2.0, "event 21"), (2.5, "recv"), (3.0, "send"),
                   (3.5, "recv"), (4.0, "marker")]
    assert "unknown record type -7" in damage_of(tr)["message"]


def test_damage_in_the_preamble_or_first_block_stays_an_error(EventTrace, tmp_path):
    good = ping_pong().write(tmp_path / "good.clog2")
    _, _, records, _ = read_clog2(good)
    data = bytearray(open(good, "rb").read())
    first = bytearray(data)
    struct.pack_into(">i", first, records[4][0] + 20, 99)   # in the first block
    for path in (damaged(tmp_path, bytes(first), "first.clog2"),
                 damaged(tmp_path, b"CLOG-01.00" + bytes(data[10:]), "preamble.clog2")):
        assert error_of(EventTrace, path, strict=False) == error_of(EventTrace, path)
    # cut in the first block: strict names the missing communicator table, the lenient
    # reading the cut record
    short = damaged(tmp_path, bytes(data[:1024 + 300]), "short.clog2")
    assert "outside the file" in error_of(EventTrace, short)
    lost = next(r[0] for r in records if r[0] + record_size(r[5]) > 1024 + 300)
    assert f"short.clog2', record at byte {lost}: record header cut short" in \
        error_of(EventTrace, short, strict=False)


# ------------------------------------------------------------------ other languages
def test_lua_and_tcl_open_one(tmp_path):
    path = every_kind(True).write(tmp_path / "t.clog2")
    lua = pytest.importorskip("earl.lua").runtime()
    lua.globals().path = path
    assert lua.execute("local t = EventTrace{file=path, format='clog2'}; return t:nrlocs()") == 3
    from test_tcl_common import LIBRARY, interp
    if LIBRARY is None:
        pytest.skip("no Tcl extension")
    tcl = interp()
    tcl.tk.call("set", "path", path)
    assert tcl.eval("EventTrace e -file $path -format clog2; set n [e nrlocs]; rename e {}; set n") == "3"


# ------------------------------------------------------------------ a file MPE wrote
def test_a_file_mpe_wrote_reads_as_mpes_own_printer_shows_it(EventTrace, tmp_path):
    """tests/clog2_mpe/README.md says how the file was made; the expected events are parsed
    from MPE's clog2_print output beside it."""
    import gzip
    import re
    from pathlib import Path
    here = Path(__file__).parent / "clog2_mpe"
    path = tmp_path / "serial.clog2"
    path.write_bytes(gzip.decompress((here / "serial.clog2.gz").read_bytes()))
    states, names, expected = {}, {}, []
    for line in (here / "serial.clog2_print.txt").read_text().splitlines():
        fields = dict(re.findall(r"(\w+)=(\S*)", line))
        kind = fields.get("type")
        if kind == "sdef":
            states[fields["s_et"]] = ("enter", fields["name"])
            states[fields["e_et"]] = ("exit", fields["name"])
        elif kind == "edef":
            names[fields["et"]] = fields["name"]
    for line in (here / "serial.clog2_print.txt").read_text().splitlines():
        fields = dict(re.findall(r"(\w+)=(\S*)", line))
        kind, ts = fields.get("type"), fields.get("ts")
        if kind == "bare":
            expected.append((float(ts), *states[fields["et"]]))
        elif kind == "cago":
            expected.append((float(ts), names[fields["et"]], None))
        elif kind == "msg":
            expected.append((float(ts), fields["et"], int(fields["tag"]), int(fields["sz"])))
    tr = EventTrace(str(path))
    assert tr.format() == "clog2" and tr.nrlocs() == 1
    got = []
    for e in events(tr):
        t = pytest.approx(e["time"], abs=5e-7)   # clog2_print shows 6 decimals
        if e["type"] in ("enter", "exit"):
            got.append((t, e["type"], e["region"]))
        elif e["type"] in ("send", "recv"):
            got.append((t, e["type"], e["tag"], e["len"]))
            assert (e.get("dest"), e.get("src")) in ((0, None), (None, 0))
        else:
            got.append((t, e["type"], None))
    assert expected == got
    # MPE_Log_pack's 's': a 2-byte big-endian length, then the characters
    assert tr.event(4)["data1"] == "\x00\x05hello"


def parse_mpe_dump(text):
    """The events of a clog2_print dump, worked out from its lines alone: (header fields,
    body fields) per record, the header being what precedes "type=" (the body repeats
    the names icomm and rank)."""
    import re
    records = []
    for line in text.splitlines():
        if " type=" not in line:
            continue
        head, body = line.split(" type=", 1)
        header = dict(re.findall(r"(\w+)=(\S*)", head))
        fields = dict(re.findall(r"(\w+)=(\S*)", "type=" + body))
        records.append((header, fields))
    return records


@pytest.mark.parametrize("name", ["mpi4", "mpi4_nosync"])
def test_a_four_rank_mpi_file_mpe_wrote(EventTrace, tmp_path, name):
    """tests/clog2_mpe/README.md: MPE's MPI logging (liblmpe) on 4 ranks of MPICH, a ring on
    MPI_COMM_WORLD, a message in each half of a split communicator whose ranks run in
    reverse, a barrier, a bcast and user states. Everything expected comes from MPE's
    clog2_print dump: locations through its communicator records, regions from its state
    definitions, matching and clock conditions per channel from its times."""
    import gzip
    from pathlib import Path
    here = Path(__file__).parent / "clog2_mpe"
    path = tmp_path / f"{name}.clog2"
    path.write_bytes(gzip.decompress((here / f"{name}.clog2.gz").read_bytes()))
    records = parse_mpe_dump((here / f"{name}.clog2_print.txt").read_text())
    world, states, names = {}, {}, {}
    for header, f in records:
        if f["type"] == "comm" and int(f["rank"]) >= 0:
            world.setdefault((int(f["icomm"]), int(f["rank"])), int(f["wrank"]))
        elif f["type"] == "sdef":
            states[f["s_et"]] = ("enter", f["name"])
            states[f["e_et"]] = ("exit", f["name"])
        elif f["type"] == "edef":
            names[f["et"]] = f["name"]
    expected = []   # (time, loc, type, region or peer, tag, len, com)
    for header, f in records:
        loc = world[int(header["icomm"]), int(header["rank"])]
        ts = float(header["ts"])
        if f["type"] in ("bare", "cago"):
            kind, region = states.get(f["et"], (names.get(f["et"], "event " + f["et"]), None))
            expected.append((ts, loc, kind, region, None, None, None))
        elif f["type"] == "msg":
            peer = world[int(f["icomm"]), int(f["rank"])]
            expected.append((ts, loc, f["et"], peer, int(f["tag"]), int(f["sz"]), int(header["icomm"])))
    tr = EventTrace(str(path))
    assert tr.format() == "clog2" and tr.nrlocs() == 4
    got = []
    for e in events(tr):
        t = pytest.approx(e["time"], abs=5e-7)   # clog2_print shows 6 decimals
        if e["type"] in ("send", "recv"):
            got.append((t, e["loc"], e["type"], e.get("dest", e.get("src")), e["tag"], e["len"], e["com"]))
        else:
            got.append((t, e["loc"], e["type"], e.get("region"), None, None, None))
    assert got == expected
    # the split communicators' messages: world 2 -> 0 and 3 -> 1 (their ranks 0 -> 1)
    split = [g for g in got if g[2] in ("send", "recv") and g[6] != 0]
    assert sorted((g[2], g[1], g[3]) for g in split) == [("recv", 0, 2), ("recv", 1, 3), ("send", 2, 0),
                                                         ("send", 3, 1)]
    # matching, per channel (source, destination, tag, communicator): the k-th receive
    # belongs to the k-th send; it is matched where that send came first in the file,
    # and violates the clock condition where its time is earlier than the send's.
    sends, recvs = {}, {}
    for pos, (ts, loc, kind, peer, tag, size, com) in enumerate(expected, 1):
        if kind == "send":
            sends.setdefault((loc, peer, tag, com), []).append((pos, ts))
        elif kind == "recv":
            recvs.setdefault((peer, loc, tag, com), []).append((pos, ts))
    sendptr, clock = {}, []
    for channel, received in recvs.items():
        for k, (pos, ts) in enumerate(received):
            send_pos, send_ts = sends[channel][k]
            assert abs(send_ts - ts) > 1e-6, "too close to tell from the dump's 6 decimals"
            sendptr[pos] = send_pos if send_pos < pos else 0
            if ts < send_ts:
                clock.append(pos)
    assert {pos: tr.event(pos)["sendptr"] for pos in sendptr} == sendptr
    problems = tr.problems()
    assert problems["unmatched_recv"]["first"] == sorted(p for p, s in sendptr.items() if s == 0)
    assert problems["clock_condition"]["first"] == sorted(clock)
    assert "damaged" not in problems
