"""What clock correction costs: opening a trace with and without time_correct.

    python bench/time_correct.py [--events 1000000] [--repeat 3] [--dir DIR]

Generates (once, into DIR, default a temporary directory) a trace of about `events`
events with skewed clocks (`earl gen --clock-offset 0.0003 --clock-drift 200`) in ALOG
and OTF2, then prints the best of `repeat` opens of each: plain, with time_correct, and
the corrections made (jumps, their memory), plus a scan of every event's time through
event() both ways. docs/performance.md, "Time checks"."""
import argparse
import os
import tempfile
import time

import earl
from earl.generate import generate


def best_of(repeat, work):
    best = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = work()
        took = time.perf_counter() - start
        best = took if best is None else min(best, took)
    return best, result


def open_only(path, **kw):
    with earl.EventTrace(path, progress=lambda f: None, **kw) as trace:
        return len(trace), trace.time_correction()


def scan_times(path, **kw):
    with earl.EventTrace(path, progress=lambda f: None, **kw) as trace:
        total = 0.0
        for pos in range(1, len(trace) + 1):
            total += trace.event(pos)["time"]
        return total


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--dir", default=None)
    args = parser.parse_args()
    directory = args.dir or tempfile.mkdtemp(prefix="earl-clock-")
    for fmt in ["alog", "otf2"]:
        path = os.path.join(directory, f"skew.{fmt}")
        if not os.path.exists(path):
            generate(path, events=args.events, locations=16, seed=1, format=fmt,
                     clock_offset=0.0003, clock_drift=200)
        for cache in ([True, False] if fmt == "otf2" else [True]):
            plain, (size, _) = best_of(args.repeat, lambda: open_only(path, cache=cache))
            fixed, (_, info) = best_of(args.repeat, lambda: open_only(path, cache=cache, time_correct=True))
            scan_plain, _ = best_of(1, lambda: scan_times(path, cache=cache))
            scan_fixed, _ = best_of(1, lambda: scan_times(path, cache=cache, time_correct=True))
            print(f"{fmt:4} cache={cache!s:5} events={size}: open {plain:.3f} s "
                  f"({size / plain / 1e6:.2f} M events/s), with time_correct {fixed:.3f} s "
                  f"({size / fixed / 1e6:.2f} M events/s, x{fixed / plain:.2f}); "
                  f"{info['jumps']} jumps, {info['memory'] / 1024:.0f} KiB; "
                  f"event() scan {scan_plain:.2f} s vs {scan_fixed:.2f} s")


if __name__ == "__main__":
    main()
