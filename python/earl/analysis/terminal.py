"""The terminal view of a Report: the metric tree with times and percentages, then the
worst call paths and locations of each pattern found (rich; plain text when piped)."""


def _children(report):
    children = {}
    for metric, info in report.metrics.items():
        children.setdefault(info["parent"], []).append(metric)
    return children


def render(report, console, top=5):
    from rich.table import Table
    from rich.tree import Tree

    total_time = report.total("time")
    pct = (lambda v: 100.0 * v / total_time) if total_time > 0 else (lambda v: 0.0)
    console.print(f"[bold]{report.file}[/bold] ({report.format}): {report.events} events, "
                  f"{len(report.locations)} locations, {total_time:.6f} s in total")
    if report.clock_jumps is not None:
        console.print(f"clocks corrected (controlled logical clock): {report.clock_jumps} events "
                      f"moved forward by a message or collective")
    children = _children(report)

    def label(metric):
        info, value = report.metrics[metric], report.total(metric)
        if info["unit"] == "sec":
            text = f"{info['id']}  {value:.6f} s  {pct(value):5.1f}%"
        else:
            text = f"{info['id']}  {value:.0f} {info['unit']}"
        if info["pattern"]:
            text += f"  ({report.instances(metric)} instances)"
            if value > 0:
                text = f"[bold red]{text}[/bold red]"
        return text

    def grow(node, metric):
        for child in children.get(metric, []):
            grow(node.add(label(child)), child)

    for root in children.get(None, []):
        tree = Tree(label(root))
        grow(tree, root)
        console.print(tree)

    found = sorted((m for m in report.patterns() if report.total(m) > 0),
                   key=lambda m: -report.total(m))
    for metric in found:
        table = Table(title=f"{metric}: {report.total(metric):.6f} s, "
                            f"{report.instances(metric)} instances", title_justify="left")
        table.add_column("call path")
        table.add_column("seconds", justify="right")
        for path, value in list(report.by_callpath(metric).items())[:top]:
            table.add_row(path, f"{value:.6f}")
        console.print(table)
        locations = sorted(report.by_location(metric).items(), key=lambda kv: -kv[1])[:top]
        console.print("  worst locations: " + ", ".join(
            f"{report.location_name(loc)} {value:.6f} s" for loc, value in locations))
    problems = {k: v for k, v in report.problems.items() if v}
    if problems:
        console.print("[yellow]problems:[/yellow] " + ", ".join(f"{k} {v}" for k, v in problems.items()))
