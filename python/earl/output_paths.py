"""Outputs never overwrite the trace they come from: compared by file identity (device and
inode), so that a hard link, a symbolic link or another spelling of the path counts, as
`earl convert` compares its output with its input (cpp/convert/convert.cpp)."""
import os

from earl import _core


def _same(a, b):
    try:
        return os.path.samefile(a, b)
    except OSError:      # one of them does not exist (yet): not the same file
        return False


def refuse_trace_files(output, trace):
    """Raises EarlError when writing `output` would overwrite the trace file `trace` or, for
    an OTF2 anchor, its definitions or a file of its archive directory."""
    output, trace = os.fspath(output), os.fspath(trace)
    hit = _same(output, trace)
    if trace.endswith(".otf2"):
        stem = trace[:-len(".otf2")]
        hit = hit or _same(output, stem + ".def") or _same(os.path.dirname(os.path.abspath(output)), stem)
    if hit:
        raise _core.EarlError(f"'{output}' is the trace '{trace}' itself (or a file of its archive); "
                              "choose another output path")
