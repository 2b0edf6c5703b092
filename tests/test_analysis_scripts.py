"""The reference scripts of scripts/patterns (Python and Lua, the readable specification)
and the native engine compute the same wait states, cell by cell (pattern, call path,
location) with the same instance counts, on many generated traces: ALOG and OTF2,
permuted ranks, threads, both point-to-point patterns, several seeds, RMA fence and lock
epochs and non-blocking exchanges, every collective kind with late receivers, and a hand-written
OTF2 archive with collectives on several communicators."""
import random

import pytest

import earl
from script_checks import ROOT, have_otf2

PATTERNS = ROOT / "scripts" / "patterns"
CASES = [("alog", dict(seed=s, pattern=p, locations=n))
         for s, p, n in ((1, "ring", 3), (2, "neighbors", 4), (3, "ring", 5))]
# The generator's one-sided and non-blocking shapes: fences (Wait at Fence/Create/Free),
# MPI_Wait/MPI_Waitall late senders; locks here on ALOG (OTF2 lock epochs: the rma tests
# at the end).
CASES += [("alog", dict(seed=6, locations=4, rma_every=2, nonblocking=True, lock_every=3))]
# Every collective kind ending the rounds (ALOG: rooted ones without their root, skipped by
# both; OTF2 also with permuted ranks: Early Scan takes the communicator's rank order,
# which the scripts read with ranks(com)).
COLLECTIVES = "allreduce,bcast,reduce,gather,scatter,allgather,alltoall,scan,exscan,barrier"
# With injected late receivers (MPI_Ssend) as well.
CASES += [("alog", dict(seed=9, locations=4, collectives=COLLECTIVES, late_receiver_rate=0.4))]
if have_otf2():
    CASES += [("otf2", dict(seed=10, locations=4, threads=2, collectives=COLLECTIVES,
                            late_receiver_rate=0.4)),
              ("otf2", dict(seed=14, locations=5, permute_ranks=True, collectives=COLLECTIVES))]
if have_otf2():
    CASES += [("otf2", dict(seed=4, permute_ranks=True, locations=4)),
              ("otf2", dict(seed=5, threads=2, pattern="neighbors", locations=3)),
              ("otf2", dict(seed=7, permute_ranks=True, locations=4, rma_every=2, nonblocking=True))]


# Calls completing non-blocking sends: the engine finds late receivers there through OTF2's
# request ids, which the model does not show to scripts, so late_receiver.py specifies the
# blocking sends only (its docstring); those cells are checked against the generator's truth
# and hand-worked archives instead (test_gen_scalasca_truth, tests/analysis_cases).
COMPLETING_SENDS = ("MPI_Wait", "MPI_Waitall", "MPI_Waitany", "MPI_Waitsome")


def beyond_the_scripts(metric, callpath):
    return metric == "mpi_latereceiver" and callpath.rsplit("/", 1)[-1] in COMPLETING_SENDS


def cells(report):
    out = {}
    for metric in report.patterns():
        for cp, loc, v in report.cells(metric):
            if v > 0 and not beyond_the_scripts(metric, report.callpaths[cp]):
                out[metric, report.callpaths[cp], loc] = v
    return out


def same(engine, scripts):
    a, b = cells(engine), cells(scripts)
    assert a.keys() == b.keys()
    for key in a:
        assert a[key] == pytest.approx(b[key], abs=1e-9), key
    for metric in set(engine.patterns()) - left_out(engine):
        assert engine.instances(metric) == scripts.instances(metric), metric


def left_out(engine):
    """Patterns whose instance counts include some beyond the scripts."""
    return {metric for metric in engine.patterns() for cp, _, v in engine.cells(metric)
            if v > 0 and beyond_the_scripts(metric, engine.callpaths[cp])}


@pytest.fixture(scope="module")
def traces(tmp_path_factory):
    from earl.generate import generate
    folder = tmp_path_factory.mktemp("agree")
    paths = []
    for i, (fmt, options) in enumerate(CASES):
        path = folder / f"t{i}.{fmt}"
        generate(path, format=fmt, events=2500, late_sender_rate=0.4, out_of_order_rate=0.3,
                 imbalance_rate=0.3, barrier_every=2, latency_us=1, bandwidth=20, **options)
        paths.append(path)
    if have_otf2():
        for seed in (1, 2):
            paths.append(random_collectives(folder, seed))
    return paths


def random_collectives(folder, seed):
    """Collectives on three communicators (world with permuted ranks, two halves), rooted
    and not, with random begin/end times, plus blocking ping-pongs: every collective pattern
    and late sender/receiver."""
    from otf2.enums import CollectiveOp, Paradigm
    from otf2_archives import ArchiveWriter
    rng = random.Random(seed)
    aw = ArchiveWriter(folder, f"coll{seed}", resolution=10 ** 6)
    locs = []
    for r in range(4):
        locs += aw.process(f"MPI Rank {r}")
    aw.comm_locations(locs)
    world_order = [2, 0, 3, 1]
    comms = [(aw.comm("world", [locs[i] for i in world_order]), world_order),
             (aw.comm("low", [locs[1], locs[0]]), [1, 0]), (aw.comm("high", [locs[2], locs[3]]), [2, 3])]
    main, solve = aw.region("main"), aw.region("solve")
    ops = {"MPI_Bcast": CollectiveOp.BCAST, "MPI_Reduce": CollectiveOp.REDUCE,
           "MPI_Allreduce": CollectiveOp.ALLREDUCE, "MPI_Barrier": CollectiveOp.BARRIER,
           "MPI_Gather": CollectiveOp.GATHER, "MPI_Scatter": CollectiveOp.SCATTER,
           "MPI_Allgather": CollectiveOp.ALLGATHER}
    regions = {name: aw.region(name, Paradigm.MPI) for name in list(ops) + ["MPI_Send", "MPI_Recv"]}
    e = [aw.ev(l) for l in locs]
    now = 1000
    for l in range(4):
        e[l].enter(now, main)
    for step in range(30):
        now += 100
        comm, members = comms[rng.randrange(3)]
        name = rng.choice(list(ops))
        root = rng.randrange(len(members))
        begins = {loc: now + rng.randrange(60) for loc in members}
        latest = max(begins.values())
        for rank, loc in enumerate(members):
            end = latest + 1 + rng.randrange(20) if name in ("MPI_Barrier", "MPI_Allreduce", "MPI_Allgather") \
                else begins[loc] + 1 + rng.randrange(80)
            # the operation's begin/end records lie inside the call (the times both judge)
            e[loc].enter(begins[loc], solve)
            e[loc].enter(begins[loc] + 1, regions[name])
            e[loc].mpi_collective_begin(begins[loc] + 1 + rng.randrange(2))
            e[loc].mpi_collective_end(end + 1, ops[name], comm, root, 8, 8)
            e[loc].leave(end + 1 + rng.randrange(3), regions[name])
            e[loc].leave(end + 4, solve)
        now = latest + 200
        # a blocking exchange between two random locations (world ranks)
        a, b = rng.sample(range(4), 2)
        sa, ra = now + rng.randrange(50), now + rng.randrange(50)
        e[a].enter(sa, regions["MPI_Send"])
        e[a].mpi_send(sa + 1, world_order.index(b), comms[0][0], step, 64)
        e[a].leave(max(sa, ra) + 5, regions["MPI_Send"])
        e[b].enter(ra, regions["MPI_Recv"])
        e[b].mpi_recv(max(sa, ra) + 4, world_order.index(a), comms[0][0], step, 64)
        e[b].leave(max(sa, ra) + 6, regions["MPI_Recv"])
        now += 100
    for l in range(4):
        e[l].leave(now + 10, main)
    return aw.close()


def test_python_scripts_and_engine_agree(traces):
    for path in traces:
        engine = earl.analyze(path, progress=lambda f: None)
        scripts = earl.analyze(path, engine="scripts")
        assert any(v > 0 for v in cells(engine).values()), path
        same(engine, scripts)


def test_random_collectives_exercise_every_collective_pattern(traces):
    if not have_otf2():
        pytest.skip("no OTF2 support")
    found = set()
    for path in traces[-2:]:
        found |= {m for m, _, _ in cells(earl.analyze(path, progress=lambda f: None))}
    assert {"mpi_latebroadcast", "mpi_earlyreduce", "mpi_wait_nxn", "mpi_nxn_completion",
            "mpi_barrier_wait", "mpi_latesender", "mpi_latereceiver"} <= found


def lua_cells(path, capsys):
    """The Lua scripts' cells, their call paths under the program root the engine gives
    (the scripts name call paths without it, as the Python ones do)."""
    import earl.lua
    from earl.analysis.reference import SCRIPTS, program_roots
    with earl.EventTrace(path, progress=lambda f: None) as e:
        roots = program_roots(e)
    out = {}
    for name in SCRIPTS:
        capsys.readouterr()
        earl.lua.run(PATTERNS / f"{name}.lua", [str(path)])
        for line in capsys.readouterr().out.splitlines():
            metric, loc, rest = line.split(" ", 2)
            callpath, seconds, n = rest.rsplit(" ", 2)
            out[metric, roots.get(int(loc), "") + callpath, int(loc)] = (float(seconds), int(n))
    return out


def same_in_lua(engine, got, path):
    expected = cells(engine)
    assert {k for k, (v, _) in got.items() if v > 0} == expected.keys(), path
    for key, value in expected.items():
        assert got[key][0] == pytest.approx(value, abs=1e-8), key
    for metric in set(engine.patterns()) - left_out(engine):
        assert sum(n for (m, _, _), (_, n) in got.items() if m == metric) == engine.instances(metric), metric


def test_lua_scripts_and_engine_agree(traces, capsys):
    pytest.importorskip("lupa")
    for path in traces:
        same_in_lua(earl.analyze(path, progress=lambda f: None), lua_cells(path, capsys), path)


def test_the_command_runs_the_scripts(traces, capsys):
    from earl.cli import main
    assert main(["analyze", str(traces[0]), "--engine", "scripts", "--json"]) == 0
    import json
    out = json.loads(capsys.readouterr().out)
    engine = earl.analyze(traces[0], progress=lambda f: None)
    assert out["patterns"]["mpi_latesender"]["total"] == pytest.approx(engine.total("mpi_latesender"), abs=1e-9)
    # the communication matrix, summed from the events by the scripts' side, is the engine's
    assert [(t["src"], t["dest"], t["bytes"], t["messages"]) for t in out["traffic"]] == \
        sorted(engine.traffic())


# One-sided epochs and locks (scripts/patterns/rma.py, rma.lua): the hand-worked cases of
# tests/analysis_cases (post/start/complete/wait epochs, which the generator does not
# write, and locks; tests/test_analysis_cases.py checks their values) and generated OTF2
# traces with lock epochs and fences.
RMA_PATTERNS = {"mpi_rma_early_wait", "mpi_rma_late_complete", "mpi_rma_sync_late_post",
                "mpi_rma_comm_late_post", "mpi_rma_sync_lock_competition",
                "mpi_rma_comm_lock_competition"}


@pytest.fixture(scope="module")
def rma_traces(tmp_path_factory):
    if not have_otf2():
        pytest.skip("no OTF2 support")
    from case_trace import build_case
    from earl.generate import generate
    folder = tmp_path_factory.mktemp("rma")
    paths = [build_case(name, folder) for name in ("rma_active_target", "rma_late_post_inside_a_put",
                                                   "rma_lock_competition")]
    for seed, options in ((8, dict(permute_ranks=True)), (9, dict(threads=2, rma_every=3))):
        path = folder / f"locks{seed}.otf2"
        generate(path, format="otf2", events=2500, locations=4, seed=seed, lock_every=2,
                 lock_hold_rate=0.6, late_sender_rate=0.3, barrier_every=2, **options)
        paths.append(path)
    # seed 14: an operation of an epoch MPI_Win_complete closed would end inside a fence
    return paths + [random_rma(folder, seed) for seed in (1, 2, 14)]


def random_rma(folder, seed):
    """Random active-target epochs and lock epochs among three locations (world ranks
    permuted), on two windows: every branch of the one-sided definitions (a post inside
    MPI_Win_start, MPI_Win_complete or an MPI_Put, closing calls that name no group,
    operations on the other window, shared and exclusive locks, locks taken lazily in
    MPI_Put, MPI_Win_flush or outside MPI), and fences right after the epochs (Early Fence
    takes no operation of an epoch MPI_Win_complete closed)."""
    from otf2.enums import GroupType, LockType, Paradigm, RmaSyncLevel
    from otf2_archives import ArchiveWriter
    rng = random.Random(seed)
    aw = ArchiveWriter(folder, f"rma{seed}", resolution=10 ** 6)
    locs = []
    for r in range(3):
        locs += aw.process(f"MPI Rank {r}")
    aw.comm_locations(locs)
    order = [2, 0, 1]  # world rank -> location
    world = aw.comm("world", [locs[i] for i in order])
    windows = aw.d.rma_win("epochs", comm=world), aw.d.rma_win("locks", comm=world)
    groups, ids = {}, iter(range(1, 10 ** 6))
    names = ("main", "work", "MPI_Win_start", "MPI_Win_complete", "MPI_Win_post", "MPI_Win_wait",
             "MPI_Put", "MPI_Win_lock", "MPI_Win_unlock", "MPI_Win_flush", "MPI_Win_fence")
    regions = {n: aw.region(n, Paradigm.MPI if n.startswith("MPI_") else Paradigm.USER) for n in names}
    e = [aw.ev(l) for l in locs]
    level = RmaSyncLevel.PROCESS | RmaSyncLevel.MEMORY

    def group(members):
        if members not in groups:
            groups[members] = aw.d.group(f"group {members}", group_type=GroupType.COMM_GROUP,
                                         paradigm=Paradigm.MPI, members=[locs[m] for m in members])
        return groups[members]

    def call(l, name, begin, length, *records):
        """name from begin for length ticks; records (method, offset from begin, args...)."""
        e[l].enter(begin, regions[name])
        for method, offset, *args in records:
            getattr(e[l], method)(begin + min(offset, length), *args)
        e[l].leave(begin + length, regions[name])
        return begin + length + rng.randrange(1, 8)

    def put(l, at, target, window):
        op = next(ids)
        return call(l, "MPI_Put", at, rng.randrange(1, 30), ("rma_put", rng.randrange(3), window,
                    order.index(target), 8, op), ("rma_op_complete_blocking", 30, window, op))

    now = 1000
    for l in range(3):
        e[l].enter(now, regions["main"])
    for _ in range(25):
        # active target: origins start, put and complete towards targets that post and wait
        origins = sorted(rng.sample(range(3), rng.randint(1, 2)))
        targets = tuple(t for t in range(3) if t not in origins)
        ends, last = [], {}
        for o in origins:
            sync = ("rma_group_sync", 0, level, windows[0], group(targets))
            at = call(o, "MPI_Win_start", now + rng.randrange(60), rng.randrange(1, 40), sync)
            for _ in range(rng.randrange(3)):
                at = put(o, at, rng.choice(targets), windows[rng.random() < 0.2])
            named = [sync] if rng.random() < 0.7 else []
            ends.append(call(o, "MPI_Win_complete", at, rng.randrange(1, 40), *named))
            last[o] = ends[-1]
        for t in targets:
            sync = ("rma_group_sync", 0, level, windows[0], group(tuple(origins)))
            at = call(t, "MPI_Win_post", now + rng.randrange(60), rng.randrange(1, 5), sync)
            named = [sync] if rng.random() < 0.7 else []
            ends.append(call(t, "MPI_Win_wait", at + rng.randrange(40), rng.randrange(1, 80), *named))
            last[t] = ends[-1]
        if rng.random() < 0.5:  # a fence epoch begins as soon as each location is done
            for l in range(3):
                at = last[l]
                if rng.random() < 0.5:
                    at = put(l, at, rng.choice([t for t in range(3) if t != l]), windows[0])
                ends.append(call(l, "MPI_Win_fence", at + rng.randrange(20), rng.randrange(1, 60)))
        now = max(ends) + 10
        # passive target: each location may lock a random target's window
        for l in range(3):
            if rng.random() < 0.3:
                ends.append(now)
                continue
            target, kind = rng.randrange(3), rng.choice([LockType.EXCLUSIVE, LockType.SHARED])
            args = (windows[1], order.index(target), 0, kind)
            at = now + rng.randrange(50)
            if rng.random() < 0.6:
                at = call(l, "MPI_Win_lock", at, rng.randrange(1, 40), ("rma_request_lock", 0, *args),
                          ("rma_acquire_lock", rng.randrange(40), *args))
            else:  # taken lazily by the next call
                at = call(l, "MPI_Win_lock", at, 1, ("rma_request_lock", 0, *args))
                at = call(l, rng.choice(["MPI_Put", "MPI_Win_flush", "work"]), at, rng.randrange(1, 40),
                          ("rma_acquire_lock", rng.randrange(40), *args))
            ends.append(call(l, "MPI_Win_unlock", at + rng.randrange(30), rng.randrange(1, 10),
                             ("rma_release_lock", 0, windows[1], order.index(target), 0)))
        now = max(ends) + 10
    for l in range(3):
        e[l].leave(now, regions["main"])
    return aw.close()


def test_rma_scripts_and_engine_agree(rma_traces, capsys):
    found = set()
    for path in rma_traces:
        engine = earl.analyze(path, progress=lambda f: None)
        found |= {m for m, _, _ in cells(engine)}
        same(engine, earl.analyze(path, engine="scripts"))
    assert RMA_PATTERNS <= found  # every one-sided pattern occurs somewhere
    pytest.importorskip("lupa")
    for path in rma_traces:
        same_in_lua(earl.analyze(path, progress=lambda f: None), lua_cells(path, capsys), path)
