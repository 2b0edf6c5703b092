"""`earl merge` speed: a generated trace split into one ALOG file per process (one piece's
clock shifted), merged back into OTF2 with given offsets and with estimated ones; best of
`--repeat` runs each, events per second. docs/performance.md#merging has the figures.

    python bench/merge_speed.py [--events 1000000] [--procs 8] [--repeat 3]
"""
import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import earl  # noqa: E402
from earl.generate import generate  # noqa: E402
from test_merge_split import split_alog  # noqa: E402  (the tests' splitter: one source)


def best(repeat, run):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10 ** 6)
    parser.add_argument("--procs", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        whole = folder / "run.alog"
        generate(str(whole), locations=args.procs, events=args.events, seed=1)
        pieces = split_alog(str(whole), folder, shift_us=3000)
        out = str(folder / "merged.otf2")
        events = sum(i["events"] for i in earl.merge(out, pieces)["inputs"])
        offsets = [None, -0.003] + [None] * (len(pieces) - 2)
        given = best(args.repeat, lambda: earl.merge(out, pieces, offsets=offsets))
        estimated = best(args.repeat, lambda: earl.merge(out, pieces, estimate=True))
    print(f"{events} events in {len(pieces)} ALOG files -> OTF2 (load {os.getloadavg()[0]:.1f})")
    print(f"given offsets:     {given:.3f} s  {events / given / 1e6:.2f} M events/s")
    print(f"estimated offsets: {estimated:.3f} s  {events / estimated / 1e6:.2f} M events/s")


if __name__ == "__main__":
    main()
