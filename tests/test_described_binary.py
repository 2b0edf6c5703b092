"""The shipped binary layout (python/earl/descriptions/sample_binary.toml), written here
with Python's struct in both byte orders, read to events worked out by hand; damaged
records name the file, the record and the byte."""
import struct
from pathlib import Path

import pytest

import earl
from described_helpers import events_of

SHIPPED = Path(earl.__file__).parent / "descriptions" / "sample_binary.toml"
COMMON = "HBBB3xIq"  # size, kind, flags, checksum, filler, location, time (ns)


def record(order, kind, loc, time_ns, body_format="", *body, flags=0, checksum=None):
    """One record; its checksum is the sum of its other bytes modulo 256."""
    size = struct.calcsize(order + COMMON + body_format)
    raw = bytearray(struct.pack(order + COMMON + body_format, size, kind, flags, 0, loc, time_ns, *body))
    raw[4] = sum(raw) % 256 if checksum is None else checksum
    return bytes(raw)


def write(path, order, records):
    path.write_bytes(b"EBT1\0\0\0\0" + b"".join(records))
    return str(path)


def description_for(tmp_path, order):
    """The shipped description, or a copy of it in big-endian order."""
    if order == "<":
        return f"described:{SHIPPED}"
    text = SHIPPED.read_text().replace('byte_order = "little"', 'byte_order = "big"')
    copy = tmp_path / "sample_binary_big.toml"
    copy.write_text(text)
    return f"described:{copy}"


def sample_records(order):
    return [
        record(order, 1, 0, 0, "I24s", 7, b"main"),
        record(order, 1, 0, 0, "I24s", 9, b"MPI_Send"),
        record(order, 2, 0, 1000, "I", 7),
        record(order, 2, 1, 1500, "I", 7),
        record(order, 2, 0, 2000, "I", 9),
        record(order, 4, 0, 2500, "IIi", 1, 64, 5, flags=1),   # tagged send
        record(order, 3, 0, 3000, "I", 9),
        record(order, 5, 1, 4000, "II", 0, 64),                # untagged recv: tag 0
        record(order, 6, 1, 4500, "d", 2.5),
        record(order, 7, 0, 4750, "i", -3),
        record(order, 3, 1, 5000, "I", 7),
        record(order, 3, 0, 6000, "I", 7),
    ]


# Worked out by hand from sample_records: times in seconds (ns / 1e9), regions by id.
EXPECTED = [
    {"loc": 0, "time": 1e-6, "type": "enter", "region": "main"},
    {"loc": 1, "time": 1.5e-6, "type": "enter", "region": "main"},
    {"loc": 0, "time": 2e-6, "type": "enter", "region": "MPI_Send"},
    {"loc": 0, "time": 2.5e-6, "type": "send", "dest": 1, "tag": 5, "len": 64},
    {"loc": 0, "time": 3e-6, "type": "exit", "region": "MPI_Send"},
    {"loc": 1, "time": 4e-6, "type": "recv", "src": 0, "tag": 0, "len": 64},
    {"loc": 1, "time": 4.5e-6, "type": "metric", "metric": "sample", "value": 2.5},
    {"loc": 0, "time": 4.75e-6, "type": "mark", "data1": -3},
    {"loc": 1, "time": 5e-6, "type": "exit", "region": "main"},
    {"loc": 0, "time": 6e-6, "type": "exit", "region": "main"},
]


def picked(event, keys):
    return {k: event[k] for k in keys}


@pytest.mark.parametrize("order", ["<", ">"], ids=["little", "big"])
def test_events_by_hand(tmp_path, order):
    path = write(tmp_path / "t.ebt", order, sample_records(order))
    with earl.EventTrace(path, format=description_for(tmp_path, order)) as trace:
        events = events_of(trace)
        assert [picked(e, want) for e, want in zip(events, EXPECTED)] == EXPECTED
        assert len(events) == len(EXPECTED)
        assert trace.nrlocs() == 2
        assert [m["name"] for m in trace.metrics()] == ["sample"]


def test_unsorted_records_are_read_in_time_order(tmp_path):
    records = sample_records("<")
    shuffled = records[:2] + records[2:][::-1]
    path = write(tmp_path / "t.ebt", "<", shuffled)
    with earl.EventTrace(path, format=f"described:{SHIPPED}") as trace:
        assert [e["time"] for e in events_of(trace)] == sorted(w["time"] for w in EXPECTED)


def test_bad_checksum_names_record_and_byte(tmp_path):
    records = sample_records("<")
    records[3] = record("<", 2, 1, 1500, "I", 7, checksum=0)
    path = write(tmp_path / "t.ebt", "<", records)
    offset = 8 + sum(len(r) for r in records[:3])
    with pytest.raises(earl.EarlError, match=rf"t\.ebt: record 4 \(byte {offset}\): checksum checksum is 0"):
        with earl.EventTrace(path, format=f"described:{SHIPPED}", strict=True) as trace:
            events_of(trace)


def test_cut_record_and_bad_magic(tmp_path):
    raw = b"EBT1\0\0\0\0" + b"".join(sample_records("<"))
    cut = tmp_path / "cut.ebt"
    cut.write_bytes(raw[:-3])
    with pytest.raises(earl.EarlError, match=r"cut\.ebt: record 12 \(byte \d+\): its length field says 24 bytes, but only 21"):
        with earl.EventTrace(str(cut), format=f"described:{SHIPPED}", strict=True) as trace:
            events_of(trace)
    wrong = tmp_path / "wrong.ebt"
    wrong.write_bytes(b"XXXX" + raw[4:])
    with pytest.raises(earl.EarlError, match=r"wrong\.ebt: does not start with the magic bytes 'EBT1'"):
        earl.EventTrace(str(wrong), format=f"described:{SHIPPED}")
