"""The scan speed of event filters (earl list --where, trace.select): the core's native
predicate against the same filter evaluated in Python per event, and against a plain
Python loop over every event testing the dict. Prints events scanned per second (the whole
trace is scanned in each case; the matches are counted and must agree).

    .venv/bin/python bench/select_scan.py [TRACE] [--events N] [--locations N] [--repeat N]
"""
import tempfile

from language_loops import open_trace, parser, print_table, timed

# The same filter three ways: in the shared grammar (native), with `or False` appended,
# which leaves the grammar (evaluated in Python), and as a dict test in a plain loop.
NATIVE = 'ev.type == "send" and ev.dest == 3'
FALLBACK = NATIVE + " or False"


def main():
    args = parser(__doc__.splitlines()[0]).parse_args()
    with tempfile.TemporaryDirectory() as directory:
        _, trace = open_trace(args, directory)
        size = len(trace)

        def selected(expression, language="python", positions=True):
            def loop():
                chosen = trace.select(expression, language, positions=positions)
                assert chosen.native == (expression == NATIVE)
                return sum(1 for _ in chosen)
            return loop

        def plain():
            return sum(1 for ev in trace if ev["type"] == "send" and ev.get("dest") == 3)

        results = []
        for name, loop in ((f"select, native: {NATIVE}", selected(NATIVE)),
                           ("select, native, yielding event dicts", selected(NATIVE, positions=False)),
                           (f"select, Python fallback: ... or False", selected(FALLBACK)),
                           ("plain Python loop over trace (dict test)", plain)):
            matches, seconds = timed(loop, args.repeat)
            print(f"{name}: {matches} matches", flush=True)
            results.append((name, size, seconds))
        print_table(results)


if __name__ == "__main__":
    main()
