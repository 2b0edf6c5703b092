"""`earl gen`: the synthetic trace generator (cpp/gen/, python/earl/generate.py).

The written ALOG files are read back by a small pure-Python reader defined here (independent
of the C++ decoder), and every number of the ground truth is recomputed from the file the way
the example scripts of the EARL 2.0 reference (seed 004, sections 7-9) compute them.
"""
import collections
import hashlib
import json
import subprocess
import sys
import textwrap

import pytest

import earl
from earl import _core
from earl.cli import main as earl_main
from earl.generate import INEFFICIENCY_OPTIONS, defaults, generate, options


# ------------------------------------------------------------------ a tiny ALOG reader
class Alog:
    """The events of an ALOG file as tuples, in file order.

    Each event: (kind, loc, time_us, a, b, c) with kind 'enter'/'exit' (a = region name),
    'send' (a = dest, b = tag, c = len), 'recv' (a = src, b = tag, c = len) or a -9
    trace-defined type such as 'fork'/'join' (a = the data field).
    """

    def __init__(self, path):
        self.nprocs = None
        self.rollover = None
        self.regions = []          # definition order
        self.types = {}            # type number -> ('enter'|'exit', region)
        self.names = {}
        self.events = []
        self.cycles = set()
        with open(path, encoding="utf-8") as f:
            for line in f:
                fields = line.split()
                if not fields:
                    continue
                rtype, proc, task, data, cycle, stamp = (int(x) for x in fields[:6])
                comment = fields[6:]
                if rtype == -3:
                    assert not self.events
                    self.nprocs = data
                elif rtype == -11:
                    assert not self.events
                    self.rollover = stamp
                elif rtype == -9:
                    assert not self.events
                    self.types.setdefault(data, ("other", " ".join(comment)))
                elif rtype == -13:
                    assert not self.events
                    name = " ".join(comment[1:] if comment and ":" in comment[0] else comment)
                    self.regions.append(name)
                    self.types[task] = ("enter", name)
                    self.types[data] = ("exit", name)
                elif rtype == -15:
                    assert not self.events
                    self.names[proc] = " ".join(comment)
                else:
                    assert cycle == 0 or self.rollover, "cycle without -11"
                    self.cycles.add(cycle)
                    t = stamp + cycle * (self.rollover or 0)
                    if rtype == -101:
                        self.events.append(("send", proc, t, data, int(comment[0]), int(comment[1])))
                    elif rtype == -102:
                        self.events.append(("recv", proc, t, data, int(comment[0]), int(comment[1])))
                    else:
                        kind, region = self.types[rtype]
                        if kind == "other":
                            self.events.append((region, proc, t, data, None, None))
                        else:
                            self.events.append((kind, proc, t, region, None, None))

    @staticmethod
    def sec(us):
        # time = (timestamp + cycle * rollover) microseconds, as docs/api-contract.md fixes
        # it: the integer count divided by 1e6 (the correctly rounded double)
        return us / 1e6


def analyse(trace, threads=1):
    """Everything the tests recompute, in one pass over the events in file order (pos order),
    with the EARL state: region stacks, and message queues with sendptr = oldest unreceived
    send of the same source, destination and tag. With threads > 1, location l is thread
    l % threads of process l // threads; collectives involve the master threads."""
    sec = Alog.sec
    n = trace.nprocs
    masters = list(range(0, n, threads))
    stacks = {l: [] for l in range(n)}              # (region, enter_us)
    queues = collections.defaultdict(list)          # (src, dest) -> [send records], oldest first
    last_time = {}
    incl = collections.defaultdict(float)
    excl = collections.defaultdict(float)
    count = collections.Counter()
    late_total = 0.0
    late = []
    ooo_receives = 0
    ooo_reports = 0
    ooo = []
    bytes_received = [0] * n
    coll_enter = {}
    collectives = []
    imbalance_total = 0.0
    imbalance = []
    problems = []
    prev = None
    for pos, (kind, loc, t, a, b, c) in enumerate(trace.events, 1):
        if prev is not None and t < prev:
            problems.append("time decreases at %d" % pos)
        prev = t
        if loc in last_time and t <= last_time[loc]:
            problems.append("time not strictly increasing on loc %d at %d" % (loc, pos))
        last_time[loc] = t
        stack = stacks[loc]
        if kind == "enter":
            stack.append((a, t))
            if a in ("MPI_Allreduce", "MPI_Barrier"):
                assert loc not in coll_enter
                assert loc in masters
                coll_enter[loc] = (a, t)
                if len(coll_enter) == len(masters):
                    latest = max(te for _, te in coll_enter.values())
                    waits = [sec(latest) - sec(coll_enter[l][1]) for l in masters]
                    for w in waits:
                        imbalance_total += w
                    imbalance.append({"index": len(imbalance), "region": coll_enter[0][0],
                                      "enter_max": sec(latest), "waits": waits})
                    collectives.append(latest)
                    coll_enter = {}
        elif kind == "exit":
            if not stack or stack[-1][0] != a:
                problems.append("bad exit at %d" % pos)
                continue
            region, enter = stack.pop()
            diff = sec(t) - sec(enter)                       # seed 004 section 9
            incl[loc, region] += diff
            excl[loc, region] += diff
            count[loc, region] += 1
            if stack:
                excl[loc, stack[-1][0]] -= diff
        elif kind == "send":
            enclosing = stack[-1] if stack else (None, None)
            queues[loc, a].append({"pos": pos, "tag": b, "time": t, "len": c,
                                   "region": enclosing[0], "enter": enclosing[1]})
        elif kind == "recv":
            queue = queues[a, loc]
            match = next((s for s in queue if s["tag"] == b), None)
            if match is None:
                problems.append("recv without send at %d" % pos)
                continue
            queue.remove(match)
            if not match["time"] < t:
                problems.append("recv not after its send at %d" % pos)
            if match["len"] != c:
                problems.append("length differs at %d" % pos)
            bytes_received[loc] += c
            # seed 004 section 8: queue(src, loc) after the recv, older than sendptr
            older = [s for s in queue if s["pos"] < match["pos"]]
            ooo_reports += len(older)
            if older:
                ooo_receives += 1
                ooo.append({"src": a, "dest": loc, "tags": [older[0]["tag"], b],
                            "time": sec(t)})
            # seed 004 section 7
            recv_start = stack[-1] if stack else (None, None)
            if recv_start[0] == "MPI_Recv" and match["region"] == "MPI_Send":
                wasted = sec(match["enter"]) - sec(recv_start[1])
                if wasted > 0:
                    late_total += wasted
                    late.append({"src": a, "dest": loc, "tag": b,
                                 "send_enter": sec(match["enter"]),
                                 "recv_enter": sec(recv_start[1]), "wait": wasted})
            if recv_start[0] != "MPI_Recv" or match["region"] != "MPI_Send":
                problems.append("message outside MPI_Send/MPI_Recv at %d" % pos)
    for l, stack in stacks.items():
        if stack:
            problems.append("open regions on loc %d at the end" % l)
    for key, queue in queues.items():
        if queue:
            problems.append("unreceived messages %r" % (key,))
    region_time = {}
    for (loc, region), k in count.items():
        region_time.setdefault(str(loc), {})[region] = {
            "incl": incl[loc, region], "excl": excl[loc, region], "count": k}
    return {
        "problems": problems,
        "late_sender_wait_total": late_total,
        "late_senders": late,
        "out_of_order_count": ooo_receives,
        "out_of_order_reports": ooo_reports,
        "out_of_order": ooo,
        "bytes_received_per_location": bytes_received,
        "region_time": region_time,
        "imbalance_wait_total": imbalance_total,
        "imbalance": imbalance,
        "collectives": len(collectives),
        "messages": sum(1 for e in trace.events if e[0] == "send"),
    }


def gen(tmp_path, name="t.alog", **kwargs):
    path = str(tmp_path / name)
    truth = generate(path, **kwargs)
    return path, truth


# ------------------------------------------------------------------ reproducibility
def test_same_seed_same_bytes_different_seed_different(tmp_path):
    a, _ = gen(tmp_path, "a.alog", events=5000, seed=11)
    b, _ = gen(tmp_path, "b.alog", events=5000, seed=11)
    c, _ = gen(tmp_path, "c.alog", events=5000, seed=12)
    read = lambda p: open(p, "rb").read()
    assert read(a) == read(b)
    assert read(a + ".truth.json") == read(b + ".truth.json")
    assert read(a) != read(c)


def test_known_output_is_stable(tmp_path):
    """The generator's randomness is its own (no std:: distributions): the first records of a
    small trace are pinned, so a change of platform or compiler cannot change them."""
    path, truth = gen(tmp_path, events=0, seed=1)
    lines = open(path).read().splitlines()
    assert lines[0] == "-3 0 0 4 0 0"
    assert lines[1] == "-13 0 1 2 0 0 gray:solid main"
    assert "-15 3 0 0 0 0 rank 3" in lines
    # No rounds: per process main, MPI_Init and MPI_Finalize, entered and left.
    assert truth["events"] == 4 * 6 and truth["rounds"] == 0
    path, truth = gen(tmp_path, "r.alog", events=2000, seed=1)
    trace = Alog(path)
    assert [e[:3] for e in trace.events[:4]] == [
        ("enter", 2, 1000), ("enter", 0, 1001), ("enter", 1, 1002), ("enter", 0, 1003)]
    # Update this digest only when the program model is changed on purpose.
    with open(path, "rb") as f:
        assert hashlib.sha256(f.read()).hexdigest() == (
            "4b8b00c77228a082a04277aee974c5c35e2c1600e30e12f1e6e5513a138c7b7d")


# ------------------------------------------------------------------ trace invariants
@pytest.mark.parametrize("options", [
    dict(),
    dict(locations=2),
    dict(locations=7, pattern="neighbors", seed=5),
    dict(locations=2, pattern="neighbors", out_of_order_rate=0.5, seed=9),
    dict(locations=5, late_sender_rate=0.5, imbalance_rate=0.5, max_kernels=1, seed=3),
    dict(locations=3, msg_bytes=0, jitter=0.0, barrier_every=1, seed=4),
])
def test_trace_is_well_formed_and_truth_matches(tmp_path, options):
    options.setdefault("events", 20000)
    path, truth = gen(tmp_path, **options)
    trace = Alog(path)
    n = options.get("locations", 4)
    assert trace.nprocs == n == truth["locations"]
    assert trace.names == {l: "rank %d" % l for l in range(n)}
    assert trace.regions == truth["regions"]
    assert len(trace.events) == truth["events"]
    assert truth["events"] >= options["events"]
    got = analyse(trace)
    assert got["problems"] == []

    # main spans the whole run on every location
    for l in range(n):
        mine = [e for e in trace.events if e[1] == l]
        assert mine[0][:1] + mine[0][3:4] == ("enter", "main")
        assert mine[-1][:1] + mine[-1][3:4] == ("exit", "main")

    # collectives: all locations exit together, after the last one entered
    exits = collections.defaultdict(list)
    for kind, loc, t, region, _, _ in trace.events:
        if kind == "exit" and region in ("MPI_Allreduce", "MPI_Barrier"):
            exits[loc].append(t)
    assert len({len(v) for v in exits.values()}) == 1
    for times in zip(*(exits[l] for l in range(n))):
        assert len(set(times)) == 1

    # the ground truth, recomputed from the file
    assert truth["messages"] == got["messages"]
    assert truth["late_sender_wait_total"] == got["late_sender_wait_total"]
    assert truth["late_sender_count"] == len(got["late_senders"])
    assert truth["late_senders"] == got["late_senders"][:truth["list_limit"]]
    assert truth["out_of_order_count"] == got["out_of_order_count"]
    assert truth["out_of_order_reports"] == got["out_of_order_reports"]
    assert truth["out_of_order"] == got["out_of_order"][:truth["list_limit"]]
    assert truth["bytes_received_per_location"] == got["bytes_received_per_location"]
    assert sum(truth["bytes_sent_per_location"]) == sum(got["bytes_received_per_location"])
    assert truth["region_time"] == got["region_time"]
    assert truth["imbalance_wait_total"] == got["imbalance_wait_total"]
    assert truth["imbalance"] == got["imbalance"][:truth["list_limit"]]
    assert truth["collectives"] == got["collectives"] == truth["rounds"]
    assert truth["start"] == Alog.sec(trace.events[0][2])
    assert truth["end"] == Alog.sec(trace.events[-1][2])
    assert not any(truth["truncated"].values())

    # the injected out-of-order pairs are exactly what the section-8 script finds
    assert truth["out_of_order_count"] == truth["injected"]["out_of_order_pairs"]
    assert all(x["tags"] == [200, 201] for x in truth["out_of_order"])


# ------------------------------------------------------------------ threads and ranks
@pytest.mark.parametrize("options", [
    dict(locations=3, threads=2),
    dict(locations=2, threads=4, pattern="neighbors", late_sender_rate=0.5, seed=6),
    dict(locations=5, threads=3, imbalance_rate=0.5, out_of_order_rate=0.3, seed=2),
])
def test_threads_are_well_formed_and_truth_matches(tmp_path, options):
    """--threads T: T locations per process, process-major; the master forks a team per
    compute phase, the other threads run kernels inside `parallel`, the master joins after
    the last of them left; everything MPI stays on the masters."""
    path, truth = gen(tmp_path, events=20000, **options)
    trace = Alog(path)
    n, t = options["locations"], options["threads"]
    assert trace.nprocs == n * t == truth["location_count"]
    assert truth["locations"] == n and truth["threads"] == t
    assert trace.names[0] == "rank 0" and trace.names[1] == "rank 0 thread 1"
    assert trace.names[t] == "rank 1"
    assert trace.regions == truth["regions"] and trace.regions[-1] == "parallel"
    got = analyse(trace, threads=t)
    assert got["problems"] == []
    for key in ("late_sender_wait_total", "out_of_order_count", "out_of_order_reports",
                "bytes_received_per_location", "region_time", "imbalance_wait_total",
                "collectives", "messages"):
        assert truth[key] == got[key], key
    assert truth["imbalance"] == got["imbalance"][:truth["list_limit"]]
    assert all(len(x["waits"]) == n for x in truth["imbalance"])

    masters = set(range(0, n * t, t))
    forks, joins = collections.Counter(), collections.Counter()
    team_left = {}             # worker -> time it last left `parallel`
    open_fork = {}
    for kind, loc, time, a, _, _ in trace.events:
        if loc not in masters:
            assert kind in ("enter", "exit") and a in ("parallel", "kernel"), (kind, a)
            if kind == "exit" and a == "parallel":
                team_left[loc] = time
        elif kind == "fork":
            assert a == t and loc not in open_fork
            open_fork[loc] = time
            forks[loc] += 1
        elif kind == "join":
            assert a == t
            fork_time = open_fork.pop(loc)
            for w in range(loc + 1, loc + t):
                assert fork_time < team_left[w] < time
            joins[loc] += 1
        if kind in ("send", "recv"):
            assert loc in masters and a in masters
    assert forks == joins and set(forks) == masters
    assert all(k == truth["rounds"] for k in forks.values())


def test_one_thread_and_permuted_ranks_leave_alog_unchanged(tmp_path):
    """threads=1 is the default's output byte for byte; permute_ranks changes nothing ALOG
    shows (only OTF2 has ranks), and the truth only records the permutation."""
    plain, t0 = gen(tmp_path, "p.alog", events=5000, seed=3)
    one, t1 = gen(tmp_path, "o.alog", events=5000, seed=3, threads=1)
    perm, t2 = gen(tmp_path, "q.alog", events=5000, seed=3, permute_ranks=True)
    read = lambda p: open(p, "rb").read()
    assert read(plain) == read(one) == read(perm)
    assert read(plain + ".truth.json") == read(one + ".truth.json")
    assert sorted(t2["rank_process"]) == list(range(4)) and t2["rank_process"] != [0, 1, 2, 3]
    assert {k: v for k, v in t2.items() if k != "rank_process"} == t0


def test_exclusive_time_is_inclusive_minus_direct_children(tmp_path):
    path, truth = gen(tmp_path, events=3000, seed=2)
    rt = truth["region_time"]["1"]
    children = {"main": ["MPI_Init", "step", "MPI_Allreduce", "MPI_Barrier", "MPI_Finalize"],
                "step": ["compute", "exchange", "update"], "compute": ["kernel"],
                "exchange": ["MPI_Send", "MPI_Recv"]}
    for parent, kids in children.items():
        expected = rt[parent]["incl"] - sum(rt[k]["incl"] for k in kids if k in rt)
        assert rt[parent]["excl"] == pytest.approx(expected, abs=1e-9)
    assert rt["main"]["count"] == 1
    assert rt["kernel"]["excl"] == rt["kernel"]["incl"]


def test_injection_switches(tmp_path):
    _, none = gen(tmp_path, "n.alog", events=20000, late_sender_rate=0.0,
                  out_of_order_rate=0.0, imbalance_rate=0.0, jitter=0.0)
    assert none["out_of_order_count"] == 0 and none["out_of_order"] == []
    assert none["late_sender_count"] == 0 and none["late_sender_wait_total"] == 0.0
    assert none["injected"] == {"late_senders": 0, "out_of_order_pairs": 0, "imbalanced": 0}
    _, lots = gen(tmp_path, "l.alog", events=20000, late_sender_rate=0.5, late_sender_us=2000,
                  out_of_order_rate=0.3, imbalance_rate=0.5, imbalance_us=5000)
    assert lots["late_sender_count"] >= lots["injected"]["late_senders"] * 0.9
    assert lots["late_sender_wait_total"] > 0.5 * lots["injected"]["late_senders"] * 2000e-6
    assert lots["out_of_order_count"] == lots["injected"]["out_of_order_pairs"] > 0
    assert lots["imbalance_wait_total"] > 10 * none["imbalance_wait_total"]


def test_rollover_decodes_to_the_same_times(tmp_path):
    plain, t1 = gen(tmp_path, "p.alog", events=20000, seed=8)
    rolled, t2 = gen(tmp_path, "r.alog", events=20000, seed=8, rollover=10000)
    a, b = Alog(plain), Alog(rolled)
    assert a.rollover is None and b.rollover == 10000
    assert len(b.cycles) > 10
    assert a.events == b.events
    assert t2["rollover"] == 10000 and t1["rollover"] is None
    for key in t1:
        if key != "rollover":
            assert t1[key] == t2[key], key
    with open(rolled) as f:
        head = [next(f) for _ in range(3)]
    assert head[1].split() == ["-11", "0", "0", "0", "0", "10000"]


def test_truth_lists_are_capped_but_counts_complete(tmp_path):
    path, truth = gen(tmp_path, events=30000, truth_limit=5, late_sender_rate=0.5,
                      out_of_order_rate=0.5)
    got = analyse(Alog(path))
    assert len(truth["late_senders"]) == 5 and truth["truncated"]["late_senders"]
    assert truth["late_senders"] == got["late_senders"][:5]
    assert truth["late_sender_count"] == len(got["late_senders"])
    assert len(truth["imbalance"]) == 5 and truth["truncated"]["imbalance"]
    assert truth["imbalance_wait_total"] == got["imbalance_wait_total"]
    assert truth["out_of_order_count"] == got["out_of_order_count"] > 5


def test_event_target(tmp_path):
    _, t0 = gen(tmp_path, "z.alog", events=0)
    # Per process main, MPI_Init and MPI_Finalize, entered and left.
    assert t0["events"] == 24 and t0["rounds"] == 0 and t0["messages"] == 0
    _, t1 = gen(tmp_path, "o.alog", events=24)   # the program frame reaches it already
    assert t1["rounds"] == 0 and t1["events"] == 24
    _, t1 = gen(tmp_path, "o.alog", events=25)
    assert t1["rounds"] == 1
    _, t = gen(tmp_path, "k.alog", events=10000)
    assert 10000 <= t["events"] < 10000 + 200


def test_truth_path_and_pathlike(tmp_path):
    truth_path = tmp_path / "sub.json"
    truth = generate(tmp_path / "x.alog", events=500, truth_path=truth_path)
    with open(truth_path) as f:
        assert json.load(f) == truth
    assert truth["seed"] == 1 and truth["format"] == "alog"
    assert set(truth["options"]) == set(INEFFICIENCY_OPTIONS)


# ------------------------------------------------------------------ bad options
@pytest.mark.parametrize("options", [
    dict(locations=1), dict(locations=0), dict(locations=-3), dict(events=-1),
    dict(format="nope"), dict(rollover=0), dict(rollover=-5), dict(threads=0),
    dict(threads=257), dict(threads="2"), dict(permute_ranks=1), dict(locations=40000, threads=2),
    dict(seed=-1), dict(late_sender_rate=1.5), dict(out_of_order_rate=-0.1),
    dict(pattern="star"), dict(latency_us=0), dict(max_kernels=0), dict(no_such_option=1),
    dict(locations="4"), dict(events=1.5), dict(jitter="x"),
])
def test_bad_options_raise_earl_error(tmp_path, options):
    path = tmp_path / "bad.alog"
    with pytest.raises(earl.EarlError):
        generate(path, **options)
    assert not path.exists()


def test_unknown_format_message_is_clear(tmp_path):
    with pytest.raises(earl.EarlError, match="'nope'.*supported: alog"):
        generate(tmp_path / "t.alog", format="nope")


def test_unwritable_output_raises_and_leaves_nothing(tmp_path):
    with pytest.raises(earl.EarlError, match="cannot write"):
        generate(tmp_path / "no" / "such" / "dir.alog", events=100)
    # truth path unwritable: the trace is removed again
    with pytest.raises(earl.EarlError, match="cannot write '.*missing/t.json'"):
        generate(tmp_path / "t.alog", events=100, truth_path=tmp_path / "missing" / "t.json")
    assert not (tmp_path / "t.alog").exists()


# ------------------------------------------------------------------ command line
def test_cli_subcommand(tmp_path, capsys):
    out = tmp_path / "cli.alog"
    assert earl_main(["gen", str(out), "--locations", "3", "--events", "2000",
                      "--seed", "4", "--rollover", "1000000",
                      "--late-sender-rate", "0.3", "--pattern", "neighbors"]) == 0
    assert "wrote" in capsys.readouterr().out
    truth = json.load(open(str(out) + ".truth.json"))
    assert truth["locations"] == 3 and truth["rollover"] == 1000000
    assert truth["options"]["late_sender_rate"] == 0.3
    assert truth["options"]["pattern"] == "neighbors"
    assert truth == generate(tmp_path / "api.alog", locations=3, events=2000, seed=4,
                             rollover=1000000, late_sender_rate=0.3, pattern="neighbors")

    assert earl_main(["gen", str(tmp_path / "bad.alog"), "--format", "nope"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("earl: ") and "'nope'" in err and "earl gen:" not in err


def test_defaults_cover_every_option():
    d = defaults()
    assert d["locations"] == 4 and d["events"] == 10000 and d["seed"] == 1
    assert d["format"] == "alog" and d["rollover"] is None
    assert d["threads"] == 1 and d["permute_ranks"] is False
    for name in ("late_sender_rate", "out_of_order_rate", "imbalance_rate"):
        assert name in INEFFICIENCY_OPTIONS


# ------------------------------------------------------------------ the option table
# How the ground truth records each option of the run; the program model's options are
# recorded under "options". A new option fails test_every_option_is_known_here until it
# is added here, so its round trip is tested.
RUN_OPTIONS_IN_TRUTH = {
    "locations": lambda t: t["locations"],
    "events": lambda t: t["target_events"],
    "seed": lambda t: t["seed"],
    "format": lambda t: t["format"],
    "rollover": lambda t: t["rollover"],
    "threads": lambda t: t.get("threads", 1),
    "permute_ranks": lambda t: "rank_process" in t,
    "byte_order": lambda t: t.get("byte_order", "little"),
}
OPTIONS = {row["name"]: row for row in options()}


def recorded(truth, name):
    if OPTIONS[name]["group"] == "model":
        return truth["options"][name]
    return RUN_OPTIONS_IN_TRUTH[name](truth)


def other_value(row):
    """A valid value of the option that is not its default."""
    if row["choices"]:
        return next(c for c in row["choices"] if c != row["default"])
    if row["type"] == "bool":
        return not row["default"]
    if row["name"] == "format":
        return "otf2"
    if row["name"] == "collectives":
        return "bcast,scan"
    low = row["min"] if row["min"] is not None else 0
    value = type(row["default"] or 0)(low) if row["type"] == "int" else float(low)
    if value == row["default"]:
        value += 1
    return int(value) if row["type"] == "int" else value


def test_every_option_is_known_here():
    assert set(OPTIONS) == set(RUN_OPTIONS_IN_TRUTH) | set(INEFFICIENCY_OPTIONS)
    assert all(OPTIONS[n]["group"] == "run" for n in RUN_OPTIONS_IN_TRUTH)


def test_gen_help_lists_every_option_with_its_help_range_and_default(capsys):
    assert earl_main(["gen", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    for name, row in OPTIONS.items():
        assert "--" + name.replace("_", "-") in text, name
        assert " ".join(row["help"].split()) in text, name
        if row["type"] not in ("bool", "str"):
            assert "default: %s" % ("none" if row["default"] is None else row["default"]) in text
        if row["min"] is not None and row["max"] is not None:
            shown = "2^40" if row["max"] == 2 ** 40 else "%g" % row["max"]
            assert "%g..%s" % (row["min"], shown) in text, name


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_option_round_trips_through_generate_and_the_command_line(tmp_path, name):
    row = OPTIONS[name]
    value = other_value(row)
    suffix = ".otf2" if name == "format" else ".alog"
    if name == "format" and value not in _core.generator_formats():
        pytest.skip("this EARL was built without an OTF2 writer")
    given = {"events": 2000, name: value}
    if name == "byte_order":
        given["format"] = "epilog"  # an EPILOG notion
    api = generate(tmp_path / ("api" + suffix), **given)
    assert recorded(api, name) == value
    if name not in ("events", "format"):  # both are given below, not left to their default
        plain = generate(tmp_path / ("d" + suffix), events=2000)
        assert recorded(plain, name) == row["default"] != value
    argv = ["gen", str(tmp_path / ("cli" + suffix)), "-q"]
    for key, v in given.items():
        flag = "--" + key.replace("_", "-")
        argv += [flag] if isinstance(v, bool) else [flag, str(v)]
    assert earl_main(argv) == 0
    with open(str(tmp_path / ("cli" + suffix)) + ".truth.json") as f:
        assert json.load(f) == api


def test_out_of_range_values_name_the_option_and_range(tmp_path):
    for name, row in OPTIONS.items():
        if row["max"] is not None:
            bad = row["max"] + (1 if row["type"] == "int" else 0.5)
            bad = int(bad) if row["type"] == "int" else bad
            with pytest.raises(earl.EarlError, match=name + " must be in"):
                generate(tmp_path / "r.alog", **{name: bad})
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------ the truth as data
class Refused(Exception):
    pass


@pytest.mark.parametrize("suffix", [".alog", ".otf2"])
def test_truth_goes_to_keep_and_its_exception_removes_the_trace(tmp_path, suffix):
    if suffix == ".otf2" and "otf2" not in _core.generator_formats():
        pytest.skip("this EARL was built without an OTF2 writer")
    path = tmp_path / ("t" + suffix)
    seen = []
    returned = _core.generate(str(path), {"events": 500, "format": suffix[1:]}, seen.append)
    assert seen == [returned] and seen[0] is returned and returned["events"] >= 500
    assert path.exists()
    refused = Refused("no")

    def refuse(truth):
        assert truth["events"] == returned["events"]
        raise refused

    with pytest.raises(Refused) as caught:
        _core.generate(str(tmp_path / ("u" + suffix)), {"events": 500, "format": suffix[1:]},
                       refuse)
    assert caught.value is refused
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in [path] + (
        [path.with_suffix(".def"), path.with_suffix("")] if suffix == ".otf2" else []))


def test_truth_file_is_the_returned_dict_as_json(tmp_path):
    truth = generate(tmp_path / "t.alog", events=3000, threads=2, permute_ranks=True)
    with open(str(tmp_path / "t.alog") + ".truth.json", encoding="utf-8") as f:
        assert json.load(f) == truth
    assert list(truth)[:5] == ["generator", "version", "format", "seed", "locations"]
    assert list(truth)[-1] == "region_time" and truth["time_unit"] == "s"


def test_truth_path_problems_name_the_file_and_leave_nothing(tmp_path):
    directory = tmp_path / "a directory"
    directory.mkdir()
    with pytest.raises(earl.EarlError, match="cannot write '.*a directory'"):
        generate(tmp_path / "t.alog", events=100, truth_path=directory)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a directory"]
    with pytest.raises(earl.EarlError, match="must differ"):
        generate(tmp_path / "t.alog", events=100, truth_path=tmp_path / "t.alog")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a directory"]


# ------------------------------------------------------------------ scale
# Peak memory a 10^6-event run may add, per format (the ALOG file is about 20 MB; the OTF2
# writer keeps up to four 1 MiB chunks per location in memory before flushing).
MILLION_EVENTS_MEMORY_KB = {"alog": 32 * 1024, "otf2": 48 * 1024}


def written_size(path):
    """Bytes of a trace: the ALOG file, or an OTF2 anchor with its .def and directory."""
    if path.suffix != ".otf2":
        return path.stat().st_size
    parts = [path, path.with_suffix(".def"), *path.with_suffix("").iterdir()]
    return sum(p.stat().st_size for p in parts)


@pytest.mark.parametrize("fmt", sorted(MILLION_EVENTS_MEMORY_KB))
def test_million_events_with_bounded_memory(tmp_path, fmt):
    """10^6 events in a subprocess: the peak RSS grows by far less than the trace's size
    (no timing assertions; the test prints the time for information)."""
    if fmt not in _core.generator_formats():
        pytest.skip(f"this EARL was built without a {fmt} writer")
    # VmHWM, not ru_maxrss: Linux carries ru_maxrss across exec, so the child would report
    # the peak of the pytest process that started it (large after the Lua and Tcl tests).
    script = textwrap.dedent("""
        import sys, time
        from earl.generate import generate

        def peak_kb():
            with open("/proc/self/status") as status:
                return next(int(l.split()[1]) for l in status if l.startswith("VmHWM:"))

        before = peak_kb()
        t = time.perf_counter()
        truth = generate(sys.argv[1], events=10**6, seed=5)
        took = time.perf_counter() - t
        after = peak_kb()
        print(truth["events"], before, after, took)
    """)
    out = tmp_path / f"big.{fmt}"
    result = subprocess.run([sys.executable, "-c", script, str(out)], capture_output=True,
                            text=True, check=True)
    events, before, after, took = result.stdout.split()
    grown_kb = int(after) - int(before)
    size = written_size(out)
    print("%s, 10^6 events: %.2f s, %.1f MB, peak RSS %d kB (+%d kB)"
          % (fmt, float(took), size / 1e6, int(after), grown_kb))
    assert int(events) >= 10**6
    assert size > 10 * 2**20
    assert grown_kb < MILLION_EVENTS_MEMORY_KB[fmt]
    assert int(after) < 256 * 1024


# ------------------------------------------------------------------ with the EARL reader
def test_event_trace_opens_generated_trace(tmp_path):
    if not hasattr(earl, "EventTrace"):
        pytest.skip("earl.EventTrace is not built yet (the ALOG reader part has not landed)")
    for kwargs in (dict(), dict(rollover=50000, pattern="neighbors", locations=5)):
        path, truth = gen(tmp_path, "et%d.alog" % len(kwargs), events=20000, seed=3, **kwargs)
        with earl.EventTrace(path) as t:
            assert len(t) == truth["events"]
            assert t.nrlocs() == truth["locations"]
            assert t.regions() == truth["regions"]
            problems = t.problems()
            assert all(v["count"] == 0 for v in problems.values()), problems
            assert scripts_through_event_trace(t) == (
                truth["late_sender_wait_total"], truth["out_of_order_reports"],
                truth["region_time"], truth["bytes_received_per_location"])


def scripts_through_event_trace(e):
    """Seed 004's example scripts (sections 7, 8, 9) on an EventTrace, plus received bytes."""
    sum_wasted = 0.0
    reports = 0
    incl, excl, count = {}, {}, {}
    received = [0] * e.nrlocs()
    while e.next():
        curr = e.event()
        if curr["type"] == "recv":
            received[curr["loc"]] += curr["len"]
            recv_start = e.event(curr["enterptr"])                  # section 7
            if recv_start["region"] == "MPI_Recv":
                send = e.event(curr["sendptr"])
                send_start = e.event(send["enterptr"])
                if send_start["region"] == "MPI_Send":
                    wasted = send_start["time"] - recv_start["time"]
                    if wasted > 0:
                        sum_wasted += wasted
            for send in e.queue(curr["src"], curr["loc"]):          # section 8
                if send < curr["sendptr"]:
                    reports += 1
        elif curr["type"] == "exit":                                 # section 9
            enter = e.event(curr["enterptr"])
            diff = curr["time"] - enter["time"]
            index = (str(curr["loc"]), curr["region"])
            incl[index] = incl.get(index, 0.0) + diff
            excl[index] = excl.get(index, 0.0) + diff
            count[index] = count.get(index, 0) + 1
            if enter["enterptr"]:
                encl = e.event(enter["enterptr"])
                key = (str(curr["loc"]), encl["region"])
                excl[key] = excl.get(key, 0.0) - diff
    region_time = {}
    for (loc, region), k in count.items():
        region_time.setdefault(loc, {})[region] = {
            "incl": incl[loc, region], "excl": excl[loc, region], "count": k}
    return sum_wasted, reports, region_time, received


def test_ctrl_c_stops_generation_and_removes_partial_output(tmp_path):
    """A SIGINT during a long generation raises KeyboardInterrupt in Python and leaves no
    half-written trace or truth behind."""
    # Ctrl-C is pressed from the generator's own progress report, so it always lands while
    # the generation runs (at 10^9 events, for many minutes).
    script = textwrap.dedent("""
        import glob, os, signal, sys
        from earl.generate import generate
        out = sys.argv[1]
        pressed = []

        def written():  # the trace is staged beside its final name until it is whole
            return sum(os.path.getsize(f) for f in glob.glob(glob.escape(out) + ".earl-partial-*"))

        def ctrl_c_once_writing(fraction):
            if not pressed and written() > 0:
                pressed.append(fraction)
                os.kill(os.getpid(), signal.SIGINT)

        try:
            generate(out, events=10**9, seed=1, progress=ctrl_c_once_writing)
            print("finished")
        except KeyboardInterrupt:
            print("interrupted")
        print("pressed while writing", 0 < pressed[0] < 1)
    """)
    out = tmp_path / "huge.alog"
    done = subprocess.run([sys.executable, "-c", script, str(out)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["interrupted", "pressed while writing True"]
    assert list(tmp_path.iterdir()) == []


def test_progress_of_a_generation_and_an_exception_it_raises(tmp_path):
    seen = []
    truth = generate(tmp_path / "t.alog", events=400_000, seed=2, progress=seen.append)
    assert seen and seen == sorted(seen) and 0 < seen[0] and seen[-1] <= 1
    # Reported every 2^16 events: the last report lies within one step of the end.
    assert seen[-1] * 400_000 > truth["events"] - 2 * 65536

    class Stop(Exception):
        pass

    def stop(fraction):
        raise Stop(fraction)

    with pytest.raises(Stop) as raised:
        generate(tmp_path / "u.otf2" if "otf2" in _core.generator_formats() else tmp_path / "u.alog",
                 events=400_000, progress=stop)
    assert 0 < raised.value.args[0] < 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.alog", "t.alog.truth.json"]
