"""The cases of issue 22, class 5: conversions that wrote what EARL cannot read back, with
exit 0. Each now reads back, and the summary (and the command's lines) say what was
changed or left out. Expected values are worked out by hand from the rule in
docs/robustness.md#names."""
import subprocess
import sys

import pytest

import earl
from earl.convert import convert, describe
from otf2_archives import ArchiveWriter, T
from script_checks import have_otf2

pytestmark = pytest.mark.skipif(not have_otf2(), reason="EARL built without libotf2")
EARL = [sys.executable, "-m", "earl.cli"]


def hostile_archive(directory):
    """Process "" (its thread "Master thread") and process "P1" (its thread ""); regions
    named with LF, CR, nothing, blanks; a message of tag 2^32-1 and 2^64-1 bytes; receives
    from a rank outside MPI_COMM_WORLD (EARL reads it without a source, as it reads one on an
    undefined communicator)."""
    aw = ArchiveWriter(directory, "in", resolution=10 ** 6)
    l0 = aw.process("", threads=["Master thread"])[0]
    l1 = aw.process("P1", threads=[""])[0]
    aw.comm_locations([l0, l1])
    world = aw.comm("MPI_COMM_WORLD", [l0, l1])
    regions = [aw.region(n) for n in ["a\nb", "c\rd", "", "  ", "ok"]]
    e0, e1 = aw.ev(l0), aw.ev(l1)
    t = 0
    for r in regions:
        e0.enter(T(t), r)
        e1.enter(T(t), r)
        t += 1
    e0.mpi_send(T(t), 1, world, 2 ** 32 - 1, 2 ** 64 - 1)
    e1.mpi_recv(T(t + 1), 0, world, 2 ** 32 - 1, 2 ** 64 - 1)
    e1.mpi_recv(T(t + 2), 5, world, 1, 8)                      # rank 5: no such rank
    t += 3
    for r in reversed(regions):
        e0.leave(T(t), r)
        e1.leave(T(t), r)
        t += 1
    return aw.close()


def messages(path):
    trace = earl.EventTrace(path)
    out = [(e["type"], e["loc"], e.get("dest", e.get("src")), e["tag"], e["len"])
           for e in (trace.event(p) for p in range(1, len(trace) + 1)) if e["type"] in ("send", "recv")]
    names = [trace.locsym(loc) for loc in range(trace.nrlocs())], trace.regions()
    trace.close()
    return out, names


def test_otf2_to_alog_says_what_it_left_out_and_renamed(tmp_path):
    archive = hostile_archive(tmp_path)
    before, _ = messages(archive)
    assert ("recv", 1, -1, 1, 8) in before                    # EARL's reading: no source
    summary = convert(archive, tmp_path / "out.alog")
    # 10 enters and exits, 1 send, 2 receives; the send and the good receive carry 2^64-1
    # bytes (ALOG's length field holds 2^63-1), the last receive has no source.
    assert summary["events_read"] == 23
    assert summary["refused"] == {"send of more than 2^63-1 bytes": 1,
                                  "recv of more than 2^63-1 bytes": 1,
                                  "recv from an unknown source": 1}
    assert summary["events_written"] == 20
    # regions LF, CR, "" and "  " change; location 1 "P1 / " ends in a blank
    assert summary["renamed"] == {"region": 4, "location": 1}
    text = (tmp_path / "out.alog").read_bytes()
    assert b"-102 1 0 -1" not in text and b" -1 " not in text
    after, (locations, regions) = messages(tmp_path / "out.alog")
    assert after == []
    assert regions == ["a\\x0ab", "c\\x0dd", '""', "\\x20\\x20", "ok"]
    assert locations == [0, "P1 /\\x20"]                     # " / Master thread": process ""
    lines = describe("in.otf2", "out.alog", summary).splitlines()
    assert lines[0].endswith("20 of 23 events written")
    assert lines[1] == ("  not written (ALOG cannot hold them): send of more than 2^63-1 bytes 1, "
                        "recv of more than 2^63-1 bytes 1, recv from an unknown source 1")
    assert lines[2] == "  names with bytes ALOG cannot hold, written with them as \\xNN: region 4, location 1"


def test_otf2_to_otf2_keeps_empty_names_and_extreme_messages(tmp_path):
    archive = hostile_archive(tmp_path)
    summary = convert(archive, tmp_path / "out.otf2")
    assert summary["refused"] == {"recv from an unknown source": 1}
    assert summary["renamed"] == {}
    after, (locations, regions) = messages(tmp_path / "out.otf2")
    assert after == [("send", 0, 1, 2 ** 32 - 1, 2 ** 64 - 1), ("recv", 1, 0, 2 ** 32 - 1, 2 ** 64 - 1)]
    assert locations == [" / Master thread", "P1 / "]        # was " / Master thread / Master thread"
    assert regions[:5] == ["a\nb", "c\rd", "", "  ", "ok"]


def test_alog_names_and_values_otf2_cannot_hold(tmp_path):
    """A NUL in an ALOG name (C strings) and tags outside OTF2's 0..2^32-1."""
    trace = tmp_path / "in.alog"
    trace.write_bytes(b"-3 0 0 2 0 0\n-13 0 1 2 0 0 black:solid nul\x00here\n-15 0 0 0 0 0 A\x00 / B\n"
                      b"1 0 0 0 0 1\n-101 0 0 1 0 2 -5 8\n-101 0 0 1 0 3 4294967296 8\n"
                      b"-101 0 0 1 0 4 4294967295 8\n-102 1 0 0 0 5 4294967295 8\n2 0 0 0 0 6\n")
    summary = convert(trace, tmp_path / "out.otf2")
    assert summary["refused"] == {"send with a tag outside 0..2^32-1": 2}
    assert summary["renamed"] == {"region": 1, "process": 1}
    after, (locations, regions) = messages(tmp_path / "out.otf2")
    assert after == [("send", 0, 1, 2 ** 32 - 1, 8), ("recv", 1, 0, 2 ** 32 - 1, 8)]
    assert regions[0] == "nul\\x00here"
    assert locations == ["A\\x00 / B", "MPI Rank 1 / Master thread"]


def test_the_command_prints_what_it_changed(tmp_path):
    archive = hostile_archive(tmp_path)
    done = subprocess.run(EARL + ["convert", str(archive), str(tmp_path / "c.alog")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "recv from an unknown source 1" in done.stdout
    assert "region 4, location 1" in done.stdout


def test_messages_of_threads_that_are_no_ranks_are_left_out_of_otf2(tmp_path):
    """Two processes of two threads each (Score-P's names and order, so OTF2 output keeps
    them threads of their process, MPI_COMM_WORLD of the master threads): a message sent
    by process 0's second thread cannot be an MPI message of OTF2 output; ALOG output,
    where every location is a process, keeps it."""
    aw = ArchiveWriter(tmp_path, "threads", resolution=10 ** 6)
    p0 = aw.process("MPI Rank 0", threads=["Master thread", "OpenMP thread 1"])
    p1 = aw.process("MPI Rank 1", threads=["Master thread", "OpenMP thread 1"])
    aw.comm_locations([p0[0], p1[0]])
    world = aw.comm("MPI_COMM_WORLD", [p0[0], p1[0]])
    work = aw.region("work")
    for loc in p0 + p1:
        aw.ev(loc).enter(T(0), work)
    aw.ev(p0[1]).mpi_send(T(1), 1, world, 3, 16)     # thread 1 of process 0 -> rank 1
    aw.ev(p1[0]).mpi_recv(T(2), 0, world, 3, 16)     # rank 1 <- rank 0 (its master thread)
    for loc in p0 + p1:
        aw.ev(loc).leave(T(3), work)
    archive = aw.close()
    before, _ = messages(archive)
    assert before == [("send", 1, 2, 3, 16), ("recv", 2, 0, 3, 16)]
    summary = convert(archive, tmp_path / "out.otf2")
    assert summary["refused"] == {"send on a thread that is no MPI rank": 1}
    after, (locations, _) = messages(tmp_path / "out.otf2")
    assert after == [("recv", 2, 0, 3, 16)]
    assert locations == [f"MPI Rank {p} / {t}" for p in (0, 1) for t in ("Master thread", "OpenMP thread 1")]
    summary = convert(archive, tmp_path / "out.alog")
    assert summary["refused"] == {}
    assert messages(tmp_path / "out.alog")[0] == before
