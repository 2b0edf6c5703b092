"""`earl stats`'s views of earl.stats()'s tables: aligned text, JSON, and one figure."""
import math

# What each table is called in the text and the figure.
TITLES = {
    "types": "event types",
    "flat_profile": "flat profile (seconds; imbalance = max/mean - 1 over locations)",
    "time_profile": "time profile (exclusive seconds per time bin)",
    "message_sizes": "message sizes (bytes)",
    "message_count": "messages sent (rows: sender, columns: receiver)",
    "message_bytes": "bytes sent (rows: sender, columns: receiver)",
    "traffic": "traffic over time (sent)",
}


def top_regions(tables, top, by="inclusive"):
    """The `top` regions of most `by` time (all with top None): the flat profile shows
    those of most inclusive time, the time profile those of most exclusive time (where the
    time is spent, not which callers enclose it)."""
    flat = tables["flat_profile"].sort_values(by, ascending=False, kind="stable")
    regions = list(flat["region"])
    return regions if top is None else regions[:top]


def text(tables, top=None):
    """Every table, each under its title; the flat and time profiles limited to the `top`
    regions."""
    shown = dict(tables)
    shown["flat_profile"] = tables["flat_profile"].head(len(top_regions(tables, top)))
    profile = tables["time_profile"]
    shown["time_profile"] = profile[["begin", "end"] + top_regions(tables, top, "exclusive")]
    parts = []
    for name, frame in shown.items():
        body = "(none)" if frame.empty else frame.to_string(
            index=name.startswith("message_") and name != "message_sizes",
            float_format=lambda x: f"{x:.6f}")
        parts.append(f"{TITLES[name]}:\n{body}")
    return "\n\n".join(parts)


def _plain(value):
    """A JSON value of a NumPy or Python scalar (NaN and infinities as null)."""
    value = value.item() if hasattr(value, "item") else value
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _records(frame):
    return [{str(k): _plain(v) for k, v in row.items()} for row in frame.to_dict(orient="records")]


def to_json(tables, trace):
    """The JSON object of `earl stats --json` (schema: earl/commands/stats.py)."""
    profile = tables["time_profile"]
    return {
        "file": trace.file(),
        "format": trace.format(),
        "events": len(trace),
        "types": _records(tables["types"]),
        "flat_profile": _records(tables["flat_profile"]),
        "time_profile": {
            "bins": _records(profile[["begin", "end"]]),
            "regions": {str(name): [_plain(v) for v in profile[name]]
                        for name in profile.columns[2:]},
        },
        "message_sizes": _records(tables["message_sizes"]),
        "message_count": [[_plain(v) for v in row] for row in tables["message_count"].to_numpy()],
        "message_bytes": [[_plain(v) for v in row] for row in tables["message_bytes"].to_numpy()],
        "traffic": _records(tables["traffic"]),
    }


def plot(tables, path, top=10, trace_file=None):
    """One figure with four panels: flat profile, time profile, message matrix by bytes,
    message sizes; PNG, or the format the name's suffix says (.svg, .pdf). Written as every
    EARL output is (earl/output_paths.py): never over the trace `trace_file`, and whole or
    not at all."""
    import os

    from earl.optional import require
    from earl.output_paths import refuse_trace_files, staged_output

    if trace_file is not None:
        refuse_trace_files(path, trace_file)

    matplotlib = require("matplotlib", "earl stats --plot")
    matplotlib.use("Agg")  # headless: no display needed
    import matplotlib.pyplot as plt

    from matplotlib.ticker import MaxNLocator

    figure, axes = plt.subplots(2, 2, figsize=(14, 9))
    flat = tables["flat_profile"].head(len(top_regions(tables, top)))
    axes[0, 0].barh(flat["region"].astype(str), flat["exclusive"], label="exclusive")
    axes[0, 0].barh(flat["region"].astype(str), flat["inclusive"] - flat["exclusive"],
                    left=flat["exclusive"], label="called regions")
    axes[0, 0].invert_yaxis()
    axes[0, 0].set(title="flat profile", xlabel="seconds")
    axes[0, 0].legend(fontsize="small")
    profile = tables["time_profile"]
    regions = top_regions(tables, top, "exclusive")
    if regions:
        middle = (profile["begin"] + profile["end"]) / 2
        axes[0, 1].stackplot(middle, *[profile[r] for r in regions], labels=[str(r) for r in regions])
        axes[0, 1].legend(fontsize="x-small", loc="upper right")
    axes[0, 1].set(title="time profile", xlabel="time (s)", ylabel="exclusive seconds per bin")
    matrix = tables["message_bytes"].to_numpy()
    image = axes[1, 0].imshow(matrix, cmap="viridis", aspect="auto")
    figure.colorbar(image, ax=axes[1, 0], label="bytes")
    axes[1, 0].set(title="bytes sent", xlabel="receiver", ylabel="sender")
    axes[1, 0].xaxis.set_major_locator(MaxNLocator(integer=True))
    axes[1, 0].yaxis.set_major_locator(MaxNLocator(integer=True))
    sizes = tables["message_sizes"]
    axes[1, 1].bar([str(m) for m in sizes["min"]], sizes["messages"])
    axes[1, 1].set(title="message sizes", xlabel="at least (bytes)", ylabel="messages")
    figure.tight_layout()
    suffix = os.path.splitext(os.fsdecode(path))[1].lstrip(".").lower()
    try:
        with staged_output(path, binary=True) as out:
            figure.savefig(out, format=suffix if suffix in figure.canvas.get_supported_filetypes() else "png")
    finally:
        plt.close(figure)
