"""`earl convert IN OUT` (cpp/convert/, python/earl/convert.py): ALOG <-> OTF2 where the
model allows, streamed through EventTrace and written by the generator's writers."""
import os
from pathlib import Path

import pytest

import earl
from earl import _core
from earl.convert import convert, describe
from earl.generate import generate

from test_generator import Alog

HAVE_OTF2_WRITER = "otf2" in _core.generator_formats()
needs_otf2 = pytest.mark.skipif(not HAVE_OTF2_WRITER, reason="this EARL was built without libotf2")
from script_checks import SCOREP as SHARED, needs_scorep_traces

# Attributes only OTF2 carries (see test_otf2_writer.py).
FORMAT_ONLY = {"com", "root", "sent", "recvd", "collbegin", "collend", "data1", "data2", "forkptr"}


def comparable(event):
    return {k: v for k, v in event.items() if k not in FORMAT_ONLY}


def earl_reads_otf2():
    from test_otf2_writer import earl_reads_otf2 as probe
    reason = probe()
    if reason:
        pytest.skip(reason)


def alog_file(tmp_path, name, lines):
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return str(path)


# ------------------------------------------------------------------ round trips
@needs_otf2
@pytest.mark.parametrize("options", [
    dict(),
    dict(locations=6, pattern="neighbors", out_of_order_rate=0.3, late_sender_rate=0.3, seed=2),
    dict(locations=2, rollover=5000, seed=4),
])
def test_alog_otf2_alog_round_trip(tmp_path, options):
    src = str(tmp_path / "in.alog")
    generate(src, events=20000, **options)
    s1 = convert(src, tmp_path / "mid.otf2")
    assert s1["input_format"] == "alog" and s1["output_format"] == "otf2"
    assert s1["events_read"] == s1["events_written"] and s1["dropped"] == {}
    assert s1["times_rounded"] == 0 and s1["ties_reordered"] == 0
    s2 = convert(tmp_path / "mid.otf2", tmp_path / "out.alog")
    assert s2["input_format"] == "otf2" and s2["output_format"] == "alog"
    assert s2["events_written"] == s1["events_written"] and s2["dropped"] == {}
    assert s2["times_rounded"] == 0
    a, b = Alog(src), Alog(str(tmp_path / "out.alog"))
    assert a.events == b.events           # times with roll-over cycles come back unrolled
    assert a.names == b.names and a.regions == b.regions and a.nprocs == b.nprocs


@needs_otf2
def test_alog_to_otf2_keeps_every_event(tmp_path):
    earl_reads_otf2()
    src = str(tmp_path / "in.alog")
    generate(src, events=20000, locations=5, pattern="neighbors", seed=7)
    convert(src, tmp_path / "x.otf2")
    import otf2
    with otf2.reader.open(str(tmp_path / "x.otf2")) as r:
        assert r.definitions.clock_properties.timer_resolution == 1000000
        assert [g.name for g in r.definitions.location_groups] == ["rank %d" % l for l in range(5)]
        assert {loc.name for loc in r.definitions.locations} == {"Master thread"}
    with earl.EventTrace(src) as a, earl.EventTrace(str(tmp_path / "x.otf2")) as o:
        assert len(a) == len(o)
        assert [o.locsym(l) for l in range(5)] == ["rank %d / Master thread" % l for l in range(5)]
        for ea, eo in zip(a, o):
            assert comparable(ea) == comparable(eo)
            assert ea["time"] == eo["time"]       # microseconds exactly


@needs_otf2
def test_otf2_to_alog_drops_what_alog_cannot_carry(tmp_path, capsys):
    earl_reads_otf2()
    src = str(tmp_path / "t.otf2")
    truth = generate(src, events=10000, locations=3, threads=2, permute_ranks=True)
    from earl.cli import main
    assert main(["convert", src, str(tmp_path / "t.alog")]) == 0
    out = capsys.readouterr().out
    forks = truth["rounds"] * 3
    assert "dropped (no ALOG equivalent): program_begin 3, fork %d, join %d, program_end 3" % (
        forks, forks) in out
    assert "%d collective exits written as plain exits" % (truth["collectives"] * 3) in out
    with earl.EventTrace(src) as o, earl.EventTrace(str(tmp_path / "t.alog")) as a:
        kept = [e for e in o if e["type"] not in ("fork", "join", "program_begin", "program_end")]
        assert len(a) == len(kept) == truth["events"] - 2 * forks
        key = lambda e: {k: v for k, v in comparable(e).items() if k not in ("pos", "enterptr", "sendptr")}
        assert [key(e) for e in a] == [key(e) for e in kept]
        assert a.locsym(0) == "MPI Rank %d" % truth["rank_process"].index(0)
        assert a.locsym(1) == "MPI Rank %d / OpenMP thread 1" % truth["rank_process"].index(0)
        assert a.types() == ["enter", "exit", "send", "recv"]


@needs_otf2
def test_generated_otf2_to_alog_equals_generated_alog(tmp_path):
    earl_reads_otf2()
    opts = dict(events=20000, locations=4, seed=11, late_sender_rate=0.3)
    generate(tmp_path / "g.alog", **opts)
    generate(tmp_path / "g.otf2", **opts)
    convert(tmp_path / "g.otf2", tmp_path / "c.alog")
    a, c = Alog(str(tmp_path / "g.alog")), Alog(str(tmp_path / "c.alog"))
    assert a.events == c.events
    assert c.names == {l: "MPI Rank %d" % l for l in range(4)}


@pytest.mark.skipif(not (SHARED / "ping-pong-otf2" / "traces.otf2").exists(),
                    reason="../shared/traces/ping-pong-otf2 is not there")
@needs_otf2
def test_score_p_trace_to_alog_and_back(tmp_path):
    earl_reads_otf2()
    src = str(SHARED / "ping-pong-otf2-papi" / "traces.otf2")
    summary = convert(src, tmp_path / "pp.alog")
    assert summary["dropped"]["metric"] > 0
    assert summary["dropped"]["program_begin"] == 2 and summary["dropped"]["program_end"] == 2
    assert summary["times_rounded"] > 0         # Score-P's clock is finer than 1 us
    assert summary["events_written"] + sum(summary["dropped"].values()) == summary["events_read"]
    with earl.EventTrace(src) as o, earl.EventTrace(str(tmp_path / "pp.alog")) as a:
        kept = [e for e in o if e["type"] in ("enter", "exit", "send", "recv")]
        assert len(kept) == len(a)
        for eo, ea in zip(kept, a):
            assert abs(eo["time"] - ea["time"]) <= 0.5e-6 + 1e-12
            assert (eo["loc"], eo["type"], eo.get("region"), eo.get("tag")) == \
                (ea["loc"], ea["type"], ea.get("region"), ea.get("tag"))
        assert a.problems() == o.problems()
        assert [a.locsym(l) for l in range(a.nrlocs())] == ["MPI Rank 0", "MPI Rank 1"]
    back = convert(tmp_path / "pp.alog", tmp_path / "pp.otf2")
    assert back["dropped"] == {}
    with earl.EventTrace(str(tmp_path / "pp.otf2")) as o2:
        assert len(o2) == summary["events_written"]
        assert o2.locsym(1) == "MPI Rank 1 / Master thread"


# ------------------------------------------------------------------ ordering, formats
@needs_otf2
def test_equal_times_out_of_location_order_are_reported(tmp_path, capsys):
    src = alog_file(tmp_path, "ties.alog", [
        "-3 0 0 2 0 0", "-13 0 1 2 0 0 red:solid f",
        "1 1 0 0 0 10", "1 0 0 0 0 10", "2 0 0 0 0 20", "2 1 0 0 0 20"])
    summary = convert(src, tmp_path / "ties.otf2")
    assert summary["ties_reordered"] == 1
    assert "reordered by location" in describe(src, "ties.otf2", summary)


def test_output_format_from_suffix_option_or_input(tmp_path):
    src = alog_file(tmp_path, "s.alog", ["-3 0 0 2 0 0", "-13 0 1 2 0 0 red:solid f",
                                          "1 0 0 0 0 10", "2 0 0 0 0 20"])
    assert _core.format_for_path("a.otf2") == "otf2"
    assert _core.format_for_path("a.alog") == "alog"
    assert _core.format_for_path("a.txt") == ""
    s = convert(src, tmp_path / "copy.txt")               # no known suffix: the input's
    assert s["output_format"] == "alog"
    assert Alog(str(tmp_path / "copy.txt")).events == Alog(src).events
    s = convert(src, tmp_path / "again.data", format="alog")
    assert s["output_format"] == "alog"


def test_alog_to_alog_drops_trace_defined_types(tmp_path):
    src = alog_file(tmp_path, "d.alog", [
        "-3 0 0 2 0 0", "-13 0 1 2 0 0 red:solid f", "-9 0 0 7 0 0 marker",
        "1 0 0 0 0 10", "7 0 0 3 0 11", "7 1 0 4 0 12", "2 0 0 0 0 20"])
    s = convert(src, tmp_path / "out.alog")
    assert s["dropped"] == {"marker": 2} and s["events_written"] == 2
    assert "dropped (no ALOG equivalent): marker 2" in describe(src, "out.alog", s)


# ------------------------------------------------------------------ errors
def test_unknown_format_names_it(tmp_path):
    src = alog_file(tmp_path, "s.alog", ["-3 0 0 2 0 0", "1 0 0 0 0 10"])
    # ("vampir" once stood here: it is now the historical name of OTF, which EARL writes)
    with pytest.raises(earl.EarlError, match="cannot write format 'nosuchformat' \\(supported: alog"):
        convert(src, tmp_path / "x.vtf", format="nosuchformat")
    assert not (tmp_path / "x.vtf").exists()


def test_bad_output_paths_name_them(tmp_path):
    src = alog_file(tmp_path, "s.alog", ["-3 0 0 2 0 0", "-13 0 1 2 0 0 red:solid f",
                                          "1 0 0 0 0 10", "2 0 0 0 0 20"])
    bad = tmp_path / "no" / "dir" / "x.alog"
    with pytest.raises(earl.EarlError, match=str(bad)):
        convert(src, bad)
    with pytest.raises(earl.EarlError, match="itself"):
        convert(src, src)
    assert Alog(src).events                       # the input is untouched
    if HAVE_OTF2_WRITER:
        bad = tmp_path / "no" / "dir" / "x.otf2"
        with pytest.raises(earl.EarlError, match=str(tmp_path / "no" / "dir")):
            convert(src, bad)
        with pytest.raises(earl.EarlError, match=r"x\.trace.*\.otf2"):
            convert(src, tmp_path / "x.trace", format="otf2")
    assert sorted(os.listdir(tmp_path)) == ["s.alog"]


def test_another_name_for_the_input_is_the_input(tmp_path):
    """The output is compared with the input by file identity: a hard link, a symbolic
    link or a path through a linked directory is refused like the input's own path, and
    the input keeps every byte."""
    src = Path(alog_file(tmp_path, "s.alog", ["-3 0 0 2 0 0", "-13 0 1 2 0 0 red:solid f",
                                               "1 0 0 0 0 10", "2 0 0 0 0 20"]))
    before = src.read_bytes()
    os.link(src, tmp_path / "hard.alog")
    os.symlink(src, tmp_path / "soft.alog")
    os.symlink(tmp_path, tmp_path / "here")
    for other in (tmp_path / "hard.alog", tmp_path / "soft.alog", tmp_path / "here" / "s.alog",
                  tmp_path / "here" / "hard.alog"):
        with pytest.raises(earl.EarlError, match="itself"):
            convert(src, other)
        assert src.read_bytes() == before, other
    convert(src, tmp_path / "copy.alog")          # a file of its own is fine
    assert Alog(tmp_path / "copy.alog").events == Alog(src).events


@needs_otf2
def test_an_archive_reached_through_a_linked_directory_is_the_input(tmp_path):
    earl_reads_otf2()
    (tmp_path / "a").mkdir()
    src = tmp_path / "a" / "run.otf2"
    generate(src, events=1000)
    with earl.EventTrace(str(src)) as t:
        events = len(t)
    os.symlink(tmp_path / "a", tmp_path / "b")
    with pytest.raises(earl.EarlError, match="itself"):
        convert(src, tmp_path / "b" / "run.otf2")
    # another anchor name whose archive directory is the input's, through a link
    os.symlink(tmp_path / "a" / "run", tmp_path / "a" / "other")
    with pytest.raises(earl.EarlError, match="itself"):
        convert(src, tmp_path / "a" / "other.otf2")
    # an output named as the archive's definitions
    definitions = (tmp_path / "a" / "run.def").read_bytes()
    with pytest.raises(earl.EarlError, match="itself"):
        convert(src, tmp_path / "b" / "run.def", format="alog")
    assert (tmp_path / "a" / "run.def").read_bytes() == definitions
    with earl.EventTrace(str(src)) as t:
        assert len(t) == events


def test_missing_or_bad_input_names_it(tmp_path):
    with pytest.raises(earl.EarlError, match="nothing.alog"):
        convert(tmp_path / "nothing.alog", tmp_path / "out.alog")
    junk = tmp_path / "junk.alog"
    junk.write_text("this is no trace\n")
    with pytest.raises(earl.EarlError, match="junk.alog"):
        convert(junk, tmp_path / "out.alog")
    assert not (tmp_path / "out.alog").exists()


@needs_otf2
def test_otf2_input_is_never_overwritten(tmp_path):
    earl_reads_otf2()
    src = tmp_path / "run.otf2"
    generate(src, events=1000)
    with pytest.raises(earl.EarlError, match="itself"):
        convert(src, src, format="otf2")
    with pytest.raises(earl.EarlError, match="itself"):
        convert(tmp_path, tmp_path / "run.otf2")        # the directory holding the anchor
    with earl.EventTrace(str(src)) as t:
        assert len(t) > 1000


def test_cli_errors_exit_nonzero(tmp_path, capsys):
    from earl.cli import main
    assert main(["convert", str(tmp_path / "missing.alog"), str(tmp_path / "o.alog")]) != 0
    assert "missing.alog" in capsys.readouterr().err
    src = alog_file(tmp_path, "s.alog", ["-3 0 0 2 0 0", "1 0 0 0 0 10"])
    assert main(["convert", src, str(tmp_path / "o.x"), "--format", "nope"]) != 0
    assert "'nope'" in capsys.readouterr().err


@needs_otf2
def test_a_damaged_input_is_converted_up_to_the_damage_and_says_so(tmp_path, capsys):
    """A cut ALOG file: the OTF2 written holds exactly the event lines before the cut line
    (counted from the text here: types >= 0 and the -101/-102 messages; definitions and
    the other negative types are no events), the summary and the command name the damage;
    with --strict it is the error and nothing is written."""
    import otf2

    intact = tmp_path / "intact.alog"
    generate(str(intact), events=3000, locations=3, seed=4)
    text = intact.read_bytes()
    lines = text.split(b"\n")
    cut_line = len(lines) // 2                       # 0-based: this line is cut in two
    cut = tmp_path / "cut.alog"
    cut.write_bytes(b"\n".join(lines[:cut_line]) + b"\n" + lines[cut_line][:3])
    events_before = sum(1 for line in lines[:cut_line] if line.split()
                        and (int(line.split()[0]) >= 0 or int(line.split()[0]) in (-101, -102)))
    summary = convert(cut, tmp_path / "part.otf2")
    assert summary["events_written"] == summary["events_read"] == events_before
    assert len(summary["damaged"]) == 1 and f"line {cut_line + 1}:" in summary["damaged"][0]
    with otf2.reader.open(str(tmp_path / "part.otf2")) as r:
        assert sum(1 for _ in r.events) == events_before
    from earl.cli import main
    assert main(["convert", str(cut), str(tmp_path / "again.otf2"), "-q"]) == 0
    out = capsys.readouterr().out
    assert f"not converted, the input is damaged: {cut}: line {cut_line + 1}:" in out
    assert main(["convert", str(cut), str(tmp_path / "strict.otf2"), "--strict"]) == 1
    assert f"line {cut_line + 1}" in capsys.readouterr().err
    assert not (tmp_path / "strict.otf2").exists()


# ------------------------------------------------------------------ OTF2 for Scalasca
@needs_otf2
def test_alog_without_mpi_init_gets_a_zero_length_frame(tmp_path):
    """Scalasca's analysis needs MPI_Init's end as the first point all ranks share: an input
    without MPI_Init gets, in OTF2, a zero-length MPI_Init (file "MPI") at each location's
    first event and a zero-length MPI_Finalize at its last; the input's events are as they
    were. Times by hand: location 0 starts at 10 us and ends at 50 us, location 1 at 12 and
    40 us."""
    otf2 = pytest.importorskip("otf2")
    src = alog_file(tmp_path, "noinit.alog", [
        "-3 0 0 2 0 0", "-13 0 1 2 0 0 red:solid work", "-13 0 3 4 0 0 red:solid MPI_Send",
        "-13 0 5 6 0 0 red:solid MPI_Recv",
        "1 0 0 0 0 10", "3 0 0 0 0 20", "-101 0 0 1 0 21 7 64", "4 0 0 0 0 25", "2 0 0 0 0 50",
        "1 1 0 0 0 12", "5 1 0 0 0 22", "-102 1 0 0 0 30 7 64", "6 1 0 0 0 31", "2 1 0 0 0 40"])
    out = tmp_path / "noinit.otf2"
    summary = convert(src, out)
    assert summary["frame_events_added"] == 8
    assert summary["events_written"] == summary["events_read"] == 10
    assert "added 8 events: a zero-length MPI_Init at the first event" in describe(src, str(out), summary)
    with otf2.reader.open(str(out)) as reader:
        regions = {r.name: r for r in reader.definitions.regions}
        for name in ("MPI_Init", "MPI_Finalize"):
            assert regions[name].source_file == "MPI" and regions[name].paradigm == otf2.Paradigm.MPI
        per_location = {}
        for loc, ev in reader.events:
            if type(ev).__name__ in ("Enter", "Leave"):
                per_location.setdefault(loc._ref, []).append(
                    (type(ev).__name__, ev.time, ev.region.name))
    assert per_location[0][:2] == [("Enter", 10, "MPI_Init"), ("Leave", 10, "MPI_Init")]
    assert per_location[0][-2:] == [("Enter", 50, "MPI_Finalize"), ("Leave", 50, "MPI_Finalize")]
    assert per_location[1][:2] == [("Enter", 12, "MPI_Init"), ("Leave", 12, "MPI_Init")]
    assert per_location[1][-2:] == [("Enter", 40, "MPI_Finalize"), ("Leave", 40, "MPI_Finalize")]
    assert [e[2] for e in per_location[0][2:-2]] == ["work", "MPI_Send", "MPI_Send", "work"]
    # back to ALOG: the added calls are the only difference
    convert(out, tmp_path / "back.alog")
    back = Alog(str(tmp_path / "back.alog")).events
    frame = [e for e in back if e[0] in ("enter", "exit") and e[3] in ("MPI_Init", "MPI_Finalize")]
    assert len(frame) == 8
    by_location = lambda events: sorted(events, key=lambda e: (e[1], e[2]))   # stable
    assert by_location(e for e in back if e not in frame) == by_location(Alog(src).events)


@needs_otf2
@needs_scorep_traces
def test_input_with_mpi_init_and_program_records_keeps_them(tmp_path):
    """Score-P's trace has MPI_Init and ProgramBegin/ProgramEnd: OTF2 -> OTF2 keeps the
    program records (name and count as the input's, read with the official reader) and adds
    no MPI_Init."""
    otf2 = pytest.importorskip("otf2")
    earl_reads_otf2()
    src = os.path.join(SHARED, "ping-pong-otf2", "traces.otf2")
    out = tmp_path / "pp.otf2"
    summary = convert(src, out)
    assert summary["frame_events_added"] == 0 and "program_begin" not in summary["dropped"]

    def program_records(path):
        with otf2.reader.open(str(path)) as reader:
            return [(type(ev).__name__, getattr(ev, "program_name", None))
                    for _, ev in reader.events if type(ev).__name__.startswith("Program")]
    got, expected = program_records(out), program_records(src)
    assert sorted(got) == sorted(expected) and len(got) == 4
    with otf2.reader.open(str(out)) as reader:
        program = [r for r in reader.definitions.regions if r.region_role == otf2.RegionRole.ARTIFICIAL
                   and r.paradigm == otf2.Paradigm.MEASUREMENT_SYSTEM and r.name == "ping-pong.otf2"]
        assert [r.canonical_name for r in program][-1] == expected[0][1]
        assert sum(1 for r in reader.definitions.regions if r.name == "MPI_Init") == 1


@needs_otf2
def test_otf2_threads_stay_threads_of_their_process(tmp_path):
    """A generated archive with 3 processes of 2 threads: OTF2 -> OTF2 keeps 3 processes
    (location groups) of 2 threads each, MPI_COMM_WORLD of 3 ranks, and adds no MPI_Init
    (the master threads call it; threads are no MPI processes)."""
    otf2 = pytest.importorskip("otf2")
    earl_reads_otf2()
    generate(tmp_path / "t.otf2", events=3000, locations=3, threads=2)
    summary = convert(tmp_path / "t.otf2", tmp_path / "c.otf2")
    assert summary["frame_events_added"] == 0
    with otf2.reader.open(str(tmp_path / "c.otf2")) as reader:
        d = reader.definitions
        assert [g.name for g in d.location_groups] == ["MPI Rank 0", "MPI Rank 1", "MPI Rank 2"]
        assert [(loc.name, loc.group.name) for loc in d.locations] == [
            (thread, "MPI Rank %d" % p) for p in range(3) for thread in ("Master thread", "OpenMP thread 1")]
        world = [c for c in d.comms if c.name == "MPI_COMM_WORLD"][0]
        assert [m.name for m in world.group.members] == ["Master thread"] * 3
