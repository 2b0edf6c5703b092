"""The findings of the fuzz targets (fuzz/regressions/<target>/) stay fixed.

The C++ targets' findings are replayed by the ctest <target>_regressions (test-cpp and the
sanitizer builds); here the Python API target's findings go through its check() without
atheris, and each OTF2 finding is opened as `earl` opens it, with the answer it must get.
"""
import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import earl
import earl.generate

ROOT = Path(__file__).resolve().parents[1]
REGRESSIONS = ROOT / "fuzz" / "regressions"


def fuzz_module():
    spec = importlib.util.spec_from_file_location("python_api_fuzzer", ROOT / "fuzz" / "python_api_fuzzer.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def kept(target):
    folder = REGRESSIONS / target
    return sorted(p for p in folder.iterdir() if p.name != "README.md") if folder.is_dir() else []


@pytest.mark.parametrize("finding", kept("python_api"), ids=lambda p: p.name)
def test_python_api_finding_replays_clean(finding):
    fuzz_module().check(finding.read_bytes())


def fuzz_archive(directory):
    """The archive the OTF2 targets mutate (fuzz/otf2_archive_input.h)."""
    anchor = Path(directory) / "traces.otf2"
    earl.generate.generate(str(anchor), locations=2, events=60, seed=1,
                           truth_path=str(Path(directory) / "truth.json"))
    return anchor


# Each kept OTF2 finding: the file of the archive it replaces and the start of the error
# it must give, through the decoder and through the event cache alike (what follows is
# libotf2's wording, which may depend on whether its malloc of a hostile size succeeds).
OTF2_FINDINGS = {
    # A group whose member count makes libotf2 ask malloc for 34 GB.
    ("otf2_definitions", "libotf2-asks-34GB.def"): ("traces.def", "reading the global definitions failed: "),
    # A record damaged half-way (libotf2 leaks its arrays; fuzz/lsan_suppressions.txt).
    ("otf2_definitions", "libotf2-leaks-on-damaged-record.def"):
        ("traces.def", "reading the global definitions failed: Invalid or inconsistent record data"),
    # A ProgramBegin record whose argument count makes libotf2 ask malloc for 16 GB.
    ("otf2_events", "libotf2-asks-16GB.evt"):
        ("traces/0.evt", "location 0 (MPI Rank 0 / Master thread): event record 1 cannot be read: "),
}


# Kept OTF2 findings whose archive opens and reads in order, but on which libotf2's seek
# lands elsewhere: the file replaced, and the start of the error random access must give
# without the cache (after the archive's path).
OTF2_SEEK_FINDINGS = {
    # The chunk header numbers the event file's records from 9, not 1: libotf2 reads them
    # in order all the same, but OTF2_EvtReader_Seek to record N lands on record N - 8.
    ("otf2_events", "chunk-header-numbers-records-from-9.evt"):
        ("traces/0.evt", "location 0: event record "),
}


@pytest.mark.parametrize("cache", [False, True])
@pytest.mark.parametrize("finding", sorted(OTF2_FINDINGS), ids=lambda f: f[1])
def test_otf2_findings_are_an_earl_error_naming_the_archive_and_record(tmp_path, finding, cache):
    replaced, message = OTF2_FINDINGS[finding]
    anchor = fuzz_archive(tmp_path)
    shutil.copy(REGRESSIONS.joinpath(*finding), anchor.parent / replaced)
    with pytest.raises(earl.EarlError) as raised:
        earl.EventTrace(str(anchor), cache=cache, strict=True)
    assert str(raised.value).startswith(f"{anchor}: {message}")
    if replaced.endswith(".evt"):
        # Without strict, a damaged event file is read up to the damage and reported.
        trace = earl.EventTrace(str(anchor), cache=cache)
        [damage] = trace.problems()["damaged"]["locations"]
        assert damage["message"].startswith(f"{anchor}: {message}")
    else:
        with pytest.raises(earl.EarlError):  # damaged definitions: nothing sensible to read
            earl.EventTrace(str(anchor), cache=cache)


@pytest.mark.parametrize("finding", sorted(OTF2_SEEK_FINDINGS), ids=lambda f: f[1])
def test_otf2_seek_findings_read_in_order_and_reject_a_seek_that_lands_elsewhere(tmp_path, finding):
    replaced, message = OTF2_SEEK_FINDINGS[finding]
    anchor = fuzz_archive(tmp_path)
    shutil.copy(REGRESSIONS.joinpath(*finding), anchor.parent / replaced)
    # Read in order, libotf2 never looks at the damaged numbers: both ways agree.
    cached = earl.EventTrace(str(anchor), cache=True, index=False)
    in_order = [cached.event(pos) for pos in range(1, len(cached) + 1)]
    direct = earl.EventTrace(str(anchor), cache=False, index=False)
    assert [direct.event(pos) for pos in range(1, len(direct) + 1)] == in_order
    # Backwards with a bookmark before every event, each event is reached by a seek; the
    # first seek into the damaged file must fail, never hand out another record's event.
    seeking = earl.EventTrace(str(anchor), cache=False, bdist=1, hsize=1, index=False)
    with pytest.raises(earl.EarlError) as raised:
        for pos in range(len(seeking), 0, -1):
            assert seeking.event(pos) == in_order[pos - 1]
    assert str(raised.value).startswith(f"{anchor}: {message}")
    assert "reads differently after a seek than when it was read in order" in str(raised.value)


def test_every_kept_otf2_finding_has_its_expected_error():
    kept_findings = {(target, p.name) for target in ("otf2_definitions", "otf2_events") for p in kept(target)}
    assert kept_findings == set(OTF2_FINDINGS) | set(OTF2_SEEK_FINDINGS)


def test_fuzz_archive_reads_as_generated(tmp_path):
    # The unmutated archive is a whole trace: every finding above is the mutation's doing.
    truth = earl.generate.generate(str(tmp_path / "traces.otf2"), locations=2, events=60, seed=1,
                                   truth_path=str(tmp_path / "truth.json"))
    # the truth's events and one ProgramBegin/ProgramEnd per process
    assert len(earl.EventTrace(str(tmp_path / "traces.otf2"))) == truth["events"] + 2 * 2


def test_libotf2_fault_ends_in_an_earl_error_where_libotf2_survives_it(tmp_path):
    # Definitions on which libotf2 reads past its buffer (fuzz/libotf2_faults/: under ASan
    # a SEGV in OTF2_Buffer_ReadUint64, libotf2's code, not EARL's). Without ASan the read
    # lands in mapped memory and libotf2 reports the record; EARL must turn that into an
    # EarlError. Run in a child so that a crash fails this test, not the whole run.
    anchor = fuzz_archive(tmp_path)
    shutil.copy(ROOT / "fuzz" / "libotf2_faults" / "otf2_definitions" /
                "out-of-bounds-read-in-OTF2_Buffer_ReadUint64.def", anchor.with_suffix(".def"))
    child = subprocess.run([sys.executable, "-c", (
        "import sys, earl\n"
        "for cache in (False, True):\n"
        "    try:\n"
        "        earl.EventTrace(sys.argv[1], cache=cache)\n"
        "    except earl.EarlError as e:\n"
        "        print(e)\n"), str(anchor)], capture_output=True, text=True, timeout=60)
    assert child.returncode == 0, child.stderr
    expected = f"{anchor}: reading the global definitions failed: Invalid or inconsistent record data"
    assert child.stdout.splitlines() == [expected, expected]
