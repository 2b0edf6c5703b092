"""Runs every fuzz target for a while and sums up what it did (`make fuzz`, `make test`).

Each libFuzzer target of BUILD/fuzz/ runs for SECONDS on its corpus (BUILD/corpus/<target>,
kept between runs), its seeds (BUILD/seeds/<target>, fuzz/seed_corpora.py) and its kept
findings (fuzz/regressions/<target>/); the atheris targets fuzz/python_api_fuzzer.py,
lua_api_fuzzer.py (lupa), tcl_api_fuzzer.py (tkinter) and cli_fuzzer.py likewise when
atheris is installed (a message says so when it is not). A new finding is
written to BUILD/findings/<target>/ and fails the run: keep it in
fuzz/regressions/<target>/ with its fix.

Prints, per target, libFuzzer's final figures: executions, executions per second, and the
coverage of its last status line (cov: edges of EARL's instrumented code, ft: features).
A read out of bounds inside libotf2 itself (it trusts lengths in damaged files) is kept
in BUILD/findings/<target>/libotf2/ and reported, and the run goes on: EARL cannot fix
libotf2, and it must not make `make test` fail by chance.

With SEED (as `make test` gives) every target mutates in the same order on every run, so
the smoke run inside the tests tries the same inputs each time (as many as the machine
manages in the time) and a failure there is reproducible; `make fuzz` explores afresh.

Usage: python fuzz/run_fuzzers.py [--jobs N] BUILD SECONDS [SEED]
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIBFUZZER_TARGETS = ["alog_decoder", "clog2_decoder", "otf2_definitions", "otf2_events", "otf_definitions", "otf_events",
                     "event_codec", "chrome_json",
                     "epilog_decoder", "expression_parser",
                     "described_description", "described_decoder", "rules_file"]
# The atheris targets and the modules each needs besides atheris: the Python API, the Lua
# module through lupa, the Tcl extension through tkinter, the command line.
PYTHON_TARGETS = [("python_api", ()), ("lua_api", ("lupa",)), ("tcl_api", ("tkinter",)),
                  ("cli", ())]
# A run that takes longer or grows larger is a finding (a hang, a runaway allocation).
LIMITS = ["-timeout=10", "-rss_limit_mb=2048"]
# libotf2 asks malloc for what a hostile count says (16 GB, 34 GB: fuzz/regressions/) and
# reports a failure, which EARL turns into an EarlError. Under ASan such a malloc returns
# NULL, as it would without ASan where the memory is not there (ASan would reserve it and
# write gigabytes of shadow); EARL's own `new` still stops the run when it fails.
# Leaks inside libotf2 are not EARL's to fix (lsan_suppressions.txt says which).
SANITIZER_ENV = {"ASAN_OPTIONS": "allocator_may_return_null=1:max_allocation_size_mb=1024:detect_leaks=1",
                 "LSAN_OPTIONS": f"suppressions={ROOT / 'fuzz' / 'lsan_suppressions.txt'}:print_suppressions=0",
                 "UBSAN_OPTIONS": "print_stacktrace=1"}


def figures(log: str) -> dict:
    """Final figures of a libFuzzer log (its -print_final_stats lines and last status)."""
    found = {}
    for key in ("number_of_executed_units", "average_exec_per_sec", "peak_rss_mb"):
        match = re.search(rf"stat::{key}:\s+(\d+)", log)
        found[key] = int(match.group(1)) if match else None
    status = re.findall(r"#\d+\s+\w+\s+cov: (\d+) ft: (\d+)", log)
    found["cov"], found["ft"] = (int(status[-1][0]), int(status[-1][1])) if status else (None, None)
    return found


def libotf2_fault(log: str) -> bool:
    """True when the report is a read outside its memory by libotf2's or libotf's own code
    (the top frame in the library, no EARL frame above it): they trust damaged files.
    Use after free, writes, leaks and anything in EARL's code stay findings."""
    report = log[log.find("ERROR: AddressSanitizer: "):]
    kind = report[len("ERROR: AddressSanitizer: "):].split(" ", 1)[0]
    top = re.search(r"^\s+#0 .*$", report, re.M)
    return (kind in ("SEGV", "heap-buffer-overflow") and "READ" in report.split("SUMMARY:")[0]
            and top is not None and re.search(r"libopen-trace-format2?\.so", top.group(0)) is not None)


def run(target: str, command: list[str], build: Path, seconds: int, seed: int | None) -> bool:
    corpus = build / "corpus" / target
    findings = build / "findings" / target
    outside = findings / "libotf2"
    corpus.mkdir(parents=True, exist_ok=True)
    findings.mkdir(parents=True, exist_ok=True)
    inputs = [corpus, build / "seeds" / target, ROOT / "fuzz" / "regressions" / target]
    started = time.monotonic()
    executions, logs, ok = 0, [], True
    # libFuzzer stops at its first crash: after one of libotf2's own (libotf2_fault) it
    # goes on for the time left, on the corpus grown so far.
    while (left := int(started + seconds - time.monotonic())) >= 1:
        seeded = [] if seed is None else [f"-seed={seed}"]
        done = subprocess.run(command + [f"-max_total_time={left}", "-print_final_stats=1",
                                         f"-artifact_prefix={findings}/", *seeded, *LIMITS]
                              + [str(p) for p in inputs if p.is_dir()],
                              capture_output=True, text=True, errors="replace",
                              env={**os.environ, **SANITIZER_ENV})
        log = done.stdout + done.stderr
        logs.append(log)
        executions += figures(log)["number_of_executed_units"] or 0
        if done.returncode == 0:
            break
        written = re.findall(r"Test unit written to (\S+)", log)
        if written and libotf2_fault(log):
            outside.mkdir(exist_ok=True)
            for path in written:
                Path(path).rename(outside / Path(path).name)
            print(f"  {target}: a read out of bounds inside libotf2 (not EARL's code), input kept in "
                  f"{outside}; going on", flush=True)
            continue
        print(f"  FINDING in {target} (exit {done.returncode}): {' '.join(written) or 'see the log'}; "
              f"log: {build / (target + '.log')}", flush=True)
        ok = False
        break
    elapsed = time.monotonic() - started
    (build / f"{target}.log").write_text("\n".join(logs))
    f = figures(logs[-1]) if logs else figures("")
    print(f"{target:17} {executions:>9} runs  {executions / elapsed:>7.0f} runs/s  "
          f"cov: {f['cov']!s:>5}  ft: {f['ft']!s:>6}  rss: {f['peak_rss_mb']} MB  ({elapsed:.0f} s)", flush=True)
    return ok


def main(build: Path, seconds: int, seed: int | None = None, jobs: int = 1) -> int:
    build = build.resolve()  # a target may change its directory (cli_fuzzer does)
    print(f"fuzzing each target for {seconds} s, {jobs} at a time"
          + (f", seed {seed}" if seed is not None else ""), flush=True)
    ok = True
    runs = []  # (target, command) of every target to run
    for target in LIBFUZZER_TARGETS:
        binary = build / "fuzz" / f"{target}_fuzzer"
        if not binary.exists():
            optional = target.startswith("otf")  # builds without libotf2 / libotf
            print(f"{target:17} not built (no {target.split('_')[0].upper()} in this build)" if optional
                  else f"{target:17} missing: {binary}", flush=True)
            ok = ok and optional
            continue
        runs.append((target, [str(binary)]))
    for target, needs in PYTHON_TARGETS:
        missing = [name for name in ("atheris", *needs) if importlib.util.find_spec(name) is None]
        if missing:
            print(f"{target:17} skipped: {', '.join(missing)} not installed for this Python "
                  "(`make setup` installs atheris where pip can)", flush=True)
            continue
        runs.append((target, [sys.executable, str(ROOT / "fuzz" / f"{target}_fuzzer.py")]))
    # Each target is a process of its own that keeps one core busy for its time: `jobs` of
    # them share the machine's cores (threads here only wait on them).
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = list(pool.map(lambda job: run(job[0], job[1], build, seconds, seed), runs))
    return 0 if ok and all(results) else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build", type=Path, help="the fuzz build tree (build/fuzz)")
    parser.add_argument("seconds", type=int, help="how long each target runs")
    parser.add_argument("seed", type=int, nargs="?", help="libFuzzer's mutation seed (default: random)")
    parser.add_argument("--jobs", type=int, default=1, help="targets run at a time (default 1)")
    arguments = parser.parse_args()
    sys.exit(main(arguments.build, arguments.seconds, arguments.seed, arguments.jobs))
