"""Small OTF2 archives for the OTF2 tests, written with the official PyPI `otf2` writer.

- `SHARED_TRACES`, `PING_PONG`, `PING_PONG_PAPI`: the Score-P traces in ../shared/traces
  (read in place, never copied into the project);
- `ArchiveWriter`: a thin layer over `otf2.writer.Writer` for hand-written archives
  (processes with several threads, OTF2 location ids chosen freely, an MPI COMM_LOCATIONS
  group and communicators whose ranks are permuted against the locations);
- `write_*`: the hand-written archives of tests/test_otf2_archives.py;
- `random_archive(directory, seed, ...)`: a seeded generator of valid-but-imperfect
  archives with every record kind EARL maps (for the random-access tests).

Nothing here knows EARL's mapping: what EARL should make of an archive is computed by
tests/otf2_reference.py from what the official reader reads back.
"""
from __future__ import annotations

import random
from pathlib import Path

import otf2
from otf2 import definitions as D
from otf2.enums import (CollectiveOp, GroupType, LockType, MeasurementMode, MetricMode,
                        MetricOccurrence, Paradigm, ParameterType, RecorderKind,
                        RmaSyncLevel, RmaSyncType, Type)

from script_checks import SCOREP as SHARED_TRACES
PING_PONG = SHARED_TRACES / "ping-pong-otf2" / "traces.otf2"
PING_PONG_PAPI = SHARED_TRACES / "ping-pong-otf2-papi" / "traces.otf2"

UNDEF_RANK = otf2.Undefined.UINT32.value      # MpiCollectiveEnd without a root
OFFSET = 7_397_466_976_977_800                 # a Score-P-like first timestamp


class ArchiveWriter:
    """An archive being written: `directory/name.otf2`, `name.def`, `name/`."""

    def __init__(self, directory, name="traces", resolution=1_000_000_000, chunk_size=None):
        self.directory = Path(directory)
        self.name = name
        kw = {} if chunk_size is None else {"chunk_size_events": chunk_size}
        self.w = otf2.writer.Writer(str(self.directory), archive_name=name,
                                    timer_resolution=resolution, **kw)
        self.d = self.w.definitions
        self.node = self.d.system_tree_node("node")
        self.locations = []           # in definition order
        self._writers = {}

    # ------------------------------------------------------------------ definitions
    def process(self, name, threads=("Master thread",), ids=None):
        """A location group with one location per thread; `ids` sets the OTF2 location ids
        (any order: the definition order stays the call order)."""
        group = self.d.location_group(name, system_tree_parent=self.node)
        locs = []
        for i, thread in enumerate(threads):
            if ids is None:
                loc = self.d.location(thread, group=group)
            else:
                registry = self.d._locations          # the writer assigns ids itself
                loc = D.Location(registry, ids[i], thread, group=group)
                registry._register(loc)
            locs.append(loc)
            self.locations.append(loc)
        return locs

    def comm_locations(self, locs):
        """The MPI COMM_LOCATIONS group (must precede the COMM_GROUPs)."""
        return self.d.group("comm locations", group_type=GroupType.COMM_LOCATIONS,
                            paradigm=Paradigm.MPI, members=list(locs))

    def comm(self, name, members):
        """A communicator whose rank r is the location members[r]."""
        group = self.d.group(name + " group", group_type=GroupType.COMM_GROUP,
                             paradigm=Paradigm.MPI, members=list(members))
        return self.d.comm(name, group=group)

    def region(self, name, paradigm=Paradigm.USER, **kw):
        return self.d.region(name, paradigm=paradigm, **kw)

    # ------------------------------------------------------------------ events
    def ev(self, loc):
        if loc._ref not in self._writers:
            self._writers[loc._ref] = self.w.event_writer_from_location(loc)
        return self._writers[loc._ref]

    def close(self, clock_offset=None) -> Path:
        """Write the definitions and close. The PyPI writer sets the global clock offset to
        the first timestamp; `clock_offset` overrides it (events before it get negative
        times)."""
        if clock_offset is not None:
            self.w._first_timestamp = clock_offset
        self.w.close()
        return self.anchor

    @property
    def anchor(self) -> Path:
        return self.directory / f"{self.name}.otf2"


def T(t):
    """Absolute timestamp t ticks after the archive's first timestamp."""
    return OFFSET + t


# ======================================================================================
# hand-written archives
def write_permuted_ranks(directory, name="run", resolution=1_000_000_000):
    """Four single-threaded processes with OTF2 location ids 7, 2, 40, 13 (definition order
    = location numbers 0..3), a COMM_LOCATIONS group in the order 40, 7, 13, 2, a world
    communicator whose rank r is location WORLD[r] and a sub-communicator {3, 1}; point to
    point (blocking and non-blocking), collectives with and without root, equal timestamps.
    Returns (anchor, facts) where facts are hand-derived expectations."""
    aw = ArchiveWriter(directory, name, resolution)
    locs = []
    for r, lid in enumerate([7, 2, 40, 13]):
        locs += aw.process(f"MPI Rank {r}", ids=[lid])
    aw.comm_locations([locs[2], locs[0], locs[3], locs[1]])
    WORLD = [2, 0, 3, 1]          # world rank -> location number
    world = aw.comm("MPI_COMM_WORLD", [locs[i] for i in WORLD])
    SUB = [3, 1]
    sub = aw.comm("sub", [locs[i] for i in SUB])
    main = aw.region("main", Paradigm.USER)
    send_r = aw.region("MPI_Send", Paradigm.MPI)
    recv_r = aw.region("MPI_Recv", Paradigm.MPI)
    bcast = aw.region("MPI_Bcast", Paradigm.MPI)
    barrier = aw.region("MPI_Barrier", Paradigm.MPI)
    rank = {loc: WORLD.index(loc) for loc in range(4)}
    e = [aw.ev(l) for l in locs]
    for l in range(4):
        e[l].enter(T(0), main)
    # location 0 sends to location 3 (world rank 2) with tags 5 then 6; location 3 receives
    # tag 6 first (overtaking across tags), then tag 5.
    e[0].enter(T(10), send_r)
    e[0].mpi_send(T(11), rank[3], world, 5, 100)
    e[0].mpi_send(T(11), rank[3], world, 6, 200)
    e[0].leave(T(12), send_r)
    e[3].enter(T(20), recv_r)
    e[3].mpi_recv(T(21), rank[0], world, 6, 200)
    e[3].mpi_recv(T(22), rank[0], world, 5, 100)
    e[3].leave(T(23), recv_r)
    # sub-communicator: sub rank 0 = location 3 sends to sub rank 1 = location 1 (isend/irecv)
    e[3].mpi_isend(T(30), 1, sub, 9, 64, 1001)
    e[1].mpi_irecv_request(T(30), 77)
    e[3].mpi_isend_complete(T(31), 1001)
    e[1].mpi_irecv(T(32), 0, sub, 9, 64, 77)
    # equal timestamps: location 2 sends at 40, location 1 receives at 40 (location 1 < 2:
    # the receive comes first in EARL's order and finds no send)
    e[2].mpi_send(T(40), rank[1], world, 1, 8)
    e[1].mpi_recv(T(40), rank[2], world, 1, 8)
    # collectives: a broadcast rooted at world rank 3 (location 1), then a barrier
    for l in range(4):
        e[l].enter(T(50), bcast)
        e[l].mpi_collective_begin(T(50))
        e[l].mpi_collective_end(T(51 + l), CollectiveOp.BCAST, world, 3, 16 if l == 1 else 0,
                                0 if l == 1 else 16)
        e[l].leave(T(51 + l), bcast)
        e[l].enter(T(60), barrier)
        e[l].mpi_collective_begin(T(60))
        e[l].mpi_collective_end(T(61), CollectiveOp.BARRIER, world, UNDEF_RANK, 0, 0)
        e[l].leave(T(62), barrier)
    for l in range(4):
        e[l].leave(T(70), main)
    facts = dict(world=WORLD, sub=SUB, world_id=world._ref, sub_id=sub._ref,
                 loc_ids=[7, 2, 40, 13])
    return aw.close(), facts


def write_threads(directory, name="threads.trace", resolution=1000):
    """Two processes with three threads each (six locations; thread ids sparse as Score-P's),
    thread fork/join (nested) on the master threads, thread locks shared by the threads of a
    process, thread team begin/end, parameters and multi-member metrics."""
    aw = ArchiveWriter(directory, name, resolution)
    p0 = aw.process("MPI Rank 0", ["Master thread", "OMP thread 1", "OMP thread 2"],
                    ids=[0, 1 << 32, 2 << 32])
    p1 = aw.process("MPI Rank 1", ["Master thread", "OMP thread 1", "OMP thread 2"],
                    ids=[1, (1 << 32) + 1, (2 << 32) + 1])
    aw.comm_locations([p0[0], p1[0]])
    world = aw.comm("MPI_COMM_WORLD", [p0[0], p1[0]])
    team0 = aw.d.comm("team0", group=aw.d.group(
        "team0 locations", group_type=GroupType.LOCATIONS, members=list(p0)))
    main = aw.region("main", Paradigm.COMPILER)
    par = aw.region("!$omp parallel", Paradigm.OPENMP)
    work = aw.region("work", Paradigm.USER)
    crit = aw.region("critical", Paradigm.PTHREAD)
    pn = aw.d.parameter("iterations", parameter_type=ParameterType.INT64)
    pu = aw.d.parameter("bytes", parameter_type=ParameterType.UINT64)
    ps = aw.d.parameter("phase", parameter_type=ParameterType.STRING)
    m_cyc = aw.d.metric_member("PAPI_TOT_CYC", value_type=Type.UINT64)
    m_delta = aw.d.metric_member("delta", value_type=Type.INT64,
                                 metric_mode=MetricMode.RELATIVE_POINT)
    m_watts = aw.d.metric_member("watts", value_type=Type.DOUBLE)
    metric3 = aw.d.metric_class([m_cyc, m_delta, m_watts],
                                occurrence=MetricOccurrence.SYNCHRONOUS_STRICT,
                                recorder_kind=RecorderKind.CPU)
    for proc in (p0, p1):
        m, t1, t2 = (aw.ev(l) for l in proc)
        m.program_begin(T(0), "/bin/app", ["-n", "4", "--fast"])
        m.enter(T(1), main)
        m.parameter_int(T(2), pn, -42)
        m.parameter_unsigned_int(T(2), pu, 2 ** 40)
        m.parameter_string(T(2), ps, "init")
        m.metric(T(3), metric3, [123456789, -5, 2.5])
        m.thread_fork(T(4), Paradigm.OPENMP, 3)
        m.enter(T(5), par)
        m.thread_team_begin(T(5), team0)
        for k, t in enumerate((t1, t2)):
            t.thread_team_begin(T(6), team0)
            t.enter(T(6), par)
            t.enter(T(7 + k), work)
            t.thread_acquire_lock(T(8 + 2 * k), Paradigm.OPENMP, 1, 1 + k)
            t.enter(T(8 + 2 * k), crit)
            t.leave(T(9 + 2 * k), crit)
            t.thread_release_lock(T(9 + 2 * k), Paradigm.OPENMP, 1, 1 + k)
            t.metric(T(12), metric3, [1000 + k, k - 1, 0.125 * k])
            t.leave(T(12), work)
            t.leave(T(13), par)
            t.thread_team_end(T(13), team0)
        m.thread_acquire_lock(T(8), Paradigm.OPENMP, 2, 1)     # another lock, same time
        m.thread_fork(T(9), Paradigm.OPENMP, 2)                # nested fork
        m.thread_join(T(10), Paradigm.OPENMP)                  # joins the nested one
        m.thread_release_lock(T(11), Paradigm.OPENMP, 2, 1)
        m.thread_team_end(T(13), team0)
        m.leave(T(14), par)
        m.thread_join(T(14), Paradigm.OPENMP)                  # joins the outer one
        m.thread_join(T(15), Paradigm.OPENMP)                  # a join without an open fork
        m.leave(T(16), main)
        m.program_end(T(17), 0 if proc is p0 else 3)
    return aw.close()


def write_rma(directory, name="rma", resolution=10 ** 6):
    """Three processes; a window over a communicator with permuted ranks; puts and gets
    completed blocking, non-blocking and remotely (completions out of order), window locks,
    and the one-sided records EARL keeps as types of their own."""
    aw = ArchiveWriter(directory, name, resolution)
    locs = []
    for r, lid in enumerate([3, 1, 2]):
        locs += aw.process(f"MPI Rank {r}", ids=[lid])
    aw.comm_locations(locs)
    RANKS = [1, 2, 0]                                  # window-comm rank -> location number
    comm = aw.comm("win comm", [locs[i] for i in RANKS])
    win = aw.d.rma_win("window", comm=comm)
    win2 = aw.d.rma_win("second window", comm=comm)
    put_r = aw.region("MPI_Put", Paradigm.MPI)
    fence = aw.region("MPI_Win_fence", Paradigm.MPI)
    rk = {loc: RANKS.index(loc) for loc in range(3)}
    e = [aw.ev(l) for l in locs]
    for l in range(3):
        e[l].rma_win_create(T(0), win)
        e[l].rma_win_create(T(0), win2)
    e[0].enter(T(5), put_r)
    e[0].rma_put(T(6), win, rk[1], 1024, 11)           # put to location 1, id 11
    e[0].rma_put(T(6), win, rk[2], 512, 12)            # put to location 2, id 12
    e[0].rma_get(T(7), win2, rk[1], 256, 11)           # same id, other window
    e[0].leave(T(8), put_r)
    e[0].rma_op_complete_non_blocking(T(9), win, 12)   # completes the second put first
    e[0].rma_op_test(T(9), win, 11)
    e[0].rma_op_complete_blocking(T(10), win2, 11)     # the get
    e[0].rma_op_complete_remote(T(11), win, 11)        # the first put
    e[1].rma_request_lock(T(5), win, rk[2], 1, LockType.EXCLUSIVE)
    e[1].rma_acquire_lock(T(6), win, rk[2], 1, LockType.EXCLUSIVE)
    e[1].rma_get(T(7), win, rk[2], 64, 11)             # same id as location 0's: other loc
    e[1].rma_op_complete_blocking(T(7), win, 11)
    e[1].rma_release_lock(T(8), win, rk[2], 1)
    e[1].rma_try_lock(T(9), win, rk[0], 2, LockType.SHARED)
    e[2].rma_sync(T(6), win, rk[0], RmaSyncType.MEMORY)
    e[2].rma_wait_change(T(7), win)
    e[2].rma_atomic(T(8), win, rk[0], otf2.RmaAtomicType.FETCH_AND_ADD, 8, 8, 5)
    for l in range(3):
        e[l].enter(T(20), fence)
        e[l].rma_collective_begin(T(20))
        e[l].rma_collective_end(T(21), CollectiveOp.BARRIER, RmaSyncLevel.MEMORY, win,
                                UNDEF_RANK, 0, 0)
        e[l].leave(T(22), fence)
        e[l].rma_group_sync(T(23), RmaSyncLevel.PROCESS, win, comm.group)
        e[l].rma_win_destroy(T(30), win)
    return aw.close(), dict(ranks=RANKS, win=win._ref, win2=win2._ref)


def write_other_records(directory, name="others", resolution=10 ** 9):
    """One location per record kind that EARL keeps as a type of its own, plus a region
    name defined twice, a region without paradigm and Begin/End pairs around Leave."""
    aw = ArchiveWriter(directory, name, resolution)
    a, = aw.process("MPI Rank 0")
    b, = aw.process("MPI Rank 1")
    aw.comm_locations([a, b])
    world = aw.comm("MPI_COMM_WORLD", [a, b])
    r1 = aw.region("compute", Paradigm.USER)
    r1bis = aw.region("compute", Paradigm.USER, description="defined twice")
    r2 = aw.region("unknown paradigm", Paradigm.UNKNOWN)
    allred = aw.region("MPI_Allreduce", Paradigm.MPI)
    single = aw.d.metric_member("single", value_type=Type.DOUBLE)
    metric1 = aw.d.metric_class([single])
    inst = aw.d.metric_instance(metric1, a, scope=b)
    ea, eb = aw.ev(a), aw.ev(b)
    ea.program_begin(T(0), "prog", [])
    ea.measurement_on_off(T(1), MeasurementMode.OFF)
    ea.measurement_on_off(T(2), MeasurementMode.ON)
    ea.buffer_flush(T(3), T(5))
    ea.enter(T(4), r1)
    ea.enter(T(5), r1bis)                               # the same region
    ea.mpi_request_test(T(6), 31)
    ea.mpi_request_cancelled(T(7), 32)
    ea.metric(T(8), inst, [0.5])
    ea.leave(T(9), r1bis)
    ea.enter(T(10), r2)
    ea.leave(T(11), r1)                                 # mismatched: pops "unknown paradigm"
    ea.leave(T(12), r1)
    ea.leave(T(13), r1)                                 # exit on an empty stack
    ea.enter(T(14), allred)
    ea.mpi_collective_begin(T(14))
    ea.mpi_collective_end(T(15), CollectiveOp.ALLREDUCE, world, UNDEF_RANK, 4, 8)
    ea.metric(T(15), metric1, [1.25])                   # between the End and its Leave
    ea.leave(T(16), allred)
    ea.program_end(T(17), -1)
    eb.thread_create(T(1), world, 3)
    eb.thread_begin(T(2), world, 3)
    eb.thread_wait(T(3), world, 3)
    eb.thread_end(T(4), world, 3)
    eb.thread_task_create(T(5), world, 0, 1)
    eb.thread_task_switch(T(6), world, 0, 1)
    eb.thread_task_complete(T(7), world, 0, 1)
    eb.omp_fork(T(8), 2)
    eb.omp_acquire_lock(T(9), 4, 1)
    eb.omp_release_lock(T(10), 4, 1)
    eb.omp_join(T(11))
    eb.comm_create(T(12), world)
    eb.comm_destroy(T(13), world)
    eb.non_blocking_collective_request(T(14), 5)
    eb.non_blocking_collective_complete(T(15), CollectiveOp.BCAST, world, 0, 8, 0, 5)
    return aw.close()


def write_unknown_record(directory, name="probe"):
    """MpiProbe (OTF2 3.1) between two regions: older libotf2 reports it as an unknown
    record."""
    aw = ArchiveWriter(directory, name, 1000)
    a, = aw.process("MPI Rank 0")
    aw.comm_locations([a])
    world = aw.comm("MPI_COMM_WORLD", [a])
    r = aw.region("main")
    e = aw.ev(a)
    e.enter(T(0), r)
    e.mpi_probe(T(1), 0, world, 3, 99)
    e.leave(T(2), r)
    return aw.close()


def write_tiny(directory, name="traces", nevents=6):
    """Two locations, a few Enter/Leave and one message: for the bad-input tests."""
    aw = ArchiveWriter(directory, name, 1000)
    a, = aw.process("MPI Rank 0")
    b, = aw.process("MPI Rank 1")
    aw.comm_locations([a, b])
    world = aw.comm("MPI_COMM_WORLD", [a, b])
    r = aw.region("main")
    for i, loc in enumerate((a, b)):
        e = aw.ev(loc)
        for k in range(nevents):
            e.enter(T(10 * k + i), r)
            if i == 0:
                e.mpi_send(T(10 * k + 2), 1, world, k, 8)
            else:
                e.mpi_recv(T(10 * k + 3), 0, world, k, 8)
            e.leave(T(10 * k + 5), r)
    return aw.close()


def write_long(directory, name="long", pairs=40000, chunk_size=256 * 1024):
    """One location, `pairs` Enter/Leave pairs: with OTF2's smallest chunk (256 KiB) the
    event file spans several chunks."""
    aw = ArchiveWriter(directory, name, 1000, chunk_size=chunk_size)
    a, = aw.process("MPI Rank 0")
    r = aw.region("main")
    e = aw.ev(a)
    for i in range(pairs):
        e.enter(T(2 * i), r)
        e.leave(T(2 * i + 1), r)
    return aw.close()


# ======================================================================================
# seeded random archives
def random_archive(directory, seed, n_steps=300, nprocs=3, nthreads=2, name=None,
                   sparse_ids=True, chunk_size=None):
    """A valid-but-imperfect archive with every record kind EARL maps.

    Per step the global clock advances by 0..3 ticks (many equal timestamps across
    locations) and one location writes one action: enter/leave (sometimes an exit on an
    empty stack or a mismatched one), collectives with Begin/End (root or none), blocking
    and non-blocking sends and receives on two communicators with permuted ranks (some
    receives overtake across tags, some come before their send or have none), thread
    fork/join, thread locks shared by all locations, RMA put/get with out-of-order
    completions and window locks, metrics, parameters and other records."""
    rnd = random.Random(seed)
    name = name or f"rand{seed}"
    aw = ArchiveWriter(directory, name, rnd.choice([1000, 10 ** 9, 2_095_197_216]),
                       chunk_size=chunk_size)
    ids = list(range(nprocs * nthreads))
    if sparse_ids:
        rnd.shuffle(ids)
        ids = [i * 3 + 1 for i in ids]
    procs = []
    for p in range(nprocs):
        threads = ["Master thread"] + [f"thread {t}" for t in range(1, nthreads)]
        procs.append(aw.process(f"MPI Rank {p}", threads,
                                ids=ids[p * nthreads:(p + 1) * nthreads]))
    masters = [pl[0] for pl in procs]
    nloc = len(aw.locations)
    loc_index = {id(l): i for i, l in enumerate(aw.locations)}
    master_idx = [loc_index[id(m)] for m in masters]
    cl = masters[:]
    rnd.shuffle(cl)
    aw.comm_locations(cl)
    world_members = masters[:]
    rnd.shuffle(world_members)
    world = aw.comm("MPI_COMM_WORLD", world_members)
    sub_members = masters[:max(2, nprocs - 1)]
    rnd.shuffle(sub_members)
    sub = aw.comm("sub", sub_members)
    comms = [world, sub]
    members = {world._ref: [loc_index[id(m)] for m in world_members],
               sub._ref: [loc_index[id(m)] for m in sub_members]}
    win = aw.d.rma_win("win", comm=world)
    user = [aw.region(n, p) for n, p in [("main", Paradigm.COMPILER), ("solve", Paradigm.USER),
                                         ("io phase", Paradigm.USER),
                                         ("!$omp for", Paradigm.OPENMP)]]
    coll = [aw.region(n, Paradigm.MPI) for n in ("MPI_Bcast", "MPI_Allreduce", "MPI_Barrier")]
    ops = {0: CollectiveOp.BCAST, 1: CollectiveOp.ALLREDUCE, 2: CollectiveOp.BARRIER}
    mm = [aw.d.metric_member("cycles", value_type=Type.UINT64),
          aw.d.metric_member("balance", value_type=Type.INT64),
          aw.d.metric_member("flops", value_type=Type.DOUBLE)]
    metrics = [aw.d.metric_class(mm), aw.d.metric_class([mm[2]])]
    params = [aw.d.parameter("n", parameter_type=ParameterType.INT64),
              aw.d.parameter("size", parameter_type=ParameterType.UINT64),
              aw.d.parameter("mode", parameter_type=ParameterType.STRING)]

    ew = [aw.ev(l) for l in aw.locations]
    stacks = [[] for _ in range(nloc)]
    pending = []                       # (src, dest, comm, tag, len)
    irecv_req = [[] for _ in range(nloc)]
    isend_req = [[] for _ in range(nloc)]
    open_rma = [[] for _ in range(nloc)]
    held = {}                          # lock id -> loc
    rma_locked = [None] * nloc
    next_id = [1000]
    t = 0

    def new_id():
        next_id[0] += 1
        return next_id[0]

    def rank_of(comm, loc):
        return members[comm._ref].index(loc)

    for l in range(nloc):
        ew[l].program_begin(T(t), "/bin/app", ["x"] * (l % 3))
    for _ in range(n_steps):
        t += rnd.choice([0, 0, 1, 1, 2, 3])
        l = rnd.randrange(nloc)
        e = ew[l]
        master = l in master_idx
        k = rnd.randrange(100)
        if k < 22:                                         # enter
            if master and rnd.random() < 0.25:
                c = rnd.randrange(3)
                e.enter(T(t), coll[c])
                e.mpi_collective_begin(T(t))
                stacks[l].append(("coll", c))
            else:
                r = rnd.choice(user)
                e.enter(T(t), r)
                stacks[l].append(("user", r))
        elif k < 40:                                       # leave
            if stacks[l]:
                kind, what = stacks[l].pop()
                if kind == "coll":
                    comm = rnd.choice([c for c in comms if l in members[c._ref]] or [None])
                    if comm is not None:
                        root = (rnd.randrange(len(members[comm._ref])) if what == 0
                                else UNDEF_RANK)
                        e.mpi_collective_end(T(t), ops[what], comm, root, rnd.randrange(64),
                                             rnd.randrange(64))
                        if rnd.random() < 0.3:
                            e.metric(T(t), metrics[1], [rnd.random()])
                    e.leave(T(t + rnd.choice([0, 1])), coll[what])
                    t += 1
                else:
                    region = what if rnd.random() < 0.9 else rnd.choice(user)   # mismatched
                    e.leave(T(t), region)
            elif rnd.random() < 0.2:
                e.leave(T(t), rnd.choice(user))            # exit on an empty stack
        elif k < 52 and master:                            # send
            comm = rnd.choice([c for c in comms if l in members[c._ref]] or [world])
            if l not in members[comm._ref]:
                continue
            dest = rnd.choice(members[comm._ref])
            tag, ln = rnd.randrange(3), rnd.randrange(1, 1 << 20)
            if rnd.random() < 0.7:
                e.mpi_send(T(t), rank_of(comm, dest), comm, tag, ln)
            else:
                req = new_id()
                e.mpi_isend(T(t), rank_of(comm, dest), comm, tag, ln, req)
                isend_req[l].append(req)
            pending.append((l, dest, comm, tag, ln))
        elif k < 64 and master:                            # receive
            mine = [m for m in pending if m[1] == l]
            if mine and rnd.random() < 0.9:
                # the oldest of one (src, comm, tag) class: overtaking across classes only
                src, dest, comm, tag, ln = rnd.choice(mine)
                m = next(m for m in pending if m[0] == src and m[1] == l and m[2] is comm
                         and m[3] == tag)
                pending.remove(m)
                src, dest, comm, tag, ln = m
            else:                                          # no send: unmatched
                comm = world
                src, tag, ln = rnd.choice(master_idx), 7, 1
            if rnd.random() < 0.7:
                e.mpi_recv(T(t), rank_of(comm, src), comm, tag, ln)
            else:
                req = new_id()
                e.mpi_irecv_request(T(t), req)
                e.mpi_irecv(T(t + rnd.choice([0, 1])), rank_of(comm, src), comm, tag, ln, req)
                t += 1
        elif k < 66 and master and isend_req[l]:
            e.mpi_isend_complete(T(t), isend_req[l].pop(0))
        elif k < 71:                                       # fork / join
            if rnd.random() < 0.55:
                e.thread_fork(T(t), Paradigm.OPENMP, rnd.randrange(1, 5))
            else:
                e.thread_join(T(t), Paradigm.OPENMP)
        elif k < 77:                                       # thread locks
            lock = rnd.randrange(3)
            if held.get(lock) == l:
                e.thread_release_lock(T(t), Paradigm.PTHREAD, lock, 0)
                del held[lock]
            elif lock not in held:
                e.thread_acquire_lock(T(t), Paradigm.PTHREAD, lock, 0)
                held[lock] = l
        elif k < 85 and master:                            # one-sided
            if open_rma[l] and rnd.random() < 0.5:
                op = open_rma[l].pop(rnd.randrange(len(open_rma[l])))
                how = rnd.randrange(3)
                (e.rma_op_complete_blocking, e.rma_op_complete_non_blocking,
                 e.rma_op_complete_remote)[how](T(t), win, op)
            elif rnd.random() < 0.25:
                if rma_locked[l] is None:
                    target = rnd.choice(master_idx)
                    if rnd.random() < 0.5:
                        e.rma_request_lock(T(t), win, rank_of(world, target), 0,
                                           LockType.EXCLUSIVE)
                    e.rma_acquire_lock(T(t), win, rank_of(world, target), 0, LockType.EXCLUSIVE)
                    rma_locked[l] = target
                else:
                    e.rma_release_lock(T(t), win, rank_of(world, rma_locked[l]), 0)
                    rma_locked[l] = None
            else:
                target = rnd.choice(master_idx)
                op = rnd.randrange(1, 10)
                while op in open_rma[l]:
                    op += 10
                (e.rma_put if rnd.random() < 0.5 else e.rma_get)(
                    T(t), win, rank_of(world, target), rnd.randrange(1, 4096), op)
                open_rma[l].append(op)
        elif k < 91:                                       # metric
            if rnd.random() < 0.7:
                e.metric(T(t), metrics[0], [rnd.randrange(1 << 40), rnd.randrange(-50, 50),
                                            rnd.random() * 100])
            else:
                e.metric(T(t), metrics[1], [rnd.random()])
        elif k < 96:                                       # parameters
            p = rnd.randrange(3)
            if p == 0:
                e.parameter_int(T(t), params[0], rnd.randrange(-10 ** 6, 10 ** 6))
            elif p == 1:
                e.parameter_unsigned_int(T(t), params[1], rnd.randrange(1 << 63))
            else:
                e.parameter_string(T(t), params[2], rnd.choice(["fast", "slow", "a b"]))
        else:                                              # records without a mapping
            c = rnd.randrange(4)
            if c == 0:
                e.mpi_request_test(T(t), new_id())
            elif c == 1:
                e.measurement_on_off(T(t), rnd.choice([MeasurementMode.ON,
                                                       MeasurementMode.OFF]))
            elif c == 2:
                e.thread_team_begin(T(t), world)
            else:
                e.rma_win_create(T(t), win)
    # complete the one-sided operations still open, then close everything
    t += 1
    for l in range(nloc):
        for op in open_rma[l]:
            ew[l].rma_op_complete_blocking(T(t), win, op)
        for _ in stacks[l][::-1]:
            kind, what = stacks[l].pop()
            ew[l].leave(T(t), coll[what] if kind == "coll" else what)
        ew[l].program_end(T(t + 1), l)
    return aw.close()
