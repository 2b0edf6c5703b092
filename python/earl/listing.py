"""Events as text: an aligned table, CSV or JSON lines (`earl list`)."""
import csv
import itertools
import json
import sys

STYLES = ("table", "csv", "jsonl")
# The columns every event has, shown first; "details" is the event's other attributes.
LEADING = ("pos", "loc", "time", "type")
DETAILS = "details"
# Rows a table measures before it prints: later rows wider than these widen their cell.
_MEASURED = 200


def _details(event):
    return " ".join(f"{name}={value}" for name, value in event.items()
                    if name not in LEADING and name != "enterptr")


def _cells(event, columns):
    """The event's values for columns (None where it has no such attribute)."""
    return [_details(event) if name == DETAILS else event.get(name) for name in columns]


def _table_text(value):
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.9f}"
    return str(value)


def _write_table(events, columns, out):
    rows = ([_table_text(v) for v in _cells(event, columns)] for event in events)
    first = list(itertools.islice(rows, _MEASURED))
    widths = [max([len(name)] + [len(row[i]) for row in first]) for i, name in enumerate(columns)]
    numeric = [all(not cell or cell.lstrip("-").replace(".", "", 1).isdigit() for cell in
                   (row[i] for row in first)) for i in range(len(columns))]

    def line(cells):
        parts = [cell.rjust(widths[i]) if numeric[i] else cell.ljust(widths[i])
                 for i, cell in enumerate(cells)]
        out.write("  ".join(parts).rstrip() + "\n")

    line(columns)
    for row in itertools.chain(first, rows):
        line(row)


def _write_csv(events, columns, out):
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for event in events:
        writer.writerow(["" if v is None else repr(v) if isinstance(v, float) else v
                         for v in _cells(event, columns)])


def _write_jsonl(events, columns, out):
    for event in events:
        shown = event if columns is None else dict(zip(columns, _cells(event, columns)))
        out.write(json.dumps(shown) + "\n")


def write_events(events, style, columns=None, out=None):
    """Writes events (dicts, in order) in style ("table", "csv" or "jsonl") to out
    (default sys.stdout). columns: attribute names (and "details"), default pos, loc,
    time, type, details; JSON lines without columns carry every attribute."""
    out = sys.stdout if out is None else out
    if style == "jsonl":
        return _write_jsonl(events, columns, out)
    columns = list(columns or LEADING + (DETAILS,))
    (_write_table if style == "table" else _write_csv)(events, columns, out)
