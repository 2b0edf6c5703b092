"""`earl formats`: the trace formats this build reads and writes, from the format registry
(cpp/registry; Python keeps no list of its own)."""
import json

from earl import _core

HELP = "list the trace formats this build reads and writes, and what to install for the rest"
DESCRIPTION = ("List every trace format EARL knows: its name (what -f/--format and "
               "format= take), whether this build reads and writes it, the file endings "
               "that imply it, and, for a format this build cannot handle, what to install. "
               "Formats are detected from a file's content; the endings only choose the "
               "output format of `earl gen` and `earl convert`.")


def configure(parser):
    parser.add_argument("--json", action="store_true",
                        help="print the registry's rows as JSON (one object per format)")


def _yes(flag):
    return "yes" if flag else "no"


def run(args):
    rows = _core.formats()
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    header = ("format", "reads", "writes", "files", "what it is")
    table = [(row["name"] + "".join(f" ({alias})" for alias in row["aliases"]),
              _yes(row["reads"]), _yes(row["writes"]), " ".join(row["extensions"]) or "-",
              row["description"]) for row in rows]
    widths = [max(len(line[i]) for line in [header] + table) for i in range(4)]
    for line in [header] + table:
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths)) + "  " + line[4])
    missing = [row for row in rows if row["unavailable"]]
    if missing:
        print()
        for row in missing:
            print(f"{row['name']}: {row['unavailable']}")
    return 0
