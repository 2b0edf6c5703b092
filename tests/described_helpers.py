"""Helpers of the described-format tests (tests/test_described_*.py): every event of a
trace and what `earl info --json` says of it, minus what names the file or its reader."""
import earl
from earl.info import summary


def events_of(trace):
    return [trace.event(p) for p in range(1, len(trace) + 1)]


def scanned(trace):
    """The events met by next() from the start, each as a dict."""
    trace.reset() if hasattr(trace, "reset") else trace.goto(0)
    out = []
    while trace.next():
        out.append(trace.event())
    return out


def model_of(trace):
    """What the trace says besides its events (its reader's name and file excluded)."""
    info = summary(trace)
    for key in ("file", "format", "bookmarks", "index", "clocks"):
        info.pop(key)
    return info


def same_trace(path, format_a, format_b):
    """(events, model) of `path` read as format_a and as format_b."""
    with earl.EventTrace(path, format=format_a) as a, earl.EventTrace(path, format=format_b) as b:
        return (events_of(a), model_of(a)), (events_of(b), model_of(b))
