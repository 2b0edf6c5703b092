"""Hand-written OTF2 archives of the wait-state analysis tests (tests/test_analysis.py
states the severities each holds, worked out by hand; tests/test_analysis_scripts.py runs
the reference scripts on them too). Written with the official PyPI `otf2` writer."""


def otf2_two_ranks(tmp_path):
    """Two single-threaded ranks, 1 tick = 1 us; returns (writer, event writers, world,
    region maker)."""
    from otf2.enums import Paradigm
    from otf2_archives import ArchiveWriter
    aw = ArchiveWriter(tmp_path, "hand", resolution=1_000_000)
    locs = aw.process("MPI Rank 0") + aw.process("MPI Rank 1")
    aw.comm_locations(locs)
    world = aw.comm("MPI_COMM_WORLD", locs)
    regions = {}

    def region(name):
        if name not in regions:
            regions[name] = aw.region(name, Paradigm.MPI if name.startswith("MPI_") else Paradigm.USER)
        return regions[name]
    return aw, [aw.ev(l) for l in locs], world, region


def pscw_two_ranks(tmp_path, *window_names):
    """Two ranks with windows of MPI_COMM_WORLD for post/start/complete/wait epochs: rank 0
    the origin (its group: rank 1), rank 1 the target (its group: rank 0). Returns (writer,
    event writers, region maker, windows, sync, put): sync(l, call, enter, leave) writes an
    MPI_Win_* call of location l with its group sync record on the first window;
    put(enter, leave, op, window, put_at) an MPI_Put of location 0 to rank 1 whose RmaPut
    record is at put_at (default: enter) and completes a tick before it leaves."""
    from otf2.enums import GroupType, Paradigm, RmaSyncLevel
    from otf2_archives import T
    aw, e, world, region = otf2_two_ranks(tmp_path)
    locs = aw.locations
    windows = [aw.d.rma_win(name, comm=world) for name in window_names]
    targets = aw.d.group("targets", group_type=GroupType.COMM_GROUP, paradigm=Paradigm.MPI,
                         members=[locs[1]])
    origins = aw.d.group("origins", group_type=GroupType.COMM_GROUP, paradigm=Paradigm.MPI,
                         members=[locs[0]])
    level = RmaSyncLevel.PROCESS | RmaSyncLevel.MEMORY

    def sync(l, name, enter, leave):
        e[l].enter(T(enter), region(name))
        e[l].rma_group_sync(T(enter), level, windows[0], targets if l == 0 else origins)
        e[l].leave(T(leave), region(name))

    def put(enter, leave, op, window=None, put_at=None):
        window = windows[0] if window is None else window
        e[0].enter(T(enter), region("MPI_Put"))
        e[0].rma_put(T(enter if put_at is None else put_at), window, 1, 8, op)
        e[0].rma_op_complete_blocking(T(leave - 1), window, op)
        e[0].leave(T(leave), region("MPI_Put"))
    for l in (0, 1):
        e[l].enter(T(0), region("main"))
    return aw, e, region, windows, sync, put


def active_target_archive(tmp_path):
    """Two ranks, three post/start/complete/wait epochs: Early Wait, Late Complete and
    Late Post (synchronisation)."""
    from otf2_archives import T
    aw, e, region, _, sync, put = pscw_two_ranks(tmp_path, "window")
    # epoch 1: post [10, 12]; start [14, 16], put [30, 35] (completed at 34), complete [60, 62];
    # wait [20, 80]
    sync(1, "MPI_Win_post", 10, 12)
    sync(0, "MPI_Win_start", 14, 16)
    sync(1, "MPI_Win_wait", 20, 80)
    put(30, 35, 1)
    sync(0, "MPI_Win_complete", 60, 62)
    # epoch 2: start [100, 115] (blocks until the post at 110), post [110, 112], put
    # [116, 118] (completed at 117), complete [119, 120]; wait [113, 125]
    sync(0, "MPI_Win_start", 100, 115)
    sync(1, "MPI_Win_post", 110, 112)
    sync(1, "MPI_Win_wait", 113, 125)
    put(116, 118, 2)
    sync(0, "MPI_Win_complete", 119, 120)
    # epoch 3: start [200, 201], put [202, 204] (completed at 203), complete [205, 230] (waits
    # for the post at 220); post [220, 221], wait [222, 240]
    sync(0, "MPI_Win_start", 200, 201)
    put(202, 204, 3)
    sync(0, "MPI_Win_complete", 205, 230)
    sync(1, "MPI_Win_post", 220, 221)
    sync(1, "MPI_Win_wait", 222, 240)
    for l in (0, 1):
        e[l].leave(T(300), region("main"))
    return aw.close()


def late_post_in_put_archive(tmp_path):
    """Two ranks, two epochs: Late Post inside an MPI_Put of the epoch (communication),
    and a put on another window that is not the epoch's."""
    from otf2_archives import T
    aw, e, region, (_, other), sync, put = pscw_two_ranks(tmp_path, "window", "other window")
    # epoch 1: start [10, 12] returns before the post [30, 31]; the put [20, 50] (RmaPut at
    # 21) runs at P = 30: 30 - 21 = 9 us. Another put [52, 55]; complete [60, 62]; the
    # target waits [35, 70]: Early Wait 60 - 35 = 25, Late Complete 60 - 55 = 5.
    sync(0, "MPI_Win_start", 10, 12)
    put(20, 50, 1, put_at=21)
    sync(1, "MPI_Win_post", 30, 31)
    sync(1, "MPI_Win_wait", 35, 70)
    put(52, 55, 2, put_at=53)
    sync(0, "MPI_Win_complete", 60, 62)
    # epoch 2: start [100, 101]; a put on another window [105, 130] runs at P = 110 but
    # is not the epoch's; the epoch's put [131, 133]; complete [140, 141]; post
    # [110, 111], wait [112, 150]: no Late Post; Early Wait 140 - 112 = 28, Late Complete
    # 140 - 133 = 7 (the other window's put is not this epoch's operation).
    sync(0, "MPI_Win_start", 100, 101)
    put(105, 130, 3, other, put_at=106)
    sync(1, "MPI_Win_post", 110, 111)
    sync(1, "MPI_Win_wait", 112, 150)
    put(131, 133, 4, put_at=132)
    sync(0, "MPI_Win_complete", 140, 141)
    for l in (0, 1):
        e[l].leave(T(300), region("main"))
    return aw.close()


def lock_archive(tmp_path):
    """Three ranks; locations 0 and 1 lock location 2's window, exclusive and shared, in
    MPI_Win_lock and lazily in an MPI_Put."""
    from otf2.enums import LockType
    from otf2_archives import ArchiveWriter, T
    from otf2.enums import Paradigm
    aw = ArchiveWriter(tmp_path, "locks", resolution=1_000_000)
    locs = aw.process("MPI Rank 0") + aw.process("MPI Rank 1") + aw.process("MPI Rank 2")
    aw.comm_locations(locs)
    world = aw.comm("MPI_COMM_WORLD", locs)
    win = aw.d.rma_win("window", comm=world)
    regions = {n: aw.region(n, Paradigm.MPI if n.startswith("MPI") else Paradigm.USER)
               for n in ("main", "MPI_Win_lock", "MPI_Win_unlock", "MPI_Put")}
    e = [aw.ev(l) for l in locs]

    def call(l, name, enter, leave, *records):
        e[l].enter(T(enter), regions[name])
        for method, time, *args in records:
            getattr(e[l], method)(T(time), *args)
        e[l].leave(T(leave), regions[name])
    for l in range(3):
        e[l].enter(T(0), regions["main"])
    # Locations 0 and 1 lock location 2's window (rank 2).
    call(0, "MPI_Win_lock", 10, 12, ("rma_request_lock", 10, win, 2, 0, LockType.EXCLUSIVE),
         ("rma_acquire_lock", 11, win, 2, 0, LockType.EXCLUSIVE))
    call(1, "MPI_Win_lock", 15, 45, ("rma_request_lock", 15, win, 2, 0, LockType.EXCLUSIVE),
         ("rma_acquire_lock", 44, win, 2, 0, LockType.EXCLUSIVE))
    call(0, "MPI_Win_unlock", 30, 40, ("rma_release_lock", 39, win, 2, 0))
    call(0, "MPI_Win_lock", 46, 60, ("rma_acquire_lock", 59, win, 2, 0, LockType.SHARED))
    call(1, "MPI_Win_unlock", 50, 52, ("rma_release_lock", 51, win, 2, 0))
    call(0, "MPI_Win_unlock", 61, 62, ("rma_release_lock", 61, win, 2, 0))
    # a shared lock after every exclusive one was released: no wait
    call(1, "MPI_Win_lock", 63, 65, ("rma_acquire_lock", 64, win, 2, 0, LockType.SHARED))
    call(1, "MPI_Win_unlock", 66, 67, ("rma_release_lock", 66, win, 2, 0))
    # location 0 locks again [68, 69] (after the release at 66: no wait) until 85; location
    # 1's lock is taken lazily inside MPI_Put [70, 90] at 89: it waited min(85, 89) - 70 =
    # 15 us in the MPI_Put: communication time (Scalasca's mpi_rma_comm_lock_competition)
    call(0, "MPI_Win_lock", 68, 69, ("rma_acquire_lock", 68, win, 2, 0, LockType.EXCLUSIVE))
    call(1, "MPI_Put", 70, 90, ("rma_acquire_lock", 89, win, 2, 0, LockType.EXCLUSIVE),
         ("rma_put", 89, win, 2, 8, 1), ("rma_op_complete_blocking", 90, win, 1))
    call(0, "MPI_Win_unlock", 84, 86, ("rma_release_lock", 85, win, 2, 0))
    call(1, "MPI_Win_unlock", 91, 92, ("rma_release_lock", 91, win, 2, 0))
    for l in range(3):
        e[l].leave(T(100), regions["main"])
    return aw.close()
