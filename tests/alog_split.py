"""A generated ALOG trace split into one file per process, as MPE writes them per rank
(tests/test_merge_split.py, tests/test_merge_described.py)."""

SHIFT_US = 2500  # piece 1's clock runs this far ahead


def split_alog(path, folder, shift_piece=1, shift_us=SHIFT_US):
    """One ALOG file per process of `path` (its header in each), piece `shift_piece`'s
    timestamps + shift_us: the files MPE would write per rank with unsynchronised clocks."""
    header, pieces = [], {}
    for line in open(path).read().splitlines():
        fields = line.split(" ", 6)
        kind = int(fields[0])
        if kind >= 0 or kind in (-101, -102):
            pieces.setdefault(int(fields[1]), []).append(fields)
        else:
            header.append(line)
    assert "-11" not in [h.split()[0] for h in header], "cycles not expected"
    paths = []
    for rank in sorted(pieces):
        lines = list(header)
        for fields in pieces[rank]:
            if rank == shift_piece:
                fields = fields[:5] + [str(int(fields[5]) + shift_us)] + fields[6:]
            lines.append(" ".join(fields))
        out = folder / f"rank{rank}.alog"
        out.write_text("\n".join(lines) + "\n")
        paths.append(str(out))
    return paths
