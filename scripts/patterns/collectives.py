#!/usr/bin/env python3
"""Wait states in collectives (Scalasca 2.6's definitions).

The k-th call on a communicator of each location forms one instance (no communicator, as in ALOG: the k-th call of the same
function); L = latest begin, E = earliest end (begin/end: OTF2's MpiCollectiveBegin/End
times, the exit's collbegin/collend, where the trace has them, else the call's enter/exit);
a member waits:
  Barrier, N x N, Finalize:  min(L, end) - begin; completion: end - max(E, min(L, end))
  Init[_thread]:             the completion only
  Win_fence/create/free:     L - begin, when all calls overlap (E > L)
  Early Fence (its part):    the last RMA operation to this location issued before the
                             fence ends inside it: min(that end, L) - begin; an operation
                             (put_1ts, get_1to) ends when the call issuing it leaves; one
                             of an epoch an MPI_Win_complete closed (on its window) is no
                             fence's
  Bcast, Scatter[v]:         non-roots min(root begin, end) - begin
  Reduce, Gather[v]:         the root min(L of the others, end) - begin
  Scan, Exscan:              rank r: min(L over ranks <= r that send, end) - begin
Instances with no payload (sizes recorded, all 0) and of one member are skipped. Rank
order is the communicator's (`e.ranks(com)`) where the trace names it (OTF2), else
location order (ALOG).

    python scripts/patterns/collectives.py TRACE
"""
import sys

from earl import EarlError, EventTrace
from late_sender import add, path_of

SYNC = {"MPI_Barrier": ("mpi_barrier_wait", "mpi_barrier_completion"),
        "MPI_Finalize": ("mpi_finalize_wait", None),
        "MPI_Init": (None, "mpi_init_completion"), "MPI_Init_thread": (None, "mpi_init_completion")}
SYNC.update({f: ("mpi_wait_nxn", "mpi_nxn_completion") for f in (
    "MPI_Allgather", "MPI_Allgatherv", "MPI_Alltoall", "MPI_Allreduce", "MPI_Reduce_scatter",
    "MPI_Reduce_scatter_block")})
OVERLAP = {"MPI_Win_fence": "mpi_rma_wait_at_fence", "MPI_Win_create": "mpi_rma_wait_at_create",
           "MPI_Win_allocate": "mpi_rma_wait_at_create", "MPI_Win_free": "mpi_rma_wait_at_free"}
ONE_TO_N, N_TO_ONE = {"MPI_Bcast", "MPI_Scatter", "MPI_Scatterv"}, {"MPI_Reduce", "MPI_Gather", "MPI_Gatherv"}
SCAN = {"MPI_Scan", "MPI_Exscan"}
ROOTED = ONE_TO_N | N_TO_ONE
RMA_OPS = {"put_1ts", "get_1to"}


def find(e, out):
    instances, seq = {}, {}
    issued = {}       # enter position of a call -> (window, target) of the RMA operations it issued
    since_fence = {}  # location -> {(window, target): when its last operation to it ended}
    fence_ops = {}    # fence instance -> {target: last end}
    synced = {}       # enter position of a call -> the window its rma_group_sync names
    starts = {}       # location -> windows of its open MPI_Win_start epochs (-1: unnamed)
    for ev in e:
        if ev["type"] == "rma_group_sync" and ev["enterptr"]:
            synced[ev["enterptr"]] = ev["data2"]
        if ev["type"] in RMA_OPS:
            if ev["enterptr"]:
                issued.setdefault(ev["enterptr"], []).append((ev["win"], ev["peer"]))
            else:
                latest(since_fence.setdefault(ev["loc"], {}), (ev["win"], ev["peer"]), ev["time"])
            continue
        if ev["type"] != "exit" or not ev["enterptr"]:
            continue
        for op in issued.pop(ev["enterptr"], ()):
            latest(since_fence.setdefault(ev["loc"], {}), op, ev["time"])
        enter = e.event(ev["enterptr"])
        name = enter["region"]
        window = synced.pop(ev["enterptr"], -1)
        if name == "MPI_Win_start":
            starts.setdefault(ev["loc"], set()).add(window)
        elif name == "MPI_Win_complete":  # its epoch's operations are no fence's
            window = closed_window(starts.setdefault(ev["loc"], set()), window)
            since_fence[ev["loc"]] = {op: t for op, t in since_fence.get(ev["loc"], {}).items()
                                      if window < 0 or op[0] != window}
        if name not in set(SYNC) | set(OVERLAP) | ROOTED | SCAN:
            continue
        key = ev["com"] if ev.get("com", -1) >= 0 else name
        k = seq[ev["loc"], key] = seq.get((ev["loc"], key), -1) + 1
        if name == "MPI_Win_fence":
            for (_, target), end in since_fence.pop(ev["loc"], {}).items():
                latest(fence_ops.setdefault((key, k), {}), target, end)
        begin = ev.get("collbegin")
        end = ev.get("collend")
        instances.setdefault((key, k), []).append(dict(
            name=name, loc=ev["loc"], begin=enter["time"] if begin is None else begin,
            end=ev["time"] if end is None else end, root=ev.get("root", -1),
            sizes=ev.get("sent") is not None, sent=ev.get("sent") or 0, recvd=ev.get("recvd") or 0,
            path=path_of(e, enter)))
    members_of = {}
    for (key, _), ms in instances.items():
        members_of.setdefault(key, set()).update(m["loc"] for m in ms)
    for (key, k), ms in instances.items():
        if len(ms) < len(members_of[key]) or len(ms) < 2 or len({m["name"] for m in ms}) > 1:
            continue
        judge(sorted(ms, key=rank_order(e, key)), out, fence_ops.get((key, k), {}))
    return out


def rank_order(e, key):
    """Sort key of an instance's members: rank in the communicator, else location."""
    try:
        ranks = e.ranks(key) if isinstance(key, int) else None
    except EarlError:
        ranks = None
    if not ranks:
        return lambda m: m["loc"]
    rank_of = {loc: r for r, loc in enumerate(ranks)}
    return lambda m: (rank_of.get(m["loc"], len(ranks)), m["loc"])


def closed_window(open_windows, window):
    """The window of the epoch an MPI_Win_complete closes (as rma.py finds the epoch): the
    one its rma_group_sync names, else that of the only open epoch."""
    for w in (window, -1):
        if w in open_windows:
            open_windows.remove(w)
            return window
    if window < 0 and len(open_windows) == 1:
        return open_windows.pop()
    return window


def latest(ends, target, end):
    ends[target] = max(ends.get(target, end), end)


def judge(ms, out, ops_to):
    name, L, E = ms[0]["name"], max(m["begin"] for m in ms), min(m["end"] for m in ms)
    nxn = SYNC.get(name, ("",))[0] == "mpi_wait_nxn"
    if (nxn or name in SCAN) and all(m["sizes"] and m["sent"] == m["recvd"] == 0 for m in ms):
        return
    root = next((m for m in ms if m["loc"] == ms[0]["root"]), None)
    for i, m in enumerate(ms):
        if name in SYNC:
            wait, completion = SYNC[name]
            lc = min(L, m["end"])
            waits = [(wait, lc - m["begin"]), (completion, m["end"] - max(E, lc))]
        elif name in OVERLAP:
            waits = [(OVERLAP[name], L - m["begin"] if E > L else 0)]
            last = ops_to.get(m["loc"])
            if name == "MPI_Win_fence" and E > L > m["begin"] and last is not None and m["begin"] < last <= m["end"]:
                waits.append(("mpi_rma_early_fence", min(last, L) - m["begin"]))
        elif name in ONE_TO_N and root and m is not root and not (root["sizes"] and root["sent"] == 0):
            waits = [("mpi_latebroadcast", min(root["begin"], m["end"]) - m["begin"])]
        elif name in N_TO_ONE and root is m and not (m["sizes"] and m["recvd"] == 0):
            others = max(o["begin"] for o in ms if o is not m)
            waits = [("mpi_earlyreduce", min(others, m["end"]) - m["begin"])]
        elif name in SCAN:
            senders = [o["begin"] for o in ms[:i + 1] if not o["sizes"] or o["sent"] > 0]
            waits = [("mpi_earlyscan", min(max(senders), m["end"]) - m["begin"])] if senders else []
        else:
            waits = []
        for metric, idle in waits:
            if metric and idle > 0:
                add(out, metric, m["loc"], m["path"], idle)


if __name__ == "__main__":
    for metric, cells in find(EventTrace(sys.argv[1]), {}).items():
        for (path, loc), (seconds, n) in sorted(cells.items(), key=lambda c: c[0][1]):
            print(f"{metric} {loc} {path} {seconds:.9f} {n}")
