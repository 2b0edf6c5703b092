"""How an analyst turns EARL's event cache off or points it elsewhere: the cache=...
argument, the EARL_CACHE environment variable, TMPDIR, and `earl info --no-cache`."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from script_checks import SCOREP

SHARED = SCOREP / "ping-pong-otf2"
EARL = Path(sys.executable).with_name("earl")

pytestmark = pytest.mark.skipif(not SHARED.exists(), reason="../shared/traces is not beside the project")

OPEN = """
import sys, earl
try:
    t = earl.EventTrace(sys.argv[1])
    print("OK", len(t))
except earl.EarlError as e:
    print("EarlError", e)
"""


def run(code_or_args, env_extra, *args):
    env = dict(os.environ, **env_extra)
    command = ([sys.executable, "-c", code_or_args, *args] if isinstance(code_or_args, str)
               else code_or_args)
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)


@pytest.fixture
def otf2_ok():
    import earl
    if "otf2" not in earl._core.known_formats():
        pytest.skip("this build of EARL reads no OTF2")
    return SHARED


def test_cache_directory_follows_tmpdir(otf2_ok, tmp_path):
    missing = tmp_path / "no-such-dir"
    out = run(OPEN, {"TMPDIR": str(missing)}, str(SHARED)).stdout
    assert out.startswith("EarlError") and str(missing) in out and "EARL_CACHE=0" in out, out
    out = run(OPEN, {"TMPDIR": str(tmp_path)}, str(SHARED)).stdout
    assert out.strip() == "OK 120", out


def test_earl_cache_0_turns_it_off(otf2_ok, tmp_path):
    missing = tmp_path / "no-such-dir"
    out = run(OPEN, {"TMPDIR": str(missing), "EARL_CACHE": "0"}, str(SHARED)).stdout
    assert out.strip() == "OK 120", out
    out = run(OPEN, {"TMPDIR": str(missing), "EARL_CACHE": "1"}, str(SHARED)).stdout
    assert out.startswith("EarlError"), out


def test_explicit_argument_beats_the_environment(otf2_ok, tmp_path):
    missing = tmp_path / "no-such-dir"
    code = OPEN.replace("earl.EventTrace(sys.argv[1])", "earl.EventTrace(sys.argv[1], cache=True)")
    out = run(code, {"TMPDIR": str(missing), "EARL_CACHE": "0"}, str(SHARED)).stdout
    assert out.startswith("EarlError") and str(missing) in out, out


def test_earl_info_no_cache(otf2_ok, tmp_path):
    missing = tmp_path / "no-such-dir"
    cached = run([str(EARL), "info", str(SHARED)], {"TMPDIR": str(missing)})
    assert cached.returncode != 0 and str(missing) in cached.stderr, cached
    direct = run([str(EARL), "info", "--no-cache", str(SHARED)], {"TMPDIR": str(missing)})
    assert direct.returncode == 0 and "events:    120" in direct.stdout, direct
