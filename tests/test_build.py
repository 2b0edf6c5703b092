"""What CI's machine must have, so that no test passes by skipping: `make setup` installs
libotf2 and the official otf2 package, and CI runs beside ../shared. Elsewhere (a
developer's machine without libotf2) the OTF2 tests skip with a reason, and so does this."""
import importlib.util
import os
from pathlib import Path

import pytest

import earl

SHARED_TRACES = Path(__file__).resolve().parents[1].parent / "shared" / "traces"

in_ci = pytest.mark.skipif(not os.environ.get("CI"), reason="checks CI's machine only")


@in_ci
def test_ci_build_reads_and_writes_otf2():
    assert "otf2" in earl._core.known_formats()
    assert "otf2" in earl._core.generator_formats()


@in_ci
def test_ci_has_the_official_otf2_reader_and_the_shared_traces():
    assert importlib.util.find_spec("otf2") is not None
    assert (SHARED_TRACES / "ping-pong-otf2" / "traces.otf2").is_file()


def test_known_formats_are_lowercase_and_include_alog():
    formats = earl._core.known_formats()
    assert "alog" in formats and all(f == f.lower() for f in formats)
