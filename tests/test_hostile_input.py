"""Hostile input and misbehaving callers (issue 12, part 1): each class of failure that a
trial of about 21,000 hostile cases found, with the hostile file written here.

- duplicate OTF2 definitions: rejected with an error naming the definition (both reading
  paths; before, cache=False crashed and the cache read one location's events as another's);
- special files (named pipes) as a trace, as an anchor in a directory and as one
  location's event file: an error at once instead of an open() blocked forever;
- a progress callback that calls back into the trace it reports on: EarlError saying the
  trace is busy, raised out of the call, and the trace usable afterwards (before: deadlock);
- paths and names of any bytes: carried as surrogate escapes, messages with \\xNN, never
  UnicodeDecodeError/TypeError, and `earl info` without a traceback;
- an absurd ALOG -3 location count: an error naming the record; memory follows the
  locations used, not the count declared;
- LF, CRLF and CR-only ALOG files read the same (also a CRLF split by the read buffer);
- positions: int and __index__ only (TypeError for float, str, Decimal, Fraction), 2^64
  an EarlError, in Python; Lua and Tcl keep their own integer rules;
- an exception raised by a progress callback reaches the caller as itself;
- P2Statistic shared by threads loses no value under concurrent add_many.
"""
import os
import subprocess
import sys
import textwrap
import threading
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import earl
from alog_traces import write_alog

HERE = Path(__file__).resolve().parent
# A hang guard for tests of open() on special files: a regression blocks forever, which
# the child's timeout turns into a failure (it measures nothing).
HANG_GUARD = 120


def run_child(code, *args):
    """Runs `code` in a fresh interpreter (sys.path holds tests/); returns the result."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args], env=env,
                          capture_output=True, timeout=HANG_GUARD)


def earl_cli(*args):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-m", "earl.cli", *args], env=env,
                          capture_output=True, timeout=HANG_GUARD)


SMALL = ["-13 0 1 2 0 0 main", "-101 0 0 1 0 5 7 4", "1 0 0 0 0 10", "1 1 0 0 0 11",
         "-102 1 0 0 0 12 7 4", "2 1 0 0 0 20", "2 0 0 0 0 21"]


def events_of(trace):
    return [trace.event(p) for p in range(1, len(trace) + 1)]


# =================================================================== OTF2 definitions
def _archive_with_duplicate(directory, kind):
    otf2_archives = pytest.importorskip("otf2_archives")
    aw = otf2_archives.ArchiveWriter(directory, "dup", 1000)
    a, = aw.process("MPI Rank 0", ids=[5])
    b, = aw.process("MPI Rank 1", ids=[6])
    main = aw.region("main")
    other = aw.region("other")
    for loc, region in ((a, main), (b, other)):
        e = aw.ev(loc)
        e.enter(otf2_archives.T(1), region)
        e.leave(otf2_archives.T(2), region)
    # The PyPI writer refuses two definitions with one id: give the second the first's id
    # once its events are written.
    if kind == "Location":
        b._ref = a._ref
    else:
        other._ref = main._ref
    return aw.close()


@pytest.mark.parametrize("cache", [True, False], ids=["cached", "direct"])
@pytest.mark.parametrize("kind, ident", [("Location", 5), ("Region", None)])
def test_duplicate_definitions_are_rejected_naming_them(tmp_path, cache, kind, ident, capfd):
    pytest.importorskip("otf2")
    anchor = _archive_with_duplicate(tmp_path, kind)
    import otf2
    with pytest.raises(Exception):   # the official reader rejects the archive too
        with otf2.reader.open(str(anchor)) as trace:
            list(trace.events)
    assert f"Duplicate definition: {kind} [" in capfd.readouterr().err
    with pytest.raises(earl.EarlError) as raised:
        earl.EventTrace(anchor, cache=cache, progress=lambda f: None)
    message = str(raised.value)
    assert message.startswith(str(anchor)) and f"two {kind} definitions with id" in message
    if ident is not None:
        assert message.endswith(f"id {ident}")


# =================================================================== special files
def test_a_named_pipe_as_trace_is_an_error_at_once(tmp_path):
    fifo = tmp_path / "trace.alog"
    os.mkfifo(fifo)
    child = run_child("""
        import sys, earl
        for fmt in (None, "alog", "otf2"):
            try:
                earl.EventTrace(sys.argv[1], format=fmt, progress=lambda f: None)
            except earl.EarlError as e:
                print(e)
        """, str(fifo))
    lines = child.stdout.decode().splitlines()
    assert child.returncode == 0, child.stderr.decode()
    assert lines == [f"{fifo}: is a named pipe (FIFO), not a trace file (EARL reads regular files)"] * 3


def test_a_named_pipe_among_an_archive_is_an_error_at_once(tmp_path):
    otf2_archives = pytest.importorskip("otf2_archives")
    # As the anchor inside a directory: not taken for an anchor.
    holder = tmp_path / "dir"
    holder.mkdir()
    os.mkfifo(holder / "fake.otf2")
    # As one location's event file.
    anchor = otf2_archives.write_tiny(tmp_path / "arc")
    event_file = anchor.with_suffix("") / "1.evt"
    assert event_file.exists()
    event_file.unlink()
    os.mkfifo(event_file)
    child = run_child("""
        import sys, earl
        for path, cache in ((sys.argv[1], True), (sys.argv[2], True), (sys.argv[2], False)):
            try:
                earl.EventTrace(path, cache=cache, progress=lambda f: None)
            except earl.EarlError as e:
                print(e)
        """, str(holder), str(anchor))
    assert child.returncode == 0, child.stderr.decode()
    lines = child.stdout.decode().splitlines()
    assert lines[0].startswith(f"{holder}: is a directory holding no trace")
    assert lines[1:] == [f"{event_file}: is a named pipe (FIFO), not a trace file "
                         "(EARL reads regular files)"] * 2


# =================================================================== callbacks
FAR = 69_980  # outside the history window (the last 10 events) after opening


@pytest.fixture(scope="module")
def long_alog(tmp_path_factory):
    """70,000 events: a far jump with bdist=0 decodes more than 2^16 events and so reports
    progress."""
    lines = ["-13 0 1 2 0 0 main"]
    for i in range(35_000):
        lines += [f"1 0 0 0 0 {2 * i}", f"2 0 0 0 0 {2 * i + 1}"]
    return write_alog(tmp_path_factory.mktemp("long"), lines)


@pytest.mark.parametrize("call", ["event", "close", "next", "stack"])
def test_a_progress_callback_calling_its_trace_gets_busy_and_the_trace_stays_usable(long_alog, call):
    trace = earl.EventTrace(long_alog, bdist=0, hsize=10, progress=lambda f: None)
    reports = []

    def reenter(fraction):
        reports.append(fraction)
        {"event": lambda: trace.event(1), "close": trace.close, "next": trace.next,
         "stack": lambda: trace.stack(0, 5)}[call]()

    trace.progress = reenter
    with pytest.raises(earl.EarlError, match="the trace is busy: its progress callback cannot"):
        trace.event(FAR)
    assert len(reports) == 1        # the first report raised: the work stopped there
    trace.progress = lambda f: None
    assert not trace.closed and trace.iterator == 0
    assert trace.event(FAR) == {"pos": FAR, "loc": 0, "time": 0.069979, "type": "exit",
                                "enterptr": FAR - 1, "region": "main"}
    assert trace.event(1)["time"] == 0.0


class Mine(Exception):
    pass


@pytest.mark.parametrize("when", ["open", "jump"])
def test_a_callbacks_own_exception_reaches_the_caller_as_itself(long_alog, when):
    mine = Mine("from the callback")

    def raising(fraction):
        raise mine

    with pytest.raises(Mine) as raised:
        if when == "open":
            earl.EventTrace(long_alog, bdist=0, progress=raising)
        else:
            trace = earl.EventTrace(long_alog, bdist=0, hsize=10, progress=lambda f: None)
            trace.progress = raising
            trace.event(FAR)
    assert raised.value is mine


def test_a_callbacks_exception_reaches_the_caller_from_an_otf2_import(tmp_path, otf2_cache):
    otf2_archives = pytest.importorskip("otf2_archives")
    anchor = otf2_archives.write_long(tmp_path, pairs=40_000)
    mine = Mine("import")

    def raising(fraction):
        raise mine

    with pytest.raises(Mine) as raised:
        earl.EventTrace(anchor, cache=otf2_cache, progress=raising)
    assert raised.value is mine


# =================================================================== bytes in names and paths
NOT_UTF8 = b"tr\xffce \xe9t\xe9"


def test_paths_of_any_bytes_open_as_str_bytes_and_pathlike(tmp_path):
    directory = os.fsencode(tmp_path) + b"/" + NOT_UTF8
    os.mkdir(directory)
    path = directory + b"/run.alog"
    with open(path, "w") as out:
        out.write("\n".join(SMALL) + "\n")
    as_str = os.fsdecode(path)
    expected = None
    for given in (path, as_str, Path(as_str)):
        trace = earl.EventTrace(given, progress=lambda f: None)
        assert trace.file() == as_str and os.fsencode(trace.file()) == path
        expected = expected or events_of(trace)
        assert events_of(trace) == expected and len(expected) == 6
    for bad in (3, 2.5, None):
        with pytest.raises(TypeError, match="str, bytes or os.PathLike"):
            earl.EventTrace(bad)
        with pytest.raises(TypeError, match="file must be a str, bytes or os.PathLike, not"):
            earl._core.EventTrace(bad, None, 10, 10, None, False)


def test_errors_about_such_paths_are_earl_errors_with_escapes(tmp_path):
    path = os.fsencode(tmp_path) + b"/" + NOT_UTF8 + b".alog"
    with open(path, "w") as out:
        out.write("-13 0 1 2 0 0 main\n1 0 0 0 0 x\n")
    with pytest.raises(earl.EarlError) as raised:
        earl.EventTrace(path, progress=lambda f: None)
    assert str(raised.value) == (f"{tmp_path}/tr\\xffce \\xe9t\\xe9.alog: line 2: "
                                 "field timestamp is not an integer: 'x'")
    missing = os.fsencode(tmp_path) + b"/\xfe.alog"
    with pytest.raises(earl.EarlError, match=r"\\xfe\.alog: cannot open: No such file"):
        earl.EventTrace(missing)


def test_names_of_any_bytes_in_a_trace_round_trip(tmp_path):
    path = tmp_path / "names.alog"
    path.write_bytes(b"-13 0 1 2 0 0 red:dots r\xe9gion \xff\n-15 0 0 0 0 0 rank \xfe\n"
                     b"1 0 0 0 0 1\n2 0 0 0 0 2\n")
    trace = earl.EventTrace(path, progress=lambda f: None)
    name = b"r\xe9gion \xff".decode("utf-8", "surrogateescape")
    assert trace.regions() == [name] and trace.regions("All") == [name]
    assert trace.event(1)["region"] == name and trace.group(name) == "All"
    assert trace.locsym(0) == b"rank \xfe".decode("utf-8", "surrogateescape")
    assert trace.to_numpy()["region"].tolist() == [0, 0]
    with pytest.raises(earl.EarlError, match=r"unknown region 'r\\xe9gion'"):
        trace.group("r\udce9gion")


def test_earl_info_on_such_names_and_paths_prints_no_traceback(tmp_path):
    good = os.fsencode(tmp_path) + b"/" + NOT_UTF8 + b".alog"
    with open(good, "wb") as out:
        out.write(b"-13 0 1 2 0 0 red:dots r\xe9gion\n1 0 0 0 0 1\n2 0 0 0 0 2\n")
    bad = os.fsencode(tmp_path) + b"/\xff.alog"
    with open(bad, "wb") as out:
        out.write(b"1 0 0 0 0 1\n")
    shown = earl_cli("info", os.fsdecode(good))
    assert shown.returncode == 0, shown.stderr
    # printed as the bytes they are, as ls and cat do
    assert b"file:      " + good + b"\n" in shown.stdout
    assert b"regions:   1 in group All: r\xe9gion\n" in shown.stdout
    failed = earl_cli("info", os.fsdecode(bad))
    assert failed.returncode == 1 and b"Traceback" not in failed.stderr
    assert failed.stderr.decode() == (f"earl: {tmp_path}/\\xff.alog: line 1: event type 1 "
                                      "is not defined in the header\n")


# =================================================================== absurd location counts
@pytest.mark.parametrize("count", [2 ** 31 - 1, 10 ** 8, 2 ** 24 + 1])
def test_an_absurd_declared_location_count_is_an_error_naming_the_record(tmp_path, count):
    path = write_alog(tmp_path, ["-13 0 1 2 0 0 main", f"-3 0 0 {count} 0 0",
                                 "1 0 0 0 0 1", "2 0 0 0 0 2"])
    with pytest.raises(earl.EarlError) as raised:
        earl.EventTrace(path, progress=lambda f: None)
    assert str(raised.value) == (f"{path}: line 2: the -3 record declares {count} processes, "
                                 "more than the 16777216 locations EARL reads (a damaged header?)")


def test_memory_follows_the_locations_used_not_those_declared(tmp_path):
    """2^24 declared locations, two used: the child's peak memory (VmHWM) stays near what
    the same trace costs declaring 2 (a location name or stack per declared location would
    cost 32 bytes each, 512 MiB)."""
    peaks = []
    for count in (3, 2 ** 24):
        path = write_alog(tmp_path, ["-13 0 1 2 0 0 main", f"-3 0 0 {count} 0 0",
                                     "-15 1 0 0 0 0 one", "1 0 0 0 0 1", "1 1 0 0 0 1",
                                     "2 0 0 0 0 2", "2 1 0 0 0 2"], name=f"c{count}.alog")
        child = run_child("""
            import sys, earl
            t = earl.EventTrace(sys.argv[1], progress=lambda f: None)
            last = t.nrlocs() - 1
            assert (t.locsym(0), t.locsym(1), t.locsym(last)) == (0, "one", last), t.locsym(1)
            print(t.nrlocs(), len(t), t.stack(last, 4), t.queue(-1, last, 4))
            print(next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM")))
            """, path)
        assert child.returncode == 0, child.stderr.decode()
        summary, peak = child.stdout.decode().splitlines()
        assert summary == f"{count} 4 [] []"
        peaks.append(int(peak))
    assert peaks[1] - peaks[0] < 64 * 1024, peaks   # kB: far below 512 MiB


# =================================================================== line endings
def test_lf_crlf_and_cr_only_files_read_the_same(tmp_path):
    text = "\n".join(["-13 0 1 2 0 0 main", "-9 0 0 30 0 0 checkpoint", "-15 0 0 0 0 0 rank zero",
                      "", *SMALL[1:], "30 0 0 7 0 30 done"]) + "\n"
    traces = {}
    for name, ending in (("lf", "\n"), ("crlf", "\r\n"), ("cr", "\r")):
        path = tmp_path / f"{name}.alog"
        path.write_bytes(text.replace("\n", ending).encode())
        t = earl.EventTrace(path, progress=lambda f: None)
        traces[name] = (events_of(t), t.locsym(0), t.types(), t.problems())
    assert traces["lf"] == traces["crlf"] == traces["cr"]
    assert len(traces["lf"][0]) == 7 and traces["lf"][1] == "rank zero"
    assert traces["lf"][0][-1]["type"] == "checkpoint"


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
def test_line_numbers_agree_across_endings_and_the_read_buffer(tmp_path, ending):
    """A long comment puts the line ending across the reader's 1 MiB buffer boundary; an
    error three lines later names the same line in every convention."""
    head = "-13 0 1 2 0 0 main"
    pad = "1 0 0 0 0 1 "
    filler = pad + "x" * (2 ** 20 - len(head) - len(ending) - len(pad) - 1)  # \r at byte 2^20 - 1
    lines = [head, filler, "2 0 0 0 0 2", "", "1 0 0 0 0 oops"]
    path = tmp_path / "long.alog"
    path.write_bytes(ending.join(lines).encode() + ending.encode())
    assert path.read_bytes()[2 ** 20 - 1:2 ** 20 + 1].startswith(ending[:1].encode())
    with pytest.raises(earl.EarlError) as raised:
        earl.EventTrace(path, strict=True, progress=lambda f: None)
    assert str(raised.value) == f"{path}: line 5: field timestamp is not an integer: 'oops'"


# =================================================================== positions
class Index:
    def __init__(self, value):
        self.value = value

    def __index__(self):
        return self.value


@pytest.fixture
def small(tmp_path):
    return earl.EventTrace(write_alog(tmp_path, SMALL), progress=lambda f: None)


def test_positions_accept_int_and_index_objects(small):
    first = small.event(1)
    assert small.event(np.int64(1)) == first == small.event(Index(1)) == small.event(np.uint8(1))
    assert small.jump(Index(3)) == 3 and small.iterator == 3
    assert small.stack(Index(0), np.int32(3)) == small.stack(0, 3) == [2]
    assert small.queue(Index(-1), np.int16(-1), Index(1)) == [1]
    assert small.locsym(np.int64(1)) == 1


@pytest.mark.parametrize("bad", [1.0, 2.5, "1", Decimal(1), Fraction(1), None.__class__, b"1"])
def test_positions_of_other_types_are_type_errors(small, bad):
    for call in (lambda: small.event(bad), lambda: small.values(bad), lambda: small.jump(bad),
                 lambda: small.stack(0, bad), lambda: small.queue(-1, -1, bad),
                 lambda: small.stack(bad, 1), lambda: small.queue(bad, -1, 1),
                 lambda: small.locsym(bad)):
        with pytest.raises(TypeError, match="must be an integer \\(int or an object with __index__\\), not"):
            call()
    assert small.iterator == 0


def test_positions_beyond_64_bits_are_clear_errors(small, tmp_path):
    huge = 2 ** 64
    with pytest.raises(earl.EarlError, match=f"no event at position {huge} "):
        small.event(huge)
    with pytest.raises(earl.EarlError, match=f"no event at position {huge} "):
        small.stack(0, huge)
    assert small.jump(huge) == 0 and small.jump(-huge) == 0 and small.iterator == 0
    with pytest.raises(earl.EarlError, match=f"loc {huge} is not a location"):
        small.stack(huge, 1)
    with pytest.raises(earl.EarlError, match="no event at position 18446744073709551615 "):
        small.event(2 ** 64 - 1)
    with pytest.raises(TypeError, match="bdist must be an integer"):
        earl.EventTrace(write_alog(tmp_path, SMALL, name="b.alog"), bdist=10.0)


def test_lua_and_tcl_positions_follow_their_own_integer_rules(tmp_path):
    """Lua: integers and floats with an exact integer value (Lua's own rule, as in
    string.sub), no strings; Tcl: integers as Tcl reads them, nothing beyond 64 bits."""
    path = write_alog(tmp_path, SMALL)
    lupa = pytest.importorskip("lupa.lua54")  # noqa: F841
    import earl.lua
    lua = earl.lua.runtime()
    lua.globals().path = path
    lua.execute("e = EventTrace(path)")
    assert lua.eval("e:event(2.0).pos") == 2
    for code, message in (("e:event(1.5)", "pos must be an integer (got 1.5)"),
                          ('e:event("1")', "pos must be an integer (got string)"),
                          ("e:event(2^64)", "pos must be an integer from -2^63 to 2^63-1 (got 1.8446744073709552e+19)"),
                          ("e:jump(0.5)", "pos must be an integer (got 0.5)")):
        ok, error = lua.execute(f"return pcall(function() {code} end)")
        assert ok is False and error.endswith(message), error
    import tkinter
    import earl.tcl
    tcl = earl.tcl.interpreter()
    tcl.tk.call("set", "path", path)
    tcl.eval("EventTrace e -file $path")
    assert tcl.eval("e event a 2") == "2"
    for pos in ("1.5", "one", "18446744073709551616", "18446744073709551615"):
        with pytest.raises(tkinter.TclError):
            tcl.eval(f"e event a {pos}")
    assert tcl.eval("e iterator") == "0"


# =================================================================== P2Statistic and threads
def test_p2statistic_shared_by_threads_loses_no_value():
    shared = earl.P2Statistic()
    chunks, per_chunk, threads = 40, 5_000, 8
    barrier = threading.Barrier(threads)

    def work(k):
        barrier.wait()
        for c in range(chunks):
            start = (k * chunks + c) * per_chunk
            shared.add_many(np.arange(start, start + per_chunk, dtype=np.float64))
            shared.add(-1.0)

    workers = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    n = threads * chunks * per_chunk
    assert shared.count() == n + threads * chunks
    assert shared.sum() == n * (n - 1) / 2 - threads * chunks   # exact: integers below 2^53
    assert shared.min() == -1.0 and shared.max() == n - 1
