#!/usr/bin/env python3
"""Region statistics (EARL 2.0 reference, Part III, section 9).

Time spent in each region on each location, inclusive and exclusive of the
region instances nested in it. At every exit, the time since its enter
(enterptr) is added to the region's inclusive and exclusive time and taken off
the exclusive time of the enclosing instance (the enter's own enterptr).
Prints one table, by location, the most expensive regions first.

    python scripts/region_statistics.py TRACE
    earl run scripts/region_statistics.py TRACE
"""
import sys

from earl import EarlError, EventTrace


def region_statistics(e):
    """Returns {(loc, region): [instances, inclusive s, exclusive s]}."""
    stats = {}
    e.reset()
    while e.next():
        curr = e.event()
        if curr["type"] != "exit" or not curr["enterptr"]:
            continue                                  # not an exit, or nothing open
        enter = e.event(curr["enterptr"])
        diff = curr["time"] - enter["time"]
        # the instance closed is the enter's (an exit naming another region still pops it)
        row = stats.setdefault((curr["loc"], enter["region"]), [0, 0.0, 0.0])
        row[0] += 1
        row[1] += diff
        row[2] += diff
        if enter["enterptr"]:
            encl = e.event(enter["enterptr"])
            stats.setdefault((curr["loc"], encl["region"]), [0, 0.0, 0.0])[2] -= diff
    return stats


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        sys.exit("usage: region_statistics.py TRACE")
    try:
        e = EventTrace(argv[0])
    except EarlError as error:
        sys.exit(f"region_statistics.py: {error}")
    stats = region_statistics(e)
    width = max([len("region")] + [len(region) for _, region in stats])
    print(f"{'loc':>4}  {'region':<{width}}  {'count':>8}  {'incl [s]':>12}  {'excl [s]':>12}")
    for (loc, region), (count, incl, excl) in sorted(
            stats.items(), key=lambda item: (item[0][0], -item[1][1], item[0][1])):
        print(f"{loc:>4}  {region:<{width}}  {count:>8}  {incl:>12.6f}  {excl:>12.6f}")
    return stats


if __name__ == "__main__":
    main()
