"""What a key costs in the REPL's live view, and how fast :find searches, on a large trace.

usage: measure_repl.py [TRACE] [--events N] [--locations N] [--keys N]

Without TRACE, writes a generated OTF2 archive (`earl gen X.otf2 -f otf2 -n 16 -e N`,
default 10^6 events) to a temporary directory. Then:
- per key of :view: at --keys random positions, a jump there and everything the view
  draws (timeline, event pane, stacks pane, status bar) for a 110 x 40 terminal; the
  median and the maximum in milliseconds;
- :time (the first event at or after a time, a binary search): median milliseconds;
- :find with an expression that never holds, over the whole trace, in each language:
  events per second.
"""
import argparse
import os
import random
import statistics
import tempfile
import time

from prompt_toolkit.application import create_app_session
from prompt_toolkit.data_structures import Size
from prompt_toolkit.output import DummyOutput

import earl
from earl.generate import generate
from earl.repl.session import Session
from earl.repl.view import LiveView

NEVER = {"python": 'ev["type"] == "nothing"', "lua": 'ev.type == "nothing"',
         "tcl": '$ev(type) eq "nothing"'}


class Terminal(DummyOutput):
    def get_size(self):
        return Size(rows=40, columns=110)


def milliseconds(action):
    start = time.perf_counter()
    action()
    return (time.perf_counter() - start) * 1e3


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("trace", nargs="?")
    parser.add_argument("--events", type=int, default=10 ** 6)
    parser.add_argument("--locations", type=int, default=16)
    parser.add_argument("--keys", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        path = args.trace
        if path is None:
            path = os.path.join(directory, "bench.otf2")
            generate(path, locations=args.locations, events=args.events, seed=3)
        with earl.EventTrace(path) as trace:
            measure(trace, args.keys)


def measure(trace, keys):
    session = Session(trace)
    size = len(trace)
    print(f"{trace.file()}: {size} events, {trace.nrlocs()} locations")
    rng = random.Random(1)
    with create_app_session(output=Terminal()):
        view = LiveView(session)
        costs = []
        for _ in range(keys):
            target = rng.randint(1, size)
            costs.append(milliseconds(lambda: (session.jump(target), view.timeline_pane(),
                                               view.event_pane(), view.stack_pane(),
                                               view.status())))
    print(f"view, one key (jump + every pane): median {statistics.median(costs):.2f} ms, "
          f"max {max(costs):.2f} ms over {keys} random positions")
    last = trace.event(size)["time"]
    costs = [milliseconds(lambda: session.first_at_or_after(rng.uniform(0, last)))
             for _ in range(keys)]
    print(f":time (binary search): median {statistics.median(costs):.2f} ms")
    for language, expression in NEVER.items():
        session.use_language(language)
        session.jump(1)
        seconds = milliseconds(lambda: session.find(expression)) / 1e3
        print(f":find in {language}: {(size - 1) / seconds / 1e6:.2f} M events/s")


if __name__ == "__main__":
    main()
