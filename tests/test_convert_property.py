"""Property: `earl convert` between every pair of writable formats either writes a trace
that reads back to the input's events, or its summary says exactly what it changed
(issue 22, class 5). Random small traces with hostile names (line ends, blanks at either
end, control bytes, NUL, bytes that are not UTF-8, empty, very long) and extreme values
(times near 0 and far out, tags 0 and 2^32-1 and beyond, lengths up to 2^64-1) are written
by the test itself (ALOG as text, OTF2 with the official `otf2` writer), read by EARL,
converted to ALOG and to OTF2 and read back.

What may differ, each worked out here from the rule in docs/robustness.md#names, not from
EARL's code: a name with bytes the output cannot hold is written with them as \\xNN
(counted in summary["renamed"] per kind); a message the output cannot hold (ALOG: a length
beyond 2^63-1; OTF2: a tag outside 0..2^32-1) is left out (summary["refused"]); OTF2
output adds a zero-length MPI_Init/MPI_Finalize per process (frame_events_added); location
names follow the documented process/thread mapping; a time beyond 9e18 microseconds is an
EarlError naming the event."""
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings, strategies as st

import earl
from earl.convert import convert
from otf2_archives import ArchiveWriter
from script_checks import have_otf2

pytestmark = pytest.mark.skipif(not have_otf2(), reason="EARL built without libotf2")

MASTER = " / Master thread"
FORMATS = ("alog", "otf2")
INT64_MAX, UINT32_MAX, UINT64_MAX = 2 ** 63 - 1, 2 ** 32 - 1, 2 ** 64 - 1

# --- the rule, written out independently ----------------------------------------------
_ALOG_BLANKS = b" \t\r\f\v"


def alog_rule(name: bytes, region: bool) -> bytes:
    """An ALOG line carries every byte but LF and CR, the reader trims blanks at both ends,
    and a region needs a name: those bytes as \\xNN, an empty region name as ""."""
    if not name:
        return b'""' if region else b""
    core = name.strip(_ALOG_BLANKS)
    start = len(name) - len(name.lstrip(_ALOG_BLANKS))
    out = b"".join(b"\\x%02x" % c for c in name[:start])
    out += b"".join(b"\\x%02x" % c if c in b"\r\n" else bytes([c]) for c in core)
    if core:
        out += b"".join(b"\\x%02x" % c for c in name[start + len(core):])
    return out


def otf2_rule(name: bytes) -> bytes:
    return name.replace(b"\0", b"\\x00")


# --- random traces ---------------------------------------------------------------------
PIECES = [b"a", b"Z", b" ", b"\t", b"\n", b"\r", b"\x00", b"\x01", b"\x7f", b"\xff", b"\xc3\xa9",
          b"/", b" / ", b":", b"<&>", b"\"", b"\x0b", b"\x0c"]


def names(alphabet):
    joined = st.lists(st.sampled_from(alphabet), max_size=6).map(b"".join)
    return st.one_of(joined, st.just(b""), st.just(b"long" * 1200), st.just(b"Master thread"))


@st.composite
def traces(draw, fmt):
    """{"regions": [bytes], "locations": [(process, thread)] or [bytes], "events": per
    location [(time us, kind, data)]} for `fmt`'s writer."""
    if fmt == "alog":   # a line of the test's own file: no line ends; a region needs a name
        alphabet = [p for p in PIECES if p not in (b"\n", b"\r")]
        region = names(alphabet).map(lambda n: n if n.strip(_ALOG_BLANKS) else n + b"r")
    else:               # the otf2 writer takes str: UTF-8 only, no NUL (C strings)
        alphabet = [p for p in PIECES if p not in (b"\x00", b"\xff")]
        region = names(alphabet)
    region = region.map(lambda n: n + b"_" if n in (b"MPI_Init", b"MPI_Finalize") else n)
    nregions = draw(st.integers(1, 3))
    regions = [draw(region) for _ in range(nregions)]
    nlocs = draw(st.integers(1, 3))
    if fmt == "alog":
        locations = [draw(names(alphabet)) for _ in range(nlocs)]
    else:
        # distinct processes: the otf2 writer takes groups of one name for one group
        locations = [(draw(names(alphabet)) + b"%d" % i, draw(names(alphabet))) for i in range(nlocs)]
    # microseconds: 9.1e18 is beyond what convert takes (9e18), INT64_MAX - 64 at the end
    far = draw(st.sampled_from([0, 2 ** 40, 2 ** 61, 91 * 10 ** 17, INT64_MAX - 64]))
    events = [[] for _ in range(nlocs)]
    clock = [far + draw(st.integers(0, 3)) for _ in range(nlocs)]

    def tick(loc):
        clock[loc] += draw(st.integers(1, 5))
        return clock[loc]
    tags = st.sampled_from([0, 7, UINT32_MAX] + ([-1, UINT32_MAX + 1] if fmt == "alog" else []))
    lens = st.sampled_from([0, 8, INT64_MAX] + ([UINT64_MAX] if fmt == "otf2" else []))
    for _ in range(draw(st.integers(1, 4))):
        loc = draw(st.integers(0, nlocs - 1))
        r = draw(st.integers(0, nregions - 1))
        events[loc].append((tick(loc), "enter", r))
        if nlocs > 1 and draw(st.booleans()):
            dest = (loc + draw(st.integers(1, nlocs - 1))) % nlocs
            tag, length = draw(tags), draw(lens)
            events[loc].append((tick(loc), "send", (dest, tag, length)))
            clock[dest] = max(clock[dest], clock[loc])
            events[dest].append((tick(dest), "recv", (loc, tag, length)))
        events[loc].append((tick(loc), "exit", r))
    return {"regions": regions, "locations": locations, "events": events}


def write_alog(trace, path):
    lines = [b"-3 0 0 %d 0 0" % len(trace["locations"])]
    for r, name in enumerate(trace["regions"]):
        lines.append(b"-13 0 %d %d 0 0 black:solid " % (2 * r + 1, 2 * r + 2) + name)
    for loc, name in enumerate(trace["locations"]):
        lines.append(b"-15 %d 0 0 0 0 " % loc + name)
    merged = sorted((t, loc, i, kind, data) for loc, evs in enumerate(trace["events"])
                    for i, (t, kind, data) in enumerate(evs))
    for t, loc, _, kind, data in merged:
        if kind in ("enter", "exit"):
            lines.append(b"%d %d 0 0 0 %d" % (2 * data + (1 if kind == "enter" else 2), loc, t))
        else:
            peer, tag, length = data
            lines.append(b"%d %d 0 %d 0 %d %d %d" % (-101 if kind == "send" else -102, loc, peer, t, tag, length))
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def write_otf2(trace, directory):
    aw = ArchiveWriter(directory, "in", resolution=10 ** 6)
    locs = [aw.process(p.decode(), threads=[t.decode()])[0] for p, t in trace["locations"]]
    aw.comm_locations(locs)
    world = aw.comm("MPI_COMM_WORLD", locs)
    regions = [aw.region(name.decode()) for name in trace["regions"]]
    for loc, evs in enumerate(trace["events"]):
        w = aw.ev(locs[loc])
        for t, kind, data in evs:
            if kind == "enter":
                w.enter(t, regions[data])
            elif kind == "exit":
                w.leave(t, regions[data])
            else:
                peer, tag, length = data
                (w.mpi_send if kind == "send" else w.mpi_recv)(t, peer, world, tag, length)
    return aw.close(clock_offset=0)


# --- reading and expecting -------------------------------------------------------------
def b(name):
    return name.encode(errors="surrogateescape")


def read(path):
    """(location names as bytes, region names as bytes, per location its events)."""
    trace = earl.EventTrace(path)
    try:
        locs = [b(trace.locsym(loc)) if isinstance(trace.locsym(loc), str) else b""
                for loc in range(trace.nrlocs())]
        per_loc = [[] for _ in locs]
        for pos in range(1, len(trace) + 1):
            e = trace.event(pos)
            if e["type"] in ("enter", "exit"):
                item = (e["type"], b(e["region"]))
            elif e["type"] in ("send", "recv"):
                item = (e["type"], e["dest"] if e["type"] == "send" else e["src"], e["tag"], e["len"])
            else:
                item = (e["type"],)
            per_loc[e["loc"]].append((e["time"], item))
        return locs, [b(r) for r in trace.regions()], per_loc
    finally:
        trace.close()


def split_name(name):
    at = name.rfind(b" / ")
    return (name, None) if at < 0 else (name[:at], name[at + 3:])


def expected(source, in_fmt, out_fmt):
    """(location names, per-location events, renamed counts, refused count) after
    converting what EARL read of the input (`source`) to `out_fmt`."""
    locs, regions, per_loc = source
    renamed, refused = {}, 0

    def count(kind, before, after):
        if before != after:
            renamed[kind] = renamed.get(kind, 0) + 1
        return after
    if out_fmt == "alog":
        names = []
        for name in locs:
            flat = name[:-len(MASTER)] if name.endswith(MASTER.encode()) else name
            names.append(count("location", flat, alog_rule(flat, False)))
        region_map = {r: count("region", r, alog_rule(r, True)) for r in regions}
    else:
        names = []
        for loc, name in enumerate(locs):
            process, thread = split_name(name) if name else (None, None)
            process = b"MPI Rank %d" % loc if process is None else count("process", process, otf2_rule(process))
            thread = b"Master thread" if thread is None else count("thread", thread, otf2_rule(thread))
            names.append(process + b" / " + thread)
        region_map = {r: count("region", r, otf2_rule(r)) for r in regions}
    events = []
    for evs in per_loc:
        kept = []
        for time, item in evs:
            if item[0] in ("enter", "exit"):
                item = (item[0], region_map[item[1]])
            elif (out_fmt == "alog" and item[3] > INT64_MAX) or (
                    out_fmt == "otf2" and not 0 <= item[2] <= UINT32_MAX):
                refused += 1
                continue
            kept.append((time, item))
        events.append(kept)
    return names, events, renamed, refused


def without_frame(per_loc):
    return [[(t, item) for t, item in evs if item[1:] not in ((b"MPI_Init",), (b"MPI_Finalize",))]
            for evs in per_loc]


def check_conversion(trace, in_fmt):
    with tempfile.TemporaryDirectory() as folder:   # one per example (tmp_path is per test)
        check_in(Path(folder), trace, in_fmt)


def check_in(tmp_path, trace, in_fmt):
    source_path = write_alog(trace, tmp_path / "in.alog") if in_fmt == "alog" else write_otf2(trace, tmp_path)
    source = read(source_path)
    latest = max((t for evs in source[2] for t, _ in evs), default=0.0)
    for out_fmt in FORMATS:
        out = tmp_path / f"out.{out_fmt}"
        if latest * 1e6 > 9.0e18:
            with pytest.raises(earl.EarlError, match="time out of range"):
                convert(source_path, out)
            event("time out of range")
            continue
        summary = convert(source_path, out)
        names, events, renamed, refused = expected(source, in_fmt, out_fmt)
        got_names, _, got_events = read(out)
        assert summary["renamed"] == renamed, (in_fmt, out_fmt)
        assert sum(summary["refused"].values()) == refused, (in_fmt, out_fmt, summary["refused"])
        assert summary["events_written"] == summary["events_read"] - refused
        assert got_names == names, (in_fmt, out_fmt)
        if out_fmt == "otf2" and summary["frame_events_added"]:
            got_events = without_frame(got_events)
        assert got_events == events, (in_fmt, out_fmt)
        event(f"{in_fmt}->{out_fmt}: " + ", ".join(sorted(set(summary["renamed"]) | set(summary["refused"])))
              if summary["renamed"] or summary["refused"] else f"{in_fmt}->{out_fmt}: the same")


SETTINGS = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(trace=traces("alog"))
def test_alog_input_converts_to_every_format(trace):
    check_conversion(trace, "alog")


@SETTINGS
@given(trace=traces("otf2"))
def test_otf2_input_converts_to_every_format(trace):
    check_conversion(trace, "otf2")


def test_the_rule_by_hand():
    assert alog_rule(b" a\nb\t", False) == b"\\x20a\\x0ab\\x09"
    assert alog_rule(b"  ", True) == b"\\x20\\x20"
    assert alog_rule(b"", True) == b'""' and alog_rule(b"", False) == b""
    assert otf2_rule(b"a\0b") == b"a\\x00b"
    assert re.fullmatch(rb"[^\r\n]*", alog_rule(b"\r\n\r", True))
