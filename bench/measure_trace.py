"""One benchmark measurement in a fresh process (so peak RSS is its own); prints JSON.

usage: measure_trace.py TRACE [--no-cache]

--no-cache opens OTF2 archives with cache=False (libotf2 seeks instead of EARL's cache).
"""
import json
import os
import random
import statistics
import sys
import time

from peak_memory import peak_rss_mb

import earl


def event_cache_bytes():
    """Size of EARL's event cache: an unlinked file this process holds open."""
    total = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            if "earl-cache-" in os.readlink(f"/proc/self/fd/{fd}"):
                total += os.stat(f"/proc/self/fd/{fd}").st_size
        except OSError:
            pass
    return total


def main(path, cache=True):
    result = {}
    start, cpu_start = time.perf_counter(), time.process_time()
    trace = earl.EventTrace(path, progress=lambda fraction: None, cache=cache)
    result["scan_seconds"] = time.perf_counter() - start
    result["scan_cpu_seconds"] = time.process_time() - cpu_start
    result["events"] = len(trace)
    result["cache_bytes"] = event_cache_bytes()

    start = time.perf_counter()
    e = trace
    while e.next():
        e.event()
    result["python_loop_seconds"] = time.perf_counter() - start

    rng = random.Random(12345)
    positions = [rng.randint(1, len(trace)) for _ in range(1000)]
    latencies = []
    for pos in positions:
        t0 = time.perf_counter()
        trace.event(pos)
        latencies.append(time.perf_counter() - t0)
    result["random_access_median_ms"] = statistics.median(latencies) * 1e3

    # Walking forward through a trace (a REPL user, a script skipping ahead): jumps of
    # 1,000 to 40,000 events from wherever the last one ended.
    pos, latencies = min(1000, len(trace)), []
    trace.event(pos)
    while len(latencies) < 300:
        pos += rng.randint(1000, 40000)
        if pos > len(trace):
            break
        t0 = time.perf_counter()
        trace.event(pos)
        latencies.append(time.perf_counter() - t0)
    result["forward_jump_median_ms"] = statistics.median(latencies) * 1e3 if latencies else 0.0
    result["peak_rss_mb"] = peak_rss_mb()
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1], cache="--no-cache" not in sys.argv[2:])
