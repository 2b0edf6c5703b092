"""EARL benchmarks on generated ALOG traces (not a test: prints figures).

Measures, per trace size, in a fresh process each:
  - events/s of the full C++ scan with state (opening a trace scans it once),
  - events/s of the Python loop `while e.next(): e.event()`,
  - median latency of 1000 random event(p) calls with the default bdist,
  - peak RSS of the process,
and, as an outside reference in the same run, plain Python reading the same file and
splitting each line (no model, no state).

usage: python bench/run_benchmarks.py [--sizes 1000000 10000000] [--locations 16]
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

from earl.generate import generate

HERE = Path(__file__).resolve().parent


def machine():
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return f"{cpu}, {os.cpu_count()} cores, {memory:.0f} GiB, Python {platform.python_version()}"


def ensure_trace(workdir, events, locations):
    path = workdir / f"bench-{events}-{locations}.alog"
    if not path.exists():
        start = time.perf_counter()
        generate(str(path), locations=locations, events=events, seed=1)
        print(f"generated {path.name} in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return path


def measure(path):
    output = subprocess.run([sys.executable, str(HERE / "measure_alog.py"), str(path)],
                            check=True, capture_output=True, text=True).stdout
    return json.loads(output.strip().splitlines()[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000_000, 10_000_000])
    parser.add_argument("--locations", type=int, default=16)
    parser.add_argument("--workdir", default=str(HERE.parent / "build" / "bench"))
    args = parser.parse_args(argv)
    workdir = Path(args.workdir)
    workdir.mkdir(parents=True, exist_ok=True)

    rows = []
    for size in args.sizes:
        path = ensure_trace(workdir, size, args.locations)
        result = measure(path)
        result["file_mb"] = path.stat().st_size / 2**20
        rows.append(result)

    print(f"Machine: {machine()}")
    print(f"Traces: generated ALOG, {args.locations} locations\n")
    print("| events | file MB | C++ scan with state (M ev/s) | Python `while e.next(): e.event()` "
          "(M ev/s) | plain Python split, reference (M lines/s) | random event(p) median (ms) "
          "| peak RSS (MB) |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        n = r["events"]
        print(f"| {n:,} | {r['file_mb']:.0f} | {n / r['scan_seconds'] / 1e6:.2f} | "
              f"{n / r['python_loop_seconds'] / 1e6:.2f} | "
              f"{r['split_records'] / r['split_seconds'] / 1e6:.2f} | "
              f"{r['random_access_median_ms']:.3f} | {r['peak_rss_mb']:.0f} |")
    if len(rows) > 1:
        growth = rows[-1]["peak_rss_mb"] - rows[0]["peak_rss_mb"]
        print(f"\nPeak RSS growth from {rows[0]['events']:,} to {rows[-1]['events']:,} events: "
              f"{growth:.1f} MB")


if __name__ == "__main__":
    main()
