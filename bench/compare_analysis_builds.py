"""Analysis speed of two EARL builds on the same traces, alternating (not a test: prints
figures). Each build is a Python with its own earl installed (a worktree's .venv); the
traces are written once by the first build's generator, so both read identical files, and
every timing is a fresh process running `earl.analyze` on one trace.

usage: python bench/compare_analysis_builds.py BEFORE_PYTHON AFTER_PYTHON
           [--events 10000000] [--repeat 5] [--formats otf2 alog] [--folder DIR]
"""
import argparse
import statistics
import subprocess
import tempfile
from pathlib import Path

# The trace shape of bench/measure_analysis.py.
OPTIONS = dict(locations=16, seed=1, late_sender_rate=0.2, out_of_order_rate=0.1, imbalance_rate=0.2)

TIMED = """
import sys, time, earl
start = time.perf_counter()
earl.analyze(sys.argv[1], progress=lambda f: None)
print(time.perf_counter() - start)
"""


def write_traces(python, folder, formats, events):
    paths = {}
    for fmt in formats:
        path = Path(folder) / f"big.{fmt}"
        options = dict(OPTIONS, events=events, format=fmt)
        subprocess.run([python, "-c", f"from earl.generate import generate; generate({str(path)!r}, **{options!r})"],
                       check=True)
        paths[fmt] = path
    return paths


def seconds(python, path):
    return float(subprocess.run([python, "-c", TIMED, str(path)], capture_output=True, text=True,
                                check=True).stdout)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", help="Python of the build before")
    parser.add_argument("after", help="Python of the build after")
    parser.add_argument("--events", type=int, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--formats", nargs="+", default=["otf2", "alog"])
    parser.add_argument("--folder", type=Path, help="keep the traces here (default: a temporary folder)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="earl-ab-") as temporary:
        folder = args.folder or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        paths = write_traces(args.before, folder, args.formats, args.events)
        times = {}
        for _ in range(args.repeat):
            for build, python in (("before", args.before), ("after", args.after)):
                for fmt, path in paths.items():
                    times.setdefault((fmt, build), []).append(seconds(python, path))
    print("format  before (median)  after (median)  after/before")
    for fmt in args.formats:
        before, after = (statistics.median(times[fmt, b]) for b in ("before", "after"))
        print(f"{fmt:6}  {before:8.3f} s        {after:8.3f} s      {after / before:.3f}")


if __name__ == "__main__":
    main()
