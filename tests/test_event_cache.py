"""EARL's event cache (cache=True, the default for OTF2: cpp/formats/otf2/otf2_importer.cpp
reads the archive once, forward, on a second thread into an unlinked temporary file,
cpp/cache/) against the direct libotf2 path (cache=False, cpp/formats/otf2/otf2_decoder.cpp).

- equivalence: the Score-P traces in ../shared/traces, generated archives (`earl gen`
  with threads and permuted ranks, 37 locations, 10^6 events) and hand-written ones (a
  multi-chunk location, one-sided transfers and locks, threads, every other record kind,
  seeded random archives, clocks that jump or stand still) give the same trace either
  way: every event, stack, queue, iterator move, problem and to_numpy row, on default
  and on tiny bdist/hsize (many restores);
- the cache file: in $TMPDIR (else /tmp), unlinked at once, gone with close() and with a
  killed process; an unusable or full directory is a clean EarlError naming it and
  cache=False, never a crash or a hang;
- the importer thread: Ctrl-C (a progress callback raising KeyboardInterrupt) stops an
  open promptly, many opens and closes leave no thread and no file behind;
- archives damaged deep inside (while the importer runs ahead of the merge).

What can crash, hang or change process-wide state (rlimits, signals, TMPDIR) runs in a
subprocess with a timeout. Expected values come from the other path (cache=False), the
official `otf2` reader (tests/otf2_reference.py) or the generator's ground truth."""
import json
import os
import random
import re
import select
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("otf2")

import earl  # noqa: E402
import otf2_archives as A  # noqa: E402
from otf2_archives import PING_PONG, PING_PONG_PAPI, T, ArchiveWriter  # noqa: E402
from otf2_reference import Otf2Reference, check_event  # noqa: E402

pytestmark = pytest.mark.skipif("otf2" not in earl._core.known_formats()
                                or "otf2" not in earl._core.generator_formats(),
                                reason="this build of EARL reads or writes no OTF2")

needs_proc = pytest.mark.skipif(not Path("/proc/self/fd").is_dir(),
                                reason="needs Linux /proc to see the cache file and threads")

CACHE_NAME = re.compile(r"earl-cache-[A-Za-z0-9]{6} \(deleted\)$")
LARGE = 20000           # from here on: all positions in order plus 300 random ones
LARGE_ARCHIVES = {"threads-permuted", "37-locations", "1M", "long", "random-multichunk"}
HERE = Path(__file__).resolve().parent


def quiet(fraction):
    """A progress callback that shows nothing."""


def open_trace(anchor, cache, **kw):
    return earl.EventTrace(str(anchor), cache=cache, progress=quiet, **kw)


def cache_files():
    """What this process's open file descriptors name EARL's event cache files."""
    out = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if "earl-cache-" in target:
            out.append(target)
    return sorted(out)


def thread_count():
    return len(os.listdir("/proc/self/task"))


# Both ways, like the `otf2_cache` fixture of conftest.py, but without that session-scoped
# parameter: pytest would move every test using it next to this file's, ahead of files
# that measure a child's peak RSS (which inherits this process's).
BOTH_WAYS = pytest.mark.parametrize("cache", [True, False], ids=["cached", "direct"])


# ----------------------------------------------------------------------------------------
# archives, written once per session
def write_first_seen_order(directory):
    """Record kinds and undefined regions that the locations meet in an order other than
    their time order: location 0 has a few records, then (late) a buffer flush and an
    undefined region; location 1 (early) a program end and another undefined region."""
    from otf2 import definitions as D
    aw = ArchiveWriter(directory, "order", 1000)
    a, = aw.process("P0")
    b, = aw.process("P1")
    main = aw.region("main")
    ghost1 = D.Region(aw.d._regions, 901, "ghost1")      # referenced, never defined
    ghost2 = D.Region(aw.d._regions, 902, "ghost2")
    ea, eb = aw.ev(a), aw.ev(b)
    ea.enter(T(0), main)
    ea.leave(T(1), main)
    ea.enter(T(2), main)
    ea.buffer_flush(T(30), T(31))
    ea.enter(T(32), ghost1)
    ea.leave(T(33), ghost1)
    ea.leave(T(34), main)
    eb.enter(T(0), main)
    eb.program_end(T(25), 0)
    eb.enter(T(26), ghost2)
    eb.leave(T(27), ghost2)
    eb.leave(T(40), main)
    return aw.close()


def write_odd_clock(directory):
    """Clocks a cache that stores timestamp deltas must survive (libotf2 itself refuses
    timestamps that go backwards on a location): jumps of 2**40 ticks, many equal
    timestamps within and across locations, a receive earlier than its send, and a global
    offset after the first events (negative times)."""
    aw = ArchiveWriter(directory, "clock", 1000)
    a, = aw.process("MPI Rank 0")
    b, = aw.process("MPI Rank 1")
    c, = aw.process("MPI Rank 2")
    aw.comm_locations([a, b, c])
    world = aw.comm("MPI_COMM_WORLD", [a, b, c])
    main, work = aw.region("main"), aw.region("work")
    ea, eb, ec = aw.ev(a), aw.ev(b), aw.ev(c)
    ea.enter(T(0), main)
    ea.mpi_send(T(5), 1, world, 3, 64)
    ea.enter(T(2 ** 40), work)                  # far ahead
    ea.leave(T(2 ** 40 + 1), work)
    ea.mpi_send(T(2 ** 40 + 1), 2, world, 4, 8)
    ea.leave(T(2 ** 41), main)
    eb.enter(T(0), main)
    for k in range(30):
        eb.enter(T(5), work)                    # equal timestamps
        eb.leave(T(5), work)
    eb.mpi_recv(T(6), 0, world, 3, 64)
    eb.leave(T(2 ** 40), main)
    ec.enter(T(5), main)
    ec.mpi_recv(T(7), 0, world, 4, 8)           # long before its send
    ec.leave(T(2 ** 40 + 1), main)
    return aw.close(clock_offset=T(6))


def write_zero_announced(directory):
    """write_long's archive (several 256 KiB chunks on one location) whose Location
    definition announces 0 events, as a writer that does not count them leaves it."""
    aw = ArchiveWriter(directory, "unannounced", 1000, chunk_size=256 * 1024)
    a, = aw.process("MPI Rank 0")
    r = aw.region("main")
    e = aw.ev(a)
    for i in range(40000):
        e.enter(T(2 * i), r)
        e.leave(T(2 * i + 1), r)
    del a._number_of_events_written           # the PyPI writer then writes the default, 0
    return aw.close()


def generate_otf2(path, *options):
    """`earl gen --format otf2` (the command's own entry point); returns (anchor, truth),
    the truth's `events` those of the archive: the truth counts them as ALOG holds them,
    the archive adds one ProgramBegin and one ProgramEnd per process."""
    from earl.cli import main
    assert main(["gen", str(path), "--format", "otf2", "-q", *map(str, options)]) == 0
    truth = json.loads(Path(str(path) + ".truth.json").read_text())
    return Path(path), dict(truth, events=truth["events"] + 2 * truth["locations"])


@pytest.fixture(scope="session")
def archives(tmp_path_factory):
    """name -> anchor; `truths` holds the generator's ground truth of generated ones."""
    base = tmp_path_factory.mktemp("event cache")
    out, truths = {}, {}
    if PING_PONG.exists():
        out["ping-pong"] = PING_PONG
        out["ping-pong-papi"] = PING_PONG_PAPI
    for name, options in [
            ("threads-permuted", ["-n", 3, "--threads", 3, "--permute-ranks", "-e", 200000,
                                  "-s", 5, "--out-of-order-rate", 0.2,
                                  "--late-sender-rate", 0.2]),
            ("37-locations", ["-n", 37, "-e", 60000, "--pattern", "neighbors",
                              "--permute-ranks", "-s", 3]),
            ("1M", ["-n", 4, "-e", 10 ** 6, "-s", 12])]:
        (base / name).mkdir()
        out[name], truths[name] = generate_otf2(base / name / "run.otf2", *options)
    for name, write in [("long", A.write_long), ("rma", A.write_rma),
                        ("threads", A.write_threads), ("others", A.write_other_records),
                        ("permuted", A.write_permuted_ranks), ("tiny", A.write_tiny),
                        ("first-seen order", write_first_seen_order),
                        ("odd clock", write_odd_clock),
                        ("zero announced", write_zero_announced)]:
        d = base / name
        d.mkdir()
        res = write(d)
        out[name] = res[0] if isinstance(res, tuple) else res
    for seed in range(3):
        d = base / f"random{seed}"
        d.mkdir()
        out[f"random{seed}"] = A.random_archive(d, seed, n_steps=300 + 100 * seed,
                                                nprocs=2 + seed, nthreads=1 + seed % 2)
    d = base / "random-multichunk"
    d.mkdir()
    out["random-multichunk"] = A.random_archive(d, 11, n_steps=20000, nprocs=3, nthreads=2,
                                                chunk_size=256 * 1024)
    out["truths"] = truths
    return out


def anchor_of(archives, name):
    if name not in archives:
        pytest.skip(f"{name}: shared traces not found in {A.SHARED_TRACES}")
    return archives[name]


# ----------------------------------------------------------------------------------------
# a. both paths give the same trace
EQUIVALENCE = ["ping-pong", "ping-pong-papi", "threads-permuted", "37-locations", "1M",
               "long", "random-multichunk", "rma", "threads", "others", "permuted",
               "random0", "random1", "random2", "odd clock", "first-seen order"]
# bdist=7, hsize=1: nearly every access restores a bookmark.
SETTINGS = {"default": {}, "bdist7-hsize1": {"bdist": 7, "hsize": 1}}


def same_event(got, want, ctx):
    """Equal dicts, same keys in the same order, values of the same Python types."""
    if got != want or list(got) != list(want) or \
            [type(v) for v in got.values()] != [type(v) for v in want.values()]:
        raise AssertionError(f"{ctx}: cached {got} != direct {want}")


def same_static(c, d, ctx):
    """Everything that does not depend on a position."""
    n = d.nrlocs()
    assert len(c) == len(d), ctx
    assert c.nrlocs() == n, ctx
    assert [c.locsym(loc) for loc in range(n)] == [d.locsym(loc) for loc in range(n)], ctx
    assert c.format() == d.format() == "otf2" and c.file() == d.file(), ctx
    assert c.types()[:4] == d.types()[:4] == ["enter", "exit", "send", "recv"], ctx
    assert c.types() == d.types(), ctx
    assert c.regions() == d.regions(), ctx
    assert c.groups() == d.groups(), ctx
    for region in d.regions():
        assert c.group(region) == d.group(region), f"{ctx}: group({region!r})"
    for group in d.groups():
        assert c.regions(group) == d.regions(group), f"{ctx}: {group}"
    assert c.problems() == d.problems(), ctx


def same_state(c, d, pos, ctx):
    for loc in range(d.nrlocs()):
        assert c.stack(loc, pos) == d.stack(loc, pos), f"{ctx}: stack({loc}, {pos})"
    assert c.queue(-1, -1, pos) == d.queue(-1, -1, pos), f"{ctx}: queue(-1, -1, {pos})"


def same_numpy(c, d, ctx):
    """to_numpy rows, every field (type and region indices too: both ways list types()
    and regions() in the same order; counter columns hold NaN where an event has none)."""
    import numpy as np
    a, b = c.to_numpy(), d.to_numpy()
    assert a.dtype == b.dtype and len(a) == len(b) == len(d), ctx
    for field in a.dtype.names:
        assert np.array_equal(a[field], b[field], equal_nan=a[field].dtype.kind == "f"), \
            f"{ctx}: to_numpy {field}"


def same_iteration(c, d, rnd, ctx, n_ops=150):
    """The same plan of next/prev/jump/reset on both, the iterator's event compared."""
    m = len(d)
    c.reset()
    d.reset()
    for _ in range(n_ops):
        k = rnd.randrange(10)
        if k < 4:
            got, want = c.next(), d.next()
        elif k < 7:
            got, want = c.prev(), d.prev()
        elif k < 9:
            p = rnd.choice([rnd.randint(1, max(m, 1)), 1, m, 0, m + 1])
            got, want = c.jump(p), d.jump(p)
        else:
            got, want = c.reset(), d.reset()
        assert got == want, f"{ctx}: iterator moves differ"
        if got:
            same_event(c.event(), d.event(), f"{ctx}: event() at the iterator {got}")


def check_equivalence(anchor, name, settings, events=None):
    """Open `anchor` both ways and compare everything; `events` is the generator's count
    when known. Returns the number of events."""
    d = open_trace(anchor, False)
    m = len(d)
    kw = SETTINGS[settings]
    if m <= LARGE:
        d.close()
        d = open_trace(anchor, False, **kw)        # small: tiny bdist/hsize on both sides
    c = open_trace(anchor, True, **kw)
    ctx = f"[{name} {settings}]"
    same_static(c, d, ctx)
    assert m > 0 and (events is None or m == events), ctx
    rnd = random.Random(f"{name}/{settings}")
    # every position in order: through the merge on the cached side
    for pos, want in enumerate(d, start=1):
        same_event(c.event(pos), want, f"{ctx} event({pos})")
    # then random access in random order: restores from bookmarks
    if m <= LARGE:
        order = list(range(m + 1))
        rnd.shuffle(order)
    else:
        order = [rnd.randint(1, m) for _ in range(300)] + [m, 1, 0]
    for pos in order:
        if pos:
            same_event(c.event(pos), d.event(pos), f"{ctx} random event({pos})")
        same_state(c, d, pos, ctx)
    same_iteration(c, d, rnd, ctx)
    same_numpy(c, d, ctx)
    assert c.problems() == d.problems(), ctx
    c.close()
    d.close()
    return m


def _check_equivalence_here(anchor, name, settings, events):
    """check_equivalence in a child (see in_child)."""
    return check_equivalence(anchor, name, settings, None if events == "None" else int(events))


@pytest.mark.parametrize("name,settings", [
    (name, settings) for name in EQUIVALENCE for settings in sorted(SETTINGS)
    if (name, settings) != ("1M", "bdist7-hsize1")])        # 4 s; "long" has more blocks
def test_cached_and_direct_give_the_same_trace(archives, name, settings):
    """Large archives are compared in a child: the memory the C library keeps after they
    close (bookmarks of bdist=7, libotf2's buffers) would otherwise raise this process's
    RSS, which every child it starts later inherits as its peak (tests/test_generator.py
    measures one)."""
    anchor = anchor_of(archives, name)
    events = archives["truths"].get(name, {}).get("events")
    if name in LARGE_ARCHIVES:
        assert in_child("_check_equivalence_here", anchor, name, settings, events) > LARGE
    else:
        assert check_equivalence(anchor, name, settings, events) <= LARGE


def test_equivalence_is_not_vacuous(archives):
    """The archives of the equivalence test hold what it should compare: several blocks
    and chunks per location, every kind of pointer, problems, odd clocks."""
    long = open_trace(archives["long"], True)
    assert len(long) == 80000 and long.nrlocs() == 1
    assert (archives["long"].parent / "long" / "0.evt").stat().st_size > 2 * 256 * 1024
    gen = open_trace(archives["threads-permuted"], True)
    assert gen.nrlocs() == 9 and "fork" in gen.types() and "join" in gen.types()
    assert gen.locsym(0) != "MPI Rank 0 / Master thread"           # ranks permuted
    wide = open_trace(archives["37-locations"], True)
    assert wide.nrlocs() == 37
    types = set()
    problems = {}
    for name in ("rma", "threads", "others", "random0", "random1", "random2"):
        tr = open_trace(archives[name], True)
        types.update(tr.types())
        for k, v in tr.problems().items():
            problems[k] = problems.get(k, 0) + v["count"]
    assert {"put_1ts", "put_1te", "get_1to", "get_1te", "wlock", "wunlock", "alock",
            "rlock", "fork", "join", "metric", "parameter_string"} <= types
    assert all(problems[k] > 0 for k in ("unmatched_recv", "exit_on_empty_stack",
                                         "mismatched_exit"))
    clock = open_trace(archives["odd clock"], False)
    times = [ev["time"] for ev in clock]
    assert min(times) < 0 and max(times) >= 2 ** 41 / 1000 - 1 and times.count(-0.001) > 60
    assert clock.problems()["unmatched_recv"]["count"] == 1


@pytest.mark.parametrize("cache", [True, False], ids=["cached", "direct"])
def test_first_appearance_order_by_hand(archives, cache):
    """write_first_seen_order in time: enter main (both), exit, enter main (P0),
    program_end at 25 and region 902 at 26 (P1), buffer_flush at 30 and region 901 at 32
    (P0). The importer meets P0's whole stream first, the direct reader P0's lookahead
    first; both list what the trace meets in time order, and to_numpy's indices follow."""
    tr = open_trace(archives["first-seen order"], cache)
    types = ["enter", "exit", "send", "recv", "program_end", "buffer_flush"]
    assert tr.types() == types
    assert tr.regions() == ["main", "region 902", "region 901"]
    assert tr.groups() == ["USER", "UNKNOWN"]
    assert tr.group("region 901") == "UNKNOWN"
    rows = tr.to_numpy()
    assert [types[i] for i in rows["type"]] == [tr.event(p)["type"] for p in range(1, len(tr) + 1)]
    enters = [p for p in range(1, len(tr) + 1) if tr.event(p)["type"] == "enter"]
    assert [tr.regions()[rows["region"][p - 1]] for p in enters] == \
        ["main", "main", "main", "region 902", "region 901"]
    tr.close()


def test_first_seen_order_is_the_same(archives):
    """types(), regions() and groups() in the same order either way (the contract: both
    ways give identical results). In a child, as it opens the large archives."""
    names = [name for name in EQUIVALENCE if name in archives]
    differ = in_child("_first_seen_differences",
                      *[x for name in names for x in (name, archives[name])])
    assert not differ, "\n".join(differ)


def _first_seen_differences(*names_and_anchors):
    differ = []
    for name, anchor in zip(names_and_anchors[::2], names_and_anchors[1::2]):
        c, d = open_trace(anchor, True), open_trace(anchor, False)
        for what in ("types", "regions", "groups"):
            got, want = getattr(c, what)(), getattr(d, what)()
            if got != want:
                differ.append(f"{name}: {what}() cached {got} != direct {want}")
        c.close()
        d.close()
    return differ


# ----------------------------------------------------------------------------------------
# subprocesses
# Children use this module's helpers (its directory goes on their path).
PRELUDE = f"import sys; sys.path.insert(0, {str(HERE)!r})\n" + r'''
import json, os, time
import earl
from test_event_cache import cache_files, thread_count, quiet

def report(**values):
    print("RESULT " + json.dumps(values), flush=True)
'''


def child_env(tmpdir):
    env = dict(os.environ, TMPDIR=str(tmpdir))
    env.pop("EARL_CACHE", None)
    return env


def run_child(body, *args, tmpdir, timeout=60):
    """Run PRELUDE + body in a fresh interpreter with TMPDIR=tmpdir and args as
    sys.argv[1:]; returns what it reported. A crash or a hang fails the test."""
    code = PRELUDE + textwrap.dedent(body)
    proc = subprocess.run([sys.executable, "-c", code, *map(str, args)], env=child_env(tmpdir),
                          capture_output=True, text=True, timeout=timeout)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
    assert proc.returncode == 0 and lines, \
        f"child failed or crashed (exit {proc.returncode}):\n{proc.stderr[-3000:]}"
    return json.loads(lines[-1][len("RESULT "):])


def in_child(function, *args, timeout=120):
    """tests/test_event_cache.py's `function(*args)` (args as strings) in a fresh
    interpreter; returns its JSON result. A failed assertion shows the child's traceback."""
    code = ("import sys, json; sys.path.insert(0, sys.argv[1]); import test_event_cache as t; "
            f"print('RESULT ' + json.dumps(t.{function}(*sys.argv[2:])))")
    proc = subprocess.run([sys.executable, "-c", code, str(HERE), *map(str, args)],
                          capture_output=True, text=True, timeout=timeout)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
    assert proc.returncode == 0 and lines, \
        f"{function}{args} failed (exit {proc.returncode}):\n{proc.stderr[-4000:]}"
    return json.loads(lines[-1][len("RESULT "):])


def direct_events(anchor, positions):
    with open_trace(anchor, False) as d:
        return [d.event(p) for p in positions]


def assert_one_unlinked_cache_in(files, directory, ctx):
    assert len(files) == 1, f"{ctx}: cache files {files}"
    assert files[0].startswith(str(directory) + "/") and CACHE_NAME.search(files[0]), \
        f"{ctx}: {files[0]!r} is not an unlinked earl-cache-XXXXXX in {directory}"


# ----------------------------------------------------------------------------------------
# b. the cache file leaves nothing behind
@needs_proc
def test_cache_file_is_unlinked_at_once_and_closed_with_the_trace(archives, tmp_path):
    """While the trace opens and while it is open, its one cache file is open in $TMPDIR
    but already unlinked (the directory stays empty); close() closes it. cache=False makes
    none."""
    anchor = archives["threads-permuted"]
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    got = run_child("""
        anchor, tmpdir = sys.argv[1], sys.argv[2]
        opening = []
        def progress(fraction):
            opening.append([os.listdir(tmpdir), cache_files()])
        t = earl.EventTrace(anchor, cache=True, progress=progress)
        n = len(t)
        events = [t.event(p) for p in (1, n // 2, n)]
        is_open = [os.listdir(tmpdir), cache_files()]
        t.close()
        closed = [os.listdir(tmpdir), cache_files()]
        direct = []
        d = earl.EventTrace(anchor, cache=False, progress=lambda f: direct.append(cache_files()))
        direct.append(cache_files())
        d.close()
        report(n=n, events=events, opening=opening, is_open=is_open, closed=closed,
               direct=direct, listing=os.listdir(tmpdir))
    """, anchor, tmpdir, tmpdir=tmpdir)
    n = archives["truths"]["threads-permuted"]["events"]
    assert got["n"] == n
    assert got["events"] == direct_events(anchor, (1, n // 2, n))
    assert len(got["opening"]) >= 3                          # every 65536 events, and at the end
    for listing, files in got["opening"] + [got["is_open"]]:
        assert listing == []
        assert_one_unlinked_cache_in(files, tmpdir, "open")
    assert len({files[0] for _, files in got["opening"] + [got["is_open"]]}) == 1
    assert got["closed"] == [[], []]
    assert got["direct"] == [[]] * len(got["direct"]) and len(got["direct"]) >= 2
    assert os.listdir(tmpdir) == []


@needs_proc
def test_killed_while_opening_leaves_nothing(archives, tmp_path):
    """SIGKILL in the middle of opening a 10^6-event archive (the importer thread writing
    the cache): nothing is left in $TMPDIR."""
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    code = PRELUDE + textwrap.dedent("""
        anchor, tmpdir = sys.argv[1], sys.argv[2]
        def progress(fraction):
            print("OPENING " + json.dumps([fraction, os.listdir(tmpdir), cache_files()]),
                  flush=True)
            time.sleep(120)
        earl.EventTrace(anchor, cache=True, progress=progress)
    """)
    proc = subprocess.Popen([sys.executable, "-c", code, str(archives["1M"]), str(tmpdir)],
                            env=child_env(tmpdir), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        assert ready, "the child never reported progress"
        line = proc.stdout.readline()
        assert line.startswith("OPENING "), (line, proc.stderr.read())
        fraction, listing, files = json.loads(line[len("OPENING "):])
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()
    assert 0 < fraction < 0.5                                # killed mid-open
    assert listing == []
    assert_one_unlinked_cache_in(files, tmpdir, "opening")
    assert proc.returncode == -signal.SIGKILL
    assert os.listdir(tmpdir) == []


# ----------------------------------------------------------------------------------------
# c. where the cache goes, and where it cannot
def _regular_file(tmp_path):
    path = tmp_path / "a file"
    path.write_text("not a directory")
    return path


def _read_only_directory(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root writes into read-only directories")
    path = tmp_path / "read-only"
    path.mkdir()
    path.chmod(0o500)
    return path


UNUSABLE = {
    "missing directory": lambda tmp_path: tmp_path / "no such directory",
    "a regular file": _regular_file,
    "read-only directory": _read_only_directory,
}


@pytest.mark.parametrize("case", sorted(UNUSABLE))
def test_tmpdir_that_cannot_hold_the_cache(archives, tmp_path, monkeypatch, case):
    anchor = archives["tiny"]
    target = UNUSABLE[case](tmp_path)
    ref = Otf2Reference.load(anchor)
    monkeypatch.setenv("TMPDIR", str(target))
    threads = thread_count() if Path("/proc/self/task").is_dir() else None
    with pytest.raises(earl.EarlError) as error:
        open_trace(anchor, True)
    message = str(error.value)
    assert f"EARL's event cache in {target} cannot be created" in message, message
    assert "cache=False" in message and "TMPDIR" in message, message
    if threads is not None:
        assert thread_count() <= threads                  # no importer left running
    with open_trace(anchor, False) as t:                  # the way out the message names
        assert len(t) == ref.m == 36
        for pos, ev in enumerate(t, start=1):
            check_event(ev, ref.event(pos), f"{case}: event {pos}")
    if case == "read-only directory":
        assert os.listdir(target) == []
        target.chmod(0o700)


@needs_proc
@pytest.mark.parametrize("tmpdir", ["unset", "empty"])
def test_cache_goes_to_tmp_without_tmpdir(archives, monkeypatch, tmpdir):
    if tmpdir == "unset":
        monkeypatch.delenv("TMPDIR", raising=False)
    else:
        monkeypatch.setenv("TMPDIR", "")
    before = set(cache_files())
    seen = []
    t = earl.EventTrace(str(archives["tiny"]), cache=True,
                        progress=lambda f: seen.append(set(cache_files()) - before))
    assert seen
    for new in seen:
        assert_one_unlinked_cache_in(sorted(new), "/tmp", f"TMPDIR {tmpdir}")
    assert set(cache_files()) - before == seen[0]
    t.close()
    assert set(cache_files()) - before == set()


# ----------------------------------------------------------------------------------------
# d. a cache that cannot be written
@needs_proc
def test_cache_write_failure_is_a_clean_error(archives, tmp_path):
    """A file size limit of 64 KiB (SIGXFSZ ignored: writes fail with EFBIG) and a
    2*10^5-event archive (about a MiB of cache): EarlError, no crash, no hang, no thread
    or file left; the process goes on (cache=False, and a small cached trace, work)."""
    anchor, tiny = archives["threads-permuted"], archives["tiny"]
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    got = run_child("""
        import resource, signal
        anchor, tiny, tmpdir = sys.argv[1], sys.argv[2], sys.argv[3]
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
        limit = 64 * 1024 if hard == resource.RLIM_INFINITY else min(64 * 1024, hard)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, hard))
        threads = thread_count()
        try:
            t = earl.EventTrace(anchor, cache=True, progress=quiet)
            kind, message = "opened", str(len(t))
        except earl.EarlError as e:
            kind, message = "EarlError", str(e)
        except BaseException as e:
            kind, message = type(e).__name__, str(e)
        after = [thread_count(), cache_files(), os.listdir(tmpdir)]
        d = earl.EventTrace(anchor, cache=False, progress=quiet)
        small = earl.EventTrace(tiny, cache=True, progress=quiet)
        report(kind=kind, message=message, threads=threads, after=after, direct=len(d),
               last=d.event(len(d)), small=len(small), small_last=small.event(len(small)))
    """, anchor, tiny, tmpdir, tmpdir=tmpdir, timeout=120)
    assert got["kind"] == "EarlError", got
    message = got["message"]
    assert f"EARL's event cache in {tmpdir} cannot be written" in message, message
    assert "cache=False" in message, message
    assert got["after"] == [got["threads"], [], []]
    n = archives["truths"]["threads-permuted"]["events"]
    assert got["direct"] == n and got["last"] == direct_events(anchor, [n])[0]
    assert got["small"] == 36 and got["small_last"] == direct_events(tiny, [36])[0]
    assert os.listdir(tmpdir) == []


# ----------------------------------------------------------------------------------------
# e. interruption and many opens
@needs_proc
@BOTH_WAYS
def test_keyboard_interrupt_while_importing(archives, tmp_path, cache):
    """A progress callback raising KeyboardInterrupt at its second call stops the open of a
    10^6-event archive (at about 13 %, the importer still running) with KeyboardInterrupt;
    ten times over, then the same process opens the archive fully: right length and
    events, no thread and no cache file left over."""
    anchor = archives["1M"]
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    got = run_child("""
        anchor, cache = sys.argv[1], sys.argv[2] == "True"
        threads = thread_count()
        outcomes = []
        for attempt in range(10):
            calls = []
            def progress(fraction):
                calls.append(fraction)
                if len(calls) == 2:
                    raise KeyboardInterrupt
            try:
                earl.EventTrace(anchor, cache=cache, progress=progress)
                outcomes.append(["opened", calls])
            except KeyboardInterrupt:
                outcomes.append(["KeyboardInterrupt", calls])
        after = [thread_count(), cache_files()]
        t = earl.EventTrace(anchor, cache=cache, progress=quiet)
        n = len(t)
        report(outcomes=outcomes, threads=threads, after=after, n=n,
               events=[t.event(p) for p in (1, n // 3, n)])
    """, anchor, cache, tmpdir=tmpdir, timeout=60)
    for kind, calls in got["outcomes"]:
        assert kind == "KeyboardInterrupt" and len(calls) == 2, got["outcomes"]
        assert 0 < calls[0] < calls[1] < 0.5
    assert got["after"] == [got["threads"], []]
    n = archives["truths"]["1M"]["events"]
    assert got["n"] == n
    assert got["events"] == direct_events(anchor, (1, n // 3, n))
    assert os.listdir(tmpdir) == []


@needs_proc
@BOTH_WAYS
def test_many_opens_and_closes(archives, tmp_path, cache):
    """Twenty opens, each closed or dropped at once, then twenty traces open together:
    right results every time, quick, one cache file per open cached trace, and no thread
    or file left afterwards (in a child: twenty direct traces hold ~100 MB of libotf2
    buffers that the C library keeps after close)."""
    anchor = archives["threads"]
    ref = Otf2Reference.load(anchor)
    got = run_child("""
        import gc
        anchor, cache = sys.argv[1], sys.argv[2] == "True"
        threads, files = thread_count(), cache_files()
        start = time.monotonic()
        seen = []
        for i in range(20):
            t = earl.EventTrace(anchor, cache=cache, progress=quiet)
            seen.append([len(t), t.event(len(t)), t.event(1)])
            if i % 2:
                t.close()
            del t
        gc.collect()
        after_loop = [thread_count() - threads, cache_files()]
        many = [earl.EventTrace(anchor, cache=cache, progress=quiet, bdist=3, hsize=1)
                for _ in range(20)]
        while_open = len(cache_files()) - len(files)
        middle = [t.event(len(t) // 2) for t in many]
        for t in many[::2]:
            t.close()
        del many
        gc.collect()
        report(files=files, seen=seen, after_loop=after_loop, while_open=while_open,
               middle=middle, after=[thread_count() - threads, cache_files()],
               took=time.monotonic() - start)
    """, anchor, cache, tmpdir=tmp_path, timeout=60)
    assert got["files"] == []
    for i, (n, last, first) in enumerate(got["seen"]):
        assert n == ref.m
        check_event(last, ref.event(ref.m), f"open {i}")
        check_event(first, ref.event(1), f"open {i}")
    assert len(got["seen"]) == 20
    assert got["after_loop"] == [0, []]
    assert got["while_open"] == (20 if cache else 0)
    for i, ev in enumerate(got["middle"]):
        check_event(ev, ref.event(ref.m // 2), f"trace {i} of 20")
    assert len(got["middle"]) == 20
    assert got["after"] == [0, []]
    assert got["took"] < 30


# ----------------------------------------------------------------------------------------
# f. archives damaged deep inside, where the importer runs ahead of the merge
def _cut(path, fraction):
    data = path.read_bytes()
    path.write_bytes(data[:int(len(data) * fraction)])


def _fill(path, byte):
    data = bytearray(path.read_bytes())
    middle = len(data) // 2
    data[middle:middle + 4096] = bytes([byte]) * 4096
    path.write_bytes(bytes(data))


DAMAGE = {
    "location 2 cut at 60 %": lambda d: _cut(d / "run" / "2.evt", 0.6),
    "0xff in the middle of location 1": lambda d: _fill(d / "run" / "1.evt", 0xFF),
    "zeros in the middle of location 1": lambda d: _fill(d / "run" / "1.evt", 0x00),
}

OPEN_BOTH = """
    anchor = sys.argv[1]
    out = {}
    for strict in (True, False):
        for cache in (True, False):
            threads = thread_count()
            key = f"{cache} {'strict' if strict else 'lenient'}"
            try:
                t = earl.EventTrace(anchor, cache=cache, strict=strict, progress=quiet)
                n = len(t)
                damaged = t.problems().get("damaged", {"locations": []})["locations"]
                out[key] = {"kind": "ok", "len": n, "last": t.event(n) if n else None,
                            "damaged": [d["message"] for d in damaged]}
                t.close()
            except earl.EarlError as e:
                out[key] = {"kind": "EarlError", "message": str(e)}
            out[key]["left"] = [thread_count() - threads, cache_files()]
    report(**out)
"""


@needs_proc
@pytest.mark.parametrize("case", sorted(DAMAGE))
def test_archive_damaged_deep_inside(archives, tmp_path, case):
    """The 10^6-event archive with one location file damaged past its first chunk: both
    ways give, with strict, an EarlError naming the archive (cut, garbage), and without it
    the same trace read up to the damage with the damage named; zeros, which libotf2 takes
    for the end of a chunk, give the same shorter trace either way; nothing left running
    or open."""
    src = archives["1M"]
    d = tmp_path / "damaged"
    shutil.copytree(src.parent, d)
    anchor = d / src.name
    assert (d / "run" / "1.evt").stat().st_size > 2 * 2 ** 20        # several chunks
    DAMAGE[case](d)
    got = run_child(OPEN_BOTH, anchor, tmpdir=tmp_path, timeout=60)
    for outcome in got.values():
        assert outcome.pop("left") == [0, []], (case, got)
    cached, direct = got["True strict"], got["False strict"]
    lenient_cached, lenient_direct = got["True lenient"], got["False lenient"]
    assert lenient_cached == lenient_direct and lenient_cached["kind"] == "ok", got
    assert lenient_cached["len"] < archives["truths"]["1M"]["events"]
    if case.startswith("zeros"):
        assert cached == direct and cached["kind"] == "ok", got
        assert cached == dict(lenient_cached, damaged=[]), got
    else:
        for outcome in (cached, direct):
            assert outcome["kind"] == "EarlError" and str(anchor) in outcome["message"], got
        [damage] = lenient_cached["damaged"]
        location = "location 2" if "location 2" in case else "location 1"
        assert damage.startswith(f"{anchor}: {location} "), got


@needs_proc
def test_cut_archive_whose_definitions_announce_no_count(archives, tmp_path):
    """write_long's archive with number_of_events 0 in its Location definition, cut at
    60 %: with strict, EarlError naming the archive; without, read up to the damage. The child's files are limited to 64 MiB (a runaway
    cache must not fill the disk) and it has 4 s (an intact open takes milliseconds)."""
    src = archives["zero announced"]
    d = tmp_path / "cut"
    shutil.copytree(src.parent, d)
    anchor = d / src.name
    with open_trace(src, True) as intact:
        assert len(intact) == 80000
    _cut(d / "unannounced" / "0.evt", 0.6)
    for cache in (True, False):
        got = run_child("""
            import resource, signal
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
            resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 2 ** 20, hard))
            try:
                t = earl.EventTrace(sys.argv[1], cache=sys.argv[2] == "True", strict=sys.argv[3] == "True",
                                    progress=quiet)
                report(kind="ok", message=t.problems()["damaged"]["locations"][0]["message"])
            except earl.EarlError as e:
                report(kind="EarlError", message=str(e))
        """, anchor, cache, True, tmpdir=tmp_path, timeout=4)
        assert got["kind"] == "EarlError", (cache, got)
        assert str(anchor) in got["message"] and "event cache" not in got["message"], (cache, got)
    for cache in (True, False):  # without strict: read up to the damage, which is named
        got = run_child("""
            t = earl.EventTrace(sys.argv[1], cache=sys.argv[2] == "True", progress=quiet)
            report(kind="ok", message=t.problems()["damaged"]["locations"][0]["message"])
        """, anchor, cache, tmpdir=tmp_path, timeout=4)
        assert got["message"].startswith(f"{anchor}: location 0 "), (cache, got)
