#!/usr/bin/env python3
"""Late Sender and Late Sender, wrong order (Scalasca 2.6's definitions).

The readable specification of what `earl analyze` computes natively.

A receive completed in MPI_Recv, MPI_Sendrecv or MPI_Wait/Waitany waits
min(enter of the send's call, leave of the receiving call) - enter of the receiving call,
when positive; MPI_Waitall/Waitsome count only their largest wait. When a later receive
takes a message sent before the message of one of the last 100 late senders of its
location, that late sender's wait is wrong order (same or different source).

    python scripts/patterns/late_sender.py TRACE     # metric, location, call path, seconds, instances
"""
import sys

from earl import EventTrace

RECEIVING = {"MPI_Recv", "MPI_Sendrecv", "MPI_Wait", "MPI_Waitany"}
MANY = {"MPI_Waitall", "MPI_Waitsome"}


def find(e, out):
    received, kept = {}, {}  # per location: receives of the open call; last 100 late senders
    for ev in e:
        if ev["type"] == "recv" and ev["sendptr"]:
            send = e.event(ev["sendptr"])
            received.setdefault(ev["enterptr"], []).append((e.event(send["enterptr"])["time"], send, ev))
        if ev["type"] != "exit" or ev["enterptr"] not in received:
            continue
        call, msgs = e.event(ev["enterptr"]), received.pop(ev["enterptr"])
        lates = kept.setdefault(ev["loc"], [])
        for _, send, _ in msgs:                    # wrong order: an older message came later
            for late in [k for k in lates if send["time"] < k[0]["time"]]:
                kind = "mpi_lswo_same" if late[0]["loc"] == send["loc"] else "mpi_lswo_different"
                for metric in ("mpi_latesender_wo", kind):
                    add(out, metric, ev["loc"], late[1], late[2])
                lates.remove(late)
        idles = [(min(t, ev["time"]) - call["time"], send) for t, send, _ in msgs]
        idles = [i for i in idles if i[0] > 0]
        if call["region"] in MANY and idles:
            idles = [max(idles, key=lambda i: i[0])]
        if call["region"] in RECEIVING | MANY:
            for idle, send in idles:
                path = path_of(e, call)
                add(out, "mpi_latesender", ev["loc"], path, idle)
                lates[:] = (lates + [(send, path, idle)])[-100:]
    return out


def path_of(e, enter):
    return "/".join(e.event(p)["region"] for p in e.stack(enter["loc"], enter["pos"]))


def add(out, metric, loc, path, seconds):
    cell = out.setdefault(metric, {}).setdefault((path, loc), [0.0, 0])
    cell[0] += seconds
    cell[1] += 1


if __name__ == "__main__":
    for metric, cells in find(EventTrace(sys.argv[1]), {}).items():
        for (path, loc), (seconds, n) in sorted(cells.items(), key=lambda c: c[0][1]):
            print(f"{metric} {loc} {path} {seconds:.9f} {n}")
