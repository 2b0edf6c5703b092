"""Shipped scripts by name: `earl run NAME TRACE`, `earl scripts`, and the one-line
description every shipped script carries in its header."""
import subprocess
import sys
from pathlib import Path

import pytest

from earl import EarlError
from earl.generate import generate
from earl.shipped_scripts import find_script, language_of, scripts_folder, shipped_scripts

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "scripts"
EARL = [sys.executable, "-m", "earl.cli"]
EXTENSION_OF = {"python": ".py", "lua": ".lua", "tcl": ".tcl"}


def earl(*args, cwd):
    return subprocess.run(EARL + [str(a) for a in args], capture_output=True, text=True,
                          timeout=120, cwd=cwd)


def on_disk():
    """Every shipped script file as (name without extension, extension), read from the
    repository's scripts/ folder, not through earl.shipped_scripts."""
    return sorted((p.relative_to(SCRIPTS).with_suffix("").as_posix(), p.suffix)
                  for p in SCRIPTS.rglob("*") if p.suffix in (".py", ".lua", ".tcl"))


def header_first_line(path):
    lines = path.read_text().splitlines()
    if lines[0].startswith("#!"):
        lines = lines[1:]
    return lines[0].lstrip('"#- ')


def test_a_checkout_runs_its_own_scripts():
    assert scripts_folder() == SCRIPTS


def test_every_shipped_script_is_listed_with_its_header_line():
    listed = shipped_scripts()
    assert sorted((name, EXTENSION_OF[lang]) for name, lang, _ in listed) == on_disk()
    for name, language, description in listed:
        path = SCRIPTS / (name + EXTENSION_OF[language])
        assert description and description == header_first_line(path), path
        # one line that says what the script does: a sentence of its own
        assert description.endswith(".") and len(description) <= 100, path
        assert description[0].isupper(), path


def test_twins_in_other_languages_describe_themselves_alike():
    by_name = {}
    for name, language, description in shipped_scripts():
        by_name.setdefault(name, set()).add(description)
    for name, descriptions in by_name.items():
        assert len(descriptions) == 1, (name, descriptions)


def test_earl_scripts_lists_each_name_once_with_its_languages(tmp_path):
    done = earl("scripts", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    expected = {}
    for name, extension in on_disk():
        expected.setdefault(name, []).append(extension)
    for name, extensions in expected.items():
        (line,) = [line for line in lines if line.split()[:1] == [name]]
        languages = {".py": "python", ".lua": "lua", ".tcl": "tcl"}
        assert line.split()[1:1 + len(extensions)] == \
            [languages[e] for e in (".py", ".lua", ".tcl") if e in extensions], line
        assert header_first_line(SCRIPTS / (name + extensions[0])) in line
    assert "scripts/patterns/" in lines
    assert lines[-1].endswith(str(SCRIPTS))


def small_trace(tmp_path):
    trace = tmp_path / "t.alog"
    generate(trace, locations=3, events=3000, seed=2)
    return trace


@pytest.mark.parametrize("name,language", [
    ("wasted_time", "python"), ("wasted_time.py", "python"), ("wasted_time.lua", "lua"),
    ("wasted_time.tcl", "tcl"), ("late_sender", "python"), ("patterns/late_sender.lua", "lua"),
])
def test_run_finds_a_shipped_script_by_name_from_anywhere(name, language, tmp_path):
    trace = small_trace(tmp_path)
    stem = name.rsplit(".", 1)[0].rsplit("/", 1)[-1]
    folder = "patterns/" if stem == "late_sender" else ""
    by_path = earl("run", SCRIPTS / (folder + stem + EXTENSION_OF[language]), trace, cwd=tmp_path)
    by_name = earl("run", name, trace, cwd=tmp_path)
    assert by_path.returncode == 0, by_path.stderr
    assert by_name.returncode == 0, by_name.stderr
    # (Lua's tables keep no order: the pattern scripts print their rows in any order)
    assert sorted(by_name.stdout.splitlines()) == sorted(by_path.stdout.splitlines())
    # the scripts name themselves in their errors: which language ran
    missing = earl("run", name, tmp_path / "none.alog", cwd=tmp_path)
    assert missing.returncode == 1 and len(missing.stderr.splitlines()) == 1, missing.stderr
    assert f"{stem}{EXTENSION_OF[language]}" in missing.stderr


@pytest.mark.parametrize("language", ["python", "lua", "tcl"])
def test_a_name_without_extension_runs_in_the_language_lang_names(language, tmp_path):
    missing = earl("run", "--lang", language, "wasted_time", tmp_path / "none.alog", cwd=tmp_path)
    assert missing.returncode == 1
    assert missing.stderr.startswith(f"wasted_time{EXTENSION_OF[language]}: "), missing.stderr


def test_a_file_that_exists_wins_over_a_shipped_name(tmp_path):
    (tmp_path / "wasted_time.py").write_text("print('the local one')\n")
    done = earl("run", "wasted_time.py", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (0, "the local one\n"), done.stderr


@pytest.mark.parametrize("argv,message", [
    (["wasted_tme"], "earl: no such script: wasted_tme (earl scripts lists the shipped ones; "
                     "did you mean wasted_time?)"),
    (["patterns/late_sendr.lua"], "earl: no such script: patterns/late_sendr.lua (earl scripts "
                                  "lists the shipped ones; did you mean patterns/late_sender.lua?)"),
    (["zzzz"], "earl: no such script: zzzz (earl scripts lists the shipped ones)"),
    (["--lang", "tcl", "patterns/rma"], "earl: the shipped script patterns/rma is not written in "
                                        "tcl (only in python, lua)"),
])
def test_an_unknown_name_says_what_exists(argv, message, tmp_path):
    done = earl("run", *argv, "x.alog", cwd=tmp_path)
    assert done.returncode == 1 and done.stderr.strip() == message, done.stderr


def test_find_script_and_language_of_in_process(tmp_path):
    assert find_script("wasted_time") == str(SCRIPTS / "wasted_time.py")
    assert find_script("wasted_time", "lua") == str(SCRIPTS / "wasted_time.lua")
    assert find_script("rma") == str(SCRIPTS / "patterns" / "rma.py")
    assert language_of("a/b.LUA") == "lua" and language_of("x", "tcl") == "tcl"
    with pytest.raises(EarlError, match="unknown language 'perl'"):
        language_of("x.py", "perl")
    old = tmp_path / "old"
    old.write_text("#!/usr/local/bin/earl\nputs hi\n")
    assert language_of(old) == "tcl"
