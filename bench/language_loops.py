"""What the language loop benchmarks (measure_lua.py, measure_tcl.py) share: the options,
the trace they loop over (generated when none is given), the Python loop they are held
against, timing and the table they print."""
import argparse
import os
import statistics
import time

import earl


def parser(description):
    result = argparse.ArgumentParser(description=description)
    result.add_argument("trace", nargs="?")
    result.add_argument("--events", type=int, default=10_000_000)
    result.add_argument("--locations", type=int, default=16)
    result.add_argument("--repeat", type=int, default=3)
    return result


def open_trace(args, directory):
    """Opens args.trace, or a generated OTF2 archive in `directory`; returns (path, trace)."""
    path = args.trace
    if path is None:
        from earl.generate import generate

        path = os.path.join(directory, "bench.otf2")
        start = time.perf_counter()
        generate(path, locations=args.locations, events=args.events, seed=1)
        print(f"generated {path} in {time.perf_counter() - start:.1f} s", flush=True)
    start = time.perf_counter()
    trace = earl.EventTrace(path, progress=lambda fraction: None)
    print(f"opened {len(trace)} events in {time.perf_counter() - start:.1f} s", flush=True)
    return path, trace


def timed(loop, repeat):
    """(events the loop counted, median seconds of `repeat` runs)."""
    seconds, count = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        count = loop()
        seconds.append(time.perf_counter() - start)
    return count, statistics.median(seconds)


def python_loop(e):
    def loop():
        n = 0
        e.reset()
        while e.next():
            e.event()
            n += 1
        return n
    return loop


def print_table(results):
    """results: (name, events, seconds) rows."""
    print(f"{'loop':<60} {'events':>10} {'seconds':>8} {'events/s':>12}")
    for name, count, seconds in results:
        print(f"{name:<60} {count:>10} {seconds:>8.2f} {count / seconds:>12,.0f}")
