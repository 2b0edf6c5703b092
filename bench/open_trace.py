"""Times opening a trace (the scan: decoding, state, bookmarks, problem counts).

    python bench/open_trace.py TRACE [--no-cache] [--repeat 3] [--label NAME]

Prints the best of `repeat` opens in seconds and events per second. Run it with two
builds' interpreters on one trace in one session to compare them (docs/performance.md,
"Time checks")."""
import argparse
import time

import earl


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trace")
    parser.add_argument("--no-cache", action="store_true")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--label", default="")
    args = parser.parse_args()
    best, size = None, 0
    for _ in range(args.repeat):
        start = time.perf_counter()
        with earl.EventTrace(args.trace, cache=not args.no_cache, progress=lambda f: None) as trace:
            size = len(trace)
        took = time.perf_counter() - start
        best = took if best is None else min(best, took)
    print(f"{args.label} {args.trace} cache={not args.no_cache} events={size} "
          f"best open {best:.3f} s = {size / best / 1e6:.2f} M events/s")


if __name__ == "__main__":
    main()
