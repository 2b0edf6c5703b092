"""Scan speed of the shipped ALOG description (described:alog) against EARL's native ALOG
reader on the same file (issue 24, part 1: target ratio >= 0.5).

`earl gen` writes one ALOG trace per size; each is opened in a fresh process (the open is
the full scan with state: stacks, message queue, pointers, bookmarks) with the persisted
index off, --repeat times per reader, alternating; the figure is the median. Printed per
size: events/s of each reader and the ratio described / native.

usage: python bench/described_alog.py [--events 1000000 10000000] [--locations 16]
                                      [--repeat 3] [--workdir build/bench]
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

from earl.generate import generate

HERE = Path(__file__).resolve().parent
READERS = ("alog", "described:alog")

MEASURE = """
import json, sys, time
import earl
start = time.perf_counter()
trace = earl.EventTrace(sys.argv[1], format=sys.argv[2], progress=lambda fraction: None)
print(json.dumps({"events": len(trace), "seconds": time.perf_counter() - start}))
"""


def scan_once(path, reader):
    env = dict(os.environ, EARL_INDEX="0")
    out = subprocess.run([sys.executable, "-c", MEASURE, str(path), reader], env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, nargs="+", default=[1_000_000, 10_000_000])
    parser.add_argument("--locations", type=int, default=16)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workdir", default=str(HERE.parent / "build" / "bench"))
    args = parser.parse_args(argv)
    print(f"# {time.strftime('%Y-%m-%d')} {machine()}")
    print("| events | native (M ev/s) | described (M ev/s) | ratio |")
    print("|---:|---:|---:|---:|")
    for events in args.events:
        path = Path(args.workdir) / f"described-{events}" / "trace.alog"
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists():
            generate(str(path), locations=args.locations, events=events, seed=1, format="alog")
        runs = {reader: [] for reader in READERS}
        counts = {}
        for _ in range(args.repeat):
            for reader in READERS:
                result = scan_once(path, reader)
                runs[reader].append(result["seconds"])
                counts[reader] = result["events"]
        if counts["alog"] != counts["described:alog"]:
            sys.exit(f"described_alog.py: the readers disagree on {path}: {counts}")
        rate = {reader: counts[reader] / statistics.median(runs[reader]) / 1e6 for reader in READERS}
        print(f"| {counts['alog']:,} | {rate['alog']:.2f} | {rate['described:alog']:.2f} | "
              f"{rate['described:alog'] / rate['alog']:.2f} |", flush=True)


if __name__ == "__main__":
    main()
