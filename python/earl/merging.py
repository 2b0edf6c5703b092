"""`earl merge OUT IN...`: local traces of separate processes joined into one global trace.

    import earl
    summary = earl.merge("all.otf2", ["rank0.alog", "rank1.alog"], estimate=True)
    summary = earl.merge("cs.otf2", ["client.otf2", "server.otf2"],
                         offsets={"server.otf2": -0.0021}, locations="renumber")
    summary = earl.merge("all.otf2", ["r0.log", "r1.log"], input_format="described:alog")

The C++ core does the work (cpp/convert/merge.h says what is kept, how locations are
numbered and how offsets are estimated); this module only shapes the arguments and prints
the summary.
"""
import numbers
import os

from earl import _core

__all__ = ["merge", "describe", "parse_offset", "parse_input_formats"]


def parse_offset(text):
    """`IN=SECONDS` (the command line's --offset) -> (IN, seconds); EarlError otherwise."""
    path, sep, value = text.rpartition("=")
    if not sep or not path:
        raise _core.EarlError(f"--offset {text!r}: expected IN=SECONDS, e.g. rank1.alog=0.0025")
    try:
        seconds = float(value)
    except ValueError:
        raise _core.EarlError(f"--offset {text!r}: {value!r} is no number of seconds") from None
    return path, seconds


def _per_input(inputs, given, what):
    """One value (or None) per input, from a list or a {path: value} dict."""
    if given is None:
        return [None] * len(inputs)
    if isinstance(given, dict):
        by_path = {os.fspath(p): v for p, v in given.items()}
        unknown = sorted(set(by_path) - set(inputs))
        if unknown:
            raise _core.EarlError("%s given for %s, which is no input (inputs: %s)"
                                  % (what, ", ".join(map(repr, unknown)), ", ".join(inputs)))
        return [by_path.get(p) for p in inputs]
    values = list(given)
    if len(values) != len(inputs):
        raise _core.EarlError("%ss: %d given for %d inputs" % (what, len(values), len(inputs)))
    return values


def _offsets(inputs, offsets):
    """One offset (or None) per input, from a list or a {path: seconds} dict."""
    values = _per_input(inputs, offsets, "offset")
    for path, value in zip(inputs, values):
        if value is not None and (isinstance(value, bool) or not isinstance(value, numbers.Real)):
            raise _core.EarlError(f"offset of {path!r}: {value!r} is no number of seconds")
    return [None if v is None else float(v) for v in values]


def _input_formats(inputs, input_format):
    """One format (or None: detect) per input: one format for all, or per input as a list
    or a {path: format} dict."""
    if isinstance(input_format, str):
        return [input_format] * len(inputs)
    values = _per_input(inputs, input_format, "input format")
    for path, value in zip(inputs, values):
        if value is not None and not isinstance(value, str):
            raise _core.EarlError(f"input format of {path!r}: {value!r} is no format name")
    return values


def parse_input_formats(texts, inputs):
    """The command line's --input-format [IN=]FMT (repeatable) -> {path: format}: IN=FMT
    for the input IN, FMT for every input not named."""
    every, named = None, {}
    for text in texts:
        # The longest input the text begins with, so that a format holding "=" (a
        # description's path) is no input's.
        path = max((p for p in inputs if text.startswith(p + "=")), key=len, default=None)
        if path is None:
            if every is not None:
                raise _core.EarlError(f"--input-format {text!r}: a format for every input is "
                                      f"given already ({every!r}); name the input: IN=FMT")
            every = text
        elif path in named:
            raise _core.EarlError(f"--input-format {text!r}: input {path!r} has a format already")
        else:
            named[path] = text[len(path) + 1:]
    return {p: named.get(p, every) for p in inputs}


def merge(output, inputs, offsets=None, estimate=False, format=None, locations="auto",
          input_format=None):
    """Merge the traces `inputs` into `output` (format from `format`, else output's suffix,
    else the first input's); returns the summary dict (output_format, locations_kept,
    locations, events_written, dropped {type: count}, refused {reason: count}, inputs: per
    input path, format, events, first_location, locations, event_locations [its locations
    with events, its own numbers], offset [seconds applied], how
    ["given", "reference", "estimated", "bound", "unlinked", "none"], low/high [the
    estimate's interval, or None], messages, linked_to [the reference's index or None]).

    `offsets`: seconds added to an input's times, a {path: seconds} dict or one value (or
    None) per input. `estimate`: the offsets not given are estimated from messages between
    inputs. `locations`: "keep" (per-rank pieces of one run keep their location numbers),
    "renumber" (each input's locations get their own numbers, in input order) or "auto"
    (keep when no location has events in two inputs). `input_format`: the inputs' format
    (None: detected from each one's content; described formats must be named), one for all
    inputs, or per input as a list or a {path: format} dict."""
    if isinstance(inputs, (str, bytes, os.PathLike)):
        inputs = [inputs]
    paths = [os.fspath(p) for p in inputs]
    for p in paths:
        _core.check_path(p, "input")
        if not os.path.exists(p):
            raise _core.EarlError(f"earl merge: input {p!r} does not exist")
    return _core.merge(os.fspath(output), paths, _offsets(paths, offsets), format, locations,
                       bool(estimate), _input_formats(paths, input_format))


def _seconds(value):
    return "%+.6f s" % value


def _locations(summary, info):
    """Renumbered: the output's range; kept: the locations the input has events on."""
    if not summary["locations_kept"]:
        return "locations %d..%d" % (info["first_location"],
                                     info["first_location"] + info["locations"] - 1)
    own = info["event_locations"]
    shown = ", ".join(map(str, own[:8])) + (", ..." if len(own) > 8 else "")
    return ("location " if len(own) == 1 else "locations ") + (shown or "none")


def describe(output, summary):
    """The summary as `earl merge` prints it: one line per input with its offset."""
    mode = "kept" if summary["locations_kept"] else "renumbered"
    lines = ["earl merge: %d inputs -> %s (%s): %d events, %d locations (%s)"
             % (len(summary["inputs"]), output, summary["output_format"],
                summary["events_written"], summary["locations"], mode)]
    for i, info in enumerate(summary["inputs"]):
        line = "  [%d] %s (%s, %d events, %s): offset %s" % (
            i, info["path"], info["format"], info["events"], _locations(summary, info),
            _seconds(info["offset"]))
        how = info["how"]
        if how in ("estimated", "bound"):
            low = "-inf" if info["low"] is None else _seconds(info["low"])
            high = "+inf" if info["high"] is None else _seconds(info["high"])
            line += " %s from %d messages, interval [%s, %s] relative to input %d" % (
                "estimated" if how == "estimated" else "bound (messages one way only)",
                info["messages"], low, high, info["linked_to"])
            if info["low"] is not None and info["high"] is not None and info["low"] > info["high"]:
                line += " (the bounds contradict each other: drifting clocks?)"
        elif how == "unlinked":
            line += " (no message links it to the reference: not estimated)"
        elif how != "none":
            line += " (%s)" % how
        lines.append(line)
    if summary["dropped"]:
        lines.append("  dropped: " + ", ".join("%s %d" % kv for kv in summary["dropped"].items()))
    if summary["refused"]:
        lines.append("  not written: " + ", ".join("%s %d" % kv for kv in summary["refused"].items()))
    return "\n".join(lines)
