"""The `earl` command: version, info, run, and clear errors with nonzero exit codes."""
import subprocess
import sys
from pathlib import Path

import pytest

import earl

SHARED_TRACES = Path(__file__).resolve().parents[1].parent / "shared" / "traces"
EARL = [sys.executable, "-m", "earl.cli"]


def run(*args):
    return subprocess.run(EARL + list(args), capture_output=True, text=True, timeout=120)


def test_version():
    done = run("--version")
    assert done.returncode == 0 and done.stdout.strip() == f"earl {earl.__version__}"


def test_no_command_prints_help_and_fails():
    done = run()
    assert done.returncode == 2 and "usage: earl" in done.stdout


def test_info_of_an_alog_trace(tmp_path):
    trace = tmp_path / "t.alog"
    trace.write_text("-3 0 0 2 0 0\n-13 0 1 2 0 0 c:p main\n-15 1 0 0 0 0 server\n"
                     "1 0 0 0 0 10\n1 1 0 0 0 11\n-102 1 0 0 0 12 5 8\n2 0 0 0 0 20\n2 1 0 0 0 30\n")
    done = run("info", str(trace))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "format:    alog" in out and "events:    5" in out and "locations: 2" in out
    assert "server" in out and "1 in group All: main" in out
    assert "unmatched recv: 1 (first at 3)" in out
    assert "0.000010 s .. 0.000030 s" in out


@pytest.mark.skipif("otf2" not in earl._core.known_formats(), reason="built without OTF2")
def test_info_of_the_score_p_trace():
    done = run("info", str(SHARED_TRACES / "ping-pong-otf2"))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "format:    otf2" in out and "events:    120" in out
    assert "MPI Rank 1 / Master thread" in out and "problems:  none" in out
    assert "(221 more)" in out  # Score-P defines 231 MPI regions


def test_info_of_a_missing_file_names_it(tmp_path):
    done = run("info", str(tmp_path / "nope.alog"))
    assert done.returncode == 1 and "nope.alog" in done.stderr and "Traceback" not in done.stderr


def test_run_passes_arguments_and_reports_missing_scripts(tmp_path):
    script = tmp_path / "args.py"
    script.write_text("import sys\nprint(sys.argv[1:])\n")
    done = run("run", str(script), "a", "--flag")
    assert done.returncode == 0 and done.stdout.strip() == "['a', '--flag']"
    done = run("run", str(tmp_path / "missing.py"), "x")
    assert done.returncode == 1 and "missing.py" in done.stderr
