"""A second, deliberately plain implementation of the time checks behind problems()
`time_order` and `clock_condition` (cpp/access/time_checks.h), for the reference models
(tests/reference_model.py, tests/otf2_reference.py) and the tests of tests/test_time_checks.py.

`events` is a list indexed by position (index 0 unused) of dicts with pos, loc, time, type
and, as the event has them, enterptr, src/dest, tag, com, root (collective exits).
`declared_end`: the end of the span the trace declares (OTF2: trace length / resolution),
0 for none; the span starts at 0.
"""
from collections import defaultdict


def time_problems(events, declared_end=0.0):
    time_order, clock_condition = [], set()
    latest = {}
    span = declared_end
    for ev in events[1:]:
        t, loc = ev["time"], ev["loc"]
        outside = span > 0 and (t < -span or t > declared_end + span)
        if outside or (loc in latest and t < latest[loc]):
            time_order.append(ev["pos"])
        if not outside:
            latest[loc] = max(latest.get(loc, t), t)

    # Messages: on each channel the k-th receive belongs to the k-th send.
    sends, recvs = defaultdict(list), defaultdict(list)
    for ev in events[1:]:
        if ev["type"] == "send":
            sends[(ev["loc"], ev["dest"], ev["tag"], ev["com"])].append(ev)
        elif ev["type"] == "recv":
            recvs[(ev["src"], ev["loc"], ev["tag"], ev["com"])].append(ev)
    for channel, received in recvs.items():
        for send, recv in zip(sends[channel], received):
            if recv["time"] < send["time"]:
                clock_condition.add(recv["pos"])

    # N-to-N collectives (root -1): the k-th collective exit on a communicator at each
    # location forms instance k; an exit earlier than the instance's latest enter violates.
    instances = defaultdict(list)
    seen = defaultdict(int)
    for ev in events[1:]:
        collective = ev.get("com") is not None and "root" in ev   # collective exits only
        if ev["type"] == "exit" and collective and ev["root"] == -1 and ev["enterptr"]:
            key = (ev["com"], ev["loc"])
            instances[(ev["com"], seen[key])].append(ev)
            seen[key] += 1
    for members in instances.values():
        latest_enter = max(events[m["enterptr"]]["time"] for m in members)
        clock_condition.update(m["pos"] for m in members if m["time"] < latest_enter)
    return {"time_order": time_order, "clock_condition": sorted(clock_condition)}
