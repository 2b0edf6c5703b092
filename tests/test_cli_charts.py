"""The bar charts of data_received.lua and data_received.tcl (scripts/barchart.lua and
scripts/barchart.tcl): the text they draw is read back from the PNG.

The PNG is decoded here (zlib and the PNG layout, no image library), every expected
string is rendered independently from the font file, scripts/font5x7.txt, upright and
turned a quarter turn clockwise (numpy.rot90), and looked for pixel for pixel: the title,
the unit, each location's name (from EventTrace.locsym) under its bar and each bar's
value (from the generator's ground truth) above it; the bars' heights are to scale."""
import re
import subprocess
import sys
import zlib
from pathlib import Path

import numpy
import pytest

import earl
from earl.generate import generate

from script_checks import SCOREP, needs_scorep_traces

ROOT = Path(__file__).resolve().parents[1]
FONT = ROOT / "scripts" / "font5x7.txt"
EARL = [sys.executable, "-m", "earl.cli"]
LANGUAGES = ["lua", "tcl"]


def read_png(path):
    """The gray levels of an 8-bit gray PNG whose rows use filter 0 (as both charts write)."""
    data = Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    while pos < len(data):
        length = int.from_bytes(data[pos:pos + 4], "big")
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        assert zlib.crc32(kind + body) == int.from_bytes(data[pos + 8 + length:pos + 12 + length], "big")
        if kind == b"IHDR":
            width, height = int.from_bytes(body[:4], "big"), int.from_bytes(body[4:8], "big")
            assert body[8:10] == bytes([8, 0]), "8-bit gray"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = numpy.frombuffer(zlib.decompress(idat), dtype=numpy.uint8).reshape(height, width + 1)
    assert (raw[:, 0] == 0).all(), "filter 0 on every row"
    return raw[:, 1:]


def font():
    glyphs = {}
    for line in FONT.read_text().splitlines():
        if re.fullmatch(r". [.X]{5}( [.X]{5}){6}", line):
            glyphs[line[0]] = numpy.array([[c == "X" for c in row] for row in line[2:].split()])
    return glyphs


GLYPHS = font()


def rendered(text, scale=1):
    """The ink of `text`: glyphs 5x7 with one column of space between them."""
    columns = []
    for k, char in enumerate(text):
        if k:
            columns.append(numpy.zeros((7, 1), dtype=bool))
        columns.append(GLYPHS[char])
    ink = numpy.hstack(columns)
    return ink.repeat(scale, axis=0).repeat(scale, axis=1)


def find(ink, pattern):
    """Top left corners (y, x) where the box of `pattern` in `ink` is exactly `pattern`."""
    h, w = pattern.shape
    anchor = int(pattern.sum(axis=1).argmax())
    row_pattern = pattern[anchor].tobytes()
    found = []
    for y in range(anchor, ink.shape[0] - (h - 1 - anchor)):
        line = ink[y].tobytes()
        x = line.find(row_pattern)
        while x != -1:
            if x + w <= ink.shape[1] and (ink[y - anchor:y - anchor + h, x:x + w] == pattern).all():
                found.append((y - anchor, x))
            x = line.find(row_pattern, x + 1)
    return found


def place(ink, text, scale=1):
    """Where `text` is drawn, upright or turned, with nothing else touching it (so "rank 1"
    is not found inside "rank 10"): [(centre x, top y, bottom y)]."""
    # blank all around: 1 pixel across the text, 3 along it (a glyph's space column and
    # up to two empty columns of the next glyph, as in "rank 1" of "rank 11")
    ink = numpy.pad(ink, 3)
    upright = numpy.pad(rendered(text, scale), ((1, 1), (3, 3)))
    places = []
    for pattern, above in ((upright, 1), (numpy.rot90(upright, -1), 3)):
        h, w = pattern.shape
        places += [(x - 3 + w / 2, y - 3 + above, y - 3 + h - above)
                   for y, x in find(ink, pattern)]
    return places


def chart(language, trace, tmp_path):
    png = tmp_path / f"chart-{language}.png"
    done = subprocess.run(EARL + ["run", f"data_received.{language}", str(trace), str(png)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == f"bar chart: {png}"
    return read_png(png)


def check_chart(image, names, values, title):
    ink = image == 0
    ((title_x, title_top, _),) = place(ink, title, scale=2)
    assert abs(title_x - image.shape[1] / 2) <= 1 and title_top < 20
    assert len(place(ink, "data [KBytes]")) == 1
    axis = int(numpy.argmax(ink.sum(axis=1)))            # the x axis: the longest black row
    labels = []
    for name in names:
        (where,) = place(ink, name)
        assert where[1] > axis, f"{name!r} is under the axis"
        labels.append(where[0])
    assert labels == sorted(labels), "the names are in location order, left to right"
    heights = []
    for centre, value in zip(labels, values):
        near = [w for w in place(ink, value) if abs(w[0] - centre) <= 1]
        assert len(near) == 1, f"value {value} above the bar at x={centre}"
        column = image[:axis, int(centre)]
        bar = 0
        while bar < axis and column[axis - 1 - bar] != 255:  # gray fill up to the black top
            bar += 1
        heights.append(bar)
        assert near[0][2] < axis - bar, "the value is above its bar"
    top = max(heights)
    numbers = [float(v) for v in values]
    for height, number in zip(heights, numbers):
        assert abs(height - top * number / max(numbers)) <= 1.5


def generated(tmp_path, locations):
    trace = tmp_path / f"t{locations}.alog"
    truth = generate(trace, locations=locations, events=400 * locations, seed=5)
    values = [f"{b / 1024:.1f}" for b in truth["bytes_received_per_location"]]
    with earl.EventTrace(trace) as e:
        names = [str(e.locsym(loc)) for loc in range(e.nrlocs())]
    return trace, names, values


@pytest.mark.parametrize("locations", [4, 40])
def test_names_values_title_and_unit_are_drawn(locations, tmp_path):
    """4 locations: names and values upright under and over their bars; 40: both turned to
    read downwards (wider than the bars)."""
    trace, names, values = generated(tmp_path, locations)
    images = {language: chart(language, trace, tmp_path) for language in LANGUAGES}
    for image in images.values():
        check_chart(image, names, values, f"Data received per location: {trace.name}")
    ink = images["lua"] == 0
    upright = [bool(find(ink, rendered(name))) for name in names]
    assert all(upright) if locations == 4 else not any(upright)
    # the twins draw the same chart
    assert (images["lua"] == images["tcl"]).all()


@pytest.mark.skipif("otf2" not in earl._core.known_formats(), reason="this build reads no OTF2")
@needs_scorep_traces
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_score_p_location_names_are_drawn(language, tmp_path):
    anchor = SCOREP / "ping-pong-otf2" / "traces.otf2"
    with earl.EventTrace(anchor) as e:
        names = [e.locsym(loc) for loc in range(e.nrlocs())]
        received = [0] * e.nrlocs()
        for event in e:
            if event["type"] == "recv":
                received[event["loc"]] += event["len"]
    check_chart(chart(language, anchor, tmp_path), names,
                [f"{b / 1024:.1f}" for b in received], "Data received per location: traces.otf2")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_character_the_font_lacks_is_drawn_as_a_question_mark(language, tmp_path):
    """A location named in UTF-8 outside ASCII: one "?" per character in both languages."""
    png = tmp_path / "odd.png"
    folder = ROOT / "scripts"
    if language == "lua":
        import earl.lua
        lua = earl.lua.runtime()
        lua.execute(f"package.path = {str(folder / '?.lua')!r} .. ';' .. package.path")
        lua.execute(f"assert(require('barchart').write({str(png)!r}, {{2, 1}}, "
                    "{labels = {'r\\195\\169gion', 'b'}, format = '%.0f'}))")
    else:
        import earl.tcl
        tcl = earl.tcl.interpreter()
        tcl.eval(f"source {{{folder / 'barchart.tcl'}}}")
        tcl.eval(f"barchart::write {{{png}}} {{2 1}} -labels {{r\u00e9gion b}} -format %.0f")
    ink = read_png(png) == 0
    assert len(place(ink, "r?gion")) == 1 and len(place(ink, "b")) == 1
    assert len(place(ink, "2")) == 1 and len(place(ink, "1")) == 1
