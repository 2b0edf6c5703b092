"""EPILOG (KOJAK / Scalasca 1.x merged .elg): files written by the tests' own writer
(tests/epilog_traces.py, from the published layout) read with hand-worked events and
pointers; EARL's writer read back by EARL and by the tests' reader; damaged files."""
import random
import struct

import pytest

import earl
import earl.convert
import earl.generate
import epilog_traces as E

LONG_NAME = "region_" + "x" * 300  # longer than one STRING record: continued


def hand_trace(big=False):
    f = E.ElgFile(big=big, version=(1, 9), metrics=1)
    names = ["main", "USER", "!$omp parallel", "OMP", "MPI_Send", "MPI", "MPI_Recv",
             "MPI_Barrier", "MPI_Put", "MPI_Get", "MPI_Win_lock", "MPI_Win_fence", LONG_NAME,
             "cycles", "MPI Rank 0", "MPI Rank 1", "Master thread", "OpenMP thread 1"]
    for sid, text in enumerate(names):
        f.string(sid, text)
    f.metric(0, 13)
    f.process(0, 14)
    f.process(1, 15)
    f.thread(0, 0, 16)
    f.thread(1, 0, 17)
    f.thread(0, 1, E.NO_ID)
    f.location(0, 0, 0)
    f.location(1, 0, 1)
    f.location(2, 1, 0)
    regions = [(0, 1), (2, 3), (4, 5), (6, 5), (7, 5), (8, 5), (9, 5), (10, 5), (11, 5), (12, 1)]
    for rid, (name, group) in enumerate(regions):
        f.region(rid, name, group)
    f.comm(0, [0, 1])
    f.group(5, [1, 0])  # communicator 1: rank 0 is process 1, rank 1 process 0
    f.comm_ref(1, 5)
    f.win(0, 0)
    f.enter(0, 1.0, 0)
    f.enter(2, 1.0, 0)
    f.fork(0, 1.1)
    f.enter(1, 1.2, 1)
    f.lock(1, 1.3, 7, True)
    f.lock(1, 1.4, 7, False)
    f.exit(1, 1.5, E.OMP_COLLEXIT)
    f.lock(0, 1.55, 7, True)
    f.join(0, 1.6)
    f.enter(0, 2.0, 2)
    f.send(0, 2.1, 0, 1, 5, 100)   # rank 0 of communicator 1: process 1, location 2
    f.exit(0, 2.2)
    f.enter(2, 2.3, 3)
    f.recv(2, 2.4, 1, 1, 5)        # rank 1 of communicator 1: location 0
    f.exit(2, 2.5)
    f.enter(0, 3.0, 4)
    f.enter(2, 3.0, 4)
    f.collexit(0, 3.2, E.NO_ID, 0, 0, 0)
    f.collexit(2, 3.3, 1, 0, 4, 8)
    f.enter(0, 4.0, 5)
    f.put_1ts(0, 4.1, 1, 0, 1, 64)
    f.put_1te(2, 4.2, 0, 0, 1)
    f.exit(0, 4.3)
    f.enter(0, 5.0, 6)
    f.get_1to(0, 5.1, 2)
    f.get_1ts(2, 5.2, 0, 0, 2, 32)
    f.get_1te(0, 5.3, 1, 0, 2)
    f.exit(0, 5.4)
    f.enter(0, 6.0, 7)
    f.win_lock(0, 6.1, 1, 0, 1)
    f.winexit(0, 6.2, 0, 0)
    f.enter(0, 7.0, 8)
    f.wincollexit(0, 7.1, 0)
    f.win_unlock(0, 7.2, 1, 0)
    f.exit(0, 8.0)
    f.exit(2, 8.0)
    return f


# (loc, time, type, enterptr, other attributes), worked out by hand from hand_trace.
HAND_EVENTS = [
    (0, 1.0, "enter", 0, dict(region="main")),
    (2, 1.0, "enter", 0, dict(region="main")),
    (0, 1.1, "fork", 1, {}),
    (1, 1.2, "enter", 0, dict(region="!$omp parallel")),
    (1, 1.3, "alock", 4, dict(lockid=7, lockptr=0)),
    (1, 1.4, "rlock", 4, dict(lockid=7, lockptr=5)),
    (1, 1.5, "exit", 4, dict(region="!$omp parallel")),
    (0, 1.55, "alock", 1, dict(lockid=7, lockptr=6)),
    (0, 1.6, "join", 1, dict(forkptr=3)),
    (0, 2.0, "enter", 1, dict(region="MPI_Send")),
    (0, 2.1, "send", 10, dict(dest=2, tag=5, com=1, len=100)),
    (0, 2.2, "exit", 10, dict(region="MPI_Send")),
    (2, 2.3, "enter", 2, dict(region="MPI_Recv")),
    (2, 2.4, "recv", 13, dict(src=0, tag=5, com=1, len=100, sendptr=11)),  # len: its send's (EPILOG's receive has none)
    (2, 2.5, "exit", 13, dict(region="MPI_Recv")),
    (0, 3.0, "enter", 1, dict(region="MPI_Barrier")),
    (2, 3.0, "enter", 2, dict(region="MPI_Barrier")),
    (0, 3.2, "exit", 16, dict(region="MPI_Barrier", com=0, root=-1, sent=0, recvd=0)),
    (2, 3.3, "exit", 17, dict(region="MPI_Barrier", com=0, root=2, sent=4, recvd=8)),
    (0, 4.0, "enter", 1, dict(region="MPI_Put")),
    (0, 4.1, "put_1ts", 20, dict(win=0, rmaid=1, peer=2, len=64)),
    (2, 4.2, "put_1te", 2, dict(win=0, rmaid=1, peer=0, startptr=21)),
    (0, 4.3, "exit", 20, dict(region="MPI_Put")),
    (0, 5.0, "enter", 1, dict(region="MPI_Get")),
    (0, 5.1, "get_1to", 24, dict(win=-1, rmaid=2, peer=-1, len=0)),
    (2, 5.2, "get_1ts", 2, dict(win=0, rmaid=2, peer=0, len=32, originptr=25)),
    (0, 5.3, "get_1te", 24, dict(win=0, rmaid=2, peer=2, startptr=26)),
    (0, 5.4, "exit", 24, dict(region="MPI_Get")),
    (0, 6.0, "enter", 1, dict(region="MPI_Win_lock")),
    (0, 6.1, "wlock", 29, dict(win=0, peer=2, exclusive=1, request=0)),
    (0, 6.2, "exit", 29, dict(region="MPI_Win_lock")),
    (0, 7.0, "enter", 1, dict(region="MPI_Win_fence")),
    (0, 7.1, "exit", 32, dict(region="MPI_Win_fence")),
    (0, 7.2, "wunlock", 1, dict(win=0, peer=2)),
    (0, 8.0, "exit", 1, dict(region="main")),
    (2, 8.0, "exit", 2, dict(region="main")),
]


def all_events(tr):
    return [tr.event(p) for p in range(1, len(tr) + 1)]


def check_hand(tr):
    events = all_events(tr)
    assert len(events) == len(HAND_EVENTS)
    for pos, (ev, (loc, time, typ, enterptr, extra)) in enumerate(zip(events, HAND_EVENTS), 1):
        assert (ev["pos"], ev["loc"], ev["type"], ev["enterptr"]) == (pos, loc, typ, enterptr), ev
        assert ev["time"] == pytest.approx(time, abs=1e-12)
        for key, value in extra.items():
            assert ev[key] == value, (pos, key, ev)


@pytest.mark.parametrize("big", [False, True], ids=["little", "big"])
def test_hand_written_trace(tmp_path, big):
    path = tmp_path / "hand.elg"
    path.write_bytes(hand_trace(big).data())
    with earl.EventTrace(str(path)) as tr:
        assert tr.format() == "epilog"
        assert tr.nrlocs() == 3
        assert [tr.locsym(l) for l in range(3)] == \
            ["MPI Rank 0 / Master thread", "MPI Rank 0 / OpenMP thread 1", "MPI Rank 1"]
        check_hand(tr)
        assert LONG_NAME in tr.regions()
        assert tr.group("MPI_Send") == "MPI" and tr.group("main") == "USER"


def test_random_access_equals_scan(tmp_path):
    path = tmp_path / "hand.elg"
    path.write_bytes(hand_trace().data())
    with earl.EventTrace(str(path), bdist=4, hsize=2) as tr:
        scan = all_events(tr)
    with earl.EventTrace(str(path), bdist=4, hsize=2) as tr:
        order = list(range(1, len(scan) + 1))
        random.Random(7).shuffle(order)
        for p in order:
            assert tr.event(p) == scan[p - 1]


def test_pre_1_8_peers_are_world_ranks(tmp_path):
    # Before version 1.8 a send names the destination's world rank, whatever the
    # communicator (PEARL converts such ranks; elg_readcb.c's version checks).
    f = E.ElgFile(version=(1, 7))
    f.string(0, "main")
    f.string(1, "USER")
    for lid in range(3):
        f.location(lid, lid, 0)
    f.region(0, 0, 1)
    f.comm(1, [1, 2])
    f.send(0, 1.0, 2, 1, 9, 10)
    f.recv(2, 2.0, 0, 1, 9)
    path = tmp_path / "old.elg"
    path.write_bytes(f.data())
    with earl.EventTrace(str(path)) as tr:
        send, recv = all_events(tr)
    assert (send["dest"], send["com"], send["tag"], send["len"]) == (2, 1, 9, 10)
    assert (recv["src"], recv["sendptr"]) == (0, 1)


def test_earl_writer_round_trip(tmp_path):
    shape = dict(locations=4, events=400, seed=3, threads=2, rma_every=2, lock_every=3)
    elg = tmp_path / "gen.elg"
    earl.generate.generate(str(elg), format="epilog", **shape)
    alog = tmp_path / "gen.alog"
    earl.generate.generate(str(alog), format="alog", **shape)
    with earl.EventTrace(str(elg)) as a, earl.EventTrace(str(alog)) as b:
        mine = all_events(a)
        ref = all_events(b)
        nrlocs = a.nrlocs()
        assert nrlocs == b.nrlocs() == 8  # 4 processes of 2 threads
    # ALOG holds enters, exits, sends and receives (and fork/join as its own types): the
    # same events, at the same places, as the EPILOG file.
    def core(events):
        return [(e["loc"], e["time"], e["type"], e.get("region"), e.get("dest"),
                 e.get("src"), e.get("tag"))
                for e in events if e["type"] in ("enter", "exit", "send", "recv")]
    assert core(mine) == core(ref)
    types = {e["type"] for e in mine}
    assert {"put_1ts", "put_1te", "wlock", "wunlock", "fork", "join"} <= types
    by_pos = {e["pos"]: e for e in mine}
    for e in mine:
        if e["type"] == "put_1te":
            start = by_pos[e["startptr"]]
            assert (start["type"], start["loc"], start["peer"], start["rmaid"]) == \
                ("put_1ts", e["peer"], e["loc"], e["rmaid"])
        if e["type"] == "join":
            assert by_pos[e["forkptr"]]["type"] == "fork"
    # The tests' own reader parses EARL's file: header, definitions and one record per event.
    version, order, records = E.parse(elg.read_bytes())
    assert version == (1, 9) and order == 1
    assert sum(1 for t, _ in records if t == E.LOCATION) == nrlocs
    counted = {}
    for t, _ in records:
        counted[t] = counted.get(t, 0) + 1
    enters = sum(1 for e in mine if e["type"] == "enter")
    assert counted[E.ENTER] == enters
    assert counted.get(E.MPI_PUT_1TS, 0) == sum(1 for e in mine if e["type"] == "put_1ts")
    times = [v[1] for t, v in records if t >= 100]
    assert times == sorted(times)
    assert times == [e["time"] for e in mine]


def damaged(tmp_path, data):
    path = tmp_path / "bad.elg"
    path.write_bytes(data)
    with pytest.raises(earl.EarlError) as info:
        with earl.EventTrace(str(path), format="epilog", strict=True) as tr:
            all_events(tr)
    return str(info.value)


def test_damaged_files(tmp_path):
    good = hand_trace().data()
    assert "header" in damaged(tmp_path, good[:6])
    assert "EPILOG" in damaged(tmp_path, b"EPILOX\0\1\x09\1" + good[10:])
    assert "byte order" in damaged(tmp_path, good[:9] + b"\3" + good[10:])
    # Cut inside the last record (an exit: 4 + 8 + 8 body bytes).
    message = damaged(tmp_path, good[:-5])
    assert "bad.elg" in message and f"byte {len(good) - 22}" in message
    # An unknown record type where an event should be.
    f = hand_trace()
    f.rec_raw(99, b"")
    assert "unknown record type 99" in damaged(tmp_path, f.data())
    # An enter whose body is one byte short of its fields.
    f = hand_trace()
    f.rec_raw(E.ENTER, b"\0" * 23)
    assert "body bytes" in damaged(tmp_path, f.data())
    # An event on a location the trace does not define.
    f = hand_trace()
    f.exit(9, 9.0)
    assert "location 9" in damaged(tmp_path, f.data())


def test_lua_and_tcl_open_one(tmp_path):
    path = tmp_path / "hand.elg"
    path.write_bytes(hand_trace(big=True).data())
    lua = pytest.importorskip("earl.lua").runtime()
    lua.globals().path = str(path)
    assert lua.execute("local e = EventTrace{file=path}; return e:event(22).type .. ' ' .. e:event(22).startptr") \
        == "put_1te 21"
    from test_tcl_common import LIBRARY, interp
    if LIBRARY is None:
        pytest.skip("no Tcl extension")
    tcl = interp()
    tcl.tk.call("set", "path", str(path))
    tcl.eval("EventTrace e -file $path")
    assert tcl.eval("e event a 26; list $a(type) $a(originptr)") == "get_1ts 25"


def test_random_access_in_a_file_larger_than_the_read_window(tmp_path):
    # More than 64 KiB: reads cross the decoder's window and seeks land anywhere in it.
    path = tmp_path / "big.elg"
    earl.generate.generate(str(path), format="epilog", locations=4, events=16000, seed=5,
                           threads=2, rma_every=3, lock_every=4)
    assert path.stat().st_size > 3 * 65536
    with earl.EventTrace(str(path), bdist=500, hsize=50) as tr:
        scan = all_events(tr)
    with earl.EventTrace(str(path), bdist=500, hsize=50) as tr:
        rng = random.Random(11)
        for p in [rng.randrange(1, len(scan) + 1) for _ in range(300)]:
            assert tr.event(p) == scan[p - 1]


def test_version_1_0_layouts(tmp_path):
    # Version 1.0: MPI_COMM has no mode byte and NODE no clock rate (elg_readcb.c).
    f = E.ElgFile(version=(1, 0))
    f.string(0, "work")
    f.rec(E.NODE, "IIII", 0, 0, 2, E.NO_ID)
    f.location(0, 0, 0)
    f.location(1, 1, 0)
    f.region(0, 0, E.NO_ID)
    f.comm(0, [0, 1])
    f.enter(1, 0.5, 0)
    f.send(1, 0.75, 0, 0, 3, 8)
    f.exit(1, 1.0)
    path = tmp_path / "v10.elg"
    path.write_bytes(f.data())
    with earl.EventTrace(str(path)) as tr:
        enter, send, leave = all_events(tr)
        assert tr.group("work") == "All"
    assert (enter["loc"], enter["region"], enter["time"]) == (1, "work", 0.5)
    assert (send["dest"], send["tag"], send["len"], send["enterptr"]) == (0, 3, 8, 1)
    assert (leave["region"], leave["enterptr"]) == ("work", 1)


def test_gzip_compressed_file(tmp_path):
    # EPILOG's library opens files through zlib: a compressed trace is the same trace.
    import gzip
    path = tmp_path / "hand.elg.gz"
    path.write_bytes(gzip.compress(hand_trace(big=True).data()))
    with earl.EventTrace(str(path)) as tr:  # detected from the decompressed content
        assert tr.format() == "epilog"
        check_hand(tr)
    with earl.EventTrace(str(path)) as tr:
        assert tr.event(27)["startptr"] == 26 and tr.event(3)["type"] == "fork"
    data = path.read_bytes()
    cut = tmp_path / "cut.elg"
    cut.write_bytes(data[:len(data) // 2])
    with pytest.raises(earl.EarlError, match="cut.elg.*gzip"):
        earl.EventTrace(str(cut), format="epilog")
    bad = bytearray(data)
    bad[len(bad) // 2] ^= 0xFF
    broken = tmp_path / "broken.elg"
    broken.write_bytes(bytes(bad))
    with pytest.raises(earl.EarlError, match="broken.elg"):
        with earl.EventTrace(str(broken), format="epilog", strict=True) as tr:
            all_events(tr)


@pytest.mark.skipif("otf2" not in earl._core.generator_formats(), reason="built without OTF2")
def test_same_rma_and_thread_events_as_otf2(tmp_path):
    # The generator's trace written as OTF2 and as EPILOG: puts, held window locks, forks
    # and joins, and collective exits read back with the same types and attributes. (A
    # put's end differs by model: OTF2 completes it at the origin, EPILOG ends the transfer
    # on the target; lock requests have no EPILOG record.)
    shape = dict(locations=3, events=600, seed=4, threads=2, rma_every=2, lock_every=2)
    elg, otf2 = tmp_path / "g.elg", tmp_path / "g.otf2"
    earl.generate.generate(str(elg), format="epilog", **shape)
    earl.generate.generate(str(otf2), format="otf2", **shape)
    keys = {"put_1ts": ("win", "rmaid", "peer", "len"), "wlock": ("win", "peer", "exclusive"),
            "wunlock": ("win", "peer"), "fork": (), "join": (),
            "exit": ("region", "com", "root", "sent", "recvd")}

    def picked(path):
        with earl.EventTrace(str(path)) as tr:
            out = []
            for e in all_events(tr):
                if e["type"] not in keys or (e["type"] == "wlock" and e["request"] == 1):
                    continue
                if e["type"] == "exit" and "root" not in e:
                    continue  # only collective exits
                out.append((e["loc"], e["time"], e["type"]) +
                           tuple(e[k] for k in keys[e["type"]]))
            return sorted(out)

    mine, ref = picked(elg), picked(otf2)
    assert {t[2] for t in mine} == set(keys)
    assert mine == ref


def test_damage_ends_the_trace_unless_strict(tmp_path):
    # A merged file is one stream in time order: damage ends it for every location. The
    # events before it are read and the loss reported, as for ALOG (docs/formats.md).
    good = hand_trace().data()
    path = tmp_path / "cut.elg"
    path.write_bytes(good[:-25])  # the last exit (22 bytes) whole, 3 bytes of the one before
    with earl.EventTrace(str(path)) as tr:
        assert len(tr) == len(HAND_EVENTS) - 2
        damaged = tr.problems()["damaged"]
        assert damaged["count"] == 1
        entry = damaged["locations"][0]
        assert (entry["loc"], entry["record"], entry["announced"]) == (-1, len(HAND_EVENTS) - 1, 0)
        assert f"byte {len(good) - 44}" in entry["message"] and "cut short" in entry["message"]
        assert "the 34 event records before it were read" in entry["message"]
        # The events before the damage are the hand-worked ones.
        for pos in (1, 22, 27, 34):
            loc, time, typ, enterptr, extra = HAND_EVENTS[pos - 1]
            ev = tr.event(pos)
            assert (ev["loc"], ev["type"], ev["enterptr"]) == (loc, typ, enterptr)
    with pytest.raises(earl.EarlError) as info:
        with earl.EventTrace(str(path), strict=True) as tr:
            all_events(tr)
    assert f"byte {len(good) - 44}" in str(info.value)
    # A header or definition that cannot be read is an error in both modes.
    defs = tmp_path / "defs.elg"
    defs.write_bytes(good[:10] + bytes([6, E.STRING, 0, 0, 0, 0, 2, 0]))  # 2 continuations, none
    with pytest.raises(earl.EarlError, match="defs.elg.*byte 10.*string 0 announces 2"):
        earl.EventTrace(str(defs))


@pytest.mark.skipif("otf2" not in earl._core.generator_formats(), reason="built without OTF2")
def test_analysis_finds_the_same_patterns_as_in_otf2(tmp_path):
    # The wait-state analysis of the generator's trace: the same severity for every
    # pattern whether it was written as EPILOG or OTF2, and no problem from EPILOG's
    # region-less exits.
    shape = dict(locations=3, events=600, seed=4, threads=2, rma_every=2, lock_every=2)
    elg, otf2 = tmp_path / "g.elg", tmp_path / "g.otf2"
    earl.generate.generate(str(elg), format="epilog", **shape)
    earl.generate.generate(str(otf2), format="otf2", **shape)
    mine = earl.analyze(str(elg), progress=lambda f: None)
    ref = earl.analyze(str(otf2), progress=lambda f: None)
    assert not any(mine.problems.values()), mine.problems
    found = 0
    for pattern in ref.patterns():
        assert mine.total(pattern) == pytest.approx(ref.total(pattern), abs=1e-9), pattern
        found += ref.total(pattern) > 0
    assert found >= 5


def test_convert_keeps_location_names(tmp_path):
    alog = tmp_path / "named.alog"
    alog.write_text("-3 0 0 2 0 0\n-13 0 1 2 0 0 work\n-15 0 0 0 0 0 Server\n"
                    "-15 1 0 0 0 0 Client\n1 0 0 0 0 10\n1 1 0 0 0 15\n2 1 0 0 0 20\n"
                    "2 0 0 0 0 30\n")
    elg = tmp_path / "named.elg"
    earl.convert.convert(str(alog), str(elg))
    with earl.EventTrace(str(elg)) as tr:
        assert [tr.locsym(0), tr.locsym(1)] == ["Server", "Client"]
        assert [(e["loc"], e["type"], e["region"], e["time"]) for e in all_events(tr)] == [
            (0, "enter", "work", 1e-5), (1, "enter", "work", 1.5e-5), (1, "exit", "work", 2e-5),
            (0, "exit", "work", 3e-5)]


def test_gen_writes_big_endian_on_request(tmp_path):
    shape = dict(locations=3, events=500, seed=5, threads=2, rma_every=2, lock_every=2)
    little, big = tmp_path / "le.elg", tmp_path / "be.elg"
    earl.generate.generate(str(little), format="epilog", **shape)
    earl.generate.generate(str(big), format="epilog", byte_order="big", **shape)
    # The tests' own reader: byte order 2 in the header, the same records as the
    # little-endian file's.
    le, be = E.parse(little.read_bytes()), E.parse(big.read_bytes())
    assert (le[1], be[1]) == (1, 2)
    assert be[2] == le[2]
    with earl.EventTrace(str(little)) as a, earl.EventTrace(str(big)) as b:
        assert all_events(b) == all_events(a)
    with pytest.raises(earl.EarlError, match="byte_order"):
        earl.generate.generate(str(tmp_path / "x.alog"), format="alog", byte_order="big", **shape)
