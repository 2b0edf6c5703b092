"""Outputs are staged (issue 22, class 2): every file EARL writes (earl convert, earl gen
and its truth, earl analyze --html/--cube) is written under a staging name beside it
("NAME.earl-partial-PID-N", cpp/output/staged_output.h, earl/output_paths.py) and renamed
into place when whole and on disk. Killed (kill -9) mid-write, the final name holds the old
file or nothing; on a full disk or Ctrl-C the command says so and leaves no temporary."""
import os
import resource
import signal
import stat
import subprocess
import sys
import time

import pytest

import earl
from earl.generate import generate
from earl.output_paths import staged_output

EARL = [sys.executable, "-m", "earl.cli"]
STAGED = ".earl-partial-"


def earl_cli(*args, **kwargs):
    return subprocess.run(EARL + [str(a) for a in args], capture_output=True, text=True, timeout=120,
                          **kwargs)


def gen(path, events):
    generate(str(path), locations=4, events=events)


def parts(path):
    """The files of the output `path` (an OTF2 archive: anchor, definitions, directory)."""
    path = str(path)
    if not path.endswith(".otf2"):
        return [path]
    stem = path[:-5]
    inside = sorted(os.path.join(stem, n) for n in os.listdir(stem)) if os.path.isdir(stem) else []
    return [p for p in (path, stem + ".def") if os.path.exists(p)] + inside


def snapshot(path):
    """Every byte of the output `path` (None where it does not exist)."""
    return {p: open(p, "rb").read() for p in parts(path) if os.path.exists(p)}


def staged_leftovers(directory):
    return sorted(name for name in os.listdir(directory) if STAGED in name)


@pytest.fixture(scope="module")
def big_alog(tmp_path_factory):
    """An input that takes a good part of a second to convert."""
    path = tmp_path_factory.mktemp("big") / "big.alog"
    gen(path, 600000)
    return path


def kill_when_staging(command, directory):
    """Starts `command`, kills it (SIGKILL) as soon as a staging file of its output exists
    and has data, returns what it left in `directory`."""
    process = subprocess.Popen(EARL + [str(a) for a in command], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline and process.poll() is None:
            staged = [os.path.join(directory, n) for n in staged_leftovers(directory)]
            if any(os.path.isdir(p) and os.listdir(p) or os.path.getsize(p) > 0 for p in staged
                   if os.path.exists(p)):
                break
            time.sleep(0.002)
        assert process.poll() is None, "the command ended before it could be killed mid-write"
    finally:
        process.kill()
        process.wait()


@pytest.mark.parametrize("command, output, old", [
    ("gen", "out.alog", False), ("gen", "out.otf2", True), ("convert", "out.alog", True),
    ("convert", "out.otf2", False)])
def test_kill_9_mid_write_leaves_the_old_output_or_none(tmp_path, big_alog, command, output, old):
    final = tmp_path / output
    if old:
        gen(final, 500)
    before = snapshot(final)
    args = ["gen", "-q", "-n", 4, "-e", 2000000, final] if command == "gen" else ["convert", big_alog, final]
    kill_when_staging(args, tmp_path)
    assert snapshot(final) == before  # the old trace byte for byte, or still nothing
    if old:
        with earl.EventTrace(str(final), index=False) as trace:
            assert len(trace) > 500  # whole: it opens and reads to its end
    # what kill -9 cannot clean up is named as a staging file, never as the output
    assert staged_leftovers(tmp_path), "the kill came after the output was in place"
    assert all(f"{output.rsplit('.', 1)[0]}" in name for name in staged_leftovers(tmp_path))


def no_room(limit):
    def apply():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


@pytest.mark.parametrize("output, command", [
    ("out.alog", ["convert", "{input}", "{output}"]),
    ("out.otf2", ["convert", "{input}", "{output}"]),
    ("out.alog", ["gen", "-q", "-e", "20000", "{output}"]),
    ("out.otf2", ["gen", "-q", "-e", "20000", "{output}"]),
    ("out.html", ["analyze", "{input}", "--html", "{output}"]),
    ("out.cubex", ["analyze", "{input}", "--cube", "{output}"]),
])
def test_a_full_disk_is_one_error_and_leaves_the_old_output(tmp_path, output, command):
    """The disk is full after 4 KiB of any file (RLIMIT_FSIZE: no mount needed); the old
    output and the input are untouched, no temporary is left."""
    source = tmp_path / "in.alog"
    gen(source, 2000)
    final = tmp_path / output
    if output.endswith((".alog", ".otf2")):
        gen(final, 100)
    else:
        final.write_text("the old report\n")
    before, input_before = snapshot(final), snapshot(source)
    files_before = set(os.listdir(tmp_path))
    argv = [a.format(input=source, output=final) for a in command]
    done = earl_cli(*argv, preexec_fn=no_room(4096), env={**os.environ, "EARL_INDEX": "0"})
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"earl: cannot write '{final}") and "too large" in lines[0], lines
    assert snapshot(final) == before and snapshot(source) == input_before
    assert set(os.listdir(tmp_path)) == files_before  # nothing new: no part, no temporary


def test_ctrl_c_mid_write_removes_the_staging_files(tmp_path, big_alog):
    for command in (["gen", "-q", "-e", 2000000, tmp_path / "g.otf2"], ["convert", big_alog, tmp_path / "c.alog"]):
        process = subprocess.Popen(EARL + [str(a) for a in command], stderr=subprocess.PIPE, text=True)
        while not staged_leftovers(tmp_path) and process.poll() is None:
            time.sleep(0.002)
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=30) == 130 and process.stderr.read() == "earl: interrupted\n"
        process.stderr.close()
        assert os.listdir(tmp_path) == []


def test_an_otf2_archive_renamed_into_place_reads_with_the_official_reader(tmp_path):
    """libotf2's anchor holds no archive name: the archive written under its staging name
    reads under its final one (otf2-print), and replacing an archive leaves no old file."""
    import shutil
    if not shutil.which("otf2-print"):
        pytest.skip("otf2-print not installed")
    final = tmp_path / "run.otf2"
    gen(final, 2000)
    gen(final, 300)  # replaces the archive of 2000 events
    with earl.EventTrace(str(final), index=False) as trace:
        events = len(trace)
    printed = subprocess.run(["otf2-print", str(final)], capture_output=True, text=True, timeout=60)
    assert printed.returncode == 0, printed.stderr
    records = [line for line in printed.stdout.splitlines()
               if line.split(" ", 1)[0] in ("ENTER", "LEAVE", "MPI_SEND", "MPI_RECV", "MPI_COLLECTIVE_END",
                                            "PROGRAM_BEGIN", "PROGRAM_END")]
    assert 300 <= events < 2000 and len(records) >= events
    assert sorted(os.listdir(tmp_path)) == ["run", "run.def", "run.otf2", "run.otf2.truth.json"]
    assert len(os.listdir(tmp_path / "run")) == 8  # 4 locations: .evt and .def each


def test_staged_output_of_python_writers(tmp_path):
    final = tmp_path / "report.html"
    final.write_text("old")
    for failure in (ValueError("boom"), KeyboardInterrupt()):
        with pytest.raises(type(failure)):
            with staged_output(final) as out:
                out.write("partial")
                assert staged_leftovers(tmp_path)  # written beside it, not in place
                raise failure
        assert final.read_text() == "old" and staged_leftovers(tmp_path) == []
    with staged_output(final) as out:
        out.write("new")
    assert final.read_text() == "new" and staged_leftovers(tmp_path) == []
    umask = os.umask(0o022)
    os.umask(umask)
    assert final.stat().st_mode & 0o777 == 0o666 & ~umask  # as open() would have made it
    with pytest.raises(earl.EarlError, match=f"cannot write '{tmp_path}/missing/x': No such file"):
        with staged_output(tmp_path / "missing" / "x"):
            pass
    with pytest.raises(earl.EarlError, match=f"^cannot write '{tmp_path}': Is a directory$"):
        with staged_output(tmp_path):
            pass


def test_a_directory_under_the_output_name_is_refused_before_writing(tmp_path):
    source = tmp_path / "in.alog"
    gen(source, 200)
    (tmp_path / "out.alog").mkdir()
    with pytest.raises(earl.EarlError, match=f"^cannot write '{tmp_path}/out.alog': Is a directory$"):
        from earl.convert import convert
        convert(str(source), str(tmp_path / "out.alog"))
    assert staged_leftovers(tmp_path) == [] and os.listdir(tmp_path / "out.alog") == []


@pytest.mark.parametrize("command", [
    lambda source, out: ("convert", source, out),
    lambda source, out: ("gen", out, "-e", "200"),
    lambda source, out: ("analyze", source, "--html", out),
    lambda source, out: ("analyze", source, "--cube", out),
], ids=["convert", "gen", "html", "cube"])
def test_a_pipe_under_the_output_name_is_refused_and_stays(tmp_path, command):
    """The rename into place would replace a device, pipe or socket (as root: /dev/null
    itself, which the command-line fuzzer's `earl gen /dev/null` once did)."""
    source = tmp_path / "in.alog"
    gen(source, 200)
    pipe = tmp_path / "out.pipe"
    os.mkfifo(pipe)
    done = earl_cli(*command(source, pipe))
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stderr == f"earl: cannot write '{pipe}': it is a named pipe (FIFO), not a regular file " \
                          "(EARL writes a new file and renames it into place)\n"
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode)
    assert staged_leftovers(tmp_path) == []


def test_dev_null_stays_a_device(tmp_path):
    source = tmp_path / "in.alog"
    gen(source, 200)
    done = earl_cli("convert", source, "/dev/null")
    assert done.returncode == 1 and "it is a character device" in done.stderr, done.stderr
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
