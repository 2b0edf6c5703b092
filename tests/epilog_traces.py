"""An EPILOG writer and reader of the tests' own, written from the published layout
(Scalasca 1.x epik/elg_defs.h and elg_readcb.c), not from EARL's C++: a 10-byte header
("EPILOG\\0", major, minor, byte order 1 little / 2 big) and records of one length byte,
one type byte and the body, numbers in the header's byte order."""
import struct

NO_ID = 0xFFFFFFFF

# Record types (elg_defs.h).
STRING, STRING_CNT, LOCATION, REGION, METRIC, MPI_COMM, MPI_WIN = 1, 2, 7, 9, 10, 11, 18
MACHINE, NODE, PROCESS, THREAD, MPI_COMM_CNT = 3, 4, 5, 6, 19
MPI_GROUP, MPI_COMM_REF = 27, 29
ENTER, EXIT, MPI_SEND, MPI_RECV, MPI_COLLEXIT = 101, 102, 103, 104, 105
OMP_FORK, OMP_JOIN, OMP_ALOCK, OMP_RLOCK, OMP_COLLEXIT = 106, 107, 108, 109, 110
MPI_PUT_1TS, MPI_PUT_1TE, MPI_GET_1TS, MPI_GET_1TE, MPI_GET_1TO = 112, 113, 114, 115, 116
MPI_WINEXIT, MPI_WINCOLLEXIT, MPI_WIN_LOCK, MPI_WIN_UNLOCK = 117, 118, 119, 120


class ElgFile:
    """Builds a merged EPILOG file record by record."""

    def __init__(self, big=False, version=(1, 9), metrics=0):
        self.e = ">" if big else "<"
        self.version = version
        self.metrics = metrics
        self.records = []

    def rec(self, rtype, fmt, *values):
        body = struct.pack(self.e + fmt, *values)
        self.rec_raw(rtype, body)

    def rec_raw(self, rtype, body):
        assert len(body) <= 255
        self.records.append(bytes([len(body), rtype]) + body)

    def data(self):
        order = 2 if self.e == ">" else 1
        return b"EPILOG\0" + bytes([self.version[0], self.version[1], order]) + b"".join(self.records)

    # definitions
    def string(self, sid, text):
        raw = text.encode() + b"\0"
        if len(raw) <= 250:
            self.rec_raw(STRING, struct.pack(self.e + "IB", sid, 0) + raw)
            return
        rest = [raw[250 + i:250 + i + 255] for i in range(0, len(raw) - 250, 255)]
        self.rec_raw(STRING, struct.pack(self.e + "IB", sid, len(rest)) + raw[:250])
        for piece in rest:
            self.rec_raw(STRING_CNT, piece)

    def process(self, pid, name_sid):
        self.rec(PROCESS, "II", pid, name_sid)

    def thread(self, tid, pid, name_sid):
        self.rec(THREAD, "III", tid, pid, name_sid)

    def location(self, lid, pid, tid):
        self.rec(LOCATION, "IIIII", lid, 0, 0, pid, tid)

    def region(self, rid, name_sid, group_sid):
        self.rec(REGION, "IIIIIIB", rid, name_sid, NO_ID, NO_ID, NO_ID, group_sid, 1)

    def metric(self, mid, name_sid):
        self.rec(METRIC, "IIIBBB", mid, name_sid, NO_ID, 0, 0, 0)

    def comm(self, cid, world_ranks):
        bits = bytearray((max(world_ranks) // 8 + 1) if world_ranks else 0)
        for r in world_ranks:
            bits[r // 8] |= 1 << (r % 8)
        if self.version >= (1, 3):
            self.rec_raw(MPI_COMM, struct.pack(self.e + "IBI", cid, 0, len(bits)) + bytes(bits))
        else:
            self.rec_raw(MPI_COMM, struct.pack(self.e + "II", cid, len(bits)) + bytes(bits))

    def group(self, gid, ranks):
        self.rec(MPI_GROUP, "IBI" + "I" * len(ranks), gid, 0, len(ranks), *ranks)

    def comm_ref(self, cid, gid):
        self.rec(MPI_COMM_REF, "II", cid, gid)

    def win(self, wid, cid):
        self.rec(MPI_WIN, "II", wid, cid)

    # events (merged form: every event names its location)
    def _m(self):
        return "Q" * self.metrics, [7] * self.metrics

    def enter(self, lid, t, rid):
        f, m = self._m()
        self.rec(ENTER, "IdI" + f, lid, t, rid, *m)

    def exit(self, lid, t, rtype=EXIT):
        f, m = self._m()
        self.rec(rtype, "Id" + f, lid, t, *m)

    def winexit(self, lid, t, wid, cid):
        f, m = self._m()
        self.rec(MPI_WINEXIT, "Id" + f + "IIB", lid, t, *m, wid, cid, 0)

    def wincollexit(self, lid, t, wid):
        f, m = self._m()
        self.rec(MPI_WINCOLLEXIT, "Id" + f + "I", lid, t, *m, wid)

    def collexit(self, lid, t, root, cid, sent, recvd):
        f, m = self._m()
        self.rec(MPI_COLLEXIT, "Id" + f + "IIII", lid, t, *m, root, cid, sent, recvd)

    def send(self, lid, t, dest, cid, tag, sent):
        self.rec(MPI_SEND, "IdIIII", lid, t, dest, cid, tag, sent)

    def recv(self, lid, t, src, cid, tag):
        self.rec(MPI_RECV, "IdIII", lid, t, src, cid, tag)

    def put_1ts(self, lid, t, dest, wid, rmaid, n):
        self.rec(MPI_PUT_1TS, "IdIIII", lid, t, dest, wid, rmaid, n)

    def put_1te(self, lid, t, src, wid, rmaid):
        self.rec(MPI_PUT_1TE, "IdIII", lid, t, src, wid, rmaid)

    def get_1to(self, lid, t, rmaid):
        self.rec(MPI_GET_1TO, "IdI", lid, t, rmaid)

    def get_1ts(self, lid, t, dest, wid, rmaid, n):
        self.rec(MPI_GET_1TS, "IdIIII", lid, t, dest, wid, rmaid, n)

    def get_1te(self, lid, t, src, wid, rmaid):
        self.rec(MPI_GET_1TE, "IdIII", lid, t, src, wid, rmaid)

    def win_lock(self, lid, t, rank, wid, ltype):
        self.rec(MPI_WIN_LOCK, "IdIIB", lid, t, rank, wid, ltype)

    def win_unlock(self, lid, t, rank, wid):
        self.rec(MPI_WIN_UNLOCK, "IdII", lid, t, rank, wid)

    def fork(self, lid, t):
        self.rec(OMP_FORK, "Id", lid, t)

    def join(self, lid, t):
        self.rec(OMP_JOIN, "Id", lid, t)

    def lock(self, lid, t, lkid, acquire):
        self.rec(OMP_ALOCK if acquire else OMP_RLOCK, "IdI", lid, t, lkid)


# Body layouts of the records parse() decodes (after the length and type bytes); "M" marks
# where the metric values sit.
LAYOUTS = {
    STRING: None, STRING_CNT: None, MPI_COMM: None, MPI_COMM_CNT: None,
    MACHINE: "III", NODE: "IIIId", PROCESS: "II", THREAD: "III", LOCATION: "IIIII",
    REGION: "IIIIIIB", MPI_WIN: "II",
    ENTER: "IdIM", EXIT: "IdM", MPI_SEND: "IdIIII", MPI_RECV: "IdIII", MPI_COLLEXIT: "IdMIIII",
    MPI_WINCOLLEXIT: "IdMI", OMP_FORK: "Id", OMP_JOIN: "Id", MPI_PUT_1TS: "IdIIII",
    MPI_PUT_1TE: "IdIII", MPI_WIN_LOCK: "IdIIB", MPI_WIN_UNLOCK: "IdII",
}


def parse(data):
    """(version, byte order, [(type, values)]) of a file with the records of LAYOUTS and no
    metrics; strings as (STRING, (id, text)), communicators as (MPI_COMM, (cid, bits))."""
    assert data[:7] == b"EPILOG\0", data[:10]
    version, order = (data[7], data[8]), data[9]
    e = ">" if order == 2 else "<"
    out, at = [], 10
    pending = None
    while at < len(data):
        length, rtype = data[at], data[at + 1]
        body = data[at + 2:at + 2 + length]
        assert len(body) == length, f"record at {at} cut short"
        at += 2 + length
        if rtype == STRING:
            sid, cnt = struct.unpack_from(e + "IB", body)
            pending = [sid, body[5:], cnt]
            if cnt == 0:
                out.append((STRING, (sid, pending[1].split(b"\0")[0].decode())))
        elif rtype == STRING_CNT:
            pending[1] += body
            pending[2] -= 1
            if pending[2] == 0:
                out.append((STRING, (pending[0], pending[1].split(b"\0")[0].decode())))
        elif rtype == MPI_COMM:
            cid, mode, n = struct.unpack_from(e + "IBI", body)
            assert mode == 0
            out.append((MPI_COMM, (cid, body[9:])))
        elif rtype == MPI_COMM_CNT:
            cid, bits = out[-1][1]
            out[-1] = (MPI_COMM, (cid, bits + body))
        else:
            fmt = LAYOUTS[rtype].replace("M", "")
            assert struct.calcsize(e + fmt) == length, (rtype, length)
            out.append((rtype, struct.unpack(e + fmt, body)))
    return version, order, out


def seed_files():
    """(name, bytes) of small hand-made files for the fuzzer's corpus."""
    from test_epilog_format import hand_trace
    import gzip
    for big in (False, True):
        yield f"hand-{'be' if big else 'le'}", hand_trace(big).data()
    yield "hand-gzip", gzip.compress(hand_trace(False).data())
