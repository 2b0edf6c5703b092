"""CLOG2 files written and read in plain Python, from the layout MPE publishes
(clog_preamble.h, clog_record.h, clog_commset.h, clog_uuid.h of MPICH's src/mpe2) and
independent of EARL's C++: the reference the CLOG2 tests (tests/test_clog2_format.py) and
the fuzz seeds (fuzz/seed_corpora.py) use.

A file: a 1024-byte preamble of NUL-terminated strings (version, then "title=" / value),
blocks of `block_size` bytes (records, then an end-of-block record and padding; the last
block ends with the end-of-log record), then the communicator table. A record: a header
(double time, int32 icomm, rank, thread, rectype) and a body fixed by its type."""
import struct

ENDLOG, ENDBLOCK, STATEDEF, EVENTDEF, CONSTDEF, BAREEVT, CARGOEVT, MSGEVT, COLLEVT, \
    COMMEVT, SRCLOC, TIMESHIFT = range(12)
SEND, RECV = -101, -102
COMM_WORLD_CREATE, COMM_SELF_CREATE, COMM_FREE, COMM_INTRA_CREATE = 0, 1, 10, 100
MAXTIME = 100000000.0

# Body layouts: struct codes after the byte-order sign, field names. Strings are
# fixed-size char arrays: color 3 doubles, name (desc) 4, format 5, file 5, cargo bytes 4.
BODIES = {
    ENDLOG: ("", ()),
    ENDBLOCK: ("", ()),
    STATEDEF: ("iiii24s32s40s", ("id", "start", "final", "pad", "color", "name", "format")),
    EVENTDEF: ("ii24s32s40s", ("etype", "pad", "color", "name", "format")),
    CONSTDEF: ("ii32s", ("etype", "value", "name")),
    BAREEVT: ("ii", ("etype", "pad")),
    CARGOEVT: ("ii32s", ("etype", "pad", "bytes")),
    MSGEVT: ("iiiiii", ("etype", "icomm", "rank", "tag", "size", "pad")),
    COLLEVT: ("iiii", ("etype", "root", "size", "pad")),
    # gcomm: a uuid of int32 rand, double time, 20 name bytes
    COMMEVT: ("iiiiid20s", ("etype", "icomm", "rank", "wrank", "rand", "utime", "uname")),
    SRCLOC: ("ii40s", ("srcloc", "line", "file")),
    TIMESHIFT: ("d", ("shift",)),
}
HEADER = "diiii"


def body_size(rectype):
    return struct.calcsize("<" + BODIES[rectype][0])


def record_size(rectype):
    return struct.calcsize("<" + HEADER) + body_size(rectype)


class Clog2Builder:
    """Records in file order; bytes() lays them into blocks as MPE's merger does."""

    def __init__(self, big=True, block_size=65536, world_size=1, threads=1, version="CLOG-02.44"):
        self.big, self.block_size, self.world_size, self.threads = big, block_size, world_size, threads
        self.version = version
        self.records = []   # (time, icomm, rank, thread, rectype, body dict)
        self.commtable = [(0, 1)]  # (local id, kind): MPI_COMM_WORLD, an intracommunicator

    def add(self, rectype, time, h_rank=0, h_icomm=0, h_thread=0, /, **fields):
        """A record with header rank, icomm, thread and the body's `fields` (others 0)."""
        body = {name: 0 for name in BODIES[rectype][1]}
        for name in ("color", "name", "format", "bytes", "file", "uname"):
            if name in body:
                body[name] = b""
        body.update(fields)
        self.records.append((time, h_icomm, h_rank, h_thread, rectype, body))
        return self

    # Shorthands for the record kinds.
    def state(self, time, sid, start, final, name, color="red", rank=0):
        return self.add(STATEDEF, time, rank, id=sid, start=start, final=final,
                        color=color.encode(), name=name.encode(), format=b"")

    def eventdef(self, time, etype, name, color="blue"):
        return self.add(EVENTDEF, time, etype=etype, color=color.encode(), name=name.encode())

    def comm(self, time, etype, icomm, rank, wrank, on_rank=None):
        return self.add(COMMEVT, time, wrank if on_rank is None else on_rank, etype=etype,
                        icomm=icomm, rank=rank, wrank=wrank, rand=7, utime=1.5, uname=b"uuid")

    def world(self, ranks, time=0.0):
        for r in range(ranks):
            self.comm(time, COMM_WORLD_CREATE, 0, r, r)
        return self

    def bare(self, time, rank, etype, icomm=0, thread=0):
        return self.add(BAREEVT, time, rank, icomm, thread, etype=etype)

    def msg(self, time, rank, etype, peer, tag, size, icomm=0, thread=0, peer_icomm=None):
        return self.add(MSGEVT, time, rank, icomm, thread, etype=etype,
                        icomm=icomm if peer_icomm is None else peer_icomm, rank=peer,
                        tag=tag, size=size)

    def pack(self, code, *values):
        return struct.pack((">" if self.big else "<") + code, *values)

    def record_bytes(self, time, icomm, rank, thread, rectype, body):
        code, names = BODIES[rectype]
        return self.pack(HEADER, time, icomm, rank, thread, rectype) + \
            (self.pack(code, *(body[n] for n in names)) if code else b"")

    def blocks(self):
        out, block, last = [], b"", 0.0
        end = record_size(ENDBLOCK)
        for rec in self.records:
            data = self.record_bytes(*rec)
            if len(block) + len(data) + end > self.block_size:
                block += self.record_bytes(last, 0, 0, 0, ENDBLOCK, {})
                out.append(block.ljust(self.block_size, b"\0"))
                block = b""
            block += data
            last = rec[0]
        block += self.record_bytes(MAXTIME, 0, 0, 0, ENDLOG, {})
        out.append(block.ljust(self.block_size, b"\0"))
        return b"".join(out)

    def preamble(self, commtable_fptr, **override):
        giga = 1 << 30
        fields = [("is_big_endian=", ["TRUE " if self.big else "FALSE"]),
                  ("is_finalzed=", ["TRUE "]),
                  ("block_size=", [str(self.block_size)]),
                  ("num_buffered_blocks=", ["128"]),
                  ("max_comm_world_size=", [str(self.world_size)]),
                  ("max_thread_count=", [str(self.threads)]),
                  ("known_eventID_start=", ["0"]), ("user_eventID_start=", ["600"]),
                  ("known_solo_eventID_start=", ["-10"]), ("user_solo_eventID_start=", ["5000"]),
                  ("known_stateID_count=", ["300"]), ("user_stateID_count=", ["100"]),
                  ("known_solo_eventID_count=", ["10"]), ("user_solo_eventID_count=", ["100"]),
                  ("commtable_fptr=", [str(commtable_fptr // giga), str(giga), str(commtable_fptr % giga)])]
        fields = [(t, override.get(t, v)) for t, v in fields]
        text = b"".join((s.encode() + b"\0") for s in [self.version] + [x for t, v in fields for x in [t] + v])
        assert len(text) <= 1024
        return text.ljust(1024, b"\0")

    def commtable_bytes(self):
        out = self.pack("i", len(self.commtable))
        for lid, kind in self.commtable:
            out += self.pack("id20s", 7, 1.5, b"uuid") + self.pack("ii", lid, kind)
        return out

    def bytes(self, **preamble_override):
        blocks = self.blocks()
        return self.preamble(1024 + len(blocks), **preamble_override) + blocks + self.commtable_bytes()

    def write(self, path, **preamble_override):
        data = self.bytes(**preamble_override)
        with open(path, "wb") as f:
            f.write(data)
        return str(path)


def parse_preamble(data):
    strings = data[:1024].split(b"\0")
    version = strings[0].decode()
    values = {}
    i = 1
    while i < len(strings) and strings[i]:
        title = strings[i].decode()
        n = 3 if title == "commtable_fptr=" else 1
        values[title] = [s.decode() for s in strings[i + 1:i + 1 + n]]
        i += 1 + n
    return version, values


def read_clog2(path):
    """(version, preamble values, records, commtable) of a CLOG2 file: records as
    (offset, time, icomm, rank, thread, rectype, body dict), end-of-block records included."""
    data = open(path, "rb").read()
    version, values = parse_preamble(data)
    big = values["is_big_endian="][0] == "TRUE "
    sign = ">" if big else "<"
    block = int(values["block_size="][0])
    giga, unit, rest = (int(x) for x in values["commtable_fptr="])
    table_at = giga * unit + rest
    records, block_start = [], 1024
    offset = block_start
    while True:
        assert offset + 24 <= block_start + block, "record crosses its block"
        head = struct.unpack_from(sign + HEADER, data, offset)
        rectype = head[4]
        code, names = BODIES[rectype]
        body = dict(zip(names, struct.unpack_from(sign + code, data, offset + 24))) if code else {}
        assert offset + record_size(rectype) <= block_start + block
        records.append((offset,) + head + (body,))
        if rectype == ENDLOG:
            break
        if rectype == ENDBLOCK:
            block_start += block
            offset = block_start
        else:
            offset += record_size(rectype)
    assert table_at == block_start + block
    (count,) = struct.unpack_from(sign + "i", data, table_at)
    table = [struct.unpack_from(sign + "id20sii", data, table_at + 4 + 40 * k) for k in range(count)]
    assert table_at + 4 + 40 * count == len(data)
    return version, values, records, table


def cstr(raw):
    return raw.split(b"\0", 1)[0].decode("utf-8", "surrogateescape")
