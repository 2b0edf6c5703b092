"""`earl run` of a Python script that fails: the user sees their own frames and the error,
as `python SCRIPT` would show them, never the frames of earl, runpy or the command line."""
import re
import subprocess
import sys

EARL = [sys.executable, "-m", "earl.cli"]


def earl_run(script, *args):
    return subprocess.run(EARL + ["run", str(script)] + [str(a) for a in args],
                          capture_output=True, text=True, timeout=120, cwd=script.parent)


def file_lines(stderr):
    """(file, line, function) of every frame the traceback shows."""
    return re.findall(r'^  File "([^"]+)", line (\d+), in (\S+)$', stderr, re.M)


def test_a_failing_script_shows_only_its_own_frames(tmp_path):
    script = tmp_path / "bad.py"
    script.write_text("def ratio(a, b):\n    return a / b\n\n\nprint(ratio(1, 0))\n")
    done = earl_run(script)
    assert done.returncode == 1 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert file_lines(done.stderr) == [(str(script), "5", "<module>"),
                                       (str(script), "2", "ratio")]
    assert lines[-1] == "ZeroDivisionError: division by zero"
    # each frame: its File line, the source line, at most one line of carets (3.11+)
    assert 1 + 2 * 2 + 1 <= len(lines) <= 1 + 3 * 2 + 1, done.stderr
    for hidden in ("runpy", "cli.py", "run_script.py", "/earl/"):
        assert hidden not in done.stderr


def test_frames_inside_earl_are_not_the_users(tmp_path):
    """The TypeError is raised inside earl's EventTrace (earl/trace.py): the traceback
    ends at the user's call."""
    script = tmp_path / "wrong_type.py"
    script.write_text("import earl\n\ntrace = earl.EventTrace(42)\n")
    done = earl_run(script)
    assert done.returncode == 1
    assert file_lines(done.stderr) == [(str(script), "3", "<module>")]
    assert done.stderr.splitlines()[-1].startswith("TypeError: ")
    assert "/earl/" not in done.stderr and "runpy" not in done.stderr


def test_an_earl_error_the_script_does_not_catch_is_one_line_naming_its_line(tmp_path):
    script = tmp_path / "opens.py"
    script.write_text("import sys\nimport earl\n\ntrace = earl.EventTrace(sys.argv[1])\n")
    missing = tmp_path / "none.alog"
    done = earl_run(script, missing)
    assert done.returncode == 1
    assert done.stderr == f"earl: {script}:4: {missing}: cannot open: No such file or directory\n"


def test_a_syntax_error_names_the_file_and_line_without_earls_frames(tmp_path):
    script = tmp_path / "broken.py"
    script.write_text("x = 1\ny = (\n")
    done = earl_run(script)
    assert done.returncode == 1
    assert done.stderr.splitlines()[0] == f'  File "{script}", line 2'
    assert done.stderr.splitlines()[-1].startswith("SyntaxError: ")
    assert "Traceback" not in done.stderr and "runpy" not in done.stderr


def test_a_script_imports_its_neighbours_and_sets_its_exit_code(tmp_path):
    """As `python SCRIPT` does, the script's folder comes first on sys.path (the pattern
    scripts import each other); sys.exit's code is the command's."""
    (tmp_path / "helper.py").write_text("ANSWER = 42\n")
    script = tmp_path / "uses_helper.py"
    script.write_text("import sys\nfrom helper import ANSWER\nprint(ANSWER)\nsys.exit(3)\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = subprocess.run(EARL + ["run", str(script)], capture_output=True, text=True,
                          timeout=120, cwd=elsewhere)
    assert (done.returncode, done.stdout, done.stderr) == (3, "42\n", "")


def test_the_shipped_pattern_scripts_that_import_each_other_run(tmp_path):
    from earl.generate import generate

    trace = tmp_path / "t.alog"
    generate(trace, locations=3, events=3000, seed=4)
    done = subprocess.run(EARL + ["run", "patterns/collectives", str(trace)],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert "mpi_barrier_wait" in done.stdout or "mpi_wait_nxn" in done.stdout


import pytest  # noqa: E402


@pytest.mark.parametrize("command", [["run", "wasted_time.py", "{trace}"], ["run", "wasted_time.lua", "{trace}"],
                                     ["run", "wasted_time.tcl", "{trace}"], ["run", "region_statistics.py", "{trace}"],
                                     ["info", "{trace}"], ["info", "--json", "{trace}"], ["analyze", "{trace}"],
                                     ["analyze", "--json", "{trace}"], ["convert", "{trace}", "{out}.alog"],
                                     ["gen", "-e", "300", "{out}.alog"], ["scripts"], ["repl", "{trace}"],
                                     ["index", "clean", "{trace}"], ["list", "{trace}"],
                                     ["list", "--as", "jsonl", "{trace}"], ["check", "{trace}"]])
def test_a_reader_that_goes_away_gets_no_traceback(command, tmp_path):
    """`earl ... | head`: the reader closes the pipe before EARL writes; EARL then stops
    quietly (no traceback, no error line), as a tool killed by SIGPIPE does: exit 141 (rich,
    which prints analyze's report, would exit 1: earl.analysis.terminal hands it back)."""
    from earl.generate import generate

    trace = tmp_path / "t.alog"
    generate(str(trace), locations=4, events=4000, seed=2)
    argv = [a.format(trace=trace, out=tmp_path / "out") for a in command]
    proc = subprocess.Popen(EARL + argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    proc.stdout.close()                   # the reader is gone before the first line
    err = proc.stderr.read()
    code = proc.wait(timeout=120)
    assert err == "", err
    assert code == 141
