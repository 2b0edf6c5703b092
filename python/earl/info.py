"""`earl info`: what a trace holds, at a glance."""
import earl
from earl import clock_options

SHOWN_REGIONS = 10  # per group; Score-P defines every MPI function


def _span(trace):
    if len(trace) == 0:
        return None
    return trace.event(1)["time"], trace.event(len(trace))["time"]


def _size(count):
    for unit in ("bytes", "KiB", "MiB"):
        if count < 1024 or unit == "MiB":
            return f"{count} {unit}" if unit == "bytes" else f"{count:.1f} {unit}"
        count /= 1024
    return None


def describe(trace, shown_locations=None):
    """The description `earl info` prints; `shown_locations` limits the locations listed
    by name (the rest are counted)."""
    lines = [f"file:      {trace.file()}", f"format:    {trace.format()}",
             f"events:    {len(trace)}"]
    span = _span(trace)
    if span:
        lines.append(f"time:      {span[0]:.6f} s .. {span[1]:.6f} s "
                     f"({span[1] - span[0]:.6f} s)")
    lines.append(f"locations: {trace.nrlocs()}")
    listed = trace.nrlocs() if shown_locations is None else min(trace.nrlocs(), shown_locations)
    for loc in range(listed):
        name = trace.locsym(loc)
        lines.append(f"  {loc:>4}  {name if name != loc else ''}".rstrip())
    if listed < trace.nrlocs():
        lines.append(f"  ... ({trace.nrlocs() - listed} more)")
    lines.append(f"types:     {', '.join(trace.types())}")
    for group in trace.groups():
        regions = trace.regions(group)
        shown = ", ".join(regions[:SHOWN_REGIONS])
        if len(regions) > SHOWN_REGIONS:
            shown += f", ... ({len(regions) - SHOWN_REGIONS} more)"
        lines.append(f"regions:   {len(regions)} in group {group}: {shown}")
    marks = trace.bookmarks()
    lines.append(f"bookmarks: {marks['count']} ({marks['checkpoints']} full), "
                 f"{_size(marks['memory'])} of {_size(marks['budget'])}, "
                 f"bdist {marks['bdist']}")
    lines.append(f"index:     {index_line(trace.index_info())}")
    correction = trace.time_correction()
    if correction is not None:
        lines.append(f"clocks:    corrected (controlled logical clock, min latency "
                     f"{correction['min_latency']:g} s): {correction['jumps']} events moved "
                     f"forward, at most {correction['max_shift']:.6g} s")
    problems = trace.problems()
    total = sum(kind["count"] for kind in problems.values())
    if total == 0:
        lines.append("problems:  none")
    else:
        lines.append("problems:")
        for name, kind in problems.items():
            if kind["count"]:
                first = ", ".join(str(p) for p in kind["first"])
                lines.append(f"  {name.replace('_', ' ')}: {kind['count']} (first at {first})")
    return "\n".join(lines)


def index_line(info):
    """What the persisted index did, in one line."""
    text = info["state"]
    if info["path"] and info["state"] != "off":
        text += f" ({info['path']})"
    if info["note"]:
        text += f": {info['note']}"
    return text


# ------------------------------------------------------------------ the `info` command
HELP = "describe traces: format, locations, events, ..."


def configure(parser):
    parser.add_argument("traces", nargs="+", metavar="TRACE")
    parser.add_argument("--format", default=None, help="trace format (default: detect)")
    parser.add_argument("--memory", default=None, type=int, metavar="BYTES",
                        help="bytes the bookmarks may hold (default: $EARL_MEMORY, else 256 MiB)")
    parser.add_argument("--no-cache", action="store_true",
                        help="read OTF2 directly instead of through EARL's event cache in $TMPDIR")
    parser.add_argument("--no-index", action="store_true",
                        help="neither read nor write the persisted index (like EARL_INDEX=0)")
    clock_options.add_arguments(parser)


def run(args):
    for index, path in enumerate(args.traces):
        if index:
            print()
        with earl.EventTrace(path, format=args.format, cache=not args.no_cache,
                             memory=args.memory, index=False if args.no_index else None,
                             **clock_options.keywords(args)) as trace:
            print(describe(trace))
    return 0
