"""anchor.xml of a Cube file: attributes, documentation mirrors, metric tree, regions, call
tree, system tree and the Process x Thread topology, in the layout of scout's file."""
from xml.sax.saxutils import escape, quoteattr

from earl.analysis import cube_scalasca


def anchor_xml(metrics, tree, machine):
    """The anchor of `metrics` (cube.CubeMetric, parents before children; their position is
    their id), `tree` (cube_trees.CallTree) and `machine` (cube_trees.Machine)."""
    out = ['<?xml version="1.0" encoding="UTF-8"?>', "", '<cube version="4.4">',
           '<attr key="CubePL Version" value="1.1"/>',
           '<attr key="Cube Version" value="4.6"/>',
           '<attr key="Creator" value="EARL (earl analyze)"/>',
           '<attr key="CUBE_CT_AGGR" value="SUM"/>',
           "<doc>", "<mirrors>"]
    out += [f"<murl>{escape(url)}</murl>" for url in cube_scalasca.MIRRORS]
    out += ["</mirrors>", "</doc>", "<metrics>"]
    out += _metric_lines(metrics)
    out += ["</metrics>", "<program>"]
    out += _region_lines(tree.regions)
    out += _cnode_lines(tree)
    out += ["</program>", "<system>"]
    out += _system_lines(machine)
    out += ["</system>", "</cube>", ""]
    # The report's names are printable Unicode (earl.analysis.names), as XML 1.0 needs them.
    return "\n".join(out).encode()


def _metric_lines(metrics):
    children = {}
    for number, metric in enumerate(metrics):
        children.setdefault(metric.parent, []).append(number)
    lines = []
    # (metric number, closing?) pairs: iterative, a metric's children nested inside it
    stack = [(number, False) for number in reversed(children.get(None, []))]
    while stack:
        number, closing = stack.pop()
        if closing:
            lines.append("</metric>")
            continue
        metric = metrics[number]
        kind = "INCLUSIVE" if metric.call_tree_inclusive else "EXCLUSIVE"
        lines += [f'<metric id="{number}" type="{kind}">',
                  f"<disp_name>{escape(metric.name)}</disp_name>",
                  f"<uniq_name>{escape(metric.uniq)}</uniq_name>",
                  f"<dtype>{'INTEGER' if metric.integer else 'FLOAT'}</dtype>",
                  f"<uom>{escape(metric.unit)}</uom>",
                  f"<url>{escape(metric.url)}</url>",
                  f"<descr>{escape(metric.description)}</descr>"]
        stack.append((number, True))
        stack += [(child, False) for child in reversed(children.get(metric.uniq, []))]
    return lines


def _region_lines(regions):
    lines = []
    for rid, r in enumerate(regions):
        lines += [f'<region id="{rid}" mod={quoteattr(r.mod)} begin="{r.begin}" end="{r.end}">',
                  f"<name>{escape(r.name)}</name>",
                  f"<mangled_name>{escape(r.mangled_name)}</mangled_name>",
                  f"<paradigm>{escape(r.paradigm)}</paradigm>", f"<role>{escape(r.role)}</role>",
                  "<url></url>", f"<descr>{escape(r.description)}</descr>", "</region>"]
    return lines


def _cnode_lines(tree):
    lines, open_nodes = [], []
    for node, (_, region, parent) in enumerate(tree.cnodes):   # pre-order
        while open_nodes and open_nodes[-1] != parent:
            open_nodes.pop()
            lines.append("</cnode>")
        lines.append(f'<cnode id="{node}" calleeId="{region}">')
        open_nodes.append(node)
    lines += ["</cnode>"] * len(open_nodes)
    return lines


def _system_lines(machine):
    lines = []
    # (level, closing?) pairs: iterative, each level's processes, then its levels, inside it
    stack = [(level, False) for level in reversed(machine.roots)]
    while stack:
        level, closing = stack.pop()
        if closing:
            lines.append("</systemtreenode>")
            continue
        lines += [f'<systemtreenode Id="{level.number}">', f"<name>{escape(level.name)}</name>",
                  f"<class>{escape(level.kind)}</class>"]
        for process in level.processes:
            lines += _process_lines(process)
        stack.append((level, True))
        stack += [(below, False) for below in reversed(level.levels)]
    threads = max((len(p.threads) for p in machine.processes), default=0)
    lines += ['<topologies>', '<cart name="Process x Thread" ndims="2">',
              f'<dim name="Process" size="{len(machine.processes)}" periodic="false"/>',
              f'<dim name="Thread" size="{threads}" periodic="false"/>']
    lines += [f'<coord locId="{loc}">{rank} {thread}</coord>'
              for rank, process in enumerate(machine.processes)
              for thread, (loc, _) in enumerate(process.threads)]
    lines += ["</cart>", "</topologies>"]
    return lines


def _process_lines(process):
    lines = [f'<locationgroup Id="{process.number}">', f"<name>{escape(process.name)}</name>",
             f"<rank>{process.rank}</rank>", "<type>process</type>"]
    for thread, (loc, name) in enumerate(process.threads):
        lines += [f'<location Id="{loc}">', f"<name>{escape(name)}</name>",
                  f"<rank>{thread}</rank>", "<type>thread</type>", "</location>"]
    lines.append("</locationgroup>")
    return lines
