"""Build a trace from a case file of tests/analysis_cases/ (its README has the format):
ALOG written line by line, OTF2 through the official `otf2` writer (tests/otf2_archives.py).

An event line is `LOCATION TIME RECORD FIELD...`: RECORD is an event method of the official
OTF2 writer (enter, mpi_send, rma_put, ...) and its FIELDs come in the order of that
record's class in `otf2.events`, so the writer's own field list says what each one means;
a field naming a definition (region, communicator, window, group) gives its name, an enum
gives its member (LockType EXCLUSIVE, RmaSyncLevel PROCESS|MEMORY), `undefined` an
undefined rank. Times are ticks of 1 us after the first timestamp."""
from __future__ import annotations

import functools
from pathlib import Path

CASES = Path(__file__).parent / "analysis_cases"


class CaseError(ValueError):
    """A case file that cannot be built: names the file and line."""


def case_names():
    return sorted(p.stem for p in CASES.glob("*.trace"))


def build_case(name, folder) -> str:
    """Write the case's trace into `folder`; returns the path to analyse."""
    return build_trace(CASES / f"{name}.trace", folder)


def build_trace(path, folder) -> str:
    path = Path(path)
    case = parse(path)
    if case.format == "alog":
        return write_alog(case, Path(folder) / f"{path.stem}.alog")
    return write_otf2(case, Path(folder), path.stem)


class Case:
    def __init__(self, path):
        self.path = path
        self.format = None
        self.ranks = 0
        self.comms, self.groups, self.windows = {}, {}, {}   # name -> locations / comm name
        self.events = []                                      # (line number, loc, time, record, fields)

    def error(self, number, message):
        return CaseError(f"{self.path.name} line {number}: {message}")


def parse(path) -> Case:
    case = Case(Path(path))
    for number, line in enumerate(case.path.read_text(encoding="utf-8").splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        head, rest = words[0], words[1:]
        if head.isdigit():
            if len(rest) < 2 or not rest[0].isdigit():
                raise case.error(number, "an event is LOCATION TIME RECORD FIELD...")
            loc, time = int(head), int(rest[0])
            if loc >= case.ranks:
                raise case.error(number, f"location {loc}, but the case has {case.ranks} ranks")
            case.events.append((number, loc, time, rest[1], rest[2:]))
        elif head == "format" and rest in (["alog"], ["otf2"]):
            case.format = rest[0]
        elif head == "ranks" and len(rest) == 1 and rest[0].isdigit():
            case.ranks = int(rest[0])
        elif head in ("comm", "group") and len(rest) >= 2 and all(w.isdigit() for w in rest[1:]):
            (case.comms if head == "comm" else case.groups)[rest[0]] = [int(w) for w in rest[1:]]
        elif head == "window" and len(rest) == 2 and rest[1] in case.comms:
            case.windows[rest[0]] = rest[1]
        else:
            raise case.error(number, f"cannot read {line.strip()!r} (format, ranks, comm, "
                                     "group, window or an event)")
    if case.format is None or not case.ranks:
        raise CaseError(f"{case.path.name}: no 'format' or no 'ranks' line")
    return case


# --------------------------------------------------------------------------- ALOG
ALOG_RECORDS = {"mpi_send": -101, "mpi_recv": -102}


def write_alog(case, out) -> str:
    """ALOG keeps the file's event order; regions get their types in order of first use."""
    regions, lines = {}, []
    for number, loc, time, record, fields in case.events:
        if record in ("enter", "leave") and len(fields) == 1:
            base = regions.setdefault(fields[0], 2 * len(regions) + 1)
            lines.append(f"{base + (record == 'leave')} {loc} 0 0 0 {time}")
        elif record in ALOG_RECORDS and len(fields) == 4 and fields[1] in case.comms:
            peer, comm, tag, length = fields
            if case.comms[comm] != list(range(case.ranks)):
                raise case.error(number, "ALOG knows locations only: the communicator must "
                                         "list every location in order")
            lines.append(f"{ALOG_RECORDS[record]} {loc} 0 {peer} 0 {time} {tag} {length}")
        else:
            raise case.error(number, f"ALOG takes enter/leave REGION and {'/'.join(ALOG_RECORDS)} "
                                     "PEER COMMUNICATOR TAG LENGTH")
    header = [f"-3 0 0 {case.ranks} 0 0"] + [f"-13 0 {base} {base + 1} 0 0 c:p {name}"
                                              for name, base in regions.items()]
    out.write_text("\n".join(header + lines) + "\n", encoding="utf-8")
    return str(out)


# --------------------------------------------------------------------------- OTF2
def write_otf2(case, folder, name) -> str:
    import otf2
    from otf2.enums import GroupType, Paradigm
    from otf2_archives import ArchiveWriter, T
    aw = ArchiveWriter(folder, name, resolution=1_000_000)
    locs = [aw.process(f"MPI Rank {r}")[0] for r in range(case.ranks)]
    aw.comm_locations(locs)
    refs = {"CommRef": {n: aw.comm(n, [locs[m] for m in members]) for n, members in case.comms.items()}}
    refs["GroupRef"] = {n: aw.d.group(n, group_type=GroupType.COMM_GROUP, paradigm=Paradigm.MPI,
                                      members=[locs[m] for m in members])
                        for n, members in case.groups.items()}
    refs["RmaWinRef"] = {n: aw.d.rma_win(n, comm=refs["CommRef"][comm]) for n, comm in case.windows.items()}

    @functools.cache
    def region(name):
        # MPI functions as Score-P defines them: Scalasca takes a region for one only when
        # its source file is "MPI"
        if name.startswith("MPI_"):
            return aw.region(name, Paradigm.MPI, source_file="MPI")
        return aw.region(name, Paradigm.USER)

    @functools.cache
    def program(path, arguments):
        # Score-P's region for the program a ProgramBegin names, which Scalasca (and EARL)
        # root the call tree at: the executable's name; as canonical name its path and
        # arguments, by which Scalasca finds it
        return aw.region(path.rpartition("/")[2], Paradigm.MEASUREMENT_SYSTEM,
                         canonical_name=" ".join([path, *arguments]),
                         region_role=otf2.enums.RegionRole.ARTIFICIAL)

    def value(number, field, word):
        kind = field[1]
        if kind == "RegionRef":
            return region(word)
        if kind == "StringRef":           # ProgramBegin's program: its path
            return word
        if kind == "array":               # ProgramBegin's arguments, comma-separated
            return arguments(word)
        if kind in refs:
            if word not in refs[kind]:
                raise case.error(number, f"no {kind[:-3].lower()} named {word!r}")
            return refs[kind][word]
        if kind.startswith("ctypes."):
            if word == "undefined":
                return otf2.Undefined.UINT32.value
            if not word.isdigit():
                raise case.error(number, f"{field[0]} must be a number or 'undefined', not {word!r}")
            return int(word)
        enum = getattr(otf2.enums, kind)
        try:
            return functools.reduce(lambda a, b: a | b, (getattr(enum, m) for m in word.split("|")))
        except AttributeError:
            raise case.error(number, f"{field[0]}: no {kind} {word!r}") from None

    def arguments(word):
        return () if word == "-" else tuple(word.split(","))

    writers = [aw.ev(l) for l in locs]
    for number, loc, time, record, words in case.events:
        if record == "program_begin" and len(words) == 2:
            program(words[0], arguments(words[1]))
        fields = record_fields(record)
        if fields is None:
            raise case.error(number, f"no OTF2 event record {record!r}")
        if len(words) != len(fields):
            raise case.error(number, f"{record} takes {' '.join(f[0] for f in fields)}, "
                                     f"not {len(words)} fields")
        getattr(writers[loc], record)(T(time), *(value(number, f, w) for f, w in zip(fields, words)))
    return str(aw.close())


def record_fields(record):
    """The fields after the time of the official writer's event `record` (None: no such)."""
    import otf2.events
    cls = getattr(otf2.events, "".join(p.capitalize() for p in record.split("_")), None)
    if cls is None or not hasattr(cls, "_fields"):
        return None
    return [f for f in cls._fields if f[0] not in ("time", "attributes")]
