"""`earl check TRACE`: the face of earl.check."""
import argparse
import json

import earl
from earl import open_arguments
from earl.validation import load_rules, violations

HELP = "check a trace: time order, enter/exit, messages, collectives, definitions, your rules"
DESCRIPTION = """\
Check TRACE in one pass and print each violation (position, location, time, kind and a
sentence), at most --max of each kind, then how many of each kind were found. Exit status
1 if any, 0 if the trace is clean. Kinds:
  time_order             time goes back on a location
  exit_without_enter     an exit with no region open on its location
  mismatched_exit        an exit of another region than the innermost open one
  unclosed_region        a region entered and never exited (at the enter)
  unmatched_recv         a receive no send matches
  unreceived_send        a send no receive matches
  clock_condition        a receive before its send; an exit of an N-to-N collective
                         before the last enter of its instance
  incomplete_collective  a collective instance some members of its communicator miss
  unresolved_reference   a record referring to an undefined region, communicator, rank
  damaged                a location whose events end early (a damaged file)
  rule                   a rule of --rules FILE that does not hold"""
EPILOG = """\
--rules FILE: TOML with one [[rule]] table per assertion:
  [[rule]]
  name = "receives from rank 0 carry tag 5"
  language = "python"                           # or "lua" (default python)
  when = 'ev.type == "recv" and ev.src == 0'    # optional: the events it is about
  assert = "ev.tag == 5"                        # must hold for each of them
ev.duration is an exit's time minus its enter's ("MPI_Barrier never lasts longer than
1 s": when = 'ev.type == "exit" and ev.region == "MPI_Barrier"', assert =
"ev.duration <= 1").
--json prints one object: file, events, counts {kind: number} (every violation counted),
violations [{kind, pos, loc, time, message, rule}] (at most --max of each kind; rule: the
rule's name, null for the standard checks), rules [names], time_corrected (whether the
times checked are those --time-correct corrected: a receive before its send or an early
collective exit is then moved, no longer a clock_condition; every other check is the
same)."""


def configure(parser):
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = EPILOG
    parser.add_argument("trace", metavar="TRACE")
    parser.add_argument("--rules", default=None, metavar="FILE",
                        help="also check the assertions of FILE (TOML, below)")
    parser.add_argument("--max", type=int, default=10, metavar="N",
                        help="violations shown of each kind (default 10; 0: only the counts)")
    parser.add_argument("--json", action="store_true", help="print one JSON object (below)")
    open_arguments.add_format(parser)
    open_arguments.add_reading(parser)
    # --time-correct checks the corrected times (the trace's own are the default): only
    # the clock conditions it restores change
    open_arguments.add_correction(parser)


def _line(v, width):
    return f"{v['pos']:>{width}}  loc {v['loc']:<3} {v['time']:.9f} s  {v['kind']}: {v['message']}"


def run(args):
    if args.max < 0:
        raise earl.EarlError(f"--max {args.max}: expected 0 or more")
    rules = load_rules(args.rules) if args.rules else None
    with earl.EventTrace(args.trace, **open_arguments.keywords(args)) as trace:
        counts, shown = {}, []
        for violation in violations(trace, rules):
            kind = violation["kind"]
            counts[kind] = counts.get(kind, 0) + 1
            if counts[kind] <= args.max:
                shown.append(violation)
        shown.sort(key=lambda v: (v["pos"], v["kind"]))
        names = [rule["name"] for rule in rules or []]
        if args.json:
            for violation in shown:
                if violation["rule"] is not None:
                    violation["rule"] = names[violation["rule"]]
            print(json.dumps({"file": trace.file(), "events": len(trace), "counts": counts,
                              "violations": shown, "rules": names,
                              "time_corrected": bool(args.time_correct)}))
        else:
            width = len(str(len(trace)))
            for violation in shown:
                print(_line(violation, width))
            for kind, count in counts.items():
                hidden = count - min(count, args.max)
                more = f" ({hidden} not shown)" if hidden else ""
                print(f"{kind}: {count}{more}")
            if not counts:
                print(f"{trace.file()}: no violations in {len(trace)} events")
    return 1 if counts else 0
