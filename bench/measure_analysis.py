"""Wait-state analysis speed (not a test: prints figures), in one run:

  - events/s of the plain C++ scan (opening an EventTrace: one pass with state),
  - events/s of the native analysis (`earl.analyze`, all patterns and the profile),
  - events/s of the reference Python scripts (scripts/patterns via --engine scripts)
    computing the same patterns, on a smaller trace generated with the same options
    (the scripts run ~10^4-10^5 events/s; 10^7 events would take hours), with the native
    analysis on that trace too, so the ratio compares like with like.

usage: python bench/measure_analysis.py [--events 10000000] [--script-events 200000]
                                        [--formats alog otf2]
"""
import argparse
import json
import os
import tempfile
import time
from pathlib import Path

import earl
from earl.generate import generate

OPTIONS = dict(locations=16, seed=1, late_sender_rate=0.2, out_of_order_rate=0.1,
               imbalance_rate=0.2)


def timed(f):
    start = time.perf_counter()
    result = f()
    return time.perf_counter() - start, result


def measure(folder, fmt, events, script_events):
    big = Path(folder) / f"big.{fmt}"
    generate(big, format=fmt, events=events, **OPTIONS)
    scan_s, trace = timed(lambda: earl.EventTrace(big, progress=lambda f: None))
    m = len(trace)
    trace.close()
    native_s, report = timed(lambda: earl.analyze(big, progress=lambda f: None))
    small = Path(folder) / f"small.{fmt}"
    generate(small, format=fmt, events=script_events, **OPTIONS)
    small_native_s, small_report = timed(lambda: earl.analyze(small, progress=lambda f: None))
    scripts_s, _ = timed(lambda: earl.analyze(small, engine="scripts"))
    return {"format": fmt, "events": m, "scan_events_per_s": m / scan_s,
            "analysis_events_per_s": m / native_s, "analysis_vs_scan": scan_s / native_s,
            "script_trace_events": small_report.events,
            "scripts_events_per_s": small_report.events / scripts_s,
            "analysis_small_events_per_s": small_report.events / small_native_s,
            "analysis_vs_scripts": scripts_s / small_native_s,
            "late_sender_s": report.total("mpi_latesender")}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=10_000_000)
    parser.add_argument("--script-events", type=int, default=200_000)
    parser.add_argument("--formats", nargs="+", default=["alog", "otf2"])
    args = parser.parse_args()
    print(f"# load average before: {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as folder:
        for fmt in args.formats:
            r = measure(folder, fmt, args.events, args.script_events)
            print(json.dumps(r))
            print(f"{fmt}: {r['events']} events: scan {r['scan_events_per_s'] / 1e6:.2f} M/s, "
                  f"analysis {r['analysis_events_per_s'] / 1e6:.2f} M/s "
                  f"({r['analysis_vs_scan']:.2f}x the scan); scripts "
                  f"{r['scripts_events_per_s'] / 1e3:.1f} k/s on {r['script_trace_events']} events, "
                  f"analysis {r['analysis_vs_scripts']:.0f}x the scripts")
    print(f"# load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
