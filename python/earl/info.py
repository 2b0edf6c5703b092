"""`earl info`: what a trace holds, at a glance."""

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
