"""Bad inputs to earl merge, earl experiment and earl compare: clear errors (exit 1, one
line naming the file or argument), never a traceback."""
import sys

import pytest

import earl
from alog_traces import write_alog
from earl.cli import main

ONE = ["-3 0 0 2 0 0", "-13 0 1 2 0 0 k:p work", "1 0 0 0 0 5", "2 0 0 0 0 9"]


def fails(argv, capsys, *words):
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith("earl: ") and "Traceback" not in err, err
    for word in words:
        assert word in err, err


def test_merge_missing_input(tmp_path, capsys):
    a = write_alog(tmp_path, ONE, "a.alog")
    fails(["merge", str(tmp_path / "m.alog"), a, str(tmp_path / "nope.alog")], capsys, "nope.alog")


@pytest.mark.parametrize("bad", ["a.alog", "=3", "a.alog=soon"])
def test_merge_bad_offset_syntax(tmp_path, capsys, bad):
    a = write_alog(tmp_path, ONE, "a.alog")
    fails(["merge", str(tmp_path / "m.alog"), a, "--offset", bad], capsys, "--offset", repr(bad))


def test_merge_offset_for_no_input(tmp_path, capsys):
    a = write_alog(tmp_path, ONE, "a.alog")
    fails(["merge", str(tmp_path / "m.alog"), a, "--offset", "b.alog=1"], capsys, "b.alog", "no input")


def test_merge_keep_with_shared_locations_and_estimate_without_links(tmp_path, capsys):
    a = write_alog(tmp_path, ONE, "a.alog")
    b = write_alog(tmp_path, ONE, "b.alog")
    fails(["merge", str(tmp_path / "m.alog"), a, b, "--locations", "keep"], capsys,
          "location 0 has events in", "a.alog", "b.alog")
    fails(["merge", str(tmp_path / "m.alog"), a, b, "--estimate-offsets"], capsys,
          "--estimate-offsets", "--offset")


def test_merge_refuses_to_overwrite_an_input_and_unknown_formats(tmp_path, capsys):
    a = write_alog(tmp_path, ONE, "a.alog")
    fails(["merge", a, a], capsys, "input trace")
    with pytest.raises(earl.EarlError, match="locations 'sideways'"):
        earl.merge(str(tmp_path / "m.alog"), [a], locations="sideways")
    with pytest.raises(earl.EarlError, match="no number of seconds"):
        earl.merge(str(tmp_path / "m.alog"), [a], offsets=["soon"])


def test_merge_not_a_trace(tmp_path, capsys):
    junk = tmp_path / "junk.txt"
    junk.write_text("hello\n")
    fails(["merge", str(tmp_path / "m.alog"), str(junk)], capsys, "junk.txt")


@pytest.mark.parametrize("param, words", [
    ("procs", ["--param 'procs'", "NAME=VALUE"]),
    ("procs=2,,4", ["procs", "''"]),
    ("pro/cs=2", ["parameter 'pro/cs'"]),
    ("procs=a/b", ["'a/b'"])])
def test_experiment_bad_param(tmp_path, capsys, param, words):
    fails(["experiment", "run", "--root", str(tmp_path), "--project", "p", "--name", "e",
           "--param", param, "--", "true"], capsys, *words)


def test_experiment_unknown_placeholder_runs_nothing(tmp_path, capsys):
    fails(["experiment", "run", "--root", str(tmp_path), "--project", "p", "--name", "e",
           "--param", "procs=2", "--", sys.executable, "-c", "pass", "{size}"], capsys,
          "{size}", "{procs}")
    assert not (tmp_path / "p" / "e" / "procs=2").exists()


def test_experiment_no_command_and_missing_program(tmp_path, capsys):
    fails(["experiment", "run", "--root", str(tmp_path), "--project", "p", "--name", "e"],
          capsys, "no command")
    fails(["experiment", "run", "--root", str(tmp_path), "--project", "p", "--name", "e",
           "--", str(tmp_path / "no-such-program")], capsys, "cannot run", "no-such-program")


def test_experiment_report_of_nothing(tmp_path, capsys):
    fails(["experiment", "report", "p/e", "--root", str(tmp_path)], capsys, "no experiment 'p/e'")
    fails(["experiment", "report", "p", "--root", str(tmp_path)], capsys, "PROJECT/EXPERIMENT")


def test_compare_bad_inputs(tmp_path, capsys):
    a = write_alog(tmp_path, ONE, "a.alog")
    fails(["compare", a], capsys, "two or more")
    fails(["compare", a, str(tmp_path / "gone.json")], capsys, "gone.json", "does not exist")
    bad = tmp_path / "bad.json"
    bad.write_text('{"file": 1}')
    fails(["compare", a, str(bad)], capsys, "bad.json", "engine_result")
    assert main(["compare", a, a, "--threshold", "-1"]) == 2


def test_nul_bytes_in_paths_are_earl_errors(tmp_path):
    calls = [lambda: earl.merge(str(tmp_path / "m.alog"), ["a\0b"]),
             lambda: earl.compare(["a\0", "b"]),
             lambda: earl.experiment.run("r\0", "p", "e", {}, ["true"]),
             lambda: earl.experiment.list_tree("r\0"),
             lambda: earl.experiment.table("r\0", "p/e")]
    for call in calls:
        with pytest.raises(earl.EarlError, match="NUL"):
            call()
