"""Helpers to write ALOG files and to generate random valid-but-imperfect ALOG traces.

The same generator runs on two sources of randomness:
- `random_alog(seed, ...)`: a seeded `random.Random` (large traces, reproducible by seed);
- `alog_traces(...)`: a hypothesis strategy (small traces that shrink well).

Generated traces are valid ALOG per docs/api-contract.md but imperfect as real traces are:
several locations, nested regions whose names contain spaces and colour:pattern prefixes,
trace-defined (-9) types (sometimes overridden by -13), sends and receives with a few tags
(out-of-order matching across tags, unmatched receives, receives before their sends), exits
on empty stacks, mismatched exits, equal timestamps, clock roll-over cycles (-11), unsorted
event lines, unknown header records anywhere, blank lines, tabs, no final newline.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import strategies as st


def open_trace(cls, *args, **kw):
    """cls(*args, **kw), re-raising an EarlError without the traceback into the constructor:
    pytest prints the arguments of every frame, and repr() of the half-built trace object
    in EventTrace.__init__ once crashed the interpreter (see test_eventtrace_api)."""
    import earl
    try:
        return cls(*args, **kw)
    except earl.EarlError as e:
        err = earl.EarlError(str(e))
    raise err


def write_alog(directory, content, name="trace.alog") -> str:
    """Write `content` (a string or a list of lines) to directory/name; return the path."""
    if not isinstance(content, str):
        content = "\n".join(content) + "\n"
    path = Path(directory) / name
    path.write_text(content, encoding="utf-8")
    return str(path)


# --------------------------------------------------------------------- randomness sources
class SeededSource:
    def __init__(self, seed):
        self.r = random.Random(seed)

    def randint(self, a, b):
        return self.r.randint(a, b)

    def choice(self, seq):
        return seq[self.r.randrange(len(seq))]

    def shuffle(self, seq):
        self.r.shuffle(seq)


class DrawSource:
    """The same interface on top of hypothesis' `draw` (so examples shrink)."""

    def __init__(self, draw):
        self.draw = draw

    def randint(self, a, b):
        return self.draw(st.integers(a, b))

    def choice(self, seq):
        return seq[self.draw(st.integers(0, len(seq) - 1))]

    def shuffle(self, seq):
        perm = self.draw(st.permutations(range(len(seq))))
        seq[:] = [seq[i] for i in perm]


def chance(src, percent):
    return src.randint(0, 99) < percent


# --------------------------------------------------------------------- the generator
REGION_WORDS = ["main", "MPI_Send", "MPI_Recv", "solve", "do work", "exchange halo",
                "io phase 2", "init", "compute_kernel", "Region A", "x"]
COLOURS = ["green:boxes", "red:solid", "blue:gray3", "yellow:vlines", "white:dlines"]
TYPE_NAMES = ["start", "stop", "mark", "io_begin", "phase", "counter"]
LOC_NAMES = ["Server", "Client", "node 2", "worker_3", "rank four"]
UNKNOWN_TYPES = [-1, -2, -4, -5, -6, -7, -8, -10, -12, -14, -16, -17, -20, -99, -103, -201]
TAGS = [0, 1, 2, 7, 193]


@dataclass
class GeneratedTrace:
    text: str
    n_events: int
    notes: dict = field(default_factory=dict)

    def write(self, directory, name="trace.alog"):
        return write_alog(directory, self.text, name)


def generate(src, max_events=40, max_locs=4, allow_unsorted=True, allow_rollover=True,
             allow_override=True, min_events=0, unknown_anywhere=True, unsorted=None,
             rollover=None) -> GeneratedTrace:
    """A random trace.  unsorted: None = at random, or "shuffled"/"swaps" to force that
    disorder; rollover: None = at random, True = always a -11 record and cycles."""
    sep_choices = [" ", " ", " ", "  ", "\t"]

    def sep():
        return src.choice(sep_choices)

    def rec(*fields, comment=None):
        s = sep().join(str(f) for f in fields)
        if comment is not None:
            s += sep() + comment
        return s

    nlocs = src.randint(1, max_locs)
    nregions = src.randint(1, 5)
    ntypes = src.randint(0, 3)
    # distinct nonnegative ALOG type numbers, drawn cheaply
    pool = []
    while len(pool) < 2 * nregions + ntypes:
        k = src.randint(0, 199)
        if k not in pool:
            pool.append(k)
    header = []
    notes = {}

    # -3: sometimes, possibly larger than the locations used
    if chance(src, 50):
        header.append(rec(-3, 0, 0, nlocs + src.randint(0, 2), 0, 0))
    # -11 roll-over
    force_rollover, rollover = rollover, None
    if force_rollover or (allow_rollover and chance(src, 40)):
        rollover = src.choice([1000, 4096, 65536, 1 << 20])
        header.append(rec(-11, 0, 0, 0, 0, rollover))
    # -13 regions
    region_names = []
    words = list(REGION_WORDS)
    for i in range(nregions):
        name = src.choice(words)
        words.remove(name)
        region_names.append(name)
    region_types = []
    for i, name in enumerate(region_names):
        enter_no, exit_no = pool[2 * i], pool[2 * i + 1]
        region_types.append((enter_no, exit_no))
        comment = (src.choice(COLOURS) + sep() + name) if chance(src, 60) else name
        header.append(rec(-13, 0, enter_no, exit_no, 0, 0, comment=comment))
    # -9 trace-defined types
    tnames = list(TYPE_NAMES)
    trace_types = []
    for i in range(ntypes):
        name = src.choice(tnames)
        tnames.remove(name)
        no = pool[2 * nregions + i]
        trace_types.append((no, name))
        header.insert(src.randint(0, len(header)), rec(-9, 0, 0, no, 0, 0, comment=name))
    # -9 overridden by -13 (either order): defines no type, its number means enter/exit
    if allow_override and tnames and chance(src, 20):
        name = src.choice(tnames)
        no = src.choice([n for pair in region_types for n in pair])
        header.insert(src.randint(0, len(header)), rec(-9, 0, 0, no, 0, 0, comment=name))
        notes["overridden"] = name
    # -15 location names
    for loc in range(nlocs):
        if chance(src, 40):
            header.insert(src.randint(0, len(header)),
                          rec(-15, loc, 0, 0, 0, 0, comment=src.choice(LOC_NAMES)))

    # events, in time order
    n_events = src.randint(min_events, max_events)
    ticks = src.choice([0, 17, 2025436865]) if rollover is None else src.randint(0, 3 * rollover)
    stacks = [[] for _ in range(nlocs)]
    pending = []  # (src, dest, tag) of sends the generator has emitted and not yet "received"
    body = []
    for _ in range(n_events):
        if not chance(src, 25):
            ticks += src.randint(1, 40) if chance(src, 90) else src.randint(41, 5000)
        loc = src.randint(0, nlocs - 1)
        if rollover is None:
            cycle, stamp = 0, ticks
        else:
            cycle, stamp = divmod(ticks, rollover)
        what = src.randint(0, 99)
        if what < 30:       # enter
            r = src.randint(0, nregions - 1)
            stacks[loc].append(r)
            body.append(rec(region_types[r][0], loc, src.randint(0, 3), 0, cycle, stamp))
        elif what < 58:     # exit: usually matching, sometimes mismatched or on empty stack
            if stacks[loc] and chance(src, 90):
                r = stacks[loc].pop()
            else:
                r = src.randint(0, nregions - 1)
                if stacks[loc]:
                    stacks[loc].pop()
            body.append(rec(region_types[r][1], loc, 0, 0, cycle, stamp))
        elif what < 75:     # send
            dest = src.randint(0, nlocs - 1)
            tag = src.choice(TAGS)
            pending.append((loc, dest, tag))
            body.append(rec(-101, loc, 0, dest, cycle, stamp,
                            comment=rec(tag, src.randint(0, 10000))))
        elif what < 92:     # recv: of a pending message (any, not the oldest), or a random one
            mine = [p for p in pending if p[1] == loc]
            if mine and chance(src, 75):
                p = src.choice(mine)
                pending.remove(p)
                s_, tag = p[0], p[2]
            else:
                s_, tag = src.randint(0, nlocs - 1), src.choice(TAGS)
            body.append(rec(-102, loc, 0, s_, cycle, stamp,
                            comment=rec(tag, src.randint(0, 10000))))
        elif trace_types:   # trace-defined type
            no, _ = src.choice(trace_types)
            body.append(rec(no, loc, 0, src.randint(-5, 100000), cycle, stamp))
        else:
            r = src.randint(0, nregions - 1)
            stacks[loc].append(r)
            body.append(rec(region_types[r][0], loc, 0, 0, cycle, stamp))

    # disorder
    if body and (unsorted or (allow_unsorted and chance(src, 35))):
        if unsorted == "shuffled" or (unsorted is None and chance(src, 50)):
            src.shuffle(body)
            notes["unsorted"] = "shuffled"
        else:
            for _ in range(src.randint(1, max(1, len(body) // 4))):
                i = src.randint(0, len(body) - 1)
                j = min(len(body) - 1, i + src.randint(1, 3))
                body[i], body[j] = body[j], body[i]
            notes["unsorted"] = "swaps"

    lines = header + body
    # unknown negative records anywhere (also between events) and blank lines
    for _ in range(src.randint(0, 4)):
        t = src.choice(UNKNOWN_TYPES)
        comment = src.choice([None, "creator and date", "x"])
        where = src.randint(0, len(lines) if unknown_anywhere else len(header))
        lines.insert(where,
                     rec(t, src.randint(0, 3), 0, src.randint(0, 999), 0, src.randint(0, 99),
                         comment=comment))
    if chance(src, 20):
        lines.insert(src.randint(0, len(lines)), "")
    text = "\n".join(lines)
    if not chance(src, 15):
        text += "\n"
    return GeneratedTrace(text=text, n_events=n_events, notes=notes)


def random_alog(seed, max_events=40, **kw) -> GeneratedTrace:
    return generate(SeededSource(seed), max_events=max_events, **kw)


@st.composite
def alog_traces(draw, max_events=40, **kw):
    return generate(DrawSource(draw), max_events=max_events, **kw)
