"""The profile's tables in Python, Lua and Tcl on one trace, in one run (not a test: prints
figures for docs/performance.md).

    python bench/profile_languages.py TRACE [--repeat N]

The trace is opened once in Python (its opening scan is not timed) and shared with Lua
(earl.lua.share) and Tcl (earl.tcl.share), so every language reads the same C++ trace.
Timed, median of --repeat runs: earl.stats(trace) and trace.region_instances() (DataFrames),
Lua's e:profile() and a loop over e:region_instances(), Tcl's `e profile` and `e
region_instances i {}`. The one pass over the events is the core's in all three; what
differs is making each language's values of the rows.
"""
import argparse
import statistics
import timeit

import earl
import earl.lua
import earl.tcl


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trace")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    with earl.EventTrace(args.trace) as trace:
        lua = earl.lua.runtime()
        lua.globals().e = earl.lua.share(trace, lua)
        tcl = earl.tcl.interpreter()
        earl.tcl.share(trace, tcl, "e")
        count = lua.eval("(function() local n = 0 for _ in e:region_instances() do n = n + 1 end return n end)()")
        rows = {
            "Python earl.stats(trace)": lambda: earl.stats(trace),
            "Lua e:profile()": lambda: lua.eval("e:profile()"),
            "Tcl e profile": lambda: tcl.eval("e profile"),
            "Python trace.region_instances()": trace.region_instances,
            "Lua for inst in e:region_instances()": lambda: lua.execute("for inst in e:region_instances() do end"),
            "Tcl e region_instances i {}": lambda: tcl.eval("e region_instances i {}"),
        }
        print(f"{len(trace)} events, {count} region instances, median of {args.repeat}")
        for name, run in rows.items():
            print(f"{name:40} {statistics.median(timeit.repeat(run, number=1, repeat=args.repeat)):8.2f} s")


if __name__ == "__main__":
    main()
