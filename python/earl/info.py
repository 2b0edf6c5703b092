"""What a trace holds, at a glance: `earl info`'s text (describe) and JSON (summary)."""
SHOWN_REGIONS = 10  # per group, unless all are asked for
# Events per to_numpy() call while looking for the regions in use: small at first (a trace
# that uses all its regions soon stops), doubling up to the last size.
FIRST_CHUNK, LAST_CHUNK = 1 << 14, 1 << 20


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


def regions_used(trace):
    """The names of the regions some event of the trace names (Score-P defines every MPI
    function; a run uses a few)."""
    import numpy  # here, not at import: NumPy starts threads (earl/trace.py says why)

    names = trace.regions()
    used = set()
    first, chunk = 1, FIRST_CHUNK
    while first <= len(trace) and len(used) < len(names):  # all in use: nothing to add
        last = min(first + chunk - 1, len(trace))
        used.update(numpy.unique(trace.to_numpy(first, last)["region"]).tolist())
        used.discard(-1)
        first, chunk = last + 1, min(2 * chunk, LAST_CHUNK)
    return {names[index] for index in used}


def _region_lines(trace, all_regions):
    """One line per group: the regions in use (every one with `all_regions`), and how many
    are defined but unused; groups with none in use share one line at the end."""
    used = regions_used(trace)
    lines, idle = [], []
    for group in trace.groups():
        defined = trace.regions(group)
        shown = defined if all_regions else [name for name in defined if name in used]
        if not shown:
            idle.append(f"{group} ({len(defined)} defined)")
            continue
        text = ", ".join(shown if all_regions else shown[:SHOWN_REGIONS])
        if len(shown) > SHOWN_REGIONS and not all_regions:
            text += f", ... ({len(shown) - SHOWN_REGIONS} more)"
        unused = sum(name not in used for name in defined)
        if unused:
            text += (f" ({len(defined)} {group} regions defined, {len(defined) - unused} used"
                     f"{'' if all_regions else '; --all lists all'})")
        lines.append(f"regions:   {len(shown)} in group {group}: {text}")
    if idle:
        lines.append(f"regions:   none in use in group{'s' if len(idle) > 1 else ''} "
                     f"{', '.join(idle)} (--all lists them)")
    return lines


def _location_name(trace, loc):
    name = trace.locsym(loc)
    return None if name == loc else name


def summary(trace):
    """What `earl info --json` prints for one trace, as a dict: the schema is in
    earl/commands/info.py's DESCRIPTION."""
    span = _span(trace)
    used = regions_used(trace)
    return {
        "file": trace.file(),
        "format": trace.format(),
        "events": len(trace),
        "time": None if span is None else {"first": span[0], "last": span[1],
                                           "span": span[1] - span[0]},
        "locations": [{"index": loc, "name": _location_name(trace, loc)}
                      for loc in range(trace.nrlocs())],
        "types": trace.types(),
        "regions": {group: {"used": [n for n in trace.regions(group) if n in used],
                            "unused": [n for n in trace.regions(group) if n not in used]}
                    for group in trace.groups()},
        "metrics": _metrics(trace),
        "problems": trace.problems(),
        "bookmarks": trace.bookmarks(),
        "index": trace.index_info(),
        "clocks": trace.time_correction(),
    }


def _metrics(trace):
    """The trace's counter definitions as dicts with name, unit, ... (EventTrace.metrics(),
    issue 20 point 7); [] from a build that does not read them yet."""
    metrics = getattr(trace, "metrics", None)
    return [dict(m) for m in metrics()] if metrics is not None else []


def describe(trace, shown_locations=None, all_regions=False):
    """The description `earl info` prints; `shown_locations` limits the locations listed
    by name (the rest are counted); the regions listed are those in use, with how many are
    defined but unused (`all_regions`: every region defined)."""
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
    metrics = _metrics(trace)
    if metrics:
        lines.append("metrics:   " + ", ".join(
            f"{m['name']} ({m['unit']})" if m.get("unit") else m["name"] for m in metrics))
    lines += _region_lines(trace, all_regions)
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
