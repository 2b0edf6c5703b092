"""An installed wheel is a complete EARL: it carries the example scripts (so `earl demo`
runs anywhere, not only in a checkout), the type stub and py.typed.

The wheel is built from this checkout into the same CMake build directory the editable
install uses (so only what changed compiles), under the Makefile's lock of that directory,
and installed into a fresh virtual environment that borrows the third-party packages
(NumPy, matplotlib, rich) of the running one but not its editable earl.
"""
import fcntl
import os
import site
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted(p.name for p in (ROOT / "scripts").iterdir() if p.is_file())


@pytest.fixture(scope="session")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    (ROOT / "build").mkdir(exist_ok=True)
    env = dict(os.environ, CMAKE_BUILD_PARALLEL_LEVEL=os.environ.get("JOBS", "1"))
    with open(ROOT / "build" / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet",
                               "--no-build-isolation", "--no-deps", "-w", str(out), str(ROOT)],
                              capture_output=True, text=True, env=env, timeout=1200)
    assert done.returncode == 0, done.stderr[-3000:]
    (built,) = out.glob("earl-*.whl")
    return built


@pytest.fixture(scope="session")
def installed(wheel, tmp_path_factory):
    """A fresh venv with the wheel installed; returns its bin folder."""
    home = tmp_path_factory.mktemp("venv")
    venv.create(home, with_pip=False)
    python = home / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                             capture_output=True, text=True, check=True).stdout.strip()
    # The running environment's packages, after the fresh site-packages: a path in a .pth
    # file is not a site folder, so the editable install's own .pth hook is not run.
    borrowed = [p for p in site.getsitepackages() + [sysconfig.get_path("purelib")]
                if Path(p).is_dir()]
    Path(purelib, "borrowed.pth").write_text("\n".join(dict.fromkeys(borrowed)) + "\n")
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install",
                           "--quiet", "--no-deps", "--no-index", str(wheel)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return home / "bin"


def test_wheel_carries_scripts_stub_and_marker(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert SCRIPTS and {f"earl/scripts/{name}" for name in SCRIPTS} <= names
    assert "earl/_core.pyi" in names and "earl/py.typed" in names
    # The Lua module and the Tcl extension with its package index travel in the wheel.
    assert "earl/lua54/earl.so" in names
    assert "earl/tcl8.6/pkgIndex.tcl" in names
    assert not any("__pycache__" in name for name in names)


def test_demo_runs_from_the_installed_package(installed, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    where = subprocess.run([str(installed / "python"), "-c", "import earl; print(earl.__file__)"],
                           capture_output=True, text=True, cwd=outside, env=env)
    assert where.returncode == 0, where.stderr
    assert Path(where.stdout.strip()).is_relative_to(installed.parent), where.stdout
    done = subprocess.run([str(installed / "earl"), "demo", "--events", "20000"],
                          capture_output=True, text=True, cwd=outside, env=env, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "All 4 example scripts agree with the ground truth" in done.stdout
    assert "wasted_time.lua: prints what wasted_time.py OK" in done.stdout
    assert "wasted_time.tcl: prints what wasted_time.py OK" in done.stdout
    assert (outside / "demo-output" / "data_received.png").is_file()
    assert str(ROOT) not in done.stdout, "the demo ran scripts of the checkout"
