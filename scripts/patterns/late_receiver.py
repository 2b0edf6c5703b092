#!/usr/bin/env python3
"""Late Receiver (Scalasca 2.6's definition), for blocking sends.

A blocking MPI_Send or MPI_Ssend still running when its receive is posted (MPI_Recv or MPI_Sendrecv entered) waited
enter(receiving call) - enter(sending call), when positive, at the send.

The engine also judges the MPI_Wait/Waitany completing an MPI_Isend/Issend, and receives
posted by MPI_Irecv, where OTF2's request ids link them; the model shows no request ids
to scripts, so this specification covers blocking sends only (docs/analysis.md, "The patterns, exactly").

    python scripts/patterns/late_receiver.py TRACE
"""
import sys

from earl import EventTrace
from late_sender import add, path_of

SENDING, POSTING = {"MPI_Send", "MPI_Ssend"}, {"MPI_Recv", "MPI_Sendrecv"}


def find(e, out):
    for ev in e:
        if ev["type"] != "recv" or not ev["sendptr"]:
            continue
        send = e.event(ev["sendptr"])
        sc, rc = e.event(send["enterptr"]), e.event(ev["enterptr"])
        if sc["region"] not in SENDING or rc["region"] not in POSTING:
            continue
        sc_leave = leave_of(e, sc)
        if sc_leave["time"] > rc["time"] and rc["time"] > sc["time"]:
            add(out, "mpi_latereceiver", sc["loc"], path_of(e, sc), rc["time"] - sc["time"])
    return out


def leave_of(e, enter):
    """The exit of the region instance `enter` (the first exit on its location whose
    enterptr is it)."""
    pos = enter["pos"]
    while True:
        pos += 1
        ev = e.event(pos)
        if ev["loc"] == enter["loc"] and ev["type"] == "exit" and ev["enterptr"] == enter["pos"]:
            return ev


if __name__ == "__main__":
    for metric, cells in find(EventTrace(sys.argv[1]), {}).items():
        for (path, loc), (seconds, n) in sorted(cells.items(), key=lambda c: c[0][1]):
            print(f"{metric} {loc} {path} {seconds:.9f} {n}")
