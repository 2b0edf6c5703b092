"""The Tcl extension as a build product: one library built against Tcl's stubs that
`package require earl` loads into tclsh8.6, wish8.6 and tkinter.Tcl() alike; CMake saying
what to install when Tcl's headers are missing; and earl.tcl's running of script files
(argv, errors with the script's file and line, exit)."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import earl
import earl.tcl
from test_tcl_common import (LIBRARY, TCLSH, WISH, XVFB_RUN, needs_extension, needs_tclsh, tcl_env,
                             tclsh)
from script_checks import ROOT, TIMEOUT

pytestmark = needs_extension


def library_file():
    return Path(LIBRARY) / "libearltcl.so"


# ------------------------------------------------------------------ stubs and packaging
def test_built_against_stubs_not_linked_to_libtcl():
    readelf, nm = shutil.which("readelf"), shutil.which("nm")
    if not (readelf and nm):
        pytest.skip("no binutils")
    needed = subprocess.run([readelf, "-d", str(library_file())], capture_output=True, text=True).stdout
    assert "libtcl" not in needed
    undefined = subprocess.run([nm, "-D", "--undefined-only", str(library_file())], capture_output=True,
                               text=True).stdout
    # every Tcl function is reached through the loading interpreter's stub table
    assert not re.search(r"\bU (Tcl|Tk)_", undefined)
    exported = subprocess.run([nm, "-D", "--defined-only", str(library_file())], capture_output=True,
                              text=True).stdout
    assert re.search(r"\bT Earl_Init\b", exported) and re.search(r"\bT Earl_SafeInit\b", exported)


def test_pkg_index_names_the_library_and_the_version():
    index = (Path(LIBRARY) / "pkgIndex.tcl").read_text()
    assert f"package ifneeded earl {earl.__version__} " in index
    assert "libearltcl.so" in index and "Earl" in index


@needs_tclsh
def test_package_require_in_tclsh(tmp_path):
    script = tmp_path / "require.tcl"
    script.write_text("puts [package require earl]\nputs [lsort [info commands EventTrace]] \n"
                      "puts [info commands P2Statistic]\nputs [info commands earl]\n")
    assert tclsh(script).stdout.split() == [earl.__version__, "EventTrace", "P2Statistic", "earl"]


@needs_tclsh
def test_load_by_file_and_refused_in_a_safe_interpreter(tmp_path):
    script = tmp_path / "load.tcl"
    script.write_text(f"load {{{library_file()}}} Earl\nputs [package present earl]\n"
                      f"interp create -safe s\nputs [catch {{load {{{library_file()}}} Earl s}}]\n")
    assert tclsh(script).stdout.split() == [earl.__version__, "1"]


@pytest.mark.skipif(WISH is None or XVFB_RUN is None, reason="no wish8.6 or xvfb-run")
def test_package_require_in_wish(tmp_path):
    script = tmp_path / "wish.tcl"
    script.write_text("puts [package require earl]\nputs [package require Tk]\n"
                      "P2Statistic p; p add 2; p add 4; puts [p mean]\nexit 0\n")
    result = subprocess.run([XVFB_RUN, "-a", WISH, str(script)], capture_output=True, text=True,
                            env=tcl_env(), timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr
    version, tk, mean = result.stdout.split()
    assert (version, tk.startswith("8.6"), mean) == (earl.__version__, True, "3.0")


def test_package_require_in_tkinter():
    import tkinter

    tcl = tkinter.Tcl()
    tcl.tk.call("lappend", "::auto_path", LIBRARY)
    assert tcl.eval("package require earl") == earl.__version__
    assert tcl.eval("earl help version") == earl.__version__


def test_interpreters_are_independent():
    a, b = earl.tcl.interpreter(), earl.tcl.interpreter()
    a.eval("P2Statistic p; earl stat")
    assert b.eval("info commands p") == "" and b.eval("earl stat") == "earlstat0"


def test_libpath_for_tclsh_users():
    out = subprocess.run([sys.executable, "-m", "earl.tcl", "--libpath"], capture_output=True, text=True,
                         timeout=TIMEOUT)
    assert out.returncode == 0 and out.stdout.strip() == LIBRARY


# ------------------------------------------------------------------ missing Tcl headers
def cmake_configure(tmp_path, *options):
    if not (shutil.which("cmake") and shutil.which("ninja")):
        pytest.skip("no cmake or ninja")
    build = tmp_path / "build"
    return subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), "-G", "Ninja",
                           "-DEARL_BUILD_PYTHON=OFF", "-DEARL_LUA=OFF", *options],
                          capture_output=True, text=True, timeout=TIMEOUT), build


def test_cmake_says_what_to_install_and_builds_the_rest(tmp_path):
    result, build = cmake_configure(tmp_path, "-DEARL_TCL_INCLUDE_DIR=/nonexistent/include")
    assert result.returncode == 0, result.stderr
    assert "apt-get install tcl8.6-dev" in result.stderr and "Building without the Tcl extension" in result.stderr
    assert "earl_tcl" not in (build / "build.ninja").read_text()


def test_cmake_fails_when_tcl_is_required_and_missing(tmp_path):
    result, _ = cmake_configure(tmp_path, "-DEARL_TCL=ON", "-DEARL_TCL_INCLUDE_DIR=/nonexistent/include")
    assert result.returncode != 0 and "apt-get install tcl8.6-dev" in result.stderr


# ------------------------------------------------------------------ earl.tcl.run
def test_run_sets_argv_as_tclsh_does(tmp_path, capsys):
    script = tmp_path / "args.tcl"
    script.write_text('puts "$argc|[join $argv ,]|$argv0|[info script]"\n')
    earl.tcl.run(script, ["one two", 3])
    assert capsys.readouterr().out == f"2|one two,3|{script}|{script}\n"
    if TCLSH:
        assert tclsh(script, "one two", 3).stdout == f"2|one two,3|{script}|{script}\n"


def test_run_errors_carry_the_scripts_file_and_line(tmp_path):
    script = tmp_path / "bad.tcl"
    script.write_text("set x 1\n\nEventTrace e -file /no/such.alog\n")
    with pytest.raises(earl.EarlError) as caught:
        earl.tcl.run(script)
    assert str(caught.value).startswith(f"{script}:3: /no/such.alog")
    script.write_text("proc f {} {\n    set y 2\n    P2Statistic p\n    p med\n}\nf\n")
    with pytest.raises(earl.EarlError) as caught:
        earl.tcl.run(script)
    message = str(caught.value)
    # Tcl counts a procedure's lines from the line of `proc`
    assert message == f"{script}:6: P2Statistic.med needs at least 5 values, has 0 (in procedure f, line 4)"


def test_run_syntax_errors_and_missing_files(tmp_path):
    script = tmp_path / "syntax.tcl"
    script.write_text('puts "ok"\nif {1} {\n')
    with pytest.raises(earl.EarlError, match=rf"^{re.escape(str(script))}:\d+: missing close-brace"):
        earl.tcl.run(script)
    with pytest.raises(earl.EarlError, match="couldn't read file"):
        earl.tcl.run(tmp_path / "absent.tcl")


def test_exit_stops_the_script_not_python(tmp_path, capsys):
    script = tmp_path / "exit.tcl"
    script.write_text("puts before\nexit 4\nputs after\n")
    with pytest.raises(SystemExit) as stopped:
        earl.tcl.run(script)
    assert stopped.value.code == 4 and capsys.readouterr().out == "before\n"
    script.write_text("puts before\nexit\nputs after\n")
    earl.tcl.run(script)
    assert capsys.readouterr().out == "before\n"


def test_puts_goes_to_python_streams_and_channels_still_work(tmp_path, capsys):
    out_file = tmp_path / "out.txt"
    script = tmp_path / "puts.tcl"
    script.write_text(f"puts -nonewline a\nputs stdout b\nputs stderr c\n"
                      f"set f [open {{{out_file}}} w]\nputs $f d\nputs -nonewline $f e\nclose $f\n")
    earl.tcl.run(script)
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("ab\n", "c\n")
    assert out_file.read_text() == "d\ne"


def test_run_in_a_given_interpreter_keeps_its_variables(tmp_path):
    tcl = earl.tcl.interpreter()
    script = tmp_path / "vars.tcl"
    script.write_text("set answer 42\n")
    earl.tcl.run(script, interp=tcl)
    assert tcl.eval("set answer") == "42"


@pytest.mark.parametrize("first, expected", [
    ("#!/usr/local/bin/earl\n", True), ("#!/usr/local/wish\n", True), ("#!/usr/bin/tclsh8.0\n", True),
    ("#!/usr/bin/env python3\n", False), ("-- lua\n", False)])
def test_is_tcl_script(tmp_path, first, expected):
    script = tmp_path / "script"
    script.write_text(first + "puts hi\n")
    assert earl.tcl.is_tcl_script(script) is expected
    assert earl.tcl.is_tcl_script(tmp_path / "x.tcl") is True


def test_library_path_error_says_what_to_install(monkeypatch, tmp_path):
    monkeypatch.setattr(earl, "__path__", [str(tmp_path)])
    with pytest.raises(earl.EarlError, match="apt-get install tcl8.6-dev"):
        earl.tcl.library_path()
    assert os.path.isdir(LIBRARY)


@pytest.mark.skipif(XVFB_RUN is None, reason="no xvfb-run")
def test_run_a_wish_script_loads_tk_and_returns_when_its_window_closes(tmp_path):
    script = tmp_path / "window.tcl"
    script.write_text("#!/usr/local/wish\nlabel .l -text hello\npack .l\nupdate\n"
                      "puts [winfo exists .l]\nafter 200 {destroy .}\n")
    code = "import earl.tcl, sys; earl.tcl.run(sys.argv[1]); print('returned')"
    result = subprocess.run([XVFB_RUN, "-a", sys.executable, "-c", code, str(script)], capture_output=True,
                            text=True, timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["1", "returned"]


def test_puts_keeps_the_newline_of_a_number(tmp_path, capsys):
    script = tmp_path / "numbers.tcl"
    script.write_text("puts 1\nputs 2.5\nputs -nonewline 3\nputs { 4 }\n")
    earl.tcl.run(script)
    assert capsys.readouterr().out == "1\n2.5\n3 4 \n"
