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


def text_description(fields, records, text=(), key="k", extra=()):
    """A text format's description in TOML, from compact parts: `fields` the common ones,
    each "NAME TYPE [UNIT] [optional]"; `records` dicts of a record kind's keys (values
    written as TOML: a str quoted, else as is); `text` lines of [text]; `extra` lines of
    [records] after the key."""
    lines = ['[format]', 'name = "t"', 'kind = "text"']
    if text:
        lines += ["[text]", *text]
    for spec in fields:
        name, kind, *more = spec.split()
        lines += ["[[field]]", f'name = "{name}"', f'type = "{kind}"']
        lines += ["optional = true" if word == "optional" else f'unit = "{word}"' for word in more]
    lines += ["[records]", f'key = "{key}"', *extra]
    for record in records:
        lines.append("[[record]]")
        lines += [f'{k} = "{v}"' if isinstance(v, str) else f"{k} = {v}" for k, v in record.items()]
    return "\n".join(lines) + "\n"
