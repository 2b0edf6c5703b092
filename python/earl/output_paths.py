"""Outputs never overwrite the trace they come from: the same rule, by file identity, as
`earl convert` applies to its output (cpp/convert/trace_files.h)."""
import os

from earl import _core


def refuse_trace_files(output, trace):
    """Raises EarlError when writing `output` would overwrite the trace `trace` or, for an
    OTF2 anchor, its definitions or a file of its archive directory."""
    if _core.overwrites_trace(trace, output):
        raise _core.EarlError(f"'{os.fsdecode(output)}' is the trace '{os.fsdecode(trace)}' itself (or a file "
                              "of its archive); choose another output path")
