#!/usr/bin/env python3
"""Messages passed out of order (EARL 2.0 reference, Part III, section 8).

A receiver that takes messages in another order than they were sent makes the
older ones wait in a buffer (Grindstone test suite). At every receive, the
message queue from the sender to the receiver is checked for messages sent
before the one just received: positions follow time, so a queued send with a
smaller position than the receive's sendptr is older. Each such receive is
reported with the tags of the older messages it overtook.

    python scripts/messages_out_of_order.py TRACE
    earl run scripts/messages_out_of_order.py TRACE
"""
import sys

from earl import EarlError, EventTrace


def messages_out_of_order(e):
    """Returns [(pos, time, src, dest, tag, [tags of older queued messages])]."""
    findings = []
    e.reset()
    while e.next():
        curr = e.event()
        if curr["type"] != "recv":
            continue
        older = [e.event(send)["tag"] for send in e.queue(curr["src"], curr["loc"])
                 if send < curr["sendptr"]]
        if older:
            findings.append((curr["pos"], curr["time"], curr["src"], curr["loc"],
                             curr["tag"], older))
    return findings


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        sys.exit("usage: messages_out_of_order.py TRACE")
    try:
        e = EventTrace(argv[0])
    except EarlError as error:
        sys.exit(f"messages_out_of_order.py: {error}")
    findings = messages_out_of_order(e)
    for pos, time, src, dest, tag, older in findings:
        print(f"event {pos} at {time:.6f} s: location {dest} received tag {tag} from "
              f"location {src} before older tag(s) {', '.join(map(str, older))}")
    overtaken = sum(len(f[-1]) for f in findings)
    print(f"{e.file()}: {len(findings)} messages received out of order "
          f"({overtaken} older messages overtaken).")
    return findings


if __name__ == "__main__":
    main()
