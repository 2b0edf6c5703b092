"""The seed's own Tcl scripts run unchanged: EARL 2.0's Fig. 6 (region statistics) and the
1998 thesis' Figs. 7.3 (region statistics), 7.5 (wasted time), 7.7 (messages out of order)
and 7.9 (a BLT bar chart in wish, under Xvfb, with a screenshot). Each script's text is
extracted from the seed file at test time; its results are checked against the
generator's ground truth and the Python API."""
import math
import re
import subprocess

import pytest

import earl
from test_tcl_common import (WISH, XVFB_RUN, figure_lines, interp, needs_extension, needs_tclsh,
                             tcl_env, tclsh, write_figure)
from script_checks import TIMEOUT, have_otf2

pytestmark = needs_extension

FORMATS = ["alog", pytest.param("otf2", marks=pytest.mark.skipif(not have_otf2(), reason="no OTF2"))]


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    from earl.generate import generate

    directory = tmp_path_factory.mktemp("tcl-seeds")
    options = dict(locations=4, events=5000, seed=21, out_of_order_rate=0.3, late_sender_rate=0.3)
    traces = {"alog": (str(directory / "g.alog"), generate(directory / "g.alog", **options))}
    if have_otf2():
        traces["otf2"] = (str(directory / "g.otf2"), generate(directory / "g.otf2", **options))
    return traces


def tcl_array(tcl, name):
    words = tcl.tk.splitlist(tcl.eval(f"array get {name}"))
    return {words[i]: float(words[i + 1]) for i in range(0, len(words), 2)}


def check_region_times(incl, excl, truth, nrlocs, regions):
    """incl/excl keyed "loc,region" (every location and region, 0 where unvisited) against
    the generator's ground truth."""
    expected = {(str(loc), region): t for loc, by_region in truth["region_time"].items()
                for region, t in by_region.items()}
    assert set(incl) == {f"{loc},{region}" for loc in range(nrlocs) for region in regions}
    for key in incl:
        loc, region = key.split(",", 1)
        t = expected.get((loc, region), {"incl": 0.0, "excl": 0.0})
        assert incl[key] == pytest.approx(t["incl"], abs=1e-6), key
        assert excl[key] == pytest.approx(t["excl"], abs=1e-6), key
    assert any(v > 0 for v in incl.values())


@pytest.mark.parametrize("fmt", FORMATS)
def test_fig6_region_statistics(fmt, generated, tmp_path):
    path, truth = generated[fmt]
    script = write_figure("fig6", tmp_path)
    tcl = interp()
    earl.tcl.run(script, [path], interp=tcl)
    assert tcl.eval("info commands e") == ""          # rename e {} ran
    t = earl.EventTrace(path)
    check_region_times(tcl_array(tcl, "incl"), tcl_array(tcl, "excl"), truth, t.nrlocs(), t.regions())


@needs_tclsh
def test_fig6_runs_in_tclsh(generated, tmp_path):
    path, _ = generated["alog"]
    # The figure itself, run by tclsh as its first line says; then its arrays printed.
    script = write_figure("fig6", tmp_path)
    driver = tmp_path / "driver.tcl"
    driver.write_text(f"source {{{script}}}\nputs [array size incl]\nputs [array get incl 0,main]\n")
    out = tclsh(driver, path).stdout.splitlines()
    t = earl.EventTrace(path)
    assert int(out[0]) == t.nrlocs() * len(t.regions())
    assert out[1].split()[0] == "0,main" and float(out[1].split()[1]) > 0


@pytest.mark.parametrize("fmt", FORMATS)
def test_fig7_3_region_statistics_1998(fmt, generated, tmp_path):
    path, truth = generated[fmt]
    numbered, _ = figure_lines("fig7.3")
    # The figure has two typesetting defects: a stray `}` (line 36) and the elision
    # "[...] # Ausgabe" (line 37, "output here"). Run unchanged, the analysis completes and
    # Tcl stops at the stray brace, exactly there and nowhere else.
    assert numbered[36].strip() == "}" and numbered[37].startswith("[...]")
    script = write_figure("fig7.3", tmp_path)
    tcl = interp()
    with pytest.raises(earl.EarlError, match=rf'^{re.escape(str(script))}:36: invalid command name "}}"$'):
        earl.tcl.run(script, [path], interp=tcl)
    t = earl.EventTrace(path)
    check_region_times(tcl_array(tcl, "incl"), tcl_array(tcl, "excl"), truth, t.nrlocs(), t.regions())

    # Without the two defect lines it runs to its end ($t close removes the command).
    lines = "\n".join(numbered[n] for n in sorted(numbered) if n not in (36, 37)) + "\n"
    fixed = tmp_path / "fig7.3-fixed.tcl"
    fixed.write_text(lines)
    tcl = interp()
    earl.tcl.run(fixed, [path], interp=tcl)
    assert tcl.eval("info commands $t") == ""
    check_region_times(tcl_array(tcl, "incl"), tcl_array(tcl, "excl"), truth, t.nrlocs(), t.regions())


@pytest.mark.parametrize("fmt", FORMATS)
def test_fig7_5_wasted_time(fmt, generated, tmp_path, capsys):
    path, truth = generated[fmt]
    script = write_figure("fig7.5", tmp_path)
    capsys.readouterr()
    earl.tcl.run(script, [path])
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1
    match = re.fullmatch(rf"{re.escape(path)}: (\S+) sec wasted\.", out[0])
    assert truth["late_sender_count"] > 0
    # The 1998 dialect gives times with 9 decimals, so the sum may differ in the last ones.
    assert float(match.group(1)) == pytest.approx(truth["late_sender_wait_total"], abs=1e-6)


@needs_tclsh
def test_fig7_5_in_tclsh_as_the_earl_interpreter(generated, tmp_path):
    # /usr/local/bin/earl was a tclsh with EARL built in: tclsh + package require earl.
    path, truth = generated["alog"]
    script = write_figure("fig7.5", tmp_path)
    driver = tmp_path / "earl.tcl"
    driver.write_text(f"package require earl\nsource {{{script}}}\n")
    out = tclsh(driver, path).stdout
    assert float(out.split(": ")[1].split()[0]) == pytest.approx(truth["late_sender_wait_total"], abs=1e-6)


@pytest.mark.parametrize("fmt", FORMATS)
def test_fig7_7_messages_out_of_order(fmt, generated, tmp_path, capsys):
    path, truth = generated[fmt]
    script = write_figure("fig7.7", tmp_path)
    capsys.readouterr()
    earl.tcl.run(script, [path])
    out = capsys.readouterr().out.splitlines()
    # Independently, from the Python API: one report per overtaken message, with the
    # receiving location, the time and the call stack there, innermost region first.
    e = earl.EventTrace(path)
    expected = []
    while e.next():
        curr = e.event()
        if curr["type"] != "recv":
            continue
        stack = " ".join(e.event(p)["region"] for p in reversed(e.stack(curr["loc"])))
        for send in e.queue(curr["src"], curr["loc"]):
            if send < curr["sendptr"]:
                expected += ["Received message in wrong order",
                             f"on node {curr['loc']} at {curr['time']:.9f} sec.",
                             f"Call Stack: {stack} "]
    assert truth["out_of_order_reports"] > 0
    assert len(expected) == 3 * truth["out_of_order_reports"]
    assert out == expected


def ppm_pixels(path):
    """(width, height, bytes of RGB) of a binary PPM (P6) file."""
    data = path.read_bytes()
    fields = re.match(rb"P6\s+(?:#[^\n]*\n\s*)*(\d+)\s+(\d+)\s+(\d+)\s", data)
    width, height = int(fields.group(1)), int(fields.group(2))
    return width, height, data[fields.end():fields.end() + 3 * width * height]


@pytest.mark.skipif(WISH is None or XVFB_RUN is None, reason="no wish8.6 or xvfb-run")
def test_fig7_9_blt_bar_chart_in_wish(generated, tmp_path):
    path, _ = generated["alog"]
    e = earl.EventTrace(path)
    received = {}
    while e.next():
        ev = e.event()
        if ev["type"] == "recv":
            received.setdefault(ev["loc"], [0.0] * e.nrlocs())[ev["src"]] += ev["len"] / 1024.0
    receiver = max(received, key=lambda loc: sum(received[loc]))
    script = write_figure("fig7.9", tmp_path)
    shot = tmp_path / "fig7.9.ppm"
    # wish runs the figure unchanged, then (once it is drawn) this driver saves the
    # window with BLT's own snapshot command and prints the chart's data.
    driver = tmp_path / "driver.tcl"
    driver.write_text(f"""
set argv [list {{{path}}} {receiver}]
set argc 2
source {{{script}}}
update
after 500
update
image create photo shot
blt::winop snap . shot
shot write {{{shot}}} -format ppm
puts [dataVec range 0 end]
puts "[winfo width .b] [winfo height .b]"
exit 0
""")
    result = subprocess.run([XVFB_RUN, "-a", "-s", "-screen 0 800x600x24", WISH, str(driver)],
                            capture_output=True, text=True, env=tcl_env(), timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr
    values, size = result.stdout.splitlines()[-2:]
    assert [float(v) for v in values.split()] == pytest.approx(received[receiver])
    assert min(int(v) for v in size.split()) > 50

    width, height, rgb = ppm_pixels(shot)
    assert width > 50 and height > 50 and len(rgb) == 3 * width * height
    pixels = [rgb[i:i + 3] for i in range(0, len(rgb), 3)]
    colours = set(pixels)
    assert len(colours) >= 3, "the screenshot is blank"
    white = pixels.count(b"\xff\xff\xff")
    dark = sum(1 for p in pixels if max(p) < 0x60)
    # a white plot area with dark bars, axes and text on it
    assert white > len(pixels) // 10 and dark > 200
    bars = sum(1 for v in received[receiver] if v > 0)
    assert bars >= 1 and not math.isclose(sum(received[receiver]), 0.0)
