"""Runs every fuzz target for a while and sums up what it did (`make fuzz`, `make test`).

Each libFuzzer target of BUILD/fuzz/ runs for SECONDS on its corpus (BUILD/corpus/<target>,
kept between runs), its seeds (BUILD/seeds/<target>, fuzz/seed_corpora.py) and its kept
findings (fuzz/regressions/<target>/); the atheris target fuzz/python_api_fuzzer.py
likewise when atheris is installed (a message says so when it is not). A new finding is
written to BUILD/findings/<target>/ and fails the run: keep it in
fuzz/regressions/<target>/ with its fix.

Prints, per target, libFuzzer's final figures: executions, executions per second, and the
coverage of its last status line (cov: edges of EARL's instrumented code, ft: features).

Usage: python fuzz/run_fuzzers.py BUILD SECONDS
"""
from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIBFUZZER_TARGETS = ["alog_decoder", "otf2_definitions", "otf2_events", "event_codec"]
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


def run(target: str, command: list[str], build: Path, seconds: int) -> bool:
    corpus = build / "corpus" / target
    findings = build / "findings" / target
    corpus.mkdir(parents=True, exist_ok=True)
    findings.mkdir(parents=True, exist_ok=True)
    inputs = [corpus, build / "seeds" / target, ROOT / "fuzz" / "regressions" / target]
    started = time.monotonic()
    done = subprocess.run(command + [f"-max_total_time={seconds}", "-print_final_stats=1",
                                     f"-artifact_prefix={findings}/", *LIMITS]
                          + [str(p) for p in inputs if p.is_dir()],
                          capture_output=True, text=True, errors="replace",
                          env={**os.environ, **SANITIZER_ENV})
    log = done.stdout + done.stderr
    (build / f"{target}.log").write_text(log)
    f = figures(log)
    print(f"{target:17} {f['number_of_executed_units']!s:>9} runs  {f['average_exec_per_sec']!s:>6} runs/s  "
          f"cov: {f['cov']!s:>5}  ft: {f['ft']!s:>6}  rss: {f['peak_rss_mb']} MB  "
          f"({time.monotonic() - started:.0f} s)", flush=True)
    if done.returncode != 0:
        written = re.findall(r"Test unit written to (\S+)", log)
        print(f"  FINDING in {target} (exit {done.returncode}): {' '.join(written) or 'see the log'}; "
              f"log: {build / (target + '.log')}", flush=True)
        return False
    return True


def main(build: Path, seconds: int) -> int:
    ok = True
    print(f"fuzzing each target for {seconds} s", flush=True)
    for target in LIBFUZZER_TARGETS:
        binary = build / "fuzz" / f"{target}_fuzzer"
        if not binary.exists():
            print(f"{target:17} not built (no OTF2 in this build)" if "otf2" in target
                  else f"{target:17} missing: {binary}", flush=True)
            ok = ok and "otf2" in target
            continue
        ok = run(target, [str(binary)], build, seconds) and ok
    if importlib.util.find_spec("atheris") is None:
        print("python_api        skipped: atheris is not installed for this Python "
              "(`make setup` installs it where pip can)", flush=True)
    else:
        ok = run("python_api", [sys.executable, str(ROOT / "fuzz" / "python_api_fuzzer.py")],
                 build, seconds) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(Path(sys.argv[1]), int(sys.argv[2])))
