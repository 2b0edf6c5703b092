"""earl merge on hand-made per-process ALOG files: the merged order, the offset estimate
and its interval, all worked out by hand (see the comments)."""
import pytest

import earl
from alog_traces import write_alog

# Rank 0's clock is the reference. Its regions are numbered work=0, MPI_Send=1, MPI_Recv=2.
RANK0 = ["-3 0 0 2 0 0",
         "-13 0 1 2 0 0 black:solid work",
         "-13 0 3 4 0 0 black:solid MPI_Send",
         "-13 0 5 6 0 0 black:solid MPI_Recv",
         "1 0 0 0 0 10", "2 0 0 0 0 20",             # work 10..20
         "3 0 0 0 0 20", "-101 0 0 1 0 21 5 100", "4 0 0 0 0 22",   # send to 1 at 21
         "5 0 0 0 0 30", "-102 0 0 1 0 60 6 8", "6 0 0 0 0 61"]     # recv from 1 at 60
# Rank 1's clock is 1000 us ahead (local = global + 1000); its regions are defined in
# another order (MPI_Recv=0, MPI_Send=1): the merge unifies them by name.
RANK1 = ["-3 0 0 2 0 0",
         "-13 0 1 2 0 0 black:solid MPI_Recv",
         "-13 0 3 4 0 0 black:solid MPI_Send",
         "1 1 0 0 0 1015", "-102 1 0 0 0 1025 5 100", "2 1 0 0 0 1026",
         "3 1 0 0 0 1040", "-101 1 0 0 0 1050 6 8", "4 1 0 0 0 1051"]


def events(path):
    t = earl.EventTrace(path)
    out = []
    while t.next():
        ev = t.event()
        name = ev["region"] if ev["type"] in ("enter", "exit") else ev["type"]
        out.append((round(ev["time"] * 1e6), ev["loc"], name))
    return out


@pytest.fixture
def pieces(tmp_path):
    return write_alog(tmp_path, RANK0, "rank0.alog"), write_alog(tmp_path, RANK1, "rank1.alog")


def test_given_offset_gives_the_hand_worked_global_order(pieces, tmp_path):
    out = str(tmp_path / "all.alog")
    summary = earl.merge(out, list(pieces), offsets={pieces[1]: -0.001})
    assert summary["locations_kept"] and summary["locations"] == 2
    assert [i["how"] for i in summary["inputs"]] == ["none", "given"]
    # rank 1 at global time = local - 1000
    assert events(out) == [
        (10, 0, "work"), (15, 1, "MPI_Recv"), (20, 0, "work"), (20, 0, "MPI_Send"),
        (21, 0, "send"), (22, 0, "MPI_Send"), (25, 1, "recv"), (26, 1, "MPI_Recv"),
        (30, 0, "MPI_Recv"), (40, 1, "MPI_Send"), (50, 1, "send"), (51, 1, "MPI_Send"),
        (60, 0, "recv"), (61, 0, "MPI_Recv")]
    assert summary["events_written"] == 14


def test_estimate_recovers_the_injected_offset_within_the_hand_worked_interval(pieces, tmp_path):
    out = str(tmp_path / "all.alog")
    summary = earl.merge(out, list(pieces), estimate=True)
    ref, est = summary["inputs"]
    assert ref["how"] == "reference" and ref["offset"] == 0
    # 0 -> 1: sent 21, received 1025 (local): offset_1 >= 21 - 1025 = -1004 us
    # 1 -> 0: sent 1050 (local), received 60: offset_1 <= 60 - 1050 = -990 us
    assert est["how"] == "estimated" and est["messages"] == 2 and est["linked_to"] == 0
    assert est["low"] == pytest.approx(-1004e-6) and est["high"] == pytest.approx(-990e-6)
    assert est["offset"] == pytest.approx(-997e-6)      # the midpoint
    assert est["low"] <= -0.001 <= est["high"]          # the injected offset
    # rank 1 at local - 997: 18, 28, 29, 43, 53, 54
    assert events(out) == [
        (10, 0, "work"), (18, 1, "MPI_Recv"), (20, 0, "work"), (20, 0, "MPI_Send"),
        (21, 0, "send"), (22, 0, "MPI_Send"), (28, 1, "recv"), (29, 1, "MPI_Recv"),
        (30, 0, "MPI_Recv"), (43, 1, "MPI_Send"), (53, 1, "send"), (54, 1, "MPI_Send"),
        (60, 0, "recv"), (61, 0, "MPI_Recv")]
    # The merged trace is one trace: each receive finds its send across the former files.
    t = earl.EventTrace(out)
    recvs = []
    while t.next():
        if t.event()["type"] == "recv":
            recvs.append(t.event()["sendptr"])
    assert all(p > 0 for p in recvs) and len(recvs) == 2


def test_messages_one_way_give_a_bound_and_an_unlinked_input_is_said(tmp_path):
    a = write_alog(tmp_path, ["-3 0 0 3 0 0", "-101 0 0 1 0 100 1 4"], "a.alog")
    b = write_alog(tmp_path, ["-3 0 0 3 0 0", "-102 1 0 0 0 40 1 4"], "b.alog")
    c = write_alog(tmp_path, ["-3 0 0 3 0 0", "-13 0 1 2 0 0 k:p x", "1 2 0 0 0 5", "2 2 0 0 0 6"],
                   "c.alog")
    summary = earl.merge(str(tmp_path / "m.alog"), [a, b, c], estimate=True)
    _, bound, unlinked = summary["inputs"]
    # one message a -> b: offset_b >= 100 - 40 = 60 us, no upper bound: the bound is taken
    assert bound["how"] == "bound" and bound["offset"] == pytest.approx(60e-6)
    assert bound["low"] == pytest.approx(60e-6) and bound["high"] is None
    assert unlinked["how"] == "unlinked" and unlinked["offset"] == 0
    text = earl.merging.describe("m.alog", summary)
    assert "no message links it" in text and "one way only" in text


def test_the_command_prints_offsets_and_the_trace_analyses(pieces, tmp_path, capsys):
    from earl.cli import main
    out = str(tmp_path / "all.alog")
    assert main(["merge", out, *pieces, "--estimate-offsets"]) == 0
    printed = capsys.readouterr().out
    assert "rank1.alog (alog, 6 events, location 1): offset -0.000997 s estimated from 2 " \
        "messages, interval [-0.001004 s, -0.000990 s] relative to input 0" in printed
    report = earl.analyze(out, progress=lambda f: True)
    # late sender = the send's enter - the receive's enter: rank 1 enters MPI_Recv at 18,
    # rank 0 MPI_Send at 20 (2 us); rank 0 enters MPI_Recv at 30, rank 1 MPI_Send at 43 (13 us)
    assert report.total("mpi_latesender") == pytest.approx(15e-6, abs=1e-9)


def test_messages_around_a_ring_bound_every_offset_both_ways(tmp_path):
    # a -> b -> c -> a, each pair one way only: the bounds combine along the ring.
    a = write_alog(tmp_path, ["-3 0 0 3 0 0", "-101 0 0 1 0 100 1 4", "-102 0 0 2 0 400 3 4"], "a.alog")
    b = write_alog(tmp_path, ["-3 0 0 3 0 0", "-102 1 0 0 0 150 1 4", "-101 1 0 2 0 200 2 4"], "b.alog")
    c = write_alog(tmp_path, ["-3 0 0 3 0 0", "-102 2 0 1 0 250 2 4", "-101 2 0 0 0 300 3 4"], "c.alog")
    summary = earl.merge(str(tmp_path / "ring.alog"), [a, b, c], estimate=True)
    _, ib, ic = summary["inputs"]
    # o_b - o_a >= 100 - 150 = -50; o_c - o_b >= 200 - 250 = -50; o_a - o_c >= 300 - 400
    # = -100, so o_c <= 100 and o_b <= o_c + 50 <= 150: b in [-50, 150], midpoint 50.
    assert (ib["how"], ib["low"], ib["high"]) == ("estimated", pytest.approx(-50e-6), pytest.approx(150e-6))
    assert ib["offset"] == pytest.approx(50e-6)
    # c is allowed o_c >= o_b - 50 >= -100 and o_c <= 100; with o_b = 50 fixed, o_c >= 0:
    # the midpoint of [0, 100].
    assert (ic["how"], ic["low"], ic["high"]) == ("estimated", pytest.approx(-100e-6), pytest.approx(100e-6))
    assert ic["offset"] == pytest.approx(50e-6)
    assert [e[:2] for e in events(str(tmp_path / "ring.alog"))] == [
        (100, 0), (200, 1), (250, 1), (300, 2), (350, 2), (400, 0)]
