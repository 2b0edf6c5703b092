"""`earl convert IN OUT`: rewrite a trace in another format where the EARL model allows it.

    from earl.convert import convert
    summary = convert("run.alog", "run.otf2")      # ALOG -> OTF2 (libotf2)
    summary = convert("scorep/traces.otf2", "x.alog")   # OTF2 -> ALOG

The output format comes from `format`, else the one OUT's ending implies (`earl formats`
lists them), else IN's format;
IN's format is detected from its content. IN is read through EventTrace and streamed, so
memory stays bounded. Kept: enter, exit, send, recv, location names, regions; collective
exits become plain exits in ALOG. Between OTF2 and EPILOG also fork/join, puts with their
completions, window locks, window-collective calls and non-blocking requests (EPILOG has
no lock-request or request records: those are dropped and counted). Events the output cannot hold (a receive from an unknown
source, a tag or length beyond its fields) are left out and names with bytes it cannot carry
are written escaped, both counted (docs/robustness.md#names). Times are integer microseconds: ALOG -> OTF2 exactly
(timer resolution 1e6), OTF2 -> ALOG rounded. Every other event type is dropped and
counted in the summary (``summary["dropped"]``: type -> count); the command prints it. The
details are in cpp/convert/convert.h.
"""
import os

from earl import _core

__all__ = ["convert", "describe"]


def convert(input, output, format=None, strict=False, wait_states=False,
            wait_states_limit=None):
    """Convert the trace `input` into `output`; returns the summary dict (input_format,
    output_format, events_read, events_written, dropped {type: count},
    refused {reason: count} [events of a kept type the output cannot hold as they are, e.g.
    "recv from an unknown source": left out], renamed {kind: count} [names holding bytes the
    output cannot carry, written with those bytes as \\xNN: "region", "location",
    "process", "thread", "program"], collective_exits_plain, times_rounded, ties_reordered,
    frame_events_added [OTF2: the
    enters and exits of the zero-length MPI_Init/MPI_Finalize added to the MPI processes
    without MPI_Init], damaged [what the input's damage left out, one line each]). A damaged input is converted up to the damage, or
    with `strict` is an error. Errors raise earl.EarlError naming the file; a partial
    output is removed.

    `wait_states`: EARL's wait-state analysis (earl.analyze) of `input` runs first and each
    wait instance it finds is written as a slice on a track "<thread> wait states" beside its
    location, named by its pattern, with args metric, callpath, idle (Chrome JSON output only:
    any other output format is an error). The longest `wait_states_limit` (None: 10^6, the
    engine's default) are written: summary["wait_states_written"], and
    summary["wait_states_left_out"] counts the rest."""
    return _core.convert(os.fspath(input), os.fspath(output), format, strict, wait_states,
                         wait_states_limit)


def describe(input, output, summary):
    """The summary as the command prints it: what was written and everything dropped."""
    lines = ["earl convert: %s (%s) -> %s (%s): %d of %d events written"
             % (input, summary["input_format"], output, summary["output_format"],
                summary["events_written"], summary["events_read"])]
    dropped = summary["dropped"]
    if dropped:
        lines.append("  dropped (no %s equivalent): %s"
                     % (summary["output_format"].upper(),
                        ", ".join("%s %d" % (t, n) for t, n in dropped.items())))
    refused = summary["refused"]
    if refused:
        lines.append("  not written (%s cannot hold them): %s"
                     % (summary["output_format"].upper(),
                        ", ".join("%s %d" % (why, n) for why, n in refused.items())))
    renamed = summary["renamed"]
    if renamed:
        lines.append("  names with bytes %s cannot hold, written with them as \\xNN: %s"
                     % (summary["output_format"].upper(),
                        ", ".join("%s %d" % (kind, n) for kind, n in renamed.items())))
    if summary["collective_exits_plain"]:
        lines.append("  %d collective exits written as plain exits (com, root, sent, recvd, "
                     "collbegin, collend dropped)" % summary["collective_exits_plain"])
    if summary["times_rounded"]:
        lines.append("  %d event times rounded to whole microseconds"
                     % summary["times_rounded"])
    for line in summary["damaged"]:
        lines.append(f"  not converted, the input is damaged: {line}")
    if summary["wait_states_written"] or summary["wait_states_left_out"]:
        lines.append("  %d wait states written as slices" % summary["wait_states_written"] +
                     (", the %d shortest left out" % summary["wait_states_left_out"]
                      if summary["wait_states_left_out"] else ""))
    if summary["frame_events_added"]:
        lines.append("  added %d events: a zero-length MPI_Init at the first event and MPI_Finalize "
                     "at the last of each MPI process without MPI_Init (Scalasca needs it)"
                     % summary["frame_events_added"])
    if summary["ties_reordered"]:
        lines.append("  %d events at equal times are reordered by location (OTF2 orders "
                     "equal timestamps by location)" % summary["ties_reordered"])
    return "\n".join(lines)
