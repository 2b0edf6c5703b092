#!/usr/bin/env python3
"""Data received per location, as a bar chart (EARL thesis, section 7.4).

Adds up the length of every received message on its receiving location, prints
the totals and draws them as a bar chart (PNG, matplotlib's Agg backend, so no
display is needed). Without matplotlib it prints the totals and says how to get
the chart.

    python scripts/data_received.py TRACE [OUTPUT.png]
    earl run scripts/data_received.py TRACE --output OUTPUT.png
The chart goes to data_received.png in the current directory by default.
"""
import argparse
import os

from earl import EarlError, EventTrace


def data_received(e):
    """Returns the bytes received, a list indexed by location."""
    received = [0] * e.nrlocs()
    e.reset()
    while e.next():
        curr = e.event()
        if curr["type"] == "recv":
            received[curr["loc"]] += curr["len"]
    return received


PLOT_HINT = "not drawn: matplotlib is not installed (pip install 'earl[plot]')"


def draw(e, received, output):
    """Draws the chart into `output`; False when matplotlib is not installed."""
    try:
        import matplotlib
    except ImportError:
        return False
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [str(e.locsym(loc)) for loc in range(len(received))]
    fig, ax = plt.subplots(figsize=(max(5, 0.6 * len(received) + 2), 4))
    bars = ax.bar(labels, [b / 1024 for b in received], color="gray", edgecolor="black")
    ax.bar_label(bars, fmt="%.1f")
    ax.set(xlabel="location", ylabel="data [KBytes]",
           title=f"Data received per location: {os.path.basename(e.file())}")
    fig.tight_layout()
    fig.savefig(output, dpi=100)
    plt.close(fig)
    return True


def location_label(e, loc):
    """'3 (MPI Rank 3 / Master thread)', or '3' where the trace names no location."""
    name = e.locsym(loc)
    return str(loc) if name == loc else f"{loc} ({name})"


def main(argv=None):
    parser = argparse.ArgumentParser(prog="data_received.py", description=__doc__.split("\n")[0])
    parser.add_argument("trace")
    parser.add_argument("output", nargs="?", help="PNG file (default: data_received.png)")
    parser.add_argument("--output", dest="output_option", metavar="OUTPUT")
    args = parser.parse_args(argv)
    output = args.output_option or args.output or "data_received.png"
    try:
        e = EventTrace(args.trace)
    except EarlError as error:
        parser.exit(1, f"data_received.py: {error}\n")
    received = data_received(e)
    labels = [location_label(e, loc) for loc in range(len(received))]
    width = max([20] + [len(label) for label in labels])
    print(f"{'location':<{width}} {'bytes':>14} {'KBytes':>12}")
    for label, count in zip(labels, received):
        print(f"{label:<{width}} {count:>14} {count / 1024:>12.1f}")
    print(f"{e.file()}: {sum(received)} bytes received in total.")
    try:
        drawn = draw(e, received, output)
    except OSError as error:
        parser.exit(1, f"data_received.py: cannot write {output}: {error.strerror or error}\n")
    print(f"bar chart: {output if drawn else PLOT_HINT}")
    return received


if __name__ == "__main__":
    main()
