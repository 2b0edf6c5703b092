#!/usr/bin/env python3
"""Wasted time of MPI_Recv (EARL 2.0 reference, Part III, section 7).

A receive posted before its matching send was started waits at least
(enter time of MPI_Send) - (enter time of MPI_Recv). This script sums that time
over all receives made inside MPI_Recv whose message was sent inside MPI_Send,
and breaks it down by receiving location.

    python scripts/wasted_time.py TRACE
    earl run scripts/wasted_time.py TRACE
"""
import sys

from earl import EarlError, EventTrace


def wasted_time(e):
    """Returns (total seconds, {receiving loc: [late receives, seconds]})."""
    total, per_loc = 0.0, {}
    e.reset()
    while e.next():
        curr = e.event()
        if curr["type"] != "recv" or not curr["enterptr"] or not curr["sendptr"]:
            continue                             # no enclosing region or no matching send
        recv_start = e.event(curr["enterptr"])
        if recv_start["region"] != "MPI_Recv":
            continue                             # e.g. received inside MPI_Bcast
        send = e.event(curr["sendptr"])
        if not send["enterptr"]:
            continue
        send_start = e.event(send["enterptr"])
        if send_start["region"] != "MPI_Send":
            continue
        wasted = send_start["time"] - recv_start["time"]
        if wasted > 0:
            total += wasted
            late = per_loc.setdefault(curr["loc"], [0, 0.0])
            late[0] += 1
            late[1] += wasted
    return total, per_loc


def location_label(e, loc):
    """'3 (MPI Rank 3 / Master thread)', or '3' where the trace names no location."""
    name = e.locsym(loc)
    return str(loc) if name == loc else f"{loc} ({name})"


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        sys.exit("usage: wasted_time.py TRACE")
    try:
        e = EventTrace(argv[0])
    except EarlError as error:
        sys.exit(f"wasted_time.py: {error}")
    total, per_loc = wasted_time(e)
    print(f"{e.file()}: {total:.6f} sec wasted.")
    labels = {loc: location_label(e, loc) for loc in per_loc}
    width = max([20] + [len(label) for label in labels.values()])
    if per_loc:
        print(f"  {'receiver':<{width}} {'late recvs':>10} {'wasted [s]':>12}")
    for loc in sorted(per_loc):
        count, seconds = per_loc[loc]
        print(f"  {labels[loc]:<{width}} {count:>10} {seconds:>12.6f}")
    return total, per_loc


if __name__ == "__main__":
    main()
