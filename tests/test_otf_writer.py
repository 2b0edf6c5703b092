"""The OTF (version 1) writer (`earl gen -f otf`, `earl convert X out.otf`): what it writes
is checked with libotf's own `otfprint` (an independent reader) against the same program
written as OTF2 and read by EARL's OTF2 reader, and read back by EARL's OTF reader; convert
round trips; refusals; replacing an older trace of the same name."""
import re
import shutil
import subprocess
from collections import defaultdict
from pathlib import Path

import pytest

import earl
from earl.convert import convert
from earl.generate import generate

pytestmark = pytest.mark.skipif("otf" not in earl._core.generator_formats()
                                or "otf2" not in earl._core.known_formats(),
                                reason="built without libotf or libotf2")

KEYS = ["loc", "time", "type", "region", "dest", "src", "tag", "len", "root", "sent", "recvd",
        "collbegin", "collend"]
OPTIONS = dict(locations=4, events=4000, seed=3, late_sender_rate=0.3, imbalance_rate=0.3,
               out_of_order_rate=0.2, barrier_every=3)


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    """The same generated program as OTF and as OTF2."""
    folder = tmp_path_factory.mktemp("otf-gen")
    truth_otf = generate(folder / "run.otf", format="otf", **OPTIONS)
    truth_otf2 = generate(folder / "run.otf2", format="otf2", **OPTIONS)
    return folder / "run.otf", folder / "run.otf2", truth_otf, truth_otf2


def otf2_events(anchor):
    """EARL's OTF2 reading, without the program records OTF has no counterpart for."""
    with earl.EventTrace(str(anchor)) as trace:
        return [e for e in trace if e["type"] not in ("program_begin", "program_end")]


def same_events(got, want):
    assert len(got) == len(want)
    for a, b in zip(got, want):
        assert {k: a.get(k) for k in KEYS} == {k: b.get(k) for k in KEYS}, (a, b)


@pytest.mark.parametrize("cache", [True, False], ids=["cached", "direct"])
def test_generated_otf_reads_as_the_same_program_in_otf2(pair, cache):
    otf, otf2, truth_otf, _ = pair
    with earl.EventTrace(str(otf), cache=cache) as trace:
        got = list(trace)
        assert trace.problems()["unmatched_recv"]["count"] == 0
        assert len(trace) == truth_otf["events"]
    same_events(got, otf2_events(otf2))


PRINTED = re.compile(r"^\(#\d+\)\s+(\d+) (\w+): (.*)$")


def otfprint_records(anchor):
    """Per process: the records otfprint lists, as (time, kind, {field: value})."""
    out = subprocess.run(["otfprint", str(anchor)], capture_output=True, text=True,
                         check=True).stdout
    records = defaultdict(list)
    for line in out.splitlines():
        match = PRINTED.match(line.strip())
        if not match:
            continue
        time, kind, rest = int(match.group(1)), match.group(2), match.group(3)
        fields = dict(re.findall(r"(\w+(?: \w+)?) (\d+)", rest))
        owner = "receiver" if kind == "ReceiveMessage" else "sender"
        process = int(fields.get("process", fields.get(owner, -1)))
        records[process].append((time, kind, fields))
    return records


@pytest.mark.skipif(shutil.which("otfprint") is None, reason="no otfprint (Debian: otf-trace)")
def test_otfprint_reads_what_otf2_holds(pair):
    """libotf's own reader of the written trace against the OTF2 of the same program: every
    location's enters, leaves, messages and collectives (root, bytes) in order."""
    otf, otf2, _, _ = pair
    with earl.EventTrace(str(otf2)) as trace:
        regions = trace.regions()
    printed = otfprint_records(otf)
    want = defaultdict(list)
    for e in otf2_events(otf2):
        us = round(e["time"] * 1e6)
        if e["type"] == "enter":
            want[e["loc"] + 1].append((us, "Enter", regions.index(e["region"]) + 1))
        elif e["type"] == "exit":
            if "root" in e:
                want[e["loc"] + 1].append(("collective", e["root"] + 1 if e["root"] >= 0 else 0,
                                           e["sent"], e["recvd"]))
            want[e["loc"] + 1].append((us, "Leave", regions.index(e["region"]) + 1))
        elif e["type"] == "send":
            want[e["loc"] + 1].append((us, "SendMessage", e["dest"] + 1, e["tag"], e["len"]))
        elif e["type"] == "recv":
            want[e["loc"] + 1].append((us, "ReceiveMessage", e["src"] + 1, e["tag"], e["len"]))
    got = defaultdict(list)
    for process, records in printed.items():
        for time, kind, f in records:
            if kind in ("Enter", "Leave"):
                got[process].append((time, kind, int(f["function"])))
            elif kind == "SendMessage":
                got[process].append((time, kind, int(f["receiver"]), int(f["type"]), int(f["length"])))
            elif kind == "ReceiveMessage":
                got[process].append((time, kind, int(f["sender"]), int(f["type"]), int(f["length"])))
            elif kind in ("BeginCollective", "Collective"):
                got[process].append(("collective", int(f["root"]), int(f["sent"]), int(f["received"])))
    # the collective record sits after its enter; EARL's model puts it on the exit
    for process in got:
        seq = got[process]
        moved = []
        pending = None
        for item in seq:
            if item[0] == "collective":
                pending = item
            elif item[1] == "Leave" and pending is not None:
                moved += [pending, item]
                pending = None
            else:
                moved.append(item)
        got[process] = moved
    assert dict(got) == dict(want)


def test_convert_round_trip(pair, tmp_path):
    _, otf2, _, _ = pair
    summary = convert(otf2, tmp_path / "conv.otf")
    assert summary["output_format"] == "otf" and summary["collective_exits_plain"] == 0
    assert summary["dropped"] == {"program_begin": 4, "program_end": 4}
    same_events(list(earl.EventTrace(str(tmp_path / "conv.otf"))), otf2_events(otf2))
    back = convert(tmp_path / "conv.otf", tmp_path / "back.alog")
    assert back["input_format"] == "otf"
    with earl.EventTrace(str(tmp_path / "back.alog")) as trace:
        assert len(trace) == summary["events_written"]


def test_what_otf_cannot_hold_is_refused(tmp_path):
    alog = tmp_path / "big.alog"
    # a message of 2^32 bytes and one with tag -1: OTF's fields are 32-bit unsigned
    alog.write_text("-3 0 0 2 0 0\n-13 0 1 2 0 0 c:s main\n"
                    "1 0 0 0 0 10\n1 1 0 0 0 10\n"
                    "-101 0 0 1 0 20 7 4294967296\n-102 1 0 0 0 30 7 4294967296\n"
                    "-101 0 0 1 0 40 -1 8\n-102 1 0 0 0 50 -1 8\n"
                    "-101 0 0 1 0 60 3 8\n-102 1 0 0 0 70 3 8\n"
                    "2 0 0 0 0 80\n2 1 0 0 0 80\n")
    summary = convert(alog, tmp_path / "out.otf")
    assert summary["refused"] == {"send of more than 2^32-1 bytes": 1, "recv of more than 2^32-1 bytes": 1,
                                  "send with a tag outside 0..2^32-1": 1,
                                  "recv with a tag outside 0..2^32-1": 1}
    with earl.EventTrace(str(tmp_path / "out.otf")) as trace:
        assert [(e["type"], e.get("tag"), e.get("len")) for e in trace if e["type"] in ("send", "recv")] == \
            [("send", 3, 8), ("recv", 3, 8)]


def test_writing_replaces_an_older_trace_of_the_name(tmp_path):
    generate(tmp_path / "t.otf", format="otf", locations=6, events=500, seed=1)
    assert (tmp_path / "t.6.events").exists()
    generate(tmp_path / "t.otf", format="otf", locations=2, events=300, seed=2)
    names = sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(".json"))
    assert names == ["t.0.def", "t.1.events", "t.2.events", "t.otf"]
    with earl.EventTrace(str(tmp_path / "t.otf")) as trace:
        assert trace.nrlocs() == 2


def test_names_libotf_cannot_hold_are_escaped(tmp_path):
    alog = tmp_path / "names.alog"
    alog.write_text('-3 0 0 1 0 0\n-13 0 1 2 0 0 c:s say "hi"\n-15 0 0 0 0 0 rank "0"\n'
                    "1 0 0 0 0 10\n2 0 0 0 0 20\n")
    summary = convert(alog, tmp_path / "n.otf")
    assert summary["renamed"] == {"location": 1, "region": 1}
    with earl.EventTrace(str(tmp_path / "n.otf")) as trace:
        assert trace.regions() == ["say \\x22hi\\x22"]
        assert trace.locsym(0) == "rank \\x220\\x22"


SHARED = Path(__file__).resolve().parents[2] / "shared" / "traces"


@pytest.mark.skipif(not (SHARED / "ping-pong-otf2").exists(), reason="shared traces not found")
@pytest.mark.parametrize("name", ["ping-pong-otf2", "ping-pong-otf2-papi"])
def test_a_score_p_trace_converted_to_otf(name, tmp_path):
    """A real Score-P run through the OTF writer and reader: each location's enters, exits
    and messages as EARL's OTF2 reader reads them, times to the microsecond."""
    out = tmp_path / "run.otf"
    summary = convert(SHARED / name, out)
    assert summary["refused"] == {} and summary["collective_exits_plain"] == 0

    def per_location(events):
        table = defaultdict(list)
        for e in events:
            if e["type"] in ("enter", "exit", "send", "recv"):
                table[e["loc"]].append((round(e["time"] * 1e6),) +
                                       tuple(e.get(k) for k in KEYS if k not in ("loc", "time")))
        return dict(table)

    with earl.EventTrace(str(SHARED / name)) as original, earl.EventTrace(str(out)) as written:
        assert per_location(written) == per_location(original)
        assert written.nrlocs() == original.nrlocs()
        assert set(written.regions()) <= set(original.regions())


def test_threads_are_processes_with_a_parent(tmp_path):
    """A generated run with two threads per process: the OTF reads as the OTF2 does in
    enters, exits and messages (fork and join have no OTF record), and libotf's printer
    shows each thread's process with its master as parent."""
    generate(tmp_path / "t.otf", format="otf", locations=3, threads=2, events=1500, seed=7)
    generate(tmp_path / "t.otf2", format="otf2", locations=3, threads=2, events=1500, seed=7)
    with earl.EventTrace(str(tmp_path / "t.otf")) as trace:
        got = list(trace)
        names = [trace.locsym(loc) for loc in range(trace.nrlocs())]
    with earl.EventTrace(str(tmp_path / "t.otf2")) as trace:
        want = [e for e in trace if e["type"] in ("enter", "exit", "send", "recv")]
    same_events(got, want)
    assert len(names) == 6 and len(set(names)) == 6
    if shutil.which("otfprint"):
        out = subprocess.run(["otfprint", str(tmp_path / "t.otf")], capture_output=True, text=True,
                             check=True).stdout
        parents = dict(map(int, m) for m in re.findall(r"DefProcess: stream 0, process (\d+), .*parent (\d+)", out))
        assert parents == {1: 0, 2: 1, 3: 0, 4: 3, 5: 0, 6: 5}
