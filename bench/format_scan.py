"""Scan speed of every format this build reads, on one generated trace (issue 23, part 7).

`earl gen` writes one program as an OTF2 archive; `earl convert` writes it in every other
format this build writes. Each is then opened in a fresh process (opening a trace is its
full scan with state: stacks, message queue, pointers, bookmarks) with the persisted index
off, --repeat times; the figure is the median. Printed: events/s per format and its ratio
to the OTF2 scan of the same run, the file size, and the conversion's summary where it left
events out (so the ratio compares the same events).

usage: python bench/format_scan.py [--events 10000000] [--locations 16] [--repeat 3]
                                   [--formats otf2 alog ...] [--workdir build/bench]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from run_benchmarks import machine

import earl
from earl.convert import convert
from earl.generate import generate

HERE = Path(__file__).resolve().parent
SUFFIX = {"alog": ".alog", "otf2": ".otf2", "otf": ".otf", "clog2": ".clog2", "epilog": ".elg",
          "chrome": ".json"}

MEASURE = """
import json, sys, time
import earl
start, cpu = time.perf_counter(), time.process_time()
trace = earl.EventTrace(sys.argv[1], progress=lambda fraction: None)
print(json.dumps({"events": len(trace), "seconds": time.perf_counter() - start,
                  "cpu_seconds": time.process_time() - cpu}))
"""


def size_of(path):
    """Bytes of every file of the trace: each format is written into a folder of its own."""
    return sum(p.stat().st_size for p in Path(path).parent.rglob("*")
               if p.is_file() and not p.name.endswith(".truth.json"))


def scan(path, repeat):
    env = dict(os.environ, EARL_INDEX="0")
    runs = []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", MEASURE, str(path)], env=env, check=True,
                             capture_output=True, text=True).stdout
        runs.append(json.loads(out.strip().splitlines()[-1]))
    return {"events": runs[0]["events"], "seconds": statistics.median(r["seconds"] for r in runs),
            "cpu_seconds": statistics.median(r["cpu_seconds"] for r in runs)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=10_000_000)
    parser.add_argument("--locations", type=int, default=16)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--formats", nargs="+", default=None)
    parser.add_argument("--workdir", default=str(HERE.parent / "build" / "bench"))
    args = parser.parse_args(argv)
    workdir = Path(args.workdir) / f"formats-{args.events}"
    workdir.mkdir(parents=True, exist_ok=True)
    writable = earl._core.generator_formats()
    formats = args.formats or writable
    if "otf2" not in writable:
        sys.exit("format_scan.py: this build writes no OTF2, the reference of the ratios")

    source = workdir / "otf2" / "trace.otf2"
    source.parent.mkdir(exist_ok=True)
    if not source.exists():
        started = time.perf_counter()
        generate(str(source), locations=args.locations, events=args.events, seed=1, format="otf2")
        print(f"generated {source} in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    paths, notes = {"otf2": source}, {}
    for fmt in formats:
        if fmt == "otf2" or fmt not in writable:
            continue
        path = workdir / fmt / ("trace" + SUFFIX.get(fmt, "." + fmt))
        path.parent.mkdir(exist_ok=True)
        if not path.exists():
            summary = convert(source, path, fmt)
            left_out = {**summary["dropped"], **summary["refused"]}
            if left_out:
                notes[fmt] = ", ".join(f"{why} {n}" for why, n in left_out.items())
        paths[fmt] = path

    print(f"Machine: {machine()}")
    print(f"Trace: `earl gen -n {args.locations} -e {args.events} -s 1 -f otf2`, converted; "
          f"open (full scan with state) in a fresh process, EARL_INDEX=0, median of {args.repeat}\n")
    print("| format | events | file size (MB) | scan (M ev/s) | CPU s / wall s | ratio to OTF2 |")
    print("|---|---:|---:|---:|---:|---:|")
    reference = scan(source, args.repeat)
    base = reference["events"] / reference["seconds"]
    for fmt, path in paths.items():
        result = reference if fmt == "otf2" else scan(path, args.repeat)
        speed = result["events"] / result["seconds"]
        print(f"| {fmt} | {result['events']:,} | {size_of(path) / 1e6:.0f} | {speed / 1e6:.2f} | "
              f"{result['cpu_seconds']:.1f} / {result['seconds']:.1f} | {speed / base:.2f} |")
    for fmt, note in notes.items():
        print(f"\n{fmt}: the conversion left out {note}")


if __name__ == "__main__":
    main()
