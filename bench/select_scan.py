"""The scan speed of event filters (earl list --where, trace.select): the core's native
predicate against the same filter evaluated in Python per event, tested in part (the core
the type, Python the destination on the sends), and against a plain Python loop over
every event testing the dict. Prints events scanned per second (the whole
trace is scanned in each case; the matches are counted and must agree).

    .venv/bin/python bench/select_scan.py [TRACE] [--events N] [--locations N] [--repeat N]
"""
import tempfile

from language_loops import open_trace, parser, print_table, timed

# The same filter four ways: in the shared grammar (native), with `or False` appended,
# which leaves the grammar (evaluated in Python), with `* 1` in its second operand (the
# core tests the first, Python the second on its matches: partial), and as a dict test
# in a plain loop.
NATIVE = 'ev.type == "send" and ev.dest == 3'
FALLBACK = NATIVE + " or False"
PARTIAL = 'ev.type == "send" and ev.dest * 1 == 3'
PATHS = {NATIVE: True, FALLBACK: False, PARTIAL: "partial"}


def main():
    args = parser(__doc__.splitlines()[0]).parse_args()
    with tempfile.TemporaryDirectory() as directory:
        _, trace = open_trace(args, directory)
        size = len(trace)

        def selected(expression, language="python", positions=True):
            def loop():
                chosen = trace.select(expression, language, positions=positions)
                assert chosen.native == PATHS[expression]
                return sum(1 for _ in chosen)
            return loop

        def plain():
            return sum(1 for ev in trace if ev["type"] == "send" and ev.get("dest") == 3)

        results = []
        for name, loop in ((f"select, native: {NATIVE}", selected(NATIVE)),
                           ("select, native, yielding event dicts", selected(NATIVE, positions=False)),
                           (f"select, Python fallback: ... or False", selected(FALLBACK)),
                           (f"select, partial: {PARTIAL}", selected(PARTIAL)),
                           ("plain Python loop over trace (dict test)", plain)):
            matches, seconds = timed(loop, args.repeat)
            print(f"{name}: {matches} matches", flush=True)
            results.append((name, size, seconds))
        print_table(results)


if __name__ == "__main__":
    main()
