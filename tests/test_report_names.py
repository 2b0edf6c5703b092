"""Names of any bytes in every output of `earl analyze` (issue 22, class 7): text, JSON,
HTML and the Cube file show each name in one printable form (earl.analysis.names: bytes
that are not UTF-8 and control characters as \\xNN), and each output stays what its format
requires: text without control bytes, JSON that is valid UTF-8 and parses, HTML that is
valid UTF-8 with the names escaped, an anchor.xml that is well-formed XML 1.0, a Cube file
pycubexr reads. The expected forms below are written out by hand."""
import json
import subprocess
import sys
import tarfile
from html.parser import HTMLParser
from xml.etree import ElementTree

import pycubexr
import pytest

from earl.analysis.names import shown
from otf2_archives import ArchiveWriter, T
from script_checks import have_otf2

EARL = [sys.executable, "-m", "earl.cli"]

# (bytes in the trace, the form every report shows). ALOG lines carry every byte but LF
# and CR, and trim blanks at both ends: CR, LF and an empty name come from OTF2 below.
ALOG_REGIONS = [
    (b"r\xe9gion \xff", "r\\xe9gion \\xff"),          # not UTF-8
    (b"caf\xc3\xa9", "caf\u00e9"),                      # UTF-8: kept
    (b"a\x01b\x7fc\td", "a\\x01b\\x7fc\\x09d"),         # controls, tab inside
    (b"<&>\"'", "<&>\"'"),                              # markup: escaped by each output itself
    (b"esc\x1b[31mred", "esc\\x1b[31mred"),            # a terminal colour sequence
    (b"c1\xc2\x9bx", "c1\\u009bx"),                     # a C1 control, UTF-8 encoded
]
ALOG_LOCATIONS = [(b"rank \xfe", "rank \\xfe"), (b"<rank&1>", "<rank&1>")]


def alog_trace(path):
    """Two locations; location 0 calls each region in turn, then sends in MPI_Send from
    within the last; location 1 waits in MPI_Recv within the last region for the message
    (a late sender, so that region shows in the pattern's call paths too)."""
    names = [name for name, _ in ALOG_REGIONS] + [b"MPI_Send", b"MPI_Recv"]
    lines = [b"-3 0 0 2 0 0"]
    for i, name in enumerate(names):
        lines.append(b"-13 0 %d %d 0 0 black:solid " % (2 * i + 1, 2 * i + 2) + name)
    for loc, (name, _) in enumerate(ALOG_LOCATIONS):
        lines.append(b"-15 %d 0 0 0 0 " % loc + name)
    last, send, recv = len(ALOG_REGIONS) - 1, len(ALOG_REGIONS), len(ALOG_REGIONS) + 1
    t = 1
    for i in range(last):
        lines += [b"%d 0 0 0 0 %d" % (2 * i + 1, t), b"%d 0 0 0 0 %d" % (2 * i + 2, t + 1)]
        t += 2
    lines += [b"%d 1 0 0 0 1" % (2 * last + 1), b"%d 1 0 0 0 2" % (2 * recv + 1),
              b"%d 0 0 0 0 %d" % (2 * last + 1, t), b"%d 0 0 0 0 %d" % (2 * send + 1, t + 4),
              b"-101 0 0 1 0 %d 3 8" % (t + 5), b"%d 0 0 0 0 %d" % (2 * send + 2, t + 6),
              b"%d 0 0 0 0 %d" % (2 * last + 2, t + 7),
              b"-102 1 0 0 0 %d 3 8" % (t + 7), b"%d 1 0 0 0 %d" % (2 * recv + 2, t + 8),
              b"%d 1 0 0 0 %d" % (2 * last + 2, t + 9)]
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


OTF2_REGIONS = [("cr\rlf\nend", "cr\\x0dlf\\x0aend"), ("", ""), ("  ", "  ")]


def otf2_trace(directory):
    """One process named with a newline, its thread with nothing; regions with CR/LF, an
    empty and a blank name (the official writer)."""
    aw = ArchiveWriter(directory, "names", resolution=10 ** 6)
    loc = aw.process("proc\nline", threads=[""])[0]
    e = aw.ev(loc)
    regions = [aw.region(name) for name, _ in OTF2_REGIONS]
    for t, r in enumerate(regions):
        e.enter(T(2 * t), r)
        e.leave(T(2 * t + 1), r)
    return aw.close()


class _Collect(HTMLParser):
    def __init__(self):
        super().__init__()
        self.text = []

    def handle_data(self, data):
        self.text.append(data)

    def handle_starttag(self, tag, attrs):
        self.text += [value or "" for _, value in attrs]


def outputs(trace, tmp_path):
    """(text, JSON dict, HTML text, anchor.xml root, pycubexr region names) of one trace."""
    html, cube = tmp_path / "r.html", tmp_path / "r.cubex"
    done = subprocess.run(EARL + ["analyze", str(trace), "--html", str(html), "--cube", str(cube)],
                          capture_output=True)
    assert done.returncode == 0, done.stderr
    text = done.stdout.decode("utf-8")            # strict: fails on anything but UTF-8
    assert not any(c < 0x20 and c not in b"\n" for c in done.stdout), "control bytes in the text"
    done = subprocess.run(EARL + ["analyze", "--json", str(trace)], capture_output=True)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.decode("utf-8"))
    page = html.read_bytes().decode("utf-8")
    parser = _Collect()
    parser.feed(page)
    parser.close()
    with tarfile.open(cube) as tar:
        anchor = ElementTree.fromstring(tar.extractfile("anchor.xml").read())
    with pycubexr.CubexParser(str(cube)) as reader:
        cube_regions = [reader.get_region(c).name for c in reader.all_cnodes()]
    return text, report, "".join(parser.text), anchor, cube_regions


def test_shown_form_by_hand():
    assert shown("plain name / Master thread") == "plain name / Master thread"
    assert shown("\udcff\x00\x1f\x7f\x80\x9f\ud800") == "\\xff\\x00\\x1f\\x7f\\u0080\\u009f\\ud800"
    assert shown("") == ""
    assert shown(shown("a\x01\udce9")) == shown("a\x01\udce9")   # applying it twice changes nothing


def test_alog_names_in_every_output(tmp_path):
    text, report, page, anchor, cube_regions = outputs(alog_trace(tmp_path / "names.alog"), tmp_path)
    regions = [want for _, want in ALOG_REGIONS] + ["MPI_Send", "MPI_Recv"]
    locations = [want for _, want in ALOG_LOCATIONS]
    assert report["engine_result"]["regions"] == regions
    assert report["engine_result"]["locations"] == locations
    assert report["locations"] == {"0": locations[0], "1": locations[1]}
    late = report["patterns"]["mpi_latesender"]["by_callpath"]
    waiting = regions[-3] + "/MPI_Recv"
    assert list(late) == [waiting]
    assert f" {waiting} " in text                        # the pattern's call path row
    assert f"worst locations: {locations[1]} " in text
    for name in [waiting] + locations:
        assert name in page                               # text and attributes, as parsed
    assert [r.find("name").text or "" for r in anchor.iter("region")][:len(regions)] == regions
    names = [n.text for n in anchor.iter("location") for n in n.findall("name")]
    assert names == ["Master thread", "Master thread"]   # ALOG names are processes
    processes = [g.find("name").text for g in anchor.iter("locationgroup")]
    assert processes == locations
    assert set(regions) <= set(cube_regions)


@pytest.mark.skipif(not have_otf2(), reason="EARL built without libotf2")
def test_otf2_names_in_every_output(tmp_path):
    text, report, page, anchor, cube_regions = outputs(otf2_trace(tmp_path), tmp_path)
    regions = [want for _, want in OTF2_REGIONS]
    assert report["engine_result"]["regions"] == regions
    assert report["engine_result"]["locations"] == ["proc\\x0aline / "]
    assert "proc\\x0aline / " in page            # the location, in the HTML report's plots
    region_names = [r.find("name").text or "" for r in anchor.iter("region")]
    assert region_names[:3] == regions
    assert [g.find("name").text for g in anchor.iter("locationgroup")] == ["proc\\x0aline"]
    assert [(n.find("name").text or "") for n in anchor.iter("location")] == [""]
    assert set(regions) <= set(cube_regions) | {""}


def test_a_json_report_reads_back_with_the_same_names(tmp_path):
    import earl.analysis
    report = earl.analysis.analyze(alog_trace(tmp_path / "names.alog"), progress=lambda f: None)
    again = earl.analysis.Report.from_json(report.to_json())
    assert again.raw["regions"] == report.raw["regions"]
    assert report.raw["regions"][:len(ALOG_REGIONS)] == [want for _, want in ALOG_REGIONS]
    assert again.callpaths == report.callpaths
