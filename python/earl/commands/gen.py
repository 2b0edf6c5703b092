"""`earl gen OUTPUT [OPTIONS]`: the face of earl.generate (one option per row of the
generator's option table)."""
from earl import _core
from earl.generate import generate, options
from earl.progress import ProgressBar

HELP = "write a synthetic trace with known inefficiencies"
DESCRIPTION = ("Write a reproducible synthetic MPI-like trace and a JSON ground truth of the "
               "late senders, out-of-order messages, collective imbalance, bytes and region "
               "times it contains (and, when asked for, the waits at RMA fences and locks).")

# The command line's short spellings of the most used options.
_SHORT = {"locations": "-n", "events": "-e", "seed": "-s", "format": "-f"}
_TYPES = {"int": int, "float": float, "str": str}
_METAVARS = {"int": "N", "float": "X", "str": "NAME"}


def _range(row):
    low, high = row["min"], row["max"]
    show = lambda v: "2^40" if v == 2 ** 40 else ("%g" % v)
    if low is not None and high is not None:
        return "%s..%s" % (show(low), show(high))
    if low is not None:
        return ">= %s" % show(low)
    return None


def _add_option(parser, row):
    flags = [_SHORT[row["name"]]] if row["name"] in _SHORT else []
    flags.append("--" + row["name"].replace("_", "-"))
    kwargs = {"dest": row["name"], "default": row["default"]}
    notes = [_range(row)] if _range(row) else []
    if row["name"] == "format":
        kwargs["default"] = None
        endings = [ending for row in _core.formats() if row["writes"] for ending in row["extensions"]]
        notes.append("supported: %s; default: the format OUTPUT's ending names (%s), else alog"
                     % (", ".join(_core.generator_formats()), ", ".join(endings)))
    elif row["type"] != "bool":
        notes.append("default: %(default)s" if row["default"] is not None else "default: none")
    if row["type"] == "bool":
        kwargs["action"] = "store_true" if not row["default"] else "store_false"
    else:
        kwargs["type"] = _TYPES[row["type"]]
        if row["choices"]:
            kwargs["choices"] = row["choices"]
        else:
            kwargs["metavar"] = _METAVARS[row["type"]]
    kwargs["help"] = row["help"] + (" (%s)" % "; ".join(notes) if notes else "")
    parser.add_argument(*flags, **kwargs)


def configure(parser):
    """The `gen` command's arguments, one per row of the option table."""
    parser.add_argument("output", help="trace file to write")
    parser.add_argument("--truth", metavar="PATH", default=None,
                        help="ground-truth JSON to write (default: OUTPUT.truth.json)")
    groups = {"run": parser,
              "model": parser.add_argument_group("program model and injected inefficiencies")}
    for row in options():
        _add_option(groups[row["group"]], row)
    parser.add_argument("-q", "--quiet", action="store_true", help="print nothing on success")


def _summary(path, truth_path, truth):
    text = ("earl gen: wrote %d events (%d rounds, %d messages) to %s; ground truth in %s\n"
            "  late senders: %d (%.6f s waited); out of order: %d; "
            "collective imbalance: %.6f s waited"
            % (truth["events"], truth["rounds"], truth["messages"], path, truth_path,
               truth["late_sender_count"], truth["late_sender_wait_total"],
               truth["out_of_order_count"], truth["imbalance_wait_total"]))
    if "late_receiver_count" in truth:
        text += "\n  late receivers: %d (%.6f s waited)" % (truth["late_receiver_count"],
                                                         truth["late_receiver_wait_total"])
    for metric, entry in truth.get("collective_patterns", {}).items():
        text += "\n  %s: %d (%.6f s waited)" % (metric, entry["count"], entry["total"])
    rma = truth.get("rma")
    if rma:
        text += ("\n  one-sided: %d fences (%.6f s waited), %d puts, %d lock epochs "
                 "(%d waited %.6f s)" % (rma["fences"], rma["fence_wait_total"], rma["puts"],
                                         rma["locks"], rma["lock_wait_count"], rma["lock_wait_total"]))
    return text


def run(args):
    """`earl gen`: returns 0; errors raise EarlError (the command line prints them)."""
    chosen = {row["name"]: getattr(args, row["name"]) for row in options()}
    truth_path = args.truth if args.truth is not None else args.output + ".truth.json"
    with ProgressBar("generating") as bar:
        truth = generate(args.output, truth_path=truth_path, progress=bar, **chosen)
    if not args.quiet:
        print(_summary(args.output, truth_path, truth))
    return 0
