"""The two larger views of the HTML report, as inline SVG/HTML: the source x destination
communication matrix and the timeline of the worst wait instances."""
import html

from earl.analysis.formatting import byte_size, counted, seconds

# One colour per wait state on the timeline (any other takes OTHER).
PALETTE = {"mpi_latesender": "#c33", "mpi_latereceiver": "#e80", "mpi_barrier_wait": "#36c",
           "mpi_barrier_completion": "#69d", "mpi_wait_nxn": "#393", "mpi_nxn_completion": "#7b7",
           "mpi_latebroadcast": "#93c", "mpi_earlyreduce": "#c6c", "mpi_earlyscan": "#966",
           "mpi_finalize_wait": "#555", "mpi_rma_wait_at_fence": "#0aa", "mpi_rma_early_wait": "#a50",
           "mpi_rma_late_complete": "#d93", "mpi_rma_sync_late_post": "#5a0",
           "mpi_rma_sync_lock_competition": "#a0a", "mpi_rma_early_fence": "#077",
           "mpi_rma_comm_late_post": "#8b3", "mpi_rma_comm_lock_competition": "#c0c"}
OTHER = "#999"
MAX_MATRIX = 64   # locations shown in the matrix (the busiest), so large runs stay readable


def communication_matrix(report):
    """A table, one row per source and one column per destination: bytes and messages sent,
    the cell shaded by its bytes."""
    cells = {(src, dest): (b, n) for src, dest, b, n in report.traffic()}
    if not cells:
        return "<p class='comm-none'>no point-to-point messages</p>"
    volume = {}
    for (src, dest), (b, _) in cells.items():
        volume[src] = volume.get(src, 0) + b
        volume[dest] = volume.get(dest, 0) + b
    shown = sorted(sorted(volume, key=lambda l: -volume[l])[:MAX_MATRIX])
    note = (f"<p>the {len(shown)} busiest of {len(volume)} locations</p>"
            if len(volume) > len(shown) else "")
    top = max(b for b, _ in cells.values()) or 1
    head = "".join(f"<th>{html.escape(report.location_name(d))}</th>" for d in shown)
    rows = []
    for src in shown:
        tds = []
        for dest in shown:
            b, n = cells.get((src, dest), (0, 0))
            if n == 0:
                tds.append("<td class='empty'></td>")
                continue
            alpha = 0.15 + 0.85 * b / top
            tds.append(f"<td class='cell' data-src='{src}' data-dest='{dest}' data-bytes='{b}' "
                       f"data-messages='{n}' style='background:rgba(204,51,51,{alpha:.2f})' "
                       f"title='{html.escape(report.location_name(src))} to "
                       f"{html.escape(report.location_name(dest))}: {counted(b, 'byte')} in "
                       f"{counted(n, 'message')}'>"
                       f"{byte_size(b)}<br><small>{counted(n, 'message')}</small></td>")
        rows.append(f"<tr><th>{html.escape(report.location_name(src))}</th>{''.join(tds)}</tr>")
    return (note + "<table class='comm-matrix'><tr><th>source \\ destination</th>" + head + "</tr>"
            + "".join(rows) + "</table>")


def timeline(report, width=900, row=22):
    """One row per location and one bar per wait instance, from its begin for its idle
    time, coloured by pattern; hovering names metric, call path and seconds. The location
    names sit in their own column, laid out by the browser beside the plot's rows, so
    they never cover each other or the bars whatever their length."""
    worst = report.worst_instances()
    if not worst:
        return "<p class='timeline-none'>no wait instances</p>"
    t0 = min(w["begin"] for w in worst)
    t1 = max(w["begin"] + w["idle"] for w in worst)
    span = (t1 - t0) or 1.0
    locs = sorted({w["location"] for w in worst})
    y_of = {loc: i for i, loc in enumerate(locs)}
    labels = "".join(f'<div class="timeline-label" style="height:{row}px;line-height:{row}px" '
                     f'title="{html.escape(report.location_name(loc))}">'
                     f'{html.escape(report.location_name(loc))}</div>' for loc in locs)
    parts = [f'<svg class="timeline" width="{width + 20}" height="{row * len(locs) + 40}" '
             'shape-rendering="crispEdges">']
    for i in y_of.values():
        parts.append(f'<line x1="0" x2="{width}" y1="{i * row + row - 2}" '
                     f'y2="{i * row + row - 2}" stroke="#ddd"/>')
    for w in worst:
        x = round(width * (w["begin"] - t0) / span)
        bar = max(2, round(width * w["idle"] / span))  # whole pixels: crisp, visible
        color = PALETTE.get(w["metric"], OTHER)
        label = f"{w['metric']} at {w['callpath']}, {report.location_name(w['location'])}: " \
                f"{seconds(w['idle'])} s from {seconds(w['begin'])} s"
        parts.append(f'<rect class="wait" data-metric="{w["metric"]}" x="{x}" '
                     f'y="{y_of[w["location"]] * row + 3}" width="{bar}" height="{row - 8}" '
                     f'fill="{color}"><title>{html.escape(label)}</title></rect>')
    axis = len(locs) * row + 15
    parts.append(f'<text x="0" y="{axis}" font-size="11">{seconds(t0)} s</text>'
                 f'<text x="{width}" y="{axis}" font-size="11" text-anchor="end">{seconds(t1)} s</text>')
    parts.append("</svg>")
    legend = "".join(f'<span style="color:{PALETTE.get(m, OTHER)}">&#9632; {m}</span> '
                     for m in sorted({w["metric"] for w in worst}))
    return (f"<p>{counted(len(worst), 'longest wait instance')}. {legend}</p>"
            f"<div class='timeline-grid'><div class='timeline-labels'>{labels}</div>"
            + "".join(parts) + "</div>")
