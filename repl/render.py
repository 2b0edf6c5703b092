"""What the REPL shows of a trace: one event (brief or in full, pointers followed), the
stacks, the message queue and the system state at the iterator (`:where`).

Everything is built as prompt_toolkit formatted text, a list of (style, text) pairs: on a
terminal it prints in colour (STYLE), elsewhere `plain()` gives the same text without it.
All of it reads the trace at the iterator or at explicit positions through random access;
nothing scans the trace.
"""
from prompt_toolkit.styles import Style

STYLE = Style.from_dict({
    "pos": "#5f87ff bold", "time": "#00af87", "loc": "#d7af00", "type": "bold",
    "region": "#ff8700", "pointer": "#af5fff", "key": "#8a8a8a", "dim": "#8a8a8a",
    "heading": "bold", "error": "#ff5f5f", "current": "reverse",
    "toolbar": "bg:#303030 #d0d0d0", "status": "bg:#303030 #d0d0d0",
    "cursor-column": "bg:#444444",
})

# The common attributes every event has (DESIGN.md section 1), shown in the brief's
# columns; pointer attributes end in "ptr" and location-valued ones are named here.
COMMON = ("pos", "loc", "time", "type", "enterptr")
LOCATION_ATTRIBUTES = ("loc", "src", "dest", "peer", "root")


class Text:
    """Formatted text under construction."""

    def __init__(self):
        self.fragments = []

    def add(self, text, style=""):
        self.fragments.append((f"class:{style}" if style else "", str(text)))
        return self

    def line(self, text="", style=""):
        if text:
            self.add(text, style)
        return self.add("\n")

    def extend(self, other):
        self.fragments.extend(other.fragments if isinstance(other, Text) else other)
        return self

    def __iter__(self):
        return iter(self.fragments)


def plain(fragments):
    return "".join(text for _, text in fragments)


def time_text(seconds):
    return f"{seconds:.9f}"


def location_name(trace, loc):
    """The location's name, or "" where the trace has none (locsym gives the number)."""
    name = trace.locsym(loc)
    return "" if name == loc else str(name)


def value_text(value):
    return "-" if value is None else str(value)


def brief(trace, event, text=None):
    """One line: position, time, location, type, and the type's own attributes."""
    text = Text() if text is None else text
    text.add(f"{event['pos']:>{len(str(len(trace)))}}", "pos").add("  ").add(time_text(event["time"]), "time")
    text.add("  ").add(f"loc {event['loc']:<3}", "loc").add(" ").add(f"{event['type']:<6}", "type")
    for key, value in event.items():
        if key in COMMON:
            continue
        if key == "region":
            text.add(" ").add(value, "region")
        else:
            style = "pointer" if key.endswith("ptr") else "loc" if key in LOCATION_ATTRIBUTES else ""
            text.add(" ").add(f"{key}=", "key").add(value_text(value), style)
    return text


def event_view(trace, pos):
    """The event at `pos` in full, one attribute a line, aligned; a pointer is followed
    to the event it names, a location shows its name."""
    event = trace.event(pos)
    text = Text().add("event ", "heading").add(pos, "pos").line(f" of {len(trace)}", "heading")
    width = max(len(key) for key in event)
    for key, value in event.items():
        text.add(f"  {key:<{width}}  ", "key")
        if key.endswith("ptr"):
            text.add(f"{value:<8}", "pointer")
            if value:
                text.add(" -> ", "dim")
                brief(trace, trace.event(value), text)
        elif key in LOCATION_ATTRIBUTES and isinstance(value, int) and 0 <= value < trace.nrlocs():
            text.add(f"{value:<8}", "loc").add(" " + location_name(trace, value), "dim")
        elif key == "time":
            text.add(time_text(value), "time").add(" s", "dim")
        elif key == "region":
            text.add(value, "region")
        elif key == "type":
            text.add(value, "type")
        else:
            text.add(value_text(value))
        text.line()
    return text


def _location_heading(trace, loc, text):
    name = location_name(trace, loc)
    text.add(f"loc {loc}", "loc")
    if name:
        text.add(f"  {name}", "dim")


def stack_lines(trace, loc, text, indent="  "):
    """The region stack of `loc` at the iterator, outermost first: the enter's position,
    its time and the region."""
    stack = trace.stack(loc)
    if not stack:
        return text.line(f"{indent}(empty)", "dim")
    for pos in stack:
        enter = trace.event(pos)
        text.add(indent).add(f"{pos:>{len(str(len(trace)))}}", "pos").add("  ").add(time_text(enter["time"]), "time")
        text.add("  ").line(enter.get("region", enter["type"]), "region")
    return text


def stack_view(trace, loc=None):
    locations = range(trace.nrlocs()) if loc is None else [loc]
    text = Text().line(f"stacks after event {trace.iterator}:", "heading")
    for each in locations:
        _location_heading(trace, each, text)
        text.line()
        stack_lines(trace, each, text)
    return text


def queue_view(trace, src=-1, dest=-1):
    """The sends not yet received at the iterator, oldest first."""
    queue = trace.queue(src, dest)
    which = "" if src == dest == -1 else f" from {'any' if src < 0 else src} to {'any' if dest < 0 else dest}"
    count = f"{len(queue)} message{'s' if len(queue) != 1 else ''}"
    text = Text().line(f"{count} in flight{which} after event {trace.iterator}", "heading")
    for pos in queue:
        brief(trace, trace.event(pos), text).line()
    return text


def region_path(trace, loc, separator=" > "):
    """The regions open on `loc` at the iterator, outermost first, and the time the
    innermost was entered (None when the stack is empty)."""
    stack = trace.stack(loc)
    if not stack:
        return "", None
    names = [trace.event(pos).get("region", "?") for pos in stack]
    return separator.join(names), trace.event(stack[-1])["time"]


def where_view(trace, locations=None):
    """The system state at the iterator: the current event, every location's stack (or
    those of `locations`) and the messages in flight."""
    text = Text()
    here = trace.iterator
    if here == 0:
        text.line("at the start (position 0): no event yet; every stack is empty", "heading")
    else:
        text.line("at", "heading")
        brief(trace, trace.event(here), text).line()
    current_loc = trace.event(here)["loc"] if here else None
    width = len(str(trace.nrlocs() - 1))
    for loc in range(trace.nrlocs()) if locations is None else locations:
        marker = "*" if loc == current_loc else " "
        path, since = region_path(trace, loc)
        text.add(f"{marker} ").add(f"loc {loc:>{width}}", "loc").add("  ")
        if path:
            text.add(path, "region").add("  since ", "dim").add(time_text(since), "time")
        else:
            text.add("(no region)", "dim")
        name = location_name(trace, loc)
        if name:
            text.add(f"  [{name}]", "dim")
        text.line()
    in_flight = len(trace.queue(-1, -1)) if here else 0
    text.line(f"{in_flight} message{'s' if in_flight != 1 else ''} in flight", "dim")
    return text
