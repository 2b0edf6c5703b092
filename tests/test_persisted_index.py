"""The persisted index (cpp/index/): a second open of an unchanged trace reads the
bookmarks (and, for OTF2, the event cache) the first one saved, and answers exactly as a
fresh open; a damaged, truncated or stale index, or one a writer killed mid-way left, is
rebuilt with a note, never used. Ground truth: the reference model of the ALOG trace
(tests/reference_model.py) and a fresh open with index=False."""
import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest

import earl
from earl import _core
from earl.generate import generate
from reference_model import ReferenceTrace


def quiet(fraction):
    return True


def open_trace(path, **options):
    options.setdefault("progress", quiet)
    return earl.EventTrace(str(path), **options)


def make_trace(directory, name, events, seed=3, **options):
    path = directory / name
    generate(str(path), events=events, seed=seed, locations=4,
                  truth_path=str(directory / (name + ".truth.json")), **options)
    return path


def index_files(directory):
    return sorted(p.name for p in directory.iterdir()) if directory.exists() else []


def answers(trace, probes):
    """What a trace says at `probes` (positions, locations): events, stacks, queues."""
    out = [len(trace), trace.problems(), trace.types(), trace.regions(), trace.nrlocs()]
    for pos, loc in probes:
        out += [trace.event(pos), trace.stack(loc, pos), trace.queue(-1, -1, pos),
                trace.queue(loc, -1, pos)]
    return out


def probes_for(size, nrlocs, count, seed=7):
    rng = random.Random(seed)
    return [(rng.randint(1, size), rng.randrange(nrlocs)) for _ in range(count)]


def test_alog_index_loads_and_matches_the_reference_model(tmp_path, index_dir):
    path = make_trace(tmp_path, "t.alog", 3000)
    first = open_trace(path, bdist=200)
    assert first.index_info()["state"] == "built"
    first.close()
    trace = open_trace(path, bdist=200)
    assert trace.index_info()["state"] == "loaded", trace.index_info()
    assert trace.index_info()["note"] == ""
    ref = ReferenceTrace.load(str(path))
    assert len(trace) == ref.m
    assert trace.problems() == ref.problems()
    rng = random.Random(11)
    for _ in range(300):  # far jumps in both directions restore loaded bookmarks
        pos = rng.randint(0, ref.m)
        loc = rng.randrange(trace.nrlocs())
        assert trace.stack(loc, pos) == ref.stack(loc, pos)
        assert trace.queue(-1, -1, pos) == ref.queue(-1, -1, pos)
        if pos:
            event = trace.event(pos)
            assert (event["loc"], event["type"]) == (ref.event(pos).loc, ref.event(pos).type)
            assert event["time"] == pytest.approx(ref.event(pos).time, abs=1e-9)
    fresh = open_trace(path, bdist=200, index=False)
    assert fresh.index_info() == {"path": None, "state": "off", "note": "turned off (index=False)"}
    assert list(trace) == list(fresh)


def test_otf2_index_keeps_the_event_cache(tmp_path, index_dir):
    pytest.importorskip("otf2")
    if "otf2" not in _core.known_formats():
        pytest.skip("this build reads no OTF2")
    path = make_trace(tmp_path, "t.otf2", 4000)
    open_trace(path, bdist=300).close()
    trace = open_trace(path, bdist=300)
    assert trace.index_info()["state"] == "loaded", trace.index_info()
    fresh = open_trace(path, bdist=300, index=False)
    probes = probes_for(len(fresh), fresh.nrlocs(), 200)
    assert answers(trace, probes) == answers(fresh, probes)
    assert list(trace) == list(fresh)
    assert trace.bookmarks()["count"] == fresh.bookmarks()["count"]
    # Another bdist: the bookmarks are made again, scanning the persisted event cache.
    other = open_trace(path, bdist=700)
    assert other.index_info()["state"] == "rebuilt"
    assert "other options (bdist 300" in other.index_info()["note"]
    fresh_other = open_trace(path, bdist=700, index=False)
    assert answers(other, probes) == answers(fresh_other, probes)
    assert other.bookmarks() == fresh_other.bookmarks()
    assert open_trace(path, bdist=700).index_info()["state"] == "loaded"
    # A location's event file inside the archive, modified: the archive changed.
    event_file = sorted((tmp_path / "t").iterdir())[0]
    os.utime(event_file, ns=(event_file.stat().st_atime_ns, event_file.stat().st_mtime_ns + 10**9))
    info = open_trace(path, bdist=700).index_info()
    assert info["state"] == "rebuilt" and f"t/{event_file.name} was modified" in info["note"]
    # The direct reader (cache=False) keeps no state: no index, and it says so.
    direct = open_trace(path, bdist=300, cache=False)
    assert direct.index_info()["state"] == "off"
    assert "keeps no index" in direct.index_info()["note"]


@pytest.mark.parametrize("fmt", _core.generator_formats())
def test_every_format_is_served_from_its_index(tmp_path, index_dir, fmt):
    """Issue 23: the persisted index works for each format (its reader's own state, or the
    event cache for formats read through it): the second open loads it and answers as a
    fresh open without an index."""
    ending = next(row["extensions"][0] for row in _core.formats() if row["name"] == fmt)
    path = make_trace(tmp_path, "t" + ending, 3000, threads=2, late_sender_rate=0.2)
    open_trace(path, bdist=250).close()
    trace = open_trace(path, bdist=250)
    assert trace.index_info()["state"] == "loaded", (fmt, trace.index_info())
    fresh = open_trace(path, bdist=250, index=False)
    probes = probes_for(len(fresh), fresh.nrlocs(), 100)
    assert answers(trace, probes) == answers(fresh, probes)
    assert list(trace) == list(fresh)


def test_index_is_off_when_asked_and_for_small_traces(tmp_path, monkeypatch):
    path = make_trace(tmp_path, "t.alog", 500)
    monkeypatch.delenv("EARL_INDEX_DIR", raising=False)
    monkeypatch.delenv("EARL_INDEX_MIN_BYTES", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    info = open_trace(path).index_info()  # far below the default 64 MiB
    assert info["state"] == "off" and "smaller than" in info["note"]
    monkeypatch.setenv("EARL_INDEX_MIN_BYTES", "0")
    assert open_trace(path, index=False).index_info()["state"] == "off"
    monkeypatch.setenv("EARL_INDEX", "0")
    assert open_trace(path).index_info()["note"] == "turned off (EARL_INDEX=0)"
    assert sorted(os.listdir(tmp_path)) == ["t.alog", "t.alog.truth.json"]
    # index=True indexes whatever the size, beside the trace when its directory is writable.
    monkeypatch.setenv("EARL_INDEX_MIN_BYTES", "1000000000")
    info = open_trace(path, index=True).index_info()
    assert info["state"] == "built" and info["path"] == str(path) + ".earlidx"
    with pytest.raises(TypeError, match="index must be True, False or None"):
        open_trace(path, index=1)
    monkeypatch.setenv("EARL_INDEX", "2")
    with pytest.raises(earl.EarlError, match="EARL_INDEX must be 0 or 1"):
        open_trace(path)


def test_no_index_is_read_or_written_for_a_clock_corrected_trace(tmp_path, index_dir):
    path = make_trace(tmp_path, "t.alog", 500, clock_offset=0.001)
    plain = open_trace(path, index=True)
    assert plain.index_info()["state"] == "built"
    written = index_files(index_dir)
    corrected = open_trace(path, index=True, time_correct=True)
    info = corrected.index_info()
    assert info["state"] == "off" and "time_correct" in info["note"]
    assert index_files(index_dir) == written
    # The corrected times came from the clock pass, not from the recorded times' index.
    assert corrected.problems()["clock_condition"]["count"] == 0
    assert plain.problems()["clock_condition"]["count"] > 0


@pytest.mark.parametrize("name", ["t.alog", "t.otf2", "t.clog2"])
def test_every_damaged_byte_is_caught_and_rebuilt(tmp_path, index_dir, name):
    """Each byte of a whole index flipped in turn (and the file cut at every tenth length):
    never loaded, always rebuilt with a note, and the answers stay those of the trace. The
    OTF2 index holds the event cache too: its bytes are flipped as well."""
    if name.endswith(".otf2") and "otf2" not in _core.known_formats():
        pytest.skip("this build reads no OTF2")
    path = make_trace(tmp_path, name, 40)
    open_trace(path, bdist=20).close()
    (index,) = index_dir.iterdir()
    good = index.read_bytes()
    fresh = open_trace(path, bdist=20, index=False)
    probes = probes_for(len(fresh), fresh.nrlocs(), 2)
    expected = answers(fresh, probes)
    notes = set()

    def reopen(damaged):
        index.write_bytes(damaged)
        trace = open_trace(path, bdist=20)
        info = trace.index_info()
        assert info["state"] == "rebuilt", (len(damaged), info)
        notes.add(info["note"].split(" (")[0])
        assert answers(trace, probes) == expected
        trace.close()
        assert index.read_bytes() == good  # the rebuilt index is the same bytes

    for at in range(len(good)):
        reopen(good[:at] + bytes([good[at] ^ 0xFF]) + good[at + 1:])
    for length in range(0, len(good), 10):
        reopen(good[:length])
    reopen(good + b"\0")
    assert {"its header is damaged", "it is not an EARL index", "it is truncated or has extra bytes",
            "it is damaged"} <= notes, notes


def test_a_changed_trace_is_never_served_from_its_index(tmp_path, index_dir):
    path = make_trace(tmp_path, "t.alog", 400)
    open_trace(path, bdist=50).close()
    stat = path.stat()
    # Same size, same modification time, another first byte of the timestamps' line.
    text = path.read_bytes()
    at = text.index(b"\n", text.index(b"\n") + 1) + 1
    changed = text[:at] + (b"#" if text[at:at + 1] != b"#" else b"!") + text[at + 1:]
    path.write_bytes(changed)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    try:
        trace = open_trace(path, bdist=50)
    except earl.EarlError:
        trace = None  # the edit made the trace unreadable: it was scanned, not loaded
    if trace is not None:
        assert trace.index_info()["state"] == "rebuilt"
        assert "changed content" in trace.index_info()["note"]
    path.write_bytes(text)  # back to the original bytes, a newer modification time
    trace = open_trace(path, bdist=50)
    assert trace.index_info()["state"] == "rebuilt"
    assert "was modified" in trace.index_info()["note"] or "changed content" in trace.index_info()["note"]
    with open(path, "ab") as f:
        f.write(b"\n")
    trace = open_trace(path, bdist=50)
    assert trace.index_info()["state"] == "rebuilt" and "changed size" in trace.index_info()["note"]
    # Other options make other bookmarks: the index is remade, not misused.
    trace = open_trace(path, bdist=70)
    assert trace.index_info()["state"] == "rebuilt" and "other options" in trace.index_info()["note"]


CHILD = """
import sys, earl
t = earl.EventTrace(sys.argv[1], bdist=500, progress=lambda f: True)
print(t.index_info()["state"], len(t), t.event(len(t) // 2)["time"], t.stack(1, len(t) // 3), flush=True)
"""


def test_two_processes_opening_at_once(tmp_path, index_dir):
    path = make_trace(tmp_path, "t.alog", 60000)
    env = dict(os.environ)
    children = [subprocess.Popen([sys.executable, "-c", CHILD, str(path)], env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                for _ in range(2)]
    outputs = [child.communicate(timeout=120) for child in children]
    for child, (out, err) in zip(children, outputs):
        assert child.returncode == 0, err
    states = [out.split()[0] for out, _ in outputs]
    assert set(states) <= {"built", "loaded"}
    assert outputs[0][0].split(None, 1)[1] == outputs[1][0].split(None, 1)[1]
    assert len(index_files(index_dir)) == 1  # one whole index, no temporary left
    trace = open_trace(path, bdist=500)
    assert trace.index_info()["state"] == "loaded"
    assert f"{len(trace)} {trace.event(len(trace) // 2)['time']}" in outputs[0][0]


def test_kill_9_while_writing_leaves_no_usable_partial_index(tmp_path, index_dir):
    """A writer killed (SIGKILL) between creating its temporary file and renaming it: the
    index is absent, the next open builds it, and removes the dead writer's leftover."""
    path = make_trace(tmp_path, "t.alog", 200000)
    caught = False
    for _ in range(5):
        child = subprocess.Popen([sys.executable, "-c", CHILD, str(path)], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while child.poll() is None and time.monotonic() < deadline:
            if any(".tmp." in name for name in index_files(index_dir)):
                child.send_signal(signal.SIGKILL)
                caught = True
                break
        child.communicate()
        if caught:
            break
        for name in index_files(index_dir):
            os.remove(index_dir / name)
    if not caught:
        pytest.skip("the writer finished before it could be killed")
    leftovers = index_files(index_dir)
    assert leftovers and all(".tmp." in name for name in leftovers)
    trace = open_trace(path, bdist=500)
    assert trace.index_info()["state"] == "built"
    assert [name for name in index_files(index_dir) if ".tmp." in name] == []
    fresh = open_trace(path, bdist=500, index=False)
    probes = probes_for(len(fresh), fresh.nrlocs(), 20)
    assert answers(open_trace(path, bdist=500), probes) == answers(fresh, probes)


def test_earl_index_clean(tmp_path, index_dir, capsys):
    from earl import cli
    one = make_trace(tmp_path, "one.alog", 300)
    two = make_trace(tmp_path, "two.alog", 300)
    open_trace(one).close()
    open_trace(two).close()
    assert len(index_files(index_dir)) == 2
    assert cli.main(["index", "clean", str(one)]) == 0
    assert "1 index file removed" in capsys.readouterr().out
    assert len(index_files(index_dir)) == 1
    assert cli.main(["index", "clean"]) == 0
    assert index_files(index_dir) == []
    assert open_trace(two).index_info()["state"] == "built"
    assert cli.main(["info", str(two)]) == 0
    assert f"index:     loaded ({index_dir}" in capsys.readouterr().out
    assert cli.main(["info", "--no-index", str(two)]) == 0
    assert "index:     off: turned off (index=False)" in capsys.readouterr().out


@pytest.mark.parametrize("seed", range(12))
def test_loaded_random_alog_traces_answer_as_the_reference(tmp_path, index_dir, seed):
    """Random ALOG traces (unsorted ones among them, whose decoder sorts an index of lines
    that the persisted index keeps, clock roll-over, unknown record types): after loading,
    every position's stacks and queue are those of the reference model."""
    from alog_traces import SeededSource, generate as random_alog
    unsorted = "shuffled" if seed % 3 == 0 else None
    path = random_alog(SeededSource(seed), max_events=50, min_events=1, unsorted=unsorted).write(tmp_path)
    bdist = 1 + seed % 5
    try:
        open_trace(path, bdist=bdist, hsize=2).close()
    except earl.EarlError:
        pytest.skip("this random trace is not readable")
    trace = open_trace(path, bdist=bdist, hsize=2)
    assert trace.index_info()["state"] == "loaded", trace.index_info()
    ref = ReferenceTrace.load(path)
    assert len(trace) == ref.m and trace.problems() == ref.problems()
    order = list(range(ref.m + 1))
    random.Random(seed).shuffle(order)
    for pos in order:
        for loc in range(trace.nrlocs()):
            assert trace.stack(loc, pos) == ref.stack(loc, pos), (pos, loc)
        assert trace.queue(-1, -1, pos) == ref.queue(-1, -1, pos), pos
        if pos:
            assert trace.event(pos)["loc"] == ref.event(pos).loc


READ_ONLY_OPEN = """
import json, sys
import earl
trace = earl.EventTrace(sys.argv[1], index=True, progress=lambda f: True)
print(json.dumps([trace.index_info(), len(trace), trace.event(len(trace) // 2)]))
"""


def open_in_read_only_directory(directory, path, cache):
    """Opens `path` in a child whose mount namespace has `directory` mounted read-only (a
    real EROFS: root's write permission does not reach past it)."""
    script = ('mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"')
    child = subprocess.run(
        ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, "sh", str(directory),
         sys.executable, "-c", READ_ONLY_OPEN, str(path)],
        capture_output=True, text=True, timeout=120,
        env=dict(os.environ, XDG_CACHE_HOME=str(cache), EARL_INDEX_MIN_BYTES="0"))
    assert child.returncode == 0, child.stderr
    return json.loads(child.stdout)


def test_a_read_only_trace_directory_indexes_into_the_user_cache(tmp_path, monkeypatch):
    probe = subprocess.run(["unshare", "--mount", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("no mount namespaces here (unshare needs privileges)")
    monkeypatch.delenv("EARL_INDEX_DIR", raising=False)
    monkeypatch.delenv("EARL_INDEX", raising=False)
    traces = tmp_path / "traces"
    traces.mkdir()
    path = make_trace(traces, "t.alog", 2000)
    cache = tmp_path / "cache"
    first_info, size, middle = open_in_read_only_directory(traces, path, cache)
    assert first_info["state"] == "built"
    written = index_files(cache / "earl")
    assert len(written) == 1 and written[0].endswith("-t.alog.earlidx")
    assert first_info["path"] == str(cache / "earl" / written[0])
    assert sorted(os.listdir(traces)) == ["t.alog", "t.alog.truth.json"]  # nothing beside it
    second_info, size_again, middle_again = open_in_read_only_directory(traces, path, cache)
    assert second_info["state"] == "loaded" and second_info["path"] == first_info["path"]
    fresh = open_trace(path, index=False)
    assert size == size_again == len(fresh)
    assert middle == middle_again == json.loads(json.dumps(fresh.event(len(fresh) // 2)))
