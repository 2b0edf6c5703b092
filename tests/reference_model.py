"""A small, independent pure-Python reference of EARL's event model for ALOG traces.

Written from ../shared/DESIGN.md (section 1) and docs/api-contract.md (the ALOG mapping), not
from the C++ core.  It loads the whole trace into memory (it is a test oracle, not a tool):

    ref = ReferenceTrace.load(path)
    ref.m, ref.event(pos), ref.stack(loc, pos), ref.queue(src, dest, pos), ref.problems()

Formal model (EARL 2.0):
- events e_1..e_m ordered by time, ties in file order (a stable sort of the event records);
- S_0 is empty; S_i is the state after e_i: one region stack per location (positions of the
  open enters, ascending) and one message queue (positions of unreceived sends, ascending);
- enterptr(e_i) = top of the stack of loc(e_i) in S_{i-1}, 0 if empty;
- an exit pops the top of its location's stack (if any), whatever region it names;
- a recv removes the oldest queued send with send.loc == recv.src, send.dest == recv.loc,
  equal tag and equal com; sendptr is that send's position, 0 if there is none.
Problems: recv without a queued send (unmatched_recv), exit on an empty stack
(exit_on_empty_stack), exit whose region differs from the region of the enter it pops
(mismatched_exit).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

# ALOG record types with a meaning of their own (docs/api-contract.md).
NPROCS, TYPEDEF, ROLLOVER, REGIONDEF, LOCNAME = -3, -9, -11, -13, -15
SEND, RECV = -101, -102
DEFINITIONS = {NPROCS, TYPEDEF, ROLLOVER, REGIONDEF, LOCNAME}

BUILTIN_TYPES = ["enter", "exit", "send", "recv"]
# unresolved_reference (a record naming an undefined rank/region) cannot occur in ALOG,
# whose decoder rejects such lines; it is always 0 here.
PROBLEM_KINDS = ("unmatched_recv", "exit_on_empty_stack", "mismatched_exit",
                 "unresolved_reference", "time_order", "clock_condition")
MAX_FIRST = 10

from time_reference import time_problems  # noqa: E402

_INT = re.compile(r"^[+-]?[0-9]+$")


class AlogError(Exception):
    """Malformed ALOG input; `line` is 1-based."""

    def __init__(self, line: int, what: str):
        super().__init__(f"line {line}: {what}")
        self.line = line
        self.what = what


@dataclass
class Event:
    pos: int
    loc: int
    time: float
    type: str
    enterptr: int = 0
    # enter/exit
    region: Optional[str] = None
    # send/recv
    dest: Optional[int] = None
    src: Optional[int] = None
    tag: Optional[int] = None
    com: Optional[int] = None
    len: Optional[int] = None
    sendptr: Optional[int] = None
    # other types
    data1: object = None
    data2: object = None
    # bookkeeping (not model attributes)
    ticks: int = 0
    line: int = 0

    def attributes(self):
        base = ["pos", "loc", "time", "type", "enterptr"]
        if self.type in ("enter", "exit"):
            return base + ["region"]
        if self.type == "send":
            return base + ["dest", "tag", "com", "len"]
        if self.type == "recv":
            return base + ["src", "tag", "com", "len", "sendptr"]
        return base + ["data1", "data2"]

    def values(self):
        return [getattr(self, a) for a in self.attributes()]

    def as_dict(self):
        return {a: getattr(self, a) for a in self.attributes()}


@dataclass
class _Record:
    """One event record of the file, before ordering."""
    line: int
    kind: str          # "enter" | "exit" | "send" | "recv" | "other"
    loc: int
    ticks: int
    type: str
    region: Optional[str] = None
    peer: Optional[int] = None
    tag: Optional[int] = None
    len: Optional[int] = None
    data1: object = None


def region_name(comment: str) -> str:
    """-13 comment: drop an optional first token containing ':' (colour:pattern)."""
    comment = comment.strip()
    parts = comment.split(None, 1)
    if parts and ":" in parts[0]:
        comment = parts[1].strip() if len(parts) > 1 else ""
    return comment


def _split(line: str):
    """The six integer fields and the comment (rest of the line, stripped)."""
    parts = line.split(None, 6)
    fields, comment = parts[:6], (parts[6].strip() if len(parts) > 6 else "")
    return fields, comment


@dataclass
class ReferenceTrace:
    events: list = field(default_factory=list)        # index 0 unused (None)
    nrlocs: int = 0
    locsyms: dict = field(default_factory=dict)
    regions: list = field(default_factory=list)
    types: list = field(default_factory=list)
    rollover: Optional[int] = None
    overridden_types: list = field(default_factory=list)
    # S_i for i = 0..m: per location stack tuples, and the queue tuple
    stacks_after: list = field(default_factory=list)
    queue_after: list = field(default_factory=list)
    problem_positions: dict = field(default_factory=dict)

    # ------------------------------------------------------------------ parsing
    @classmethod
    def load(cls, path) -> "ReferenceTrace":
        with open(path, "r", encoding="utf-8", newline="") as f:
            return cls.parse(f.read())

    @classmethod
    def parse(cls, text: str) -> "ReferenceTrace":
        t = cls()
        nprocs = None
        typedefs = {}       # number -> name (-9)
        typedef_order = []  # names in definition order
        regiondefs = {}     # number -> ("enter"|"exit", region name)
        records = []
        seen_event = False
        max_loc = -1

        def need_loc(lineno, value, what):
            nonlocal max_loc
            if value < 0:
                raise AlogError(lineno, f"negative {what} {value}")
            if nprocs is not None and value >= nprocs:
                raise AlogError(lineno, f"{what} {value} >= process count {nprocs}")
            max_loc = max(max_loc, value)

        lines = text.split("\n")
        for lineno, line in enumerate(lines, start=1):
            if line.endswith("\r"):
                line = line[:-1]
            if not line.strip():
                continue
            fields, comment = _split(line)
            if len(fields) < 6:
                raise AlogError(lineno, f"{len(fields)} fields, 6 expected")
            for fv in fields:
                if not _INT.match(fv):
                    raise AlogError(lineno, f"field {fv!r} is not an integer")
            rtype, proc, task, data, cycle, stamp = (int(v) for v in fields)

            if rtype in DEFINITIONS:
                if seen_event:
                    raise AlogError(lineno, f"definition record {rtype} after the first event")
                if rtype == NPROCS:
                    nprocs = data
                    if max_loc >= nprocs:
                        raise AlogError(lineno, "process count below a location already seen")
                elif rtype == TYPEDEF:
                    if data < 0:
                        raise AlogError(lineno, "negative type number")
                    if not comment:
                        raise AlogError(lineno, "type without name")
                    typedefs[data] = comment
                    if comment not in typedef_order:
                        typedef_order.append(comment)
                elif rtype == ROLLOVER:
                    t.rollover = stamp
                elif rtype == REGIONDEF:
                    if task < 0 or data < 0:
                        raise AlogError(lineno, "negative type number")
                    name = region_name(comment)
                    if not name:
                        raise AlogError(lineno, "region without name")
                    regiondefs[task] = ("enter", name)
                    regiondefs[data] = ("exit", name)
                    if name not in t.regions:
                        t.regions.append(name)
                elif rtype == LOCNAME:
                    need_loc(lineno, proc, "location")
                    t.locsyms[proc] = comment
                continue
            if rtype < 0 and rtype not in (SEND, RECV):
                continue  # unknown header record: skipped wherever it stands

            # an event record
            seen_event = True
            need_loc(lineno, proc, "process")
            if cycle != 0 and t.rollover is None:
                raise AlogError(lineno, "nonzero cycle without a -11 roll-over record")
            ticks = stamp + cycle * (t.rollover or 0)
            if rtype in (SEND, RECV):
                words = comment.split()
                if len(words) < 2 or not all(_INT.match(w) for w in words[:2]):
                    raise AlogError(lineno, "message record needs 'tag len'")
                need_loc(lineno, data, "dest" if rtype == SEND else "src")
                if int(words[1]) < 0:
                    raise AlogError(lineno, f"negative message length {words[1]}")
                kind = "send" if rtype == SEND else "recv"
                records.append(_Record(lineno, kind, proc, ticks, kind, peer=data,
                                       tag=int(words[0]), len=int(words[1])))
            elif rtype in regiondefs:       # -13 wins over -9
                kind, name = regiondefs[rtype]
                records.append(_Record(lineno, kind, proc, ticks, kind, region=name))
            elif rtype in typedefs:
                records.append(_Record(lineno, "other", proc, ticks, typedefs[rtype],
                                       data1=data))
            else:
                raise AlogError(lineno, f"undefined event type {rtype}")

        # a -9 name whose every number was taken over by -13 defines no type
        live = {typedefs[k] for k in typedefs if k not in regiondefs}
        t.types = BUILTIN_TYPES + [n for n in typedef_order if n in live]
        t.overridden_types = [n for n in typedef_order if n not in live]
        t.nrlocs = max(nprocs or 0, max_loc + 1)
        records.sort(key=lambda r: r.ticks)   # stable: ties keep file order
        t._replay(records)
        return t

    # ------------------------------------------------------------------ the model
    def _replay(self, records):
        n = self.nrlocs
        stacks = [[] for _ in range(n)]
        queue = []
        self.events = [None]
        self.stacks_after = [tuple(() for _ in range(n))]
        self.queue_after = [()]
        self.problem_positions = {k: [] for k in PROBLEM_KINDS}
        for pos, r in enumerate(records, start=1):
            st = stacks[r.loc]
            ev = Event(pos=pos, loc=r.loc, time=r.ticks * 1e-6, type=r.type,
                       enterptr=st[-1] if st else 0, ticks=r.ticks, line=r.line)
            if r.kind == "enter":
                ev.region = r.region
                st.append(pos)
            elif r.kind == "exit":
                ev.region = r.region
                if not st:
                    self.problem_positions["exit_on_empty_stack"].append(pos)
                else:
                    opened = st.pop()
                    if self.events[opened].region != r.region:
                        self.problem_positions["mismatched_exit"].append(pos)
            elif r.kind == "send":
                ev.dest, ev.tag, ev.com, ev.len = r.peer, r.tag, -1, r.len
                queue.append(pos)
            elif r.kind == "recv":
                ev.src, ev.tag, ev.com, ev.len = r.peer, r.tag, -1, r.len
                ev.sendptr = 0
                for q in queue:   # oldest first
                    s = self.events[q]
                    if s.loc == ev.src and s.dest == ev.loc and s.tag == ev.tag and s.com == ev.com:
                        ev.sendptr = q
                        queue.remove(q)
                        break
                else:
                    self.problem_positions["unmatched_recv"].append(pos)
            else:
                ev.data1, ev.data2 = r.data1, None
            self.events.append(ev)
            self.stacks_after.append(tuple(tuple(s) for s in stacks))
            self.queue_after.append(tuple(queue))

    # ------------------------------------------------------------------ queries
    @property
    def m(self) -> int:
        return len(self.events) - 1

    def event(self, pos: int) -> Event:
        if not 1 <= pos <= self.m:
            raise IndexError(pos)
        return self.events[pos]

    def stack(self, loc: int, pos: int) -> list:
        if not 0 <= loc < self.nrlocs or not 0 <= pos <= self.m:
            raise IndexError((loc, pos))
        return list(self.stacks_after[pos][loc])

    def queue(self, src: int, dest: int, pos: int) -> list:
        for x in (src, dest):
            if x != -1 and not 0 <= x < self.nrlocs:
                raise IndexError((src, dest))
        if not 0 <= pos <= self.m:
            raise IndexError(pos)
        return [q for q in self.queue_after[pos]
                if (src == -1 or self.events[q].loc == src)
                and (dest == -1 or self.events[q].dest == dest)]

    def locsym(self, loc: int):
        return self.locsyms.get(loc, loc)

    def problems(self) -> dict:
        found = dict(self.problem_positions)
        found.update(time_problems([None] + [vars(e) for e in self.events[1:]]))
        return {k: {"count": len(found[k]), "first": found[k][:MAX_FIRST]}
                for k in PROBLEM_KINDS}


# ---------------------------------------------------------------------- self-checks
def check_invariants(ref: ReferenceTrace) -> None:
    """Consistency properties of the formal model (used by the reference's self-tests)."""
    m = ref.m
    prev_ticks = None
    for pos in range(1, m + 1):
        ev = ref.events[pos]
        assert ev.pos == pos
        if prev_ticks is not None:
            assert ev.ticks >= prev_ticks
        prev_ticks = ev.ticks
        before = ref.stacks_after[pos - 1][ev.loc]
        assert ev.enterptr == (before[-1] if before else 0)
        if ev.enterptr:
            e = ref.events[ev.enterptr]
            assert e.type == "enter" and e.loc == ev.loc and e.pos < pos
        # only the event's own location's stack changes
        for loc in range(ref.nrlocs):
            if loc != ev.loc:
                assert ref.stacks_after[pos][loc] == ref.stacks_after[pos - 1][loc]
        after = ref.stacks_after[pos][ev.loc]
        if ev.type == "enter":
            assert after == before + (pos,)
        elif ev.type == "exit":
            assert after == before[:-1]
        else:
            assert after == before
        qb, qa = ref.queue_after[pos - 1], ref.queue_after[pos]
        assert list(qa) == sorted(qa)
        if ev.type == "send":
            assert qa == qb + (pos,)
        elif ev.type == "recv":
            if ev.sendptr:
                s = ref.events[ev.sendptr]
                assert s.type == "send" and s.loc == ev.src and s.dest == ev.loc
                assert s.tag == ev.tag and s.com == ev.com and ev.sendptr in qb
                # non-overtaking: no older matching send was still queued
                for q in qb:
                    if q == ev.sendptr:
                        break
                    o = ref.events[q]
                    assert not (o.loc == ev.src and o.dest == ev.loc and o.tag == ev.tag)
                assert qa == tuple(q for q in qb if q != ev.sendptr)
            else:
                assert qa == qb
        else:
            assert qa == qb
