"""A text picture of every location around the current time (PARvis' timeline, seed 003):
one row per location, one column per slice of time, the current time in the middle.

A cell shows the deepest region open on that location during its slice (a letter; the
legend names the regions), `>` where the location sent a message, `<` where it received
one. The messages in flight at the iterator follow as arrows. Only the events near the
iterator are read (random access), so the picture costs the same anywhere in any trace.
"""
from earl.repl.render import Text, time_text

SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
MARKERS = {"send": ">", "recv": "<"}
EVENTS_PER_COLUMN = 4  # events read on each side of the iterator, per column of width


def duration_text(seconds):
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def window(trace, here, width, half_span=None):
    """(start time, end time, the events in between) for a picture centred on event
    `here`. By default half the span is the time to the nearer of the events
    EVENTS_PER_COLUMN * width positions before and after it; at most four times that many
    events are read on either side, whatever the span."""
    size = len(trace)
    reach = EVENTS_PER_COLUMN * width
    centre = trace.event(here)["time"]
    if half_span is None:
        earliest = trace.event(max(1, here - reach))["time"]
        latest = trace.event(min(size, here + reach))["time"]
        before, after = centre - earliest, latest - centre
        half_span = min(before, after) if before > 0 and after > 0 else max(before, after)
        half_span = half_span if half_span > 0 else 1e-6
        # near either end of the trace, the window ends there rather than showing nothing
        start = max(centre - half_span, earliest if here - reach <= 1 else centre - half_span)
        end = min(centre + half_span, latest if here + reach >= size else centre + half_span)
        if end <= start:
            end = start + 1e-6
    else:
        start, end = centre - half_span, centre + half_span
    earlier, later = [], []
    pos = here - 1
    while pos >= 1 and here - pos <= 4 * reach:
        event = trace.event(pos)
        if event["time"] < start:
            break
        earlier.append(event)
        pos -= 1
    pos = here
    while pos <= size and pos - here <= 4 * reach:
        event = trace.event(pos)
        if event["time"] > end:
            break
        later.append(event)
        pos += 1
    return start, end, earlier[::-1] + later


def letter(region, letters):
    """The region's letter in `letters` (region -> letter), given it when first seen: the
    caller keeps `letters` so a region keeps its letter whatever the picture shows."""
    if region not in letters:
        count = len(letters)
        letters[region] = SYMBOLS[count] if count < len(SYMBOLS) else "?"
    return letters[region]


def picture(trace, width, locations=None, half_span=None, messages=None, letters=None):
    """The timeline as formatted text: `width` columns of time, one row for each of
    `locations` (default: all), `half_span` seconds either side of the current event
    (default: fitted to the events near it), at most `messages` messages in flight
    listed (default: all). `letters` (region -> letter) names the regions; regions not
    in it yet get the next letters, left to right (default: a new one)."""
    letters = {} if letters is None else letters
    text = Text()
    size = len(trace)
    if size == 0:
        return text.line("the trace has no events", "dim")
    here = trace.iterator or 1
    start, end, events = window(trace, here, width, half_span)
    step = (end - start) / width
    column = lambda t: min(width - 1, max(0, int((t - start) / step)))
    locations = list(range(trace.nrlocs())) if locations is None else list(locations)
    rows = set(locations)

    first_pos = events[0]["pos"] if events else here
    stacks, cells, marks, filled = {}, {}, {}, {}
    names = {}  # enter position -> region, read when first needed

    def region_of(enter_pos):
        if enter_pos not in names:
            names[enter_pos] = trace.event(enter_pos).get("region", "?")
        return names[enter_pos]

    for loc in locations:
        stacks[loc] = list(trace.stack(loc, first_pos - 1))
        cells[loc] = [None] * width
        marks[loc] = {}
        filled[loc] = -1

    def settle(loc, upto):
        """Columns after the last one touched up to `upto` get the stack's innermost."""
        top = (len(stacks[loc]), stacks[loc][-1]) if stacks[loc] else None
        for c in range(filled[loc] + 1, upto + 1):
            cells[loc][c] = top
        filled[loc] = max(filled[loc], upto)

    for event in events:
        loc = event["loc"]
        if loc not in rows:
            continue
        c = column(event["time"])
        settle(loc, c)
        kind = event["type"]
        if kind == "enter":
            stacks[loc].append(event["pos"])
            depth = len(stacks[loc])
            if cells[loc][c] is None or cells[loc][c][0] < depth:
                cells[loc][c] = (depth, event["pos"])
        elif kind == "exit" and stacks[loc]:
            stacks[loc].pop()
        if kind in MARKERS:
            marks[loc][c] = MARKERS[kind]
    for loc in locations:
        settle(loc, width - 1)

    symbols = {}  # the regions shown -> their letters
    for c in range(width):
        for loc in locations:
            cell = cells[loc][c]
            if cell is not None:
                region = region_of(cell[1])
                if region not in symbols:
                    symbols[region] = letter(region, letters)

    here_event = trace.event(here)
    here_column = column(here_event["time"])
    label = max(len(str(loc)) for loc in locations) if locations else 1
    text.add("time ", "heading").add(time_text(start), "time").add(" .. ").add(time_text(end), "time")
    text.add(f"  ({duration_text(end - start)}, {duration_text(step)} a column)", "dim").line()
    text.add(" " * (label + 2 + here_column)).add("v", "current")
    text.add(f" event {here} at ", "dim").add(time_text(here_event["time"]), "time").line()
    for loc in locations:
        text.add(f"{loc:>{label}} |", "loc")
        for c in range(width):
            cell, mark = cells[loc][c], marks[loc].get(c)
            if mark:
                symbol = mark
            elif cell is None:
                symbol = " "
            else:
                symbol = symbols[region_of(cell[1])]
            style = "current" if (c == here_column and loc == here_event["loc"]) else \
                "cursor-column" if c == here_column else "pointer" if mark else "region" if cell else ""
            text.add(symbol, style)
        text.line("|", "loc")
    text.add(" " * (label + 2 + here_column)).line("^", "current")
    if symbols:
        legend = "  ".join(f"{symbol} {region}" for region, symbol in letters.items()
                           if region in symbols)  # in the order of the letters
        text.add("regions: ", "dim").line(legend)
    text.line("> send  < receive  v^ the current time", "dim")
    _in_flight(trace, text, messages)
    return text


def _in_flight(trace, text, shown):
    """The messages in flight at the iterator as arrows from sender to receiver."""
    if not trace.iterator:
        return
    queue = trace.queue(-1, -1)
    text.line(f"{len(queue)} message{'s' if len(queue) != 1 else ''} in flight", "heading")
    for pos in queue[:shown]:
        send = trace.event(pos)
        text.add(f"  {send['loc']:>3} ", "loc").add("---->", "pointer").add(f" {send['dest']:<3}", "loc")
        text.add(f"  tag {send['tag']}  len {send['len']}  sent at event ")
        text.add(pos, "pos").add(" ").line(time_text(send["time"]), "time")
