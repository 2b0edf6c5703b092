"""Removes persisted indexes (EventTrace's `index`): what `earl index clean` does."""
import os

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
