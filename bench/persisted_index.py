"""Times the persisted index on a generated OTF2 archive: the first open (scan through
libotf2 into the event cache, then the index written), the second open (the index read
and checked, no scan) and a full pass over the events served from the persisted cache.

    python bench/persisted_index.py [--events 10000000] [--dir DIR] [--keep]

The archive is written with `earl gen` (its default program model, 8 locations) into DIR
(default: a new directory in $TMPDIR), indexes go to DIR/indexes ($EARL_INDEX_DIR). Each
open runs in a process of its own, as a user's second session would (README, "Persisted
index")."""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

OPEN = """
import sys, time
import earl
t0 = time.perf_counter()
trace = earl.EventTrace(sys.argv[1], progress=lambda f: True, index={index})
opened = time.perf_counter() - t0
info = trace.index_info()
passed = 0.0
if {full_pass}:
    t1 = time.perf_counter()
    step = 1 << 20
    for first in range(1, len(trace) + 1, step):
        trace.to_numpy(first, min(len(trace), first + step - 1))
    passed = time.perf_counter() - t1
print(opened, passed, len(trace), info["state"], info["path"])
"""


def run_open(trace, env, index, full_pass=False):
    code = OPEN.format(index=index, full_pass=full_pass)
    out = subprocess.run([sys.executable, "-c", code, trace], env=env, check=True,
                         capture_output=True, text=True).stdout.split()
    return float(out[0]), float(out[1]), int(out[2]), out[3], out[4]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000_000)
    parser.add_argument("--locations", type=int, default=8)
    parser.add_argument("--dir", default=None)
    parser.add_argument("--keep", action="store_true", help="keep the archive and its index")
    args = parser.parse_args()
    directory = args.dir or tempfile.mkdtemp(prefix="earl-index-bench-")
    os.makedirs(directory, exist_ok=True)
    trace = os.path.join(directory, "bench.otf2")
    env = dict(os.environ, EARL_INDEX_DIR=os.path.join(directory, "indexes"))
    try:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "earl.cli", "gen", "-q", "-e", str(args.events),
                        "-n", str(args.locations), trace], check=True, env=env)
        generated = time.perf_counter() - start
        print(f"earl gen -e {args.events} -n {args.locations}: {generated:.1f} s")
        scan, plain_pass, size, _, _ = run_open(trace, env, "False", full_pass=True)
        print(f"{size} events; open without index (scan into the event cache): {scan:.2f} s; "
              f"full pass after it: {plain_pass:.2f} s")
        first, _, _, state, path = run_open(trace, env, "None")
        print(f"first open, index {state}: {first:.2f} s (index {os.path.getsize(path) / 2**20:.0f} MiB)")
        second, cached_pass, _, state, _ = run_open(trace, env, "None", full_pass=True)
        print(f"second open, index {state}: {second:.3f} s; full pass from the persisted cache: "
              f"{cached_pass:.2f} s ({scan / cached_pass:.1f}x the first scan)")
    finally:
        if not args.keep:
            shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
