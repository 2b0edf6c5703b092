"""The `earl` command: version, info, run, and clear errors with nonzero exit codes."""
import subprocess
import sys
from pathlib import Path

import pytest

import earl

from script_checks import SCOREP as SHARED_TRACES, needs_scorep_traces
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
@needs_scorep_traces
def test_info_of_the_score_p_trace():
    done = run("info", str(SHARED_TRACES / "ping-pong-otf2"))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "format:    otf2" in out and "events:    120" in out
    assert "MPI Rank 1 / Master thread" in out and "problems:  none" in out
    # Score-P defines 231 MPI regions; the run uses 6 of them
    assert "(231 MPI regions defined, 6 used; --all lists all)" in out


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


# ------------------------------------------------------------------ one exit-code convention
def test_every_command_is_registered_once():
    from earl.cli import COMMANDS, build_parser
    import earl.commands
    assert list(COMMANDS) == ["run", "scripts", "info", "list", "check", "stats", "gen", "convert",
                              "merge", "formats", "describe", "demo", "analyze", "compare",
                              "experiment", "repl", "index"]
    # one module of earl/commands/ per command, and nothing else there
    folder = Path(earl.commands.__file__).parent
    assert sorted(p.stem for p in folder.glob("*.py") if p.stem != "__init__") == sorted(COMMANDS)
    assert all(module == f"earl.commands.{name}" for name, module in COMMANDS.items())
    help_text = build_parser().format_help()
    for name in COMMANDS:
        assert name in help_text


def test_the_repl_is_imported_only_when_it_runs():
    """Building the command line's parser loads the REPL's face, not prompt_toolkit, the
    languages or the session (DESIGN.md section 5: the command line imports it lazily),
    nor NumPy (whose threads would compete with every command's work)."""
    code = ("import sys, earl.cli; earl.cli.build_parser(); "
            "print(sorted(m for m in sys.modules if m.startswith(('prompt_toolkit', 'lupa', "
            "'tkinter', 'numpy', 'earl.repl.'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['earl.repl.languages']"


@pytest.mark.parametrize("argv", [
    ["run"], ["info"], ["gen"], ["convert", "only-one"], ["demo", "--events", "many"],
    ["gen", "x.alog", "--locations", "four"], ["gen", "x.alog", "--pattern", "star"],
    ["analyze"], ["analyze", "x.alog", "--engine", "turbo"],
    ["nosuchcommand"],
])
def test_usage_errors_exit_2_with_usage(argv, tmp_path):
    done = subprocess.run(EARL + argv, capture_output=True, text=True, timeout=120,
                          cwd=tmp_path)
    assert done.returncode == 2, done
    assert "usage: earl" in done.stderr and "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []


def earl_error_cases(tmp_path):
    missing = str(tmp_path / "missing.alog")
    return {
        "run": (["run", str(tmp_path / "missing.py")], "missing.py"),
        "info": (["info", missing], "missing.alog"),
        "gen": (["gen", str(tmp_path / "g.alog"), "--locations", "1"], "locations must be"),
        "convert": (["convert", missing, str(tmp_path / "o.alog")], "missing.alog"),
        "demo": (["demo", "--output", str(tmp_path / "d"), "--events", "-5"],
                 "events must not be negative"),
    }


@pytest.mark.parametrize("command", ["run", "info", "gen", "convert", "demo"])
def test_earl_errors_exit_1_with_the_earl_prefix(command, tmp_path):
    argv, expected = earl_error_cases(tmp_path)[command]
    done = run(*argv)
    assert done.returncode == 1, done
    lines = done.stderr.strip().splitlines()
    assert lines[-1].startswith("earl: ") and expected in lines[-1], done.stderr
    assert "Traceback" not in done.stderr and "earl: earl" not in done.stderr


def test_ctrl_c_exits_130(tmp_path):
    script = tmp_path / "interrupted.py"
    script.write_text("import signal\nsignal.raise_signal(signal.SIGINT)\nprint('not reached')\n")
    done = run("run", str(script))
    assert done.returncode == 130, done
    assert done.stderr.strip() == "earl: interrupted" and "not reached" not in done.stdout


def test_main_returns_the_codes_in_process(tmp_path, capsys):
    from earl.cli import main
    assert main(["--version"]) == 0
    assert main(["gen"]) == 2
    assert main(["gen", str(tmp_path / "t.alog"), "--threads", "0"]) == 1
    assert capsys.readouterr().err.strip().splitlines()[-1].startswith("earl: threads must be")
    assert main(["gen", str(tmp_path / "t.alog"), "-e", "100", "-q"]) == 0


LOCATION_COUNT = {
    "python": "import sys, earl\nprint(earl.EventTrace(sys.argv[1]).nrlocs(), sys.argv[2:])\n",
    "lua": "local e = EventTrace(arg[1])\nprint(e:nrlocs(), arg[2])\n",
    "tcl": "EventTrace e -file [lindex $argv 0]\nputs \"[e nrlocs]\t[lindex $argv 1]\"\n",
}


def two_location_trace(tmp_path):
    trace = tmp_path / "t.alog"
    trace.write_text("-3 0 0 2 0 0\n-13 0 1 2 0 0 c:p main\n1 0 0 0 0 10\n2 0 0 0 0 20\n")
    return trace


def test_run_picks_the_language_by_extension(tmp_path):
    trace = two_location_trace(tmp_path)
    (tmp_path / "count.py").write_text(LOCATION_COUNT["python"])
    (tmp_path / "count.lua").write_text(LOCATION_COUNT["lua"])
    (tmp_path / "count.tcl").write_text("package require earl\n" + LOCATION_COUNT["tcl"])
    python = run("run", str(tmp_path / "count.py"), str(trace), "x")
    lua = run("run", str(tmp_path / "count.lua"), str(trace), "x")
    tcl = run("run", str(tmp_path / "count.tcl"), str(trace), "x")
    assert (python.returncode, python.stdout) == (0, "2 ['x']\n"), python.stderr
    assert (lua.returncode, lua.stdout) == (0, "2\tx\n"), lua.stderr
    assert (tcl.returncode, tcl.stdout) == (0, "2\tx\n"), tcl.stderr


def test_run_knows_the_1998_earl_interpreter_line(tmp_path):
    trace = two_location_trace(tmp_path)
    (tmp_path / "count").write_text("#!/usr/local/bin/earl\n" + LOCATION_COUNT["tcl"])
    done = run("run", str(tmp_path / "count"), str(trace), "z")
    assert (done.returncode, done.stdout) == (0, "2\tz\n"), done.stderr


def test_an_error_in_a_tcl_script_names_its_file_and_line(tmp_path):
    script = tmp_path / "bad.tcl"
    script.write_text("EventTrace e -file [lindex $argv 0]\n\ne event a 0\n")
    done = run("run", str(script), str(two_location_trace(tmp_path)))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"earl: {script}:3:")


def test_run_takes_the_language_from_lang(tmp_path):
    trace = two_location_trace(tmp_path)
    (tmp_path / "count").write_text(LOCATION_COUNT["lua"])
    done = run("run", "--lang", "lua", str(tmp_path / "count"), str(trace), "y")
    assert (done.returncode, done.stdout) == (0, "2\ty\n"), done.stderr


def test_run_of_a_script_in_no_known_language_says_so(tmp_path):
    script = tmp_path / "count"
    script.write_text("print 1\n")
    done = run("run", str(script))
    assert done.returncode == 1
    assert done.stderr.startswith(f"earl: {script}: cannot tell the script's language")


def test_an_error_in_a_lua_script_names_its_file_and_line(tmp_path):
    script = tmp_path / "bad.lua"
    script.write_text("local e = EventTrace(arg[1])\n\ne:event(0)\n")
    done = run("run", str(script), str(two_location_trace(tmp_path)))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"earl: {script}:3:")
