"""The events every format holds (regions and point-to-point messages with a microsecond
clock), stated by the tests independently of the writers, and how two formats' events
compare on them (test_format_matrix, test_simple_tools_every_format)."""


def shared_rows(events, receive_lengths=True):
    """The events (dicts, as EventTrace or `earl list --as jsonl` give them) every format
    holds, as tuples in global order. Events of different locations at equal times are in
    an order each format defines (OTF2: by location; ALOG: as the file has them), so they
    are compared sorted by location within one time. EPILOG's receives hold no length and
    take the one of the send EARL matches them with (the oldest unreceived one of the
    channel at that time): where clocks are skewed and a receive is recorded before its
    send, that is another message's, so such traces are compared without
    `receive_lengths`."""
    rows = []
    for event in events:
        kind = event["type"]
        if kind in ("enter", "exit"):
            rows.append((event["loc"], event["time"], kind, event["region"]))
        elif kind in ("send", "recv"):
            peer = event["dest"] if kind == "send" else event["src"]
            length = event["len"] if kind == "send" or receive_lengths else None
            rows.append((event["loc"], event["time"], kind, peer, event["tag"], length))
    return sorted(rows, key=lambda row: (row[1], row[0]))  # stable: a location's own order stays


def without_added_frames(rows, reference):
    """Writers may add frames the source did not have on a location (OTF2 output gives
    every MPI process without MPI_Init a zero-length MPI_Init and MPI_Finalize, said in the
    conversion's summary): `rows` without the enters and exits of regions that `reference`
    has no visit of on that location."""
    visited = {(row[0], row[3]) for row in reference if row[2] in ("enter", "exit")}
    return [row for row in rows if row[2] not in ("enter", "exit") or (row[0], row[3]) in visited]
