"""Times the persisted index on a generated OTF2 archive: the first open (scan through
libotf2 into the event cache, then the index written), the second open (the index read
and checked, no scan) and an open with another bdist (new bookmarks, scanned from the persisted event cache
instead of through libotf2).

    python bench/persisted_index.py [--events 10000000] [--dir DIR] [--keep]

The archive is written with `earl gen` (its default program model, 8 locations) into DIR
(default: a new directory in $TMPDIR), indexes go to DIR/indexes ($EARL_INDEX_DIR). Each
open runs in a process of its own, as a user's second session would (docs/performance.md, "Persisted
index")."""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

OPEN = """
import resource, sys, time
import earl
def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime
scanned = []
def progress(fraction):
    if fraction >= 1.0 and not scanned:
        scanned.append((time.perf_counter(), cpu()))
    return True
c0 = cpu()
t0 = time.perf_counter()
trace = earl.EventTrace(sys.argv[1], progress=progress, index={index}, bdist={bdist})
opened = time.perf_counter() - t0
scan = scanned[0][0] - t0 if scanned else 0.0
scan_cpu = scanned[0][1] - c0 if scanned else 0.0
info = trace.index_info()
print(opened, scan, len(trace), info["state"], info["path"], scan_cpu)
"""


def run_open(trace, env, index, bdist=10000):
    """(seconds to open, seconds of it the scan took, events, index state, index path,
    CPU seconds of the scan, all threads)"""
    code = OPEN.format(index=index, bdist=bdist)
    out = subprocess.run([sys.executable, "-c", code, trace], env=env, check=True,
                         capture_output=True, text=True).stdout.split()
    return float(out[0]), float(out[1]), int(out[2]), out[3], out[4], float(out[5])


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
    env.pop("EARL_INDEX", None)
    env["EARL_INDEX_MIN_BYTES"] = "0"  # small runs (--events 10**6) are indexed as well
    try:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "earl.cli", "gen", "-q", "-e", str(args.events),
                        "-n", str(args.locations), trace], check=True, env=env)
        generated = time.perf_counter() - start
        archive = sum(os.path.getsize(os.path.join(root, name))
                      for root, _, names in os.walk(directory) for name in names)
        print(f"earl gen -e {args.events} -n {args.locations}: {generated:.1f} s, "
              f"{archive / 2**20:.0f} MiB")
        opened, scan, size, _, _, _ = run_open(trace, env, "False")
        print(f"{size} events; open without index: {opened:.2f} s (scan through libotf2 "
              f"into the event cache {scan:.2f} s)")
        opened, first_scan, _, state, path, first_cpu = run_open(trace, env, "None")
        print(f"first open, index {state}: {opened:.2f} s (scan {first_scan:.2f} s, "
              f"{first_cpu:.2f} s CPU on both threads; writing "
              f"the index {opened - first_scan:.2f} s; index {os.path.getsize(path) / 2**20:.0f} MiB)")
        for _ in range(2):
            opened, _, _, state, _, _ = run_open(trace, env, "None")
            print(f"second open, index {state}: {opened:.3f} s")
        opened, cache_scan, _, state, _, cache_cpu = run_open(trace, env, "None", bdist=20000)
        print(f"open with another bdist, index {state}: {opened:.2f} s (scan of the persisted "
              f"event cache {cache_scan:.2f} s = {first_scan / cache_scan:.1f}x faster than the "
              f"first scan; {cache_cpu:.2f} s CPU = {first_cpu / cache_cpu:.1f}x less)")
    finally:
        if not args.keep:
            shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
