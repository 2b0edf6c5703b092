"""What CI's machine must have, so that no test passes by skipping: `make setup` installs
libotf2 and the official otf2 package, and CI runs beside ../shared. Elsewhere (a
developer's machine without libotf2) the OTF2 tests skip with a reason, and so does this."""
import importlib.util
import os
from pathlib import Path

import pytest

import earl

from script_checks import SCOREP as SHARED_TRACES

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


ROOT = Path(__file__).resolve().parents[1]


def configure_without_otf2(tmp_path, mode):
    """Runs CMake's configure step with libotf2 hidden from pkg-config and otf2-config."""
    import shutil
    import subprocess

    cmake = shutil.which("cmake")
    if not cmake:
        pytest.skip("cmake not on PATH")
    env = dict(os.environ, PKG_CONFIG_LIBDIR=str(tmp_path / "no-pkgconfig"),
               PATH="/usr/local/bin:/usr/bin:/bin", OTF2_ROOT="")
    return subprocess.run([cmake, "-S", str(ROOT), "-B", str(tmp_path / "build"),
                           f"-DEARL_OTF2={mode}", "-DEARL_BUILD_PYTHON=OFF"],
                          capture_output=True, text=True, env=env, timeout=120)


def test_cmake_without_otf2_says_what_to_install(tmp_path):
    if os.path.exists("/usr/bin/otf2-config") or os.path.exists("/usr/local/bin/otf2-config"):
        pytest.skip("otf2-config is installed system-wide; cannot hide OTF2 from CMake")
    required = configure_without_otf2(tmp_path, "ON")
    message = " ".join(required.stderr.split())  # CMake wraps its messages
    assert required.returncode != 0
    assert "apt-get install libopen-trace-format2-dev" in message and "OTF2_ROOT" in message
    optional = configure_without_otf2(tmp_path, "AUTO")
    assert optional.returncode == 0, optional.stderr
    assert "Building without OTF2 support" in " ".join(optional.stderr.split())
    assert "EARL OTF2 support: OFF" in optional.stdout


def test_the_format_table_is_what_opening_and_writing_use(tmp_path):
    rows = {row["name"]: row for row in earl._core.formats()}
    assert [r["name"] for r in earl._core.formats() if r["reads"]] == earl._core.known_formats()
    assert [r["name"] for r in earl._core.formats() if r["writes"]] == earl._core.generator_formats()
    assert rows["alog"]["extensions"] == [".alog"] and not rows["alog"]["cached"]
    assert rows["otf2"]["extensions"] == [".otf2"]
    for row in rows.values():
        assert (row["unavailable"] is None) == (row["reads"] and row["writes"])
        for extension in row["extensions"]:
            assert earl._core.format_for_path("run" + extension) == row["name"]
    assert earl._core.format_for_path("run.txt") == ""
    # Detection asks every row; a file no row recognises names the readable formats.
    unknown = tmp_path / "notes.txt"
    unknown.write_text("nothing a trace format knows\n")
    with pytest.raises(earl.EarlError, match=r"notes.txt: cannot detect the trace format \(known formats: "
                       + ", ".join(earl._core.known_formats())):
        earl.EventTrace(str(unknown))
