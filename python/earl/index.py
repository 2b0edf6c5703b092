"""Persisted indexes (EventTrace's `index`): removing them (`earl index clean`) and saying
when one was just written."""
import os
import sys

from earl import _core


def clean(paths):
    """Removes indexes as `earl index clean PATH...` does; returns the files removed."""
    removed = []
    if not paths:
        for directory in _core.index_directories():
            removed += _core.remove_indexes_in(directory)
        return removed
    for path in paths:
        path = os.fspath(path)
        if os.path.isfile(path) and path.endswith(".earlidx"):
            os.remove(path)
            removed.append(path)
            continue
        found = _core.remove_index(path)
        if not found and os.path.isdir(path):
            found = _core.remove_indexes_in(path)
        removed += found
    return removed


def note_new_index(trace, stream=None):
    """Says once, on a terminal, that opening `trace` wrote an index file (the next open
    reads it, so the note does not come again): where, how large, how to turn it off.
    Nothing when `stream` (default: stderr) is not a terminal, so scripts and pipes see
    only what they asked for."""
    stream = sys.stderr if stream is None else stream
    info = trace.index_info()
    if info["state"] not in ("built", "rebuilt") or not info["path"] or not stream.isatty():
        return
    try:
        size = f" ({os.path.getsize(info['path']) / 2**20:.1f} MiB)"
    except OSError:
        size = ""
    print(f"earl: wrote an index of {trace.file()} to {info['path']}{size}, so that it opens "
          "fast next time; --no-index or EARL_INDEX=0 turns this off, earl index clean "
          "removes it", file=stream)
