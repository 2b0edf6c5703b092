"""Where EARL's Python outputs go, by two rules the C++ writers follow too:

- an output never overwrites the trace it comes from (by file identity, the rule of
  `earl convert`, cpp/convert/trace_files.h);
- an output is written under a staging name beside it ("NAME.earl-partial-PID-N",
  cpp/output/staged_output.h, bound as _core.StagedFile) and renamed to its name only when
  whole and flushed to disk: a reader sees the old file or the whole new one; after any failure (no room, an
  error, Ctrl-C) the staging file is removed and an old file under the name is untouched.
"""
import contextlib
import os

from earl import _core


def refuse_trace_files(output, trace):
    """Raises EarlError when writing `output` would overwrite the trace `trace` or, for an
    OTF2 anchor, its definitions or a file of its archive directory."""
    if _core.overwrites_trace(trace, output):
        raise _core.EarlError(f"'{os.fsdecode(output)}' is the trace '{os.fsdecode(trace)}' itself (or a file "
                              "of its archive); choose another output path")


def _cannot_write(path, error):
    return _core.EarlError(f"cannot write '{os.fsdecode(path)}': {error.strerror or error}")


@contextlib.contextmanager
def staged_output(path, binary=False):
    """Yields a file open for writing that becomes `path` when the block ends without an
    exception (flushed, synced to disk, renamed into place by the C++ rule, _core.StagedFile);
    otherwise it is removed. OSError (no room, no permission) becomes EarlError naming `path`."""
    staged = _core.StagedFile(path)  # EarlError: a directory, a NUL, no directory, no permission
    try:
        with (open(staged.staged_path, "wb") if binary else
              open(staged.staged_path, "w", encoding="utf-8", errors="surrogateescape")) as out:
            yield out
        staged.commit()
    except BaseException as error:
        staged.discard()
        if isinstance(error, OSError):
            raise _cannot_write(path, error) from None
        raise
