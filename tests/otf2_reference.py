"""The independent expectation for EARL's OTF2 decoder: an archive read with the official
PyPI `otf2` reader and mapped onto EARL events by the rules of docs/api-contract.md
("OTF2") and the formal model of ../shared/DESIGN.md section 1, in pure Python.

    ref = Otf2Reference.load(anchor)
    ref.m, ref.event(pos) (attribute -> value, model order), ref.stack(loc, pos),
    ref.queue(src, dest, pos), ref.problems(), ref.regions, ref.groups, ref.locsyms, ...

Mapping, as the contract states it:
- locations: the Location definitions in definition order (not by OTF2 id); locsym =
  "<location group name> / <location name>";
- time = (timestamp - global offset) / timer resolution;
- global order: a k-way merge of the per-location streams by timestamp, equal timestamps by
  location number, then stream order (a merge, not a sort: a stream keeps its own order);
- Enter/Leave -> enter/exit; MpiSend/MpiIsend -> send and MpiRecv/MpiIrecv -> recv with
  the peer rank translated through the communicator's group into a location number, com =
  the communicator's id; MpiCollectiveBegin/End make no event: the next Leave on the same
  location becomes an exit with com, root (location, -1 none), sent, recvd, collbegin and
  collend (the MpiCollectiveBegin/End times in seconds; collbegin None without a begin);
  ThreadFork/ThreadJoin -> fork/join (forkptr); ThreadAcquireLock/ReleaseLock -> alock/rlock
  (lockid, lockptr); the OTF2 1.x records OmpFork/OmpJoin/OmpAcquireLock/OmpReleaseLock
  likewise (OTF2 declares them superseded by the Thread* records, and libotf2 hands them
  to a reader as those when it registers no Omp* callback; the contract's "every other
  record" does not reach them); RmaPut/RmaGet -> put_1ts/get_1to (win, rmaid, peer, len),
  RmaOpComplete{Blocking,NonBlocking,Remote} -> put_1te/get_1te (startptr);
  RmaAcquireLock/RmaRequestLock/RmaReleaseLock -> wlock/wunlock (win, peer, exclusive: 1
  for an exclusive lock, 0 shared; request: 1 for RmaRequestLock, 0 for RmaAcquireLock;
  both None on wunlock); RmaGroupSync -> rma_group_sync (data1 = sync level, data2 =
  window, group = the group's id);
- Metric -> one metric event per member: metric = the member's name, value = its value;
- every other record: its name in lower snake case with data1/data2. data1/data2 that the
  contract leaves open are `ANY`.
State and pointers (formal model): enterptr = top of the location's region stack before
the event; an exit pops whatever is on top; sendptr = the oldest unreceived send with the
same source, destination, tag and com; forkptr = the innermost open (not yet joined) fork
of the location, which the join closes; lockptr = the previous alock/rlock of the same
lock id on any location; startptr = the open put/get of the same (location, window,
matching id), which the completion closes.
"""
from __future__ import annotations

import bisect
import heapq
import re
from collections import Counter
from dataclasses import dataclass, field

import otf2
from otf2.enums import LockType

from time_reference import time_problems

# unresolved_reference: see test_record_referring_to_nothing; the written archives the
# reference reads have none, so it stays 0 here.
PROBLEM_KINDS = ("unmatched_recv", "exit_on_empty_stack", "mismatched_exit",
                 "unresolved_reference", "time_order", "clock_condition")
MAX_FIRST = 10
BUILTIN_TYPES = ["enter", "exit", "send", "recv"]
UNDEF_UINT32 = otf2.Undefined.UINT32.value


class _Any:
    """A value the contract leaves open: equal to anything."""

    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    def __hash__(self):
        return 0

    def __repr__(self):
        return "<any>"


ANY = _Any()


def snake(name: str) -> str:
    """OTF2 record name -> EARL type: MpiIsendComplete -> mpi_isend_complete."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


def enum_name(value) -> str:
    """Paradigm.MPI -> "MPI" (the PyPI enums print as Class.NAME)."""
    return str(value).rsplit(".", 1)[-1]


@dataclass
class Otf2Reference:
    anchor: str = ""
    resolution: int = 1
    trace_length: int = 0
    offset: int = 0
    loc_ids: list = field(default_factory=list)        # OTF2 id of location number i
    locsyms: list = field(default_factory=list)
    regions: list = field(default_factory=list)
    region_group: dict = field(default_factory=dict)
    groups: list = field(default_factory=list)
    record_counts: Counter = field(default_factory=Counter)   # official record class names
    records_per_location: list = field(default_factory=list)  # [(ts, record), ...] per loc
    events: list = field(default_factory=lambda: [None])      # 1-based
    ticks: list = field(default_factory=lambda: [None])       # raw timestamps
    # state: the stack of an event's own location after it, the positions of each
    # location's events, the sends and the position of the receive that took each one
    own_stack: list = field(default_factory=lambda: [None])
    loc_positions: list = field(default_factory=list)
    sends: list = field(default_factory=list)
    received_at: dict = field(default_factory=dict)
    problem_positions: dict = field(default_factory=dict)

    @property
    def m(self):
        return len(self.events) - 1

    @property
    def nrlocs(self):
        return len(self.loc_ids)

    # ------------------------------------------------------------------ loading
    @classmethod
    def load(cls, anchor) -> "Otf2Reference":
        ref = cls(anchor=str(anchor))
        with otf2.reader.open(str(anchor)) as trace:
            defs = trace.definitions
            ref.resolution = defs.clock_properties.timer_resolution
            ref.offset = defs.clock_properties.global_offset
            ref.trace_length = defs.clock_properties.trace_length
            locations = list(defs.locations)
            ref.loc_ids = [loc._ref for loc in locations]
            ref.locsyms = [f"{loc.group.name} / {loc.name}" for loc in locations]
            for region in defs.regions:
                if region.name not in ref.region_group:
                    ref.regions.append(region.name)
                    group = enum_name(region.paradigm)
                    ref.region_group[region.name] = group
                    if group not in ref.groups:
                        ref.groups.append(group)
            number = {loc._ref: i for i, loc in enumerate(locations)}
            streams = [[] for _ in locations]
            for location, record in trace.events:
                ref.record_counts[type(record).__name__] += 1
                streams[number[location._ref]].append((record.time, record))
        ref.records_per_location = streams
        ref._map(streams, number)
        return ref

    # ------------------------------------------------------------------ mapping
    def seconds(self, ticks):
        return (ticks - self.offset) / self.resolution

    def _map(self, streams, number):
        def loc_of(comm, rank):
            return number[comm.location(rank)._ref]

        protos = []       # per location: [(ts, dict of mapped attributes)]
        for loc, stream in enumerate(streams):
            out = []
            collective = None
            begin = None          # the last MpiCollectiveBegin not yet taken by an exit
            for ts, r in stream:
                name = type(r).__name__
                if name == "Enter":
                    out.append((ts, {"type": "enter", "region": r.region.name}))
                elif name == "Leave":
                    ev = {"type": "exit", "region": r.region.name}
                    if collective is not None:
                        ev.update(collective)
                        ev["collbegin"] = None if begin is None else self.seconds(begin)
                        ev["collend"] = self.seconds(collective_end)
                        collective = begin = None
                    out.append((ts, ev))
                elif name in ("MpiSend", "MpiIsend"):
                    out.append((ts, {"type": "send", "dest": loc_of(r.communicator, r.receiver),
                                     "tag": r.msg_tag, "com": r.communicator._ref,
                                     "len": r.msg_length}))
                elif name in ("MpiRecv", "MpiIrecv"):
                    out.append((ts, {"type": "recv", "src": loc_of(r.communicator, r.sender),
                                     "tag": r.msg_tag, "com": r.communicator._ref,
                                     "len": r.msg_length}))
                elif name == "MpiCollectiveBegin":
                    begin = ts
                elif name == "MpiCollectiveEnd":
                    root = -1 if r.root == UNDEF_UINT32 else loc_of(r.communicator, r.root)
                    collective = {"com": r.communicator._ref, "root": root,
                                  "sent": r.size_sent, "recvd": r.size_received}
                    collective_end = ts
                elif name in ("ThreadFork", "OmpFork"):
                    out.append((ts, {"type": "fork"}))
                elif name in ("ThreadJoin", "OmpJoin"):
                    out.append((ts, {"type": "join"}))
                elif name in ("ThreadAcquireLock", "ThreadReleaseLock", "OmpAcquireLock",
                              "OmpReleaseLock"):
                    out.append((ts, {"type": "alock" if "Acquire" in name else "rlock",
                                     "lockid": r.lock_id}))
                elif name in ("RmaPut", "RmaGet"):
                    out.append((ts, {"type": "put_1ts" if name == "RmaPut" else "get_1to",
                                     "win": r.win._ref, "rmaid": r.matching_id,
                                     "peer": loc_of(r.win.comm, r.remote), "len": r.bytes}))
                elif name in ("RmaOpCompleteBlocking", "RmaOpCompleteNonBlocking",
                              "RmaOpCompleteRemote"):
                    out.append((ts, {"type": "rma_complete", "win": r.win._ref,
                                     "rmaid": r.matching_id}))
                elif name in ("RmaAcquireLock", "RmaRequestLock", "RmaReleaseLock"):
                    release = name == "RmaReleaseLock"
                    out.append((ts, {"type": "wunlock" if release else "wlock",
                                     "win": r.win._ref, "peer": loc_of(r.win.comm, r.remote),
                                     "exclusive": None if release else
                                     int(r.lock_type == LockType.EXCLUSIVE),
                                     "request": None if release else int(name == "RmaRequestLock")}))
                elif name == "RmaGroupSync":
                    out.append((ts, {"type": "rma_group_sync", "data1": r.sync_level.value,
                                     "data2": r.win._ref, "group": r.group._ref}))
                elif name == "Metric":
                    for member, value in zip(r.metric.members, r.values):
                        out.append((ts, {"type": "metric", "metric": member.name,
                                         "value": value}))
                else:
                    d1, d2 = self._data(name, r)
                    out.append((ts, {"type": snake(name), "data1": d1, "data2": d2}))
            protos.append(out)
        self._merge_and_run(protos)

    def _data(self, name, r):
        if name == "ProgramBegin":
            return r.program_name, len(r.program_arguments)
        if name == "ProgramEnd":
            return r.exit_status, None
        if name == "ParameterString":
            return r.parameter.name, r.string
        if name in ("ParameterInt", "ParameterUnsignedInt"):
            return r.parameter.name, r.value
        if name in ("MpiIsendComplete", "MpiIrecvRequest", "MpiRequestTest",
                    "MpiRequestCancelled"):
            return r.request_id, None
        if name == "BufferFlush":
            return self.seconds(r.stop_time), None
        if name == "MeasurementOnOff":
            return enum_name(r.measurement_mode).lower(), None
        return ANY, ANY

    def _merge_and_run(self, protos):
        heads = [(p[0][0], loc, 0) for loc, p in enumerate(protos) if p]
        heapq.heapify(heads)
        n = len(protos)
        stacks = [[] for _ in range(n)]
        queue = []                      # positions, ascending
        forks = [[] for _ in range(n)]
        last_lock = {}
        open_rma = []                   # [(key, pos)] oldest first
        self.problem_positions = {k: [] for k in PROBLEM_KINDS}
        self.loc_positions = [[] for _ in range(n)]
        while heads:
            ts, loc, i = heapq.heappop(heads)
            if i + 1 < len(protos[loc]):
                heapq.heappush(heads, (protos[loc][i + 1][0], loc, i + 1))
            proto = dict(protos[loc][i][1])
            pos = len(self.events)
            stack = stacks[loc]
            ev = {"pos": pos, "loc": loc, "time": self.seconds(ts), "type": proto.pop("type"),
                  "enterptr": stack[-1] if stack else 0}
            kind = ev["type"]
            if kind == "enter":
                ev.update(proto)
                stack.append(pos)
            elif kind == "exit":
                ev["region"] = proto.pop("region")
                ev.update(proto)          # com, root, sent, recvd, collbegin, collend
                if stack:
                    opened = stack.pop()
                    if self.events[opened]["region"] != ev["region"]:
                        self.problem_positions["mismatched_exit"].append(pos)
                else:
                    self.problem_positions["exit_on_empty_stack"].append(pos)
            elif kind == "send":
                ev.update(proto)
                queue.append(pos)
                self.sends.append(pos)
            elif kind == "recv":
                ev.update(proto)
                ev["sendptr"] = 0
                for q in queue:
                    s = self.events[q]
                    if (s["loc"], s["dest"], s["tag"], s["com"]) == \
                            (ev["src"], loc, ev["tag"], ev["com"]):
                        ev["sendptr"] = q
                        queue.remove(q)
                        self.received_at[q] = pos
                        break
                else:
                    self.problem_positions["unmatched_recv"].append(pos)
            elif kind == "fork":
                forks[loc].append(pos)
            elif kind == "join":
                ev["forkptr"] = forks[loc].pop() if forks[loc] else 0
            elif kind in ("alock", "rlock"):
                ev["lockid"] = proto["lockid"]
                ev["lockptr"] = last_lock.get(proto["lockid"], 0)
                last_lock[proto["lockid"]] = pos
            elif kind in ("put_1ts", "get_1to"):
                ev.update(proto)
                open_rma.append(((loc, proto["win"], proto["rmaid"]), pos))
            elif kind == "rma_complete":
                key = (loc, proto["win"], proto["rmaid"])
                match = next((x for x in open_rma if x[0] == key), None)
                if match is None:
                    raise ValueError(f"reference: RMA completion without an open put/get at "
                                     f"location {loc}, time {ts} (unspecified by the contract)")
                open_rma.remove(match)
                start = self.events[match[1]]
                ev["type"] = "put_1te" if start["type"] == "put_1ts" else "get_1te"
                for a in ("win", "rmaid", "peer", "len"):
                    ev[a] = start[a]
                ev["startptr"] = match[1]
            elif kind in ("wlock", "wunlock", "rma_group_sync", "metric"):
                ev.update(proto)
            else:
                ev["data1"], ev["data2"] = proto["data1"], proto["data2"]
            self.events.append(ev)
            self.ticks.append(ts)
            self.own_stack.append(tuple(stack))
            self.loc_positions[loc].append(pos)

    # ------------------------------------------------------------------ queries
    def event(self, pos):
        return self.events[pos]

    def stack(self, loc, pos):
        """Positions of the open enters on loc after event pos (the stack after the last
        event of loc at or before pos)."""
        mine = self.loc_positions[loc]
        i = bisect.bisect_right(mine, pos)
        return list(self.own_stack[mine[i - 1]]) if i else []

    def queue(self, src, dest, pos):
        """Sends at or before pos not received at or before pos, ascending."""
        out = []
        for p in self.sends[:bisect.bisect_right(self.sends, pos)]:
            if self.received_at.get(p, pos + 1) <= pos:
                continue
            e = self.events[p]
            if (src == -1 or e["loc"] == src) and (dest == -1 or e["dest"] == dest):
                out.append(p)
        return out

    def problems(self):
        found = dict(self.problem_positions)
        found.update(time_problems(self.events, self.trace_length / self.resolution))
        return {k: {"count": len(found[k]), "first": found[k][:MAX_FIRST]}
                for k in PROBLEM_KINDS}

    def type_counts(self):
        return Counter(e["type"] for e in self.events[1:])

    def types_present(self):
        seen = []
        for e in self.events[1:]:
            if e["type"] not in seen:
                seen.append(e["type"])
        return seen


def inclusive_time_from_records(ref: Otf2Reference, region: str):
    """Per location number, the summed inclusive time (seconds) of `region`, straight from
    the official reader's Enter/Leave records (a stack of Enter timestamps per location)."""
    out = []
    for stream in ref.records_per_location:
        total, stack = 0, []
        for ts, r in stream:
            name = type(r).__name__
            if name == "Enter":
                stack.append((r.region.name, ts))
            elif name == "Leave" and stack:
                entered, t0 = stack.pop()
                if entered == region:
                    total += ts - t0
        out.append(total / ref.resolution)
    return out


def fifo_message_pairs(ref: Otf2Reference):
    """(send index, recv index) pairs in the official records, matched FIFO per (sender
    location, receiver location, tag, communicator) in timestamp order (ties: location
    number), independently of the EARL event numbering: indexes are (location, stream
    index). Used to cross-check sendptr on traces without clock-condition violations."""
    recs = []
    for loc, stream in enumerate(ref.records_per_location):
        for i, (ts, r) in enumerate(stream):
            recs.append((ts, loc, i, r))
    recs.sort(key=lambda x: (x[0], x[1], x[2]))
    number = {lid: n for n, lid in enumerate(ref.loc_ids)}
    open_sends = {}
    pairs = []
    for ts, loc, i, r in recs:
        name = type(r).__name__
        if name in ("MpiSend", "MpiIsend"):
            key = (loc, number[r.communicator.location(r.receiver)._ref], r.msg_tag,
                   r.communicator._ref)
            open_sends.setdefault(key, []).append((loc, i))
        elif name in ("MpiRecv", "MpiIrecv"):
            key = (number[r.communicator.location(r.sender)._ref], loc, r.msg_tag,
                   r.communicator._ref)
            if open_sends.get(key):
                pairs.append((open_sends[key].pop(0), (loc, i)))
    return pairs


# ======================================================================================
# comparison helpers shared by the OTF2 tests (no earl import: the error class is passed)
def check_event(got, want, ctx=""):
    """EARL's event dict against the reference's: same keys in model order, equal values of
    the same Python type (time: the exact double; ANY: any int, float, str or None)."""
    assert isinstance(got, dict), f"{ctx}: {got!r} is not a dict"
    assert list(got) == list(want), f"{ctx}: attributes {list(got)} != {list(want)}"
    for k, v in want.items():
        g = got[k]
        if v is ANY:
            assert g is None or type(g) in (int, float, str), f"{ctx}: {k} = {g!r}"
            continue
        assert g == v and type(g) is type(v), \
            f"{ctx}: {k} = {g!r} ({type(g).__name__}), expected {v!r} ({type(v).__name__})"


def check_static(tr, ref, ctx=""):
    """Everything that does not depend on a position."""
    assert len(tr) == ref.m, f"{ctx}: len {len(tr)} != {ref.m}"
    assert tr.format() == "otf2", ctx
    assert tr.nrlocs() == ref.nrlocs, ctx
    assert [tr.locsym(loc) for loc in range(ref.nrlocs)] == ref.locsyms, ctx
    assert tr.regions() == ref.regions, ctx
    assert tr.groups() == ref.groups, ctx
    for region in ref.regions:
        assert tr.group(region) == ref.region_group[region], f"{ctx}: group({region!r})"
    types = tr.types()
    assert types[:4] == BUILTIN_TYPES, f"{ctx}: types {types}"
    assert len(set(types)) == len(types), f"{ctx}: duplicate types {types}"
    # the trace's own types follow in order of first appearance in the merged stream
    want = BUILTIN_TYPES + [t for t in ref.types_present() if t not in BUILTIN_TYPES]
    assert types == want, f"{ctx}: types() {types} != {want}"
    assert tr.problems() == ref.problems(), ctx


def check_position(tr, ref, pos, locs=None, ctx=""):
    """event(pos) with attributes()/values(), stack(loc, pos) for locs (all by default) and
    queue(-1, -1, pos) and the per-location queues."""
    n = ref.nrlocs
    if pos:
        want = ref.event(pos)
        check_event(tr.event(pos), want, f"{ctx} event({pos})")
        assert tr.attributes(pos) == list(want), f"{ctx} attributes({pos})"
        check_event(dict(zip(want, tr.values(pos))), want, f"{ctx} values({pos})")
    for loc in (range(n) if locs is None else locs):
        assert tr.stack(loc, pos) == ref.stack(loc, pos), \
            f"{ctx} stack({loc}, {pos}): {tr.stack(loc, pos)} != {ref.stack(loc, pos)}"
    assert tr.queue(-1, -1, pos) == ref.queue(-1, -1, pos), f"{ctx} queue(-1, -1, {pos})"
    for loc in (range(n) if locs is None else locs):
        assert tr.queue(loc, -1, pos) == ref.queue(loc, -1, pos), \
            f"{ctx} queue({loc}, -1, {pos})"
        assert tr.queue(-1, loc, pos) == ref.queue(-1, loc, pos), \
            f"{ctx} queue(-1, {loc}, {pos})"


def random_walk(tr, ref, rnd, n_ops, error_cls, ctx="", cur=None):
    """A random plan of iterator moves (next/prev walks, jumps, reset) and explicit
    positions in random order, each checked against the reference; the iterator never moves
    on explicit positions. `cur` is the iterator's position (None: reset it first); returns
    the position it is left at."""
    m, n = ref.m, ref.nrlocs
    if cur is None:
        tr.reset()
        cur = 0

    def at_iterator():
        if cur == 0:
            assert tr.stack(rnd.randrange(n)) == [] and tr.queue(-1, -1) == [], \
                f"{ctx}: state at iterator 0 is not empty"
            try:
                tr.event()
            except error_cls:
                return
            raise AssertionError(f"{ctx}: event() at iterator 0 did not raise")
        check_event(tr.event(), ref.event(cur), f"{ctx} event() at iterator {cur}")

    for _ in range(n_ops):
        k = rnd.randrange(100)
        if k < 20:
            for _ in range(rnd.randint(1, 12)):
                want = cur + 1 if cur < m else 0
                got = tr.next()
                assert got == want, f"{ctx}: next() from {cur} = {got}, expected {want}"
                cur = want or cur
                at_iterator()
        elif k < 35:
            for _ in range(rnd.randint(1, 12)):
                want = cur - 1 if cur > 1 else 0
                got = tr.prev()
                assert got == want, f"{ctx}: prev() from {cur} = {got}, expected {want}"
                cur = want or cur
                at_iterator()
        elif k < 45:
            p = rnd.choice([rnd.randint(1, max(m, 1)), 1, m, 0, m + 1, -1])
            want = p if 1 <= p <= m else 0
            got = tr.jump(p)
            assert got == want, f"{ctx}: jump({p}) = {got}, expected {want}"
            cur = want or cur
            at_iterator()
        elif k < 50:
            assert tr.reset() is None
            cur = 0
            at_iterator()
        elif k < 80:
            p = rnd.randint(1, m) if m else 0
            if p:
                check_event(tr.event(p), ref.event(p), f"{ctx} event({p})")
        elif k < 92:
            p = rnd.randint(0, m)
            loc = rnd.randrange(n)
            assert tr.stack(loc, p) == ref.stack(loc, p), f"{ctx} stack({loc}, {p})"
            if cur:
                assert tr.stack(loc) == ref.stack(loc, cur), f"{ctx} stack({loc}) at {cur}"
        else:
            p = rnd.randint(0, m)
            s, d = rnd.randrange(-1, n), rnd.randrange(-1, n)
            assert tr.queue(s, d, p) == ref.queue(s, d, p), f"{ctx} queue({s}, {d}, {p})"
        at_iterator()
    return cur
