"""Issue 11's benchmarks: cost per event against messages in flight, width and recursion
depth (not a test: prints figures and a Markdown table with the ratios of this one run).

  (a) 16 locations, about --events events: 2*10^4 against 2*10^5 messages in flight
      (`earl gen --in-flight`), and 2*10^5 with one tag per message: open (scan) cost per
      event, random event(p) median, peak RSS against the records in flight;
  (b) 16, 8192 and 32768 locations at the same --events: scan speed, random event(p)
      median, peak RSS;
  (c) recursion depth 10^4 (`earl gen --depth`) against none: scan speed and random
      event(p) median.

Each trace is generated once into --dir (reused when its truth file exists) and measured
in fresh processes (peak RSS is per process): --fresh K of them per trace (default 3),
of which the fastest open and random access count (on a shared machine other jobs slow
single opens down by tens of percent, never speed them up). --repeat N measures every
part N times and ends with each ratio of every run, each taken within its run.

usage: python bench/scale.py [--parts a b c] [--events 1000000] [--format alog]
                             [--widths 16 8192 32768] [--dir /tmp/earl-scale] [--repeat 1]
                             [--fresh 3]
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

EVENT_RECORD_BYTES = 112  # sizeof(earl::Event): what one record in flight holds


def trace_path(directory, fmt, name):
    return str(Path(directory) / f"{name}.{fmt}")


def make(directory, fmt, name, **options):
    from earl.generate import generate
    path = trace_path(directory, fmt, name)
    truth_path = path + ".truth.json"
    if os.path.exists(truth_path):
        with open(truth_path) as f:
            return path, json.load(f)
    t0 = time.perf_counter()
    truth = generate(path, progress=lambda fraction: None, **options)
    print(f"  generated {name}: {truth['events']} events in {time.perf_counter() - t0:.1f} s",
          file=sys.stderr)
    return path, truth


def measure(path, samples):
    """Child process: open (scan), random event(p), peak RSS."""
    import earl
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from peak_memory import peak_rss_mb
    t0 = time.perf_counter()
    c0 = time.process_time()
    trace = earl.EventTrace(path, progress=lambda fraction: None)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    rng = random.Random(1)
    latencies = []
    for _ in range(samples):
        pos = rng.randint(1, len(trace))
        t1 = time.perf_counter()
        trace.event(pos)
        latencies.append(time.perf_counter() - t1)
    result = {"events": len(trace), "locations": trace.nrlocs(), "open_s": wall,
              "open_cpu_s": cpu, "ns_per_event": wall / len(trace) * 1e9,
              "cpu_ns_per_event": cpu / len(trace) * 1e9,
              "random_ms": statistics.median(latencies) * 1e3,
              "peak_rss_mb": peak_rss_mb(), "bookmarks": trace.bookmarks()}
    trace.close()
    print(json.dumps(result))


def run_child(path, args):
    """--fresh fresh processes: the fastest open and random access (other jobs only ever
    slow a run down), the largest peak RSS."""
    results = []
    for _ in range(args.fresh):
        out = subprocess.run([sys.executable, __file__, "--measure", path, "--samples",
                              str(args.samples)], check=True, capture_output=True, text=True).stdout
        results.append(json.loads(out.strip().splitlines()[-1]))
    best = min(results, key=lambda r: r["ns_per_event"])
    best["random_ms"] = min(r["random_ms"] for r in results)
    best["peak_rss_mb"] = max(r["peak_rss_mb"] for r in results)
    return best


def row(label, result, extra=""):
    b = result["bookmarks"]
    print(f"| {label} | {result['events']:,} | {result['locations']} | "
          f"{result['ns_per_event']:.0f} ({result['cpu_ns_per_event']:.0f}) | "
          f"{result['events'] / result['open_s'] / 1e6:.2f} | "
          f"{result['random_ms']:.3f} | {result['peak_rss_mb']:.0f} | "
          f"{b['count']} / {b['memory'] / 2**20:.1f} MiB / {b['bdist']} |{extra}")


HEADER = ("| trace | events | locations | open ns/event (CPU) | scan M ev/s | random event(p) "
          "median (ms) | peak RSS (MB) | bookmarks / memory / bdist |")


def part_a(args):
    print("\n### (a) messages in flight (16 locations)\n")
    print(HEADER + " max in flight | records in flight (MB) |")
    print("|" + "---|" * 10)
    results = {}
    for name, options in [("inflight20k", dict(in_flight=20000)),
                          ("inflight200k", dict(in_flight=200000)),
                          ("inflight200k_tags", dict(in_flight=200000, tag_per_message=True))]:
        path, truth = make(args.dir, args.format, name, locations=16, events=args.events,
                           **options)
        result = run_child(path, args)
        records_mb = truth["max_in_flight"] * EVENT_RECORD_BYTES / 1e6
        row(name, result, f" {truth['max_in_flight']:,} | {records_mb:.1f} |")
        results[name] = (result, records_mb)
    base, big, tags = (results[n][0] for n in ("inflight20k", "inflight200k", "inflight200k_tags"))
    ratios = {"(a) open cost 2*10^5 / 2*10^4 in flight (target < 1.5)":
              big["ns_per_event"] / base["ns_per_event"],
              "(a) open cost one tag per message / 2*10^4 (target < 1.5)":
              tags["ns_per_event"] / base["ns_per_event"]}
    print()
    for name, value in ratios.items():
        print(f"{name}: {value:.2f}")
    for name in ("inflight200k", "inflight200k_tags"):
        result, records_mb = results[name]
        print(f"peak RSS {name}: {result['peak_rss_mb']:.0f} MB against 3 x {records_mb:.1f} "
              f"+ 64 = {3 * records_mb + 64:.0f} MB (target: below)")
        ratios[f"(a) peak RSS {name} / (3 x records in flight + 64 MB) (target < 1)"] = (
            result["peak_rss_mb"] / (3 * records_mb + 64))
    return ratios


def part_b(args):
    print(f"\n### (b) width ({args.events:,} events)\n")
    print(HEADER)
    print("|" + "---|" * 8)
    results = {}
    for width in args.widths:
        path, _ = make(args.dir, args.format, f"wide{width}", locations=width, events=args.events)
        results[width] = run_child(path, args)
        row(f"wide{width}", results[width])
    narrow = results[args.widths[0]]
    ratios = {}
    for width in args.widths[1:]:
        print(f"\nscan speed {width} / {args.widths[0]} locations: "
              f"{narrow['ns_per_event'] / results[width]['ns_per_event']:.2f} (target >= 0.5); "
              f"random event(p) median {results[width]['random_ms']:.3f} ms")
        ratios[f"(b) scan speed {width} / {args.widths[0]} locations (target >= 0.5)"] = (
            narrow["ns_per_event"] / results[width]["ns_per_event"])
        ratios[f"(b) random event(p) median at {width} locations, ms"] = results[width]["random_ms"]
    return ratios


def part_c(args):
    print(f"\n### (c) recursion depth (16 locations)\n")
    print(HEADER)
    print("|" + "---|" * 8)
    flat_path, _ = make(args.dir, args.format, "flat", locations=16, events=args.events)
    deep_path, truth = make(args.dir, args.format, "deep10k", locations=16, events=args.events,
                            depth=10000)
    flat, deep = run_child(flat_path, args), run_child(deep_path, args)
    row("no recursion", flat)
    row(f"depth {truth['max_depth']:,}", deep)
    print(f"\nper-event open cost depth 10^4 / none: "
          f"{deep['ns_per_event'] / flat['ns_per_event']:.2f} (target <= 1.5); random event(p) "
          f"{deep['random_ms'] / flat['random_ms']:.2f}x")
    return {"(c) open cost depth 10^4 / none (target <= 1.5)":
            deep["ns_per_event"] / flat["ns_per_event"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", nargs="+", default=["a", "b", "c"], choices="abc")
    parser.add_argument("--events", type=int, default=1000000)
    parser.add_argument("--format", default="alog")
    parser.add_argument("--widths", type=int, nargs="+", default=[16, 8192, 32768])
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--dir", default=os.path.join(os.environ.get("TMPDIR", "/tmp"),
                                                      "earl-scale"))
    parser.add_argument("--repeat", type=int, default=1, help="measure every part this often")
    parser.add_argument("--fresh", type=int, default=3,
                        help="fresh processes per trace and run, the fastest counts")
    parser.add_argument("--measure", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        return measure(args.measure, args.samples)
    os.makedirs(args.dir, exist_ok=True)
    if args.repeat < 1 or args.fresh < 1:
        parser.error("--repeat and --fresh: at least 1")
    print(f"load average before: {os.getloadavg()[0]:.2f}, format {args.format}")
    runs = {}
    for run in range(args.repeat):
        if args.repeat > 1:
            print(f"\n## run {run + 1} of {args.repeat} (load average {os.getloadavg()[0]:.2f})")
        for part in args.parts:
            for name, value in {"a": part_a, "b": part_b, "c": part_c}[part](args).items():
                runs.setdefault(name, []).append(value)
    if args.repeat > 1:
        print(f"\n## every run\n")
        for name, values in runs.items():
            print(f"- {name}: {', '.join(f'{v:.2f}' for v in values)}")
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
