"""What the Tcl tests share: an interpreter with EARL loaded (tkinter.Tcl() and tclsh8.6 /
wish8.6 subprocesses), generated traces, and the seed's Tcl scripts extracted from the
seed files at test time (nothing of the seeds is kept in the repository). The tests at
the end check the extraction itself."""
import os
import re
import shutil
import subprocess
import tkinter
from pathlib import Path

import pytest

import earl
import earl.tcl

from script_checks import SEEDS, TIMEOUT

TCLSH = shutil.which("tclsh8.6")
WISH = shutil.which("wish8.6")
XVFB_RUN = shutil.which("xvfb-run")

try:
    LIBRARY = earl.tcl.library_path()
except earl.EarlError as error:  # pragma: no cover - a build without Tcl headers
    LIBRARY = None
    MISSING = str(error)
else:
    MISSING = ""

needs_extension = pytest.mark.skipif(LIBRARY is None, reason=f"no Tcl extension: {MISSING}")
needs_tclsh = pytest.mark.skipif(LIBRARY is None or TCLSH is None, reason="no tclsh8.6 or extension")


def tcl_env():
    """The environment under which tclsh8.6 and wish8.6 find `package require earl`."""
    return dict(os.environ, TCLLIBPATH=LIBRARY)


def tclsh(script, *args, program=None, check=True, cwd=None):
    """Runs a Tcl script file with tclsh8.6 (or `program`); returns the CompletedProcess."""
    result = subprocess.run([program or TCLSH, str(script), *map(str, args)], capture_output=True,
                            text=True, env=tcl_env(), timeout=TIMEOUT, cwd=cwd)
    if check:
        assert result.returncode == 0, result.stderr
    return result


def tclsh_eval(tmp_path, text, *args):
    """Runs Tcl text with `package require earl` in a tclsh8.6; returns its stdout."""
    script = tmp_path / "snippet.tcl"
    script.write_text("package require earl\n" + text)
    return tclsh(script, *args).stdout


def interp():
    return earl.tcl.interpreter()


def error_of(tcl, script):
    """The message of the Tcl error `script` raises (the test fails if there is none)."""
    with pytest.raises(tkinter.TclError) as caught:
        tcl.eval(script)
    return str(caught.value)


def as_list(tcl, value):
    """A Tcl list (as text) split into its words."""
    return list(tcl.tk.splitlist(value))


# ------------------------------------------------------------------ seed scripts
# Each figure is found by its first and last lines. The seeds are text converted from
# PDF: each line carries the figure's line number, and in seed 004 some numbers stand on
# lines of their own; both are typesetting, not script, and are removed.
FIGURES = {
    # name: (seed file prefix, first line, last line, numbering)
    "fig6": ("004_", "1: #!/usr/bin/tclsh8.0", "30: rename e {}", "colon"),
    "fig7.3": ("000_", "1  #!/usr/local/bin/earl", "38 $t close", "space"),
    "fig7.5": ("000_", "1  #!/usr/local/bin/earl", "31 $t close", "space"),
    "fig7.7": ("000_", "1  #!/usr/local/bin/earl", "20  $t close", "space"),
    "fig7.9": ("000_", "1  #!/usr/local/wish", "39 $t close", "space"),
}


def _seed_text(prefix):
    files = sorted(SEEDS.glob(prefix + "*.txt"))
    if not files:
        pytest.skip(f"no seed {prefix}* in {SEEDS}")
    return files[0].read_text(encoding="utf-8").splitlines()


def _block(lines, first, last, start=0):
    """The lines from the first line equal to `first` (at or after `start`) through the
    next line equal to `last`."""
    begin = next(i for i in range(start, len(lines)) if lines[i].strip() == first)
    end = next(i for i in range(begin, len(lines)) if lines[i].strip() == last)
    return begin, lines[begin:end + 1]


def figure_lines(name):
    """The figure's lines as numbered in the seed: {number: text}."""
    prefix, first, last, numbering = FIGURES[name]
    lines = _seed_text(prefix)
    # Three figures of seed 000 start with the same line: take the block that ends with
    # this figure's last line before another figure starts.
    start = 0
    while True:
        begin, block = _block(lines, first, last, start)
        if sum(1 for line in block if line.strip() == first) == 1:
            break
        start = begin + 1
    numbered = {}
    pattern = re.compile(r"^(\d+):\s?(.*)$" if numbering == "colon" else r"^(\d+)\s*(.*)$")
    unnumbered = []
    for line in block:
        match = pattern.match(line.strip())
        if match:
            numbered[int(match.group(1))] = match.group(2)
            unnumbered.append(match.group(2))
        else:
            unnumbered.append(line)
    return numbered, unnumbered


def figure_script(name):
    """The figure's Tcl text, line numbers removed (in seed 004 a number alone on a line is
    dropped with its line)."""
    prefix, _, _, numbering = FIGURES[name]
    numbered, _ = figure_lines(name)
    if numbering == "space":
        return "\n".join(numbered[n] for n in sorted(numbered)) + "\n"
    _, first, last, _ = FIGURES[name]
    lines = _seed_text(prefix)
    _, block = _block(lines, first, last)
    out = []
    for line in block:
        match = re.match(r"^(\d+):\s?(.*)$", line.strip())
        if match and not match.group(2):
            continue
        out.append(match.group(2) if match else line)
    return "\n".join(out) + "\n"


def write_figure(name, directory):
    path = Path(directory) / f"{name}.tcl"
    path.write_text(figure_script(name))
    return path


# ------------------------------------------------------------------ the extraction
@pytest.mark.parametrize("name", sorted(FIGURES))
def test_each_figure_is_found_whole(name):
    script = figure_script(name)
    assert not re.search(r"^\d+[: ]", script, re.M), "a line number was left in"
    text = script.splitlines()
    assert text[0].startswith("#!")
    assert text[-1].strip() in ("rename e {}", "$t close")


def test_fig6_keeps_the_continued_line_together():
    # In seed 004 line 24's number stands between `set excl(...) \` and its continuation;
    # dropping it keeps the backslash-newline joining the two.
    script = figure_script("fig6")
    assert "set excl($curr(loc),$encl(region)) \\\n" in script
    assert "\\\n                      [expr $excl($curr(loc),$encl(region)) - $diff]" in script
