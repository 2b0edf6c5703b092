"""Events as a pandas DataFrame: EARL's trace.to_pandas() against pipit's Trace.from_otf2
and the official OTF2 Python reader building a DataFrame of the same events (not a test:
prints figures for docs/performance.md).

    python bench/dataframe.py [--events 10000000] [--locations 16] [--folder DIR]
                              [--pipit-processes N] [--no-pipit] [--no-reader]

One OTF2 archive is written by `earl gen` (not timed); each reader then runs in a fresh
process, timed from opening the archive until the DataFrame exists, with its peak memory
(VmHWM); the last column is each time over earl.read_pandas()'s. EARL opens with index=False (no persisted index from an earlier run helps it).
pipit is not a dependency of EARL: install it from its public source
(https://github.com/hpcgroup/pipit, `pip install ./pipit`); without it that row says so.
"""
import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

OPTIONS = dict(seed=1, late_sender_rate=0.2)

EARL = """
import sys, time, earl, pandas  # pandas imported before the clock starts, as pipit's is
start = time.perf_counter()
with earl.EventTrace(sys.argv[1], index=False, progress=lambda f: None) as trace:
    frame = trace.to_pandas()
print(time.perf_counter() - start, len(frame))
"""

# The columns filled in the opening scan itself (no second decoding pass).
EARL_READ = """
import sys, time, earl, pandas
start = time.perf_counter()
frame = earl.read_pandas(sys.argv[1], index=False, progress=lambda f: None)
print(time.perf_counter() - start, len(frame))
"""

PIPIT = """
import sys, time, pipit
start = time.perf_counter()
trace = pipit.Trace.from_otf2(sys.argv[1], num_processes=int(sys.argv[2]))
print(time.perf_counter() - start, len(trace.events))
"""

# The official reader, one Python call per event, building what to_pandas() builds: a
# row per event with location, time, type and region as categoricals.
READER = """
import sys, time, otf2, numpy, pandas
from otf2.events import Enter, Leave
start = time.perf_counter()
locs, times, kinds, regions = [], [], [], []
numbers = {}
with otf2.reader.open(sys.argv[1]) as trace:
    for location, event in trace.events:
        locs.append(numbers.setdefault(location.name, len(numbers)))
        times.append(event.time)
        kinds.append(type(event).__name__)
        region = getattr(event, "region", None)
        regions.append(None if region is None else region.name)
    resolution = trace.definitions.clock_properties.timer_resolution
frame = pandas.DataFrame({"loc": numpy.array(locs, numpy.int32),
                          "time": numpy.array(times, numpy.float64) / resolution,
                          "type": pandas.Categorical(kinds), "region": pandas.Categorical(regions)})
print(time.perf_counter() - start, len(frame))
"""


def measure(code, arguments, timeout):
    """(seconds, rows, peak MiB) of a fresh Python running `code` with `arguments`, or the
    reason it failed."""
    wrapped = code + """
for line in open("/proc/self/status"):
    if line.startswith("VmHWM"):
        print(int(line.split()[1]) / 1024)
"""
    try:
        done = subprocess.run([sys.executable, "-c", wrapped, *map(str, arguments)],
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"did not finish in {timeout} s"
    if done.returncode != 0:
        return "failed: " + (done.stderr.strip().splitlines() or ["?"])[-1]
    first, peak = done.stdout.split("\n")[-3:-1]
    seconds, rows = first.split()
    return float(seconds), int(rows), float(peak)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=10_000_000)
    parser.add_argument("--locations", type=int, default=16)
    parser.add_argument("--folder", type=Path, help="keep the archive here (default: a temporary folder)")
    parser.add_argument("--pipit-processes", type=int, default=None,
                        help="pipit's num_processes (default: every core, pipit's own default)")
    parser.add_argument("--timeout", type=int, default=3600, help="seconds allowed per reader")
    parser.add_argument("--no-pipit", action="store_true")
    parser.add_argument("--no-reader", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="earl-df-") as temporary:
        folder = args.folder or Path(temporary)
        archive = folder / "df"
        anchor = archive / "traces.otf2"
        if not anchor.exists():
            archive.mkdir(parents=True, exist_ok=True)
            subprocess.run([sys.executable, "-m", "earl.cli", "gen", "-f", "otf2", str(anchor),
                            "-n", str(args.locations), "-e", str(args.events),
                            "--seed", str(OPTIONS["seed"])], check=True, stdout=subprocess.DEVNULL)
        rows = {"earl.read_pandas()": measure(EARL_READ, [anchor], args.timeout),
                "earl to_pandas()": measure(EARL, [anchor], args.timeout)}
        if not args.no_pipit:
            try:
                import pipit  # noqa: F401
            except ImportError:
                rows["pipit Trace.from_otf2"] = "pipit is not installed (pip install it from its source)"
            else:
                import os
                processes = args.pipit_processes or os.cpu_count()
                rows[f"pipit Trace.from_otf2 ({processes} processes)"] = measure(
                    PIPIT, [archive, processes], args.timeout)
        if not args.no_reader:
            rows["otf2 reader -> DataFrame"] = measure(READER, [anchor], args.timeout)
    fastest = rows["earl.read_pandas()"]
    earl_seconds = fastest[0] if isinstance(fastest, tuple) else None
    print(f"{args.events} events requested, {args.locations} locations")
    print(f"{'reader':40} {'seconds':>9} {'rows':>10} {'peak MiB':>9} {'x EARL':>8}")
    for name, result in rows.items():
        if isinstance(result, str):
            print(f"{name:40} {result}")
            continue
        seconds, count, peak = result
        ratio = f"{seconds / earl_seconds:.1f}" if earl_seconds else "-"
        print(f"{name:40} {seconds:9.2f} {count:10d} {peak:9.0f} {ratio:>8}")


if __name__ == "__main__":
    main()
