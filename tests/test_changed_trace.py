"""A trace that changes while open (issue 22, class 11): re-reading it after the opening
scan gets one EarlError "FILE changed since it was opened (...)" from every entry point
(event, stack, queue, to_numpy, iteration), through the cache and directly; never the
decoder's symptoms (RuntimeError "Caught an unknown exception!" from an unsorted-input
restart escaping, bad_alloc, IndexError) and never events of another trace. The check
(cpp/trace/event_trace.cpp, check_unchanged) compares each file's size and modification
time with those at opening before every restore from a bookmark, and after any failure
while re-reading."""
import os
import shutil

import pytest

import earl
from alog_traces import write_alog

otf2_archives = pytest.importorskip("otf2_archives")
from otf2_archives import write_long  # noqa: E402

CHANGED = r"changed since it was opened"
PAIRS = 4000


def alog_lines():
    """Location 0 alternates enter/exit of main, 10 us apart: 2 * PAIRS events."""
    return ["-13 0 1 2 0 0 main"] + [f"{1 + i % 2} 0 0 0 0 {10 * i + 10}" for i in range(2 * PAIRS)]


@pytest.fixture
def alog(tmp_path):
    path = write_alog(tmp_path, alog_lines(), "run.alog")
    return path, earl.EventTrace(path, bdist=100, hsize=10, index=False)


def far_reads(t):
    """Every entry point that re-reads outside the window (the last hsize=10 events stay
    decoded from the opening scan and are answered without reading)."""
    n = len(t)
    return [lambda: t.event(n - 50), lambda: t.event(1), lambda: t.stack(0, n // 2),
            lambda: t.queue(-1, -1, n // 3), lambda: t.to_numpy(1, 50), lambda: list(t)]


def assert_changed(t, reason):
    for read in far_reads(t):
        with pytest.raises(earl.EarlError, match=f"^{t.file()} {CHANGED} \\({reason}\\)$"):
            read()


def test_an_alog_rewritten_in_place_with_the_same_size(alog):
    path, t = alog
    assert t.event(2)["type"] == "exit"
    data = open(path).read()
    swapped = data.replace("\n1 0 ", "\n# 0 ").replace("\n2 0 ", "\n1 0 ").replace("\n# 0 ", "\n2 0 ")
    assert len(swapped) == len(data) and swapped != data
    with open(path, "r+") as f:
        f.write(swapped)
    assert_changed(t, "it was modified")


def test_a_reordered_alog_whose_size_and_time_look_the_same(alog):
    """Times that go backwards after the opening scan sorted nothing: the reader's restart
    of an unsorted input (it escaped as "Caught an unknown exception!") is the error."""
    path, t = alog
    before = os.stat(path)
    data = open(path).read()
    # event 2050 at 20500 us becomes 10500 us: earlier than the events before it, which
    # reading event 2060 from the bookmark at 2001 meets
    changed = data.replace("\n2 0 0 0 0 20500\n", "\n2 0 0 0 0 10500\n")
    assert len(changed) == len(data) and changed != data
    with open(path, "r+") as f:
        f.write(changed)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    with pytest.raises(earl.EarlError, match=f"^{path} {CHANGED} \\(its events are in another order\\)$"):
        t.event(2060)
    # the trace is not left half-way: the same error again, never a stale event
    with pytest.raises(earl.EarlError, match=CHANGED):
        t.event(2060)


@pytest.mark.parametrize("change, reason", [
    ("truncated", "it changed size"),
    ("grown", "it changed size"),
    ("deleted", "it is gone or no longer a file"),
    ("directory", "it is gone or no longer a file"),
])
def test_an_alog_cut_grown_deleted_or_replaced(alog, change, reason):
    path, t = alog
    if change == "truncated":
        os.truncate(path, 0)
    elif change == "grown":
        with open(path, "a") as f:
            f.write("1 0 0 0 0 999999\n")
    else:
        os.remove(path)
        if change == "directory":
            os.mkdir(path)
    assert_changed(t, reason)


def cut_in_half(archive_dir):
    for evt in archive_dir.glob("*.evt"):
        os.truncate(evt, evt.stat().st_size // 2)


def test_an_otf2_archive_whose_event_files_are_cut_in_half(tmp_path):
    """Read directly (cache=False): bad_alloc or IndexError before."""
    anchor = str(write_long(tmp_path, pairs=PAIRS))
    t = earl.EventTrace(anchor, cache=False, bdist=100, hsize=10, index=False)
    assert len(t) == 2 * PAIRS
    cut_in_half(tmp_path / "long")
    assert_changed(t, f"{tmp_path}/long/0.evt changed size")


def test_through_the_cache_the_trace_opened_is_read_on(tmp_path):
    """The event cache holds every event once the opening scan has read them: re-reads
    come from it, so the answers stay those of the trace that was opened."""
    anchor = str(write_long(tmp_path, pairs=PAIRS))
    t = earl.EventTrace(anchor, cache=True, bdist=100, hsize=10, index=False)
    before = t.to_numpy()
    cut_in_half(tmp_path / "long")
    assert (t.to_numpy() == before).all()
    assert t.event(1)["time"] == before["time"][0]


def test_an_unchanged_trace_reads_on_and_a_copy_is_no_change(alog, tmp_path):
    path, t = alog
    shutil.copy(path, tmp_path / "other.alog")   # another file: the open trace is the same
    assert [t.event(p)["time"] for p in (len(t), 1, len(t) // 2)] == [
        2 * PAIRS * 1e-05, 1e-05, PAIRS * 1e-05]
