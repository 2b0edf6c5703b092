"""One benchmark measurement in a fresh process (so peak RSS is its own); prints JSON.

usage: measure_trace.py TRACE
"""
import json
import random
import statistics
import sys
import time

from peak_memory import peak_rss_mb

import earl


def main(path):
    result = {}
    start = time.perf_counter()
    trace = earl.EventTrace(path, progress=lambda fraction: None)
    result["scan_seconds"] = time.perf_counter() - start
    result["events"] = len(trace)

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
    main(sys.argv[1])
