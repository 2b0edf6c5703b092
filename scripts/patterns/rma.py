#!/usr/bin/env python3
"""One-sided wait states of RMA epochs and locks (Scalasca 2.6's MPI_RMA patterns).

Active-target epochs (MPI_Win_post/start/complete/wait) and passive-target locks, from
OTF2's records.

Epochs: an MPI_Win_start (origin) or MPI_Win_post (target) opens an epoch on the window
its rma_group_sync names, the next MPI_Win_complete or MPI_Win_wait on that window closes
it; the group of either call (e.members) lists its peers. The k-th epoch of an origin
towards a target meets the k-th epoch of that target from that origin (per window).
An MPI_Put/Get (put_1ts, get_1to) ends when the call issuing it leaves.
  Early Wait, at MPI_Win_wait:   C = the latest MPI_Win_complete enter of its origins:
                                 min(C, leave) - enter
  Late Complete (part of it):    min(C, leave) - max(end of the origins' last operation
                                 to this target in the epoch, enter)
  Late Post, at the origin:      P = the latest MPI_Win_post enter of its targets; P inside
                                 MPI_Win_complete or else MPI_Win_start: P - its enter
                                 (synchronisation); else P inside an MPI_Put/Get of the
                                 epoch: P - its operation's record (communication)
Locks: a wlock that acquired a window's lock (request 0) holds it until the wunlock of
the same window and target. In acquisition order per (window, target), an epoch waited
from the enter of the call taking the lock until the latest release of the epochs
acquired before it that exclude it (every one for an exclusive lock, the exclusive ones
for a shared lock): min(that release, acquired) - that enter, counted as
synchronisation in MPI_Win_* calls, as communication in MPI_Put/Get and kin (a lock
taken lazily), not at all elsewhere.

    python scripts/patterns/rma.py TRACE
"""
import sys

from earl import EarlError, EventTrace
from late_sender import add, path_of

ACCESS = {"MPI_Win_start": "open", "MPI_Win_complete": "close"}
EXPOSURE = {"MPI_Win_post": "open", "MPI_Win_wait": "close"}
RMA_OPS = {"put_1ts", "get_1to"}
RMA_CALLS = {"MPI_" + f for f in ("Put", "Get", "Accumulate", "Get_accumulate", "Fetch_and_op",
                                  "Compare_and_swap", "Rput", "Rget", "Raccumulate", "Rget_accumulate")}
WIN_MANAGEMENT = {"MPI_Win_create", "MPI_Win_allocate", "MPI_Win_allocate_shared",
                  "MPI_Win_create_dynamic", "MPI_Win_free"}
NONE = float("-inf")


def find(e, out):
    synced, issued = {}, {}  # enter position of a call -> (window, group) it synchronises; its operations
    state = {}               # location -> open epochs, epochs so far, last operation ends, locks held
    accesses, exposures, locks = [], [], []
    for ev in e:
        here = state.setdefault(ev["loc"], dict(open={True: {}, False: {}}, seq={}, last_op={}, held={}))
        kind, at = ev["type"], ev["enterptr"]
        if kind == "rma_group_sync" and at:
            synced[at] = (ev["data2"], ev["group"])
        elif kind in RMA_OPS:
            op = dict(window=ev["win"], target=ev["peer"], issued=ev["time"])
            if at:
                issued.setdefault(at, []).append(op)
            else:
                op_ended(here, op, ev["time"], None)
        elif kind == "wlock" and ev.get("request") == 0:
            call = e.event(at) if at else None
            here["held"][ev["win"], ev["peer"]] = dict(
                window=ev["win"], target=ev["peer"], exclusive=ev["exclusive"], loc=ev["loc"],
                requested=call["time"] if call else ev["time"], acquired=ev["time"],
                region=call and call["region"], path=call and path_of(e, call))
        elif kind == "wunlock" and (ev["win"], ev["peer"]) in here["held"]:
            lock = here["held"].pop((ev["win"], ev["peer"]))
            lock["released"] = ev["time"]
            locks.append(lock)
        elif kind == "exit" and at:
            enter = e.event(at)
            call = dict(enter=enter["time"], leave=ev["time"], loc=ev["loc"], path=path_of(e, enter))
            for op in issued.pop(at, ()):
                op_ended(here, op, ev["time"], call["path"])
            window, group = synced.pop(at, (-1, -1))
            role = ACCESS.get(enter["region"]) or EXPOSURE.get(enter["region"])
            if role:
                epoch(e, here, enter["region"] in ACCESS, role, call, window, group,
                      accesses if enter["region"] in ACCESS else exposures)
    active_target(accesses, exposures, out)
    lock_competition(locks, out)
    return out


def op_ended(here, op, end, path):
    """The operation joins the access epoch open on its window, and is the last to its target."""
    opened = here["open"][True]
    epoch_ = opened.get(op["window"], opened.get(-1))
    if epoch_:
        epoch_["ops"].append(dict(issued=op["issued"], leave=end, path=path))
    if op["target"] >= 0:
        key = op["window"], op["target"]
        here["last_op"][key] = max(here["last_op"].get(key, end), end)


def epoch(e, here, access, role, call, window, group, closed):
    opened = here["open"][access]
    if role == "open":
        opened[window] = dict(call=call, window=window, group=group, ops=[])
        return
    # the epoch open on this window, else on a window no record named, else the only one
    found = next((opened.pop(w) for w in (window, -1) if w in opened), None)
    if found is None and window < 0 and len(opened) == 1:
        found = opened.popitem()[1]
    found = found or dict(call=None, window=-1, group=-1, ops=[])
    group = group if group >= 0 else found["group"]
    window = window if window >= 0 else found["window"]
    if group < 0 or window < 0:
        return
    since = found["call"]["enter"] if found["call"] else NONE
    peers = []
    for peer in members(e, group):
        if peer < 0:
            continue
        last = here["last_op"].get((window, peer), NONE) if access else NONE
        n = here["seq"][access, window, peer] = here["seq"].get((access, window, peer), -1) + 1
        peers.append((peer, n, last if last >= since else NONE))
    closed.append(dict(loc=call["loc"], window=window, open=found["call"], close=call, peers=peers,
                       ops=found["ops"]))


def members(e, group):
    try:
        return e.members(group)
    except EarlError:  # a group the trace does not define: no peers
        return []


def active_target(accesses, exposures, out):
    access_of = {(a["loc"], t, a["window"], n): (a, last) for a in accesses for t, n, last in a["peers"]}
    exposure_of = {(o, x["loc"], x["window"], n): x for x in exposures for o, n, _ in x["peers"]}
    for x in exposures:
        found = [access_of[k] for k in ((o, x["loc"], x["window"], n) for o, n, _ in x["peers"])
                 if k in access_of]
        if not found:
            continue
        wait = x["close"]
        until = min(max(a["close"]["enter"] for a, _ in found), wait["leave"])
        last = max(last for _, last in found)
        if until - wait["enter"] > 0:
            add(out, "mpi_rma_early_wait", wait["loc"], wait["path"], until - wait["enter"])
            if last > NONE and until - max(last, wait["enter"]) > 0:
                add(out, "mpi_rma_late_complete", wait["loc"], wait["path"], until - max(last, wait["enter"]))
    for a in accesses:
        posts = [exposure_of[k]["open"] for k in ((a["loc"], t, a["window"], n) for t, n, _ in a["peers"])
                 if k in exposure_of]
        p = max((post["enter"] if post else NONE for post in posts), default=NONE)
        if p == NONE:
            continue
        start, complete = a["open"], a["close"]
        if complete["enter"] < p < complete["leave"]:
            add(out, "mpi_rma_sync_late_post", a["loc"], complete["path"], p - complete["enter"])
        elif start and start["enter"] < p < start["leave"]:
            add(out, "mpi_rma_sync_late_post", a["loc"], start["path"], p - start["enter"])
        else:
            for op in a["ops"]:
                if op["issued"] < p < op["leave"]:
                    add(out, "mpi_rma_comm_late_post", a["loc"], op["path"], p - op["issued"])


def lock_competition(locks, out):
    released = {}  # (window, target) -> latest release of any epoch so far, of an exclusive one
    for lock in sorted(locks, key=lambda l: (l["window"], l["target"], l["acquired"], l["loc"])):
        before = released.setdefault((lock["window"], lock["target"]), [NONE, NONE])
        blocker = before[0] if lock["exclusive"] else before[1]
        idle = min(blocker, lock["acquired"]) - lock["requested"]
        region = lock["region"] or ""
        metric = ("mpi_rma_comm_lock_competition" if region in RMA_CALLS else
                  "mpi_rma_sync_lock_competition" if region.startswith("MPI_Win_") and region not in WIN_MANAGEMENT
                  else None)
        if metric and blocker > NONE and idle > 0:
            add(out, metric, lock["loc"], lock["path"], idle)
        before[0] = max(before[0], lock["released"])
        if lock["exclusive"]:
            before[1] = max(before[1], lock["released"])


if __name__ == "__main__":
    for metric, cells in find(EventTrace(sys.argv[1]), {}).items():
        for (path, loc), (seconds, n) in sorted(cells.items(), key=lambda c: c[0][1]):
            print(f"{metric} {loc} {path} {seconds:.9f} {n}")
