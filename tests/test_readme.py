"""The README's promises: its example script runs and computes the injected wait time."""
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def readme_script():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    assert blocks, "README.md has no python example"
    return blocks[0]


def test_readme_script_is_about_twenty_lines():
    assert len(readme_script().strip().splitlines()) <= 22


def test_readme_script_finds_the_injected_late_sender_time(tmp_path):
    from earl.generate import generate

    trace = tmp_path / "run.alog"
    truth = generate(str(trace), locations=4, events=30000, seed=5)
    script = tmp_path / "wasted.py"
    script.write_text(readme_script())
    done = subprocess.run([sys.executable, str(script), str(trace)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    reported = float(re.search(r": ([0-9.]+) sec wasted", done.stdout).group(1))
    assert truth["late_sender_wait_total"] > 0
    assert reported == pytest.approx(truth["late_sender_wait_total"], abs=1e-6)


def test_readme_names_both_commands():
    text = README.read_text()
    assert "make demo" in text and "make test" in text


def test_readme_script_survives_receives_outside_regions_and_unmatched(tmp_path):
    """A receive outside any region (enterptr 0) and one without a send (sendptr 0) are
    skipped, not an error: event(0) raises, so the script must not ask for it."""
    trace = tmp_path / "edge.alog"
    trace.write_text("-3 0 0 2 0 0\n-13 0 1 2 0 0 c:p MPI_Recv\n"
                     "-101 0 0 1 0 5 1 8\n-102 1 0 0 0 6 1 8\n"      # recv outside a region
                     "1 1 0 0 0 7\n-102 1 0 0 0 8 1 8\n2 1 0 0 0 9\n")  # recv with no send
    script = tmp_path / "wasted.py"
    script.write_text(readme_script())
    done = subprocess.run([sys.executable, str(script), str(trace)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith(": 0.000000 sec wasted")


def three_languages():
    """The README's analysis in Python, Lua and Tcl: {extension: script}."""
    text = README.read_text()
    section = text[text.index("## A script in three languages"):]
    section = section[:section.index("\n## ")]
    blocks = dict(re.findall(r"```(python|lua|tcl)\n(.*?)```", section, re.S))
    assert set(blocks) == {"python", "lua", "tcl"}
    return {".py": blocks["python"], ".lua": blocks["lua"], ".tcl": blocks["tcl"]}


def run_in_each_language(tmp_path, trace):
    outputs = {}
    for extension, text in three_languages().items():
        script = tmp_path / ("wasted" + extension)
        script.write_text(text)
        done = subprocess.run([sys.executable, "-m", "earl.cli", "run", str(script), str(trace)],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, (extension, done.stderr)
        outputs[extension] = done.stdout
    return outputs


@pytest.mark.parametrize("fmt", ["alog", "otf2"])
def test_the_three_languages_print_the_same_injected_wait(tmp_path, fmt):
    from earl import _core
    from earl.generate import generate

    if fmt not in _core.generator_formats():
        pytest.skip(f"this build writes no {fmt}")
    trace = tmp_path / f"run.{fmt}"
    truth = generate(str(trace), locations=4, events=20000, seed=9)
    outputs = run_in_each_language(tmp_path, trace)
    assert len(set(outputs.values())) == 1, outputs
    reported = float(re.search(r": ([0-9.]+) sec wasted", outputs[".py"]).group(1))
    assert truth["late_sender_wait_total"] > 0
    assert reported == pytest.approx(truth["late_sender_wait_total"], abs=1e-6)


def test_the_three_languages_skip_receives_outside_regions_and_unmatched(tmp_path):
    trace = tmp_path / "edge.alog"
    trace.write_text("-3 0 0 2 0 0\n-13 0 1 2 0 0 c:p MPI_Recv\n"
                     "-101 0 0 1 0 5 1 8\n-102 1 0 0 0 6 1 8\n"
                     "1 1 0 0 0 7\n-102 1 0 0 0 8 1 8\n2 1 0 0 0 9\n")
    outputs = run_in_each_language(tmp_path, trace)
    assert set(outputs.values()) == {f"{trace}: 0.000000 sec wasted\n"}


def tour():
    """The README's five-minute tour: (shell command lines, REPL input lines)."""
    text = README.read_text()
    section = text[text.index("## A five-minute tour"):]
    section = section[:section.index("\n## ")]
    commands, repl_input = [], []
    for line in section.splitlines():
        if not line.startswith("    "):
            continue
        line = line.strip()
        if line.startswith(("earl ", "$ earl ")):
            commands.append(shlex.split(line.removeprefix("$ "), comments=True))
        for prompt in (">>> ", "lua> ", "tcl> "):
            if line.startswith(prompt):
                # what follows two spaces or more is the README's explanation
                repl_input.append(re.split(r"\s{2,}", line[len(prompt):])[0])
    return commands, repl_input


def test_the_tour_runs_as_written_without_a_traceback(tmp_path):
    """Every command of the tour, in a fresh directory, in the order the README gives them:
    exit 0 and no traceback. `earl demo` (its own test) and `earl run my_script.py` (the
    reader's own script) aside; the REPL lines run as a scripted session, `:view` aside
    (it needs a terminal: tests/test_repl_tmux.py)."""
    from earl import _core

    if "otf2" not in _core.generator_formats():
        pytest.skip("this build writes no OTF2")
    commands, repl_input = tour()
    names = [words[1] for words in commands]
    assert {"gen", "info", "analyze", "repl", "scripts", "run"} <= set(names)
    for words in commands:
        if words[1] == "demo" or "my_script.py" in words or words[1] == "repl":
            continue
        done = subprocess.run([sys.executable, "-m", "earl.cli", *words[1:]], cwd=tmp_path,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, (words, done.stderr)
        assert "Traceback" not in done.stderr, (words, done.stderr)
    assert repl_input[0].startswith(":find") and ":quit" in repl_input
    session = "\n".join(line for line in repl_input if line != ":view") + "\n"
    done = subprocess.run([sys.executable, "-m", "earl.cli", "repl", "-q", "run.otf2"],
                          cwd=tmp_path, input=session, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    # the search found a receive, :send went to its send, and each language answered
    assert " recv " in done.stdout and " send " in done.stdout
    assert "language: lua" in done.stdout and "language: tcl" in done.stdout
