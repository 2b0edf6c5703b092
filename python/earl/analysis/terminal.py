"""The terminal view of a Report: the metric tree as a table (times, percentages, instance
counts in aligned columns), then the worst call paths and locations of each pattern found.
Rows that print as zero are hidden unless asked for; piped output is plain and never wraps."""
import re

from earl.analysis.counter_view import counter_heading, counter_rows
from earl.analysis.formatting import (counted, metric_value, patterns_found, prints_as_zero,
                                      seconds)

_TRAILING_SPACES = re.compile(r" +\n")
# Wide enough that no line of a report wraps when the output goes to a file or a pipe.
_PIPE_WIDTH = 100_000


def console_for(stream):
    """A rich Console for `stream`: the terminal's width on a terminal; no wrapping and no
    colour when it is a file or pipe (a line of the report stays one line for grep)."""
    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self):
            """The reader of the report went away: rich would exit with status 1; the
            command line's one rule for it (earl/cli.py: quiet, 141) decides instead."""
            self.quiet = True
            raise BrokenPipeError

    if stream.isatty():
        return _Console(file=stream)
    return _Console(file=_WithoutTrailingSpaces(stream), width=_PIPE_WIDTH, soft_wrap=True,
                    no_color=True, highlight=False)


class _WithoutTrailingSpaces:
    """A stream that drops the spaces rich pads table rows with at their end (rich writes
    whole lines), so piped output diffs and greps cleanly."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        return self._stream.write(_TRAILING_SPACES.sub("\n", text))

    def flush(self):
        self._stream.flush()

    def isatty(self):
        return False

    def fileno(self):
        return self._stream.fileno()


def _children(report):
    children = {}
    for metric, info in report.metrics.items():
        children.setdefault(info["parent"], []).append(metric)
    return children


def _is_empty(report, metric):
    """Nothing to say: the value prints as zero and no instance was found."""
    info = report.metrics[metric]
    return (prints_as_zero(report.total(metric), info["unit"])
            and not (info["pattern"] and report.instances(metric)))


def shown_metrics(report, show_all=False):
    """[(metric, tree prefix)] of the rows the metric tree shows, in tree order, and how
    many were hidden: a row is hidden when it and its whole subtree are empty."""
    children = _children(report)
    keep = {}

    def visit(metric):
        kept_children = [visit(c) for c in children.get(metric, [])]
        keep[metric] = show_all or not _is_empty(report, metric) or any(kept_children)
        return keep[metric]

    roots = children.get(None, [])
    for root in roots:
        visit(root)
    rows = []

    def walk(metric, prefix, branch):
        rows.append((metric, prefix + branch))
        kids = [c for c in children.get(metric, []) if keep[c]]
        below = prefix + {"": "", "├── ": "│   ", "└── ": "    "}[branch]
        for i, child in enumerate(kids):
            walk(child, below, "└── " if i == len(kids) - 1 else "├── ")

    for root in roots:
        if keep[root]:
            walk(root, "", "")
    return rows, sum(1 for kept in keep.values() if not kept)


def _metric_table(report, show_all):
    from rich.table import Table
    from rich.text import Text

    total_time = report.total("time")
    table = Table(box=None, pad_edge=False, show_edge=False, header_style="bold")
    for name, justify in (("metric", "left"), ("value", "right"), ("unit", "left"),
                          ("%", "right"), ("instances", "right")):
        table.add_column(name, justify=justify, no_wrap=True)
    rows, hidden = shown_metrics(report, show_all)
    for metric, prefix in rows:
        info, value = report.metrics[metric], report.total(metric)
        unit = info["unit"]
        share = f"{100.0 * value / total_time:.1f}" if unit == "sec" and total_time > 0 else ""
        found = info["pattern"] and not prints_as_zero(value, unit)
        table.add_row(Text(prefix + metric), metric_value(value, unit), "s" if unit == "sec" else unit,
                      share, str(report.instances(metric)) if info["pattern"] else "",
                      style="bold red" if found else None)
    return table, hidden


def _pattern_section(report, console, metric, top):
    from rich.table import Table
    from rich.text import Text

    total = report.total(metric)
    console.print()
    console.print(Text(f"{metric}: {seconds(total)} s, "
                       f"{counted(report.instances(metric), 'instance')}", style="bold"))
    table = Table(pad_edge=True)
    table.add_column("call path", no_wrap=True)
    table.add_column("seconds", justify="right", no_wrap=True)
    table.add_column("%", justify="right", no_wrap=True)
    paths = list(report.by_callpath(metric).items())
    for path, value in paths[:top]:
        table.add_row(Text(path), seconds(value), f"{100.0 * value / total:.1f}")
    console.print(table)
    if len(paths) > top:
        console.print(f"  and {counted(len(paths) - top, 'more call path')} (--top shows more)")
    locations = sorted(report.by_location(metric).items(), key=lambda kv: -kv[1])
    console.print(Text("  worst locations: " + ", ".join(
        f"{report.location_name(loc)} {seconds(value)} s" for loc, value in locations[:top])
        + (f", and {len(locations) - top} more" if len(locations) > top else "")))


def _counter_section(report, console, name, top):
    from rich.table import Table
    from rich.text import Text

    console.print()
    console.print(Text(counter_heading(report, name), style="bold"))
    table = Table(pad_edge=True)
    table.add_column("call path", no_wrap=True)
    for column in ("inclusive", "exclusive", "%"):
        table.add_column(column, justify="right", no_wrap=True)
    rows, more = counter_rows(report, name, top)
    for path, inclusive, exclusive, share in rows:
        table.add_row(Text(path), inclusive, exclusive, share)
    console.print(table)
    if more:
        console.print(f"  and {counted(more, 'more call path')} (--top shows more)")


def render(report, console, top=5, show_all=False):
    """Print `report` on the rich `console`: `top` call paths and locations per pattern;
    `show_all` keeps the metric rows that print as zero."""
    from rich.text import Text

    console.print(Text.assemble(
        (str(report.file), "bold"),
        f" ({report.format}): {counted(report.events, 'event')}, "
        f"{counted(len(report.locations), 'location')}, {seconds(report.total('time'))} s in total"))
    if report.clock_jumps is not None:
        console.print(f"clocks corrected (controlled logical clock): "
                      f"{counted(report.clock_jumps, 'event')} moved forward by a message or "
                      f"collective")
    table, hidden = _metric_table(report, show_all)
    console.print(table)
    if hidden:
        console.print(f"({counted(hidden, 'metric')} with nothing found hidden; --all shows them)")
    for metric in patterns_found(report):
        _pattern_section(report, console, metric, top)
    for name in report.counters:
        _counter_section(report, console, name, top)
    problems = {k: v for k, v in report.problems.items() if v}
    if problems:
        console.print(Text.assemble(("problems:", "yellow"), " " + ", ".join(
            f"{k} {v}" for k, v in problems.items())))
    for line in report.damaged:
        console.print(Text.assemble(("damaged:", "yellow"), " " + line))
