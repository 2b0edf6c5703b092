"""The bottom toolbar and the prompt: where the iterator stands (position / total, time,
location, type, region) and the language code is typed in."""
from earl.repl.render import location_name, time_text


def region_of(trace, event):
    """The region the event names, else the one it happens in (its enterptr's)."""
    if "region" in event:
        return event["region"]
    if event["enterptr"]:
        return trace.event(event["enterptr"]).get("region", "-")
    return "-"


def toolbar(session):
    trace = session.trace
    language = f" {session.language} "
    if session.closed:
        return [("class:toolbar", " the trace is closed: :quit ends the session "),
                ("class:toolbar", "|" + language)]
    here = trace.iterator
    if not here:
        return [("class:toolbar", f" 0 / {session.size}  at the start: :next steps in "),
                ("class:toolbar", "|" + language)]
    event = trace.event()
    name = location_name(trace, event["loc"])
    parts = [f" {here} / {session.size} ", f" {time_text(event['time'])} s ",
             f" loc {event['loc']}{' ' + name if name else ''} ", f" {event['type']} ",
             f" {region_of(trace, event)} ", language]
    return [("class:toolbar", "|".join(parts))]


def prompt(session):
    return [("class:prompt", f"{session.language} {session.position}> ")]
