"""`earl info`: what a trace holds, at a glance."""
import earl

SHOWN_REGIONS = 10  # per group; Score-P defines every MPI function


def _span(trace):
    if len(trace) == 0:
        return None
    return trace.event(1)["time"], trace.event(len(trace))["time"]


def describe(trace):
    lines = [f"file:      {trace.file()}", f"format:    {trace.format()}",
             f"events:    {len(trace)}"]
    span = _span(trace)
    if span:
        lines.append(f"time:      {span[0]:.6f} s .. {span[1]:.6f} s "
                     f"({span[1] - span[0]:.6f} s)")
    lines.append(f"locations: {trace.nrlocs()}")
    for loc in range(trace.nrlocs()):
        name = trace.locsym(loc)
        lines.append(f"  {loc:>4}  {name if name != loc else ''}".rstrip())
    lines.append(f"types:     {', '.join(trace.types())}")
    for group in trace.groups():
        regions = trace.regions(group)
        shown = ", ".join(regions[:SHOWN_REGIONS])
        if len(regions) > SHOWN_REGIONS:
            shown += f", ... ({len(regions) - SHOWN_REGIONS} more)"
        lines.append(f"regions:   {len(regions)} in group {group}: {shown}")
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


# ------------------------------------------------------------------ the `info` command
HELP = "describe traces: format, locations, events, ..."


def configure(parser):
    parser.add_argument("traces", nargs="+", metavar="TRACE")
    parser.add_argument("--format", default=None, help="trace format (default: detect)")
    parser.add_argument("--no-cache", action="store_true",
                        help="read OTF2 directly instead of through EARL's event cache in $TMPDIR")


def run(args):
    for index, path in enumerate(args.traces):
        if index:
            print()
        with earl.EventTrace(path, format=args.format, cache=not args.no_cache) as trace:
            print(describe(trace))
    return 0
