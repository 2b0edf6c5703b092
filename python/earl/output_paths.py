"""Where EARL's Python outputs go, by two rules the C++ writers follow too:

- an output never overwrites the trace it comes from (by file identity, the rule of
  `earl convert`, cpp/convert/trace_files.h);
- an output is written under a staging name beside it ("NAME.earl-partial-PID-N", the
  naming of cpp/output/staged_output.h) and renamed to its name only when whole and flushed
  to disk: a reader sees the old file or the whole new one; after any failure (no room, an
  error, Ctrl-C) the staging file is removed and an old file under the name is untouched.
"""
import contextlib
import itertools
import os

from earl import _core

_counter = itertools.count()


def refuse_trace_files(output, trace):
    """Raises EarlError when writing `output` would overwrite the trace `trace` or, for an
    OTF2 anchor, its definitions or a file of its archive directory."""
    if _core.overwrites_trace(trace, output):
        raise _core.EarlError(f"'{os.fsdecode(output)}' is the trace '{os.fsdecode(trace)}' itself (or a file "
                              "of its archive); choose another output path")


def _cannot_write(path, error):
    return _core.EarlError(f"cannot write '{os.fsdecode(path)}': {error.strerror or error}")


def _create_staging_file(path):
    """A new file (0666 less the umask, as `open` would make it) under a free staging name."""
    while True:
        staged = f"{path}.earl-partial-{os.getpid()}-{next(_counter)}"
        try:
            return staged, os.open(staged, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
        except FileExistsError:  # a leftover of a killed process of the same pid
            continue


@contextlib.contextmanager
def staged_output(path, binary=False):
    """Yields a file open for writing that becomes `path` when the block ends without an
    exception (flushed, synced to disk, renamed into place); otherwise it is removed.
    OSError (no room, no permission, no directory) becomes EarlError naming `path`."""
    path = os.fspath(path)
    if os.path.isdir(path):
        raise _core.EarlError(f"cannot write '{os.fsdecode(path)}': it is a directory")
    try:
        staged, fd = _create_staging_file(path)
    except OSError as error:
        raise _cannot_write(path, error) from None
    try:
        with (os.fdopen(fd, "wb") if binary else
              os.fdopen(fd, "w", encoding="utf-8", errors="surrogateescape")) as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        os.replace(staged, path)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.remove(staged)
        if isinstance(error, OSError):
            raise _cannot_write(path, error) from None
        raise
    _sync_directory_of(path)


def _sync_directory_of(path):
    """The rename reaches the disk with its directory."""
    with contextlib.suppress(OSError):
        fd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
