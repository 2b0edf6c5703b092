"""Cube4 (.cubex) output: a ustar tar of anchor.xml and, per metric, <id>.index and
<id>.data (pycubexr's docs/cube_file_format.md describes the layout; no library on the
registries writes it). The Cube GUI and pycubexr open it.

Values along the call tree are exclusive (metric type EXCLUSIVE, rows in depth-first
pre-order). Along the metric tree Cube stores each metric's own part and shows a collapsed
metric as the sum of its subtree, so a metric's stored value is its report value minus its
children's (late sender's own part is late sender time that is not wrong order).
Each hardware counter of the report is a root metric of its own, named as the trace names
it (as Score-P's profiles name PAPI counters), with the trace's unit and its exclusive
values; Cube shows a call path's inclusive value as its subtree's sum.
"""
import io
import struct
import tarfile
import time
from typing import NamedTuple, Optional
from xml.sax.saxutils import escape

from earl import _core

_INDEX_HEADER, _DATA_HEADER = b"CUBEX.INDEX", b"CUBEX.DATA"
_SPARSE_INDEX = 1


class _CubeMetric(NamedTuple):
    uniq: str                  # Cube's unique name: the metric id, or the counter's name
    name: str
    unit: str
    integer: bool              # INTEGER data (else FLOAT)
    description: str
    parent: Optional[str]      # uniq of its parent in the metric tree
    values: dict               # {(callpath id, location): value Cube stores}


def _cube_metrics(report):
    """Every metric the file holds, parents before children: the metric tree, then one
    per counter (named "counter:NAME" where its name is a metric id already)."""
    out = [_CubeMetric(m, info["name"], info["unit"], info["unit"] != "sec", info["description"],
                       info["parent"], metric_own_values(report, m))
           for m, info in report.metrics.items()]
    taken = set(report.metrics)
    for name, counter in report.counters.items():
        uniq = name if name not in taken else f"counter:{name}"
        taken.add(uniq)
        values = {}
        for cp, loc, v in counter["exclusive"]:
            values[cp, loc] = values.get((cp, loc), 0.0) + v
        out.append(_CubeMetric(uniq, name, counter["unit"], counter["value_type"] != "double",
                               counter["description"], None, values))
    return out


def _call_tree(report, cube_metrics):
    """(regions, preorder) where preorder lists (cnode id, region id, depth); adds a root
    region "(trace)" when the trace has several roots or events outside any region."""
    children = {}
    for cp, parent in enumerate(report.callpath_parents):
        children.setdefault(parent, []).append(cp)
    outside = any(cp < 0 for m in cube_metrics for cp, _ in m.values)
    roots = children.get(-1, [])
    names = list(report.raw["regions"])
    order = []  # (callpath id or -1 for the artificial root, region index, depth)

    def walk(cp, depth):
        order.append((cp, report.raw["callpaths"][cp].region, depth))
        for child in children.get(cp, []):
            walk(child, depth + 1)

    if outside or len(roots) != 1:
        names.append("(trace)")
        order.append((-1, len(names) - 1, 0))
        for root in roots:
            walk(root, 1)
    else:
        walk(roots[0], 0)
    return names, order


def _metric_xml(cube_metrics, ids, metric, indent):
    pad = " " * indent
    lines = [f'{pad}<metric id="{ids[metric.uniq]}" type="EXCLUSIVE">',
             f"{pad} <disp_name>{escape(metric.name)}</disp_name>",
             f"{pad} <uniq_name>{escape(metric.uniq)}</uniq_name>",
             f"{pad} <dtype>{'INTEGER' if metric.integer else 'FLOAT'}</dtype>",
             f"{pad} <uom>{escape(metric.unit)}</uom>",
             f"{pad} <url></url>",
             f"{pad} <descr>{escape(metric.description)}</descr>"]
    for child in (m for m in cube_metrics if m.parent == metric.uniq):
        lines += _metric_xml(cube_metrics, ids, child, indent + 1)
    lines.append(f"{pad}</metric>")
    return lines


def _anchor(report, cube_metrics, ids, names, order):
    out = ['<?xml version="1.0" encoding="UTF-8"?>', '<cube version="4.4">',
           ' <attr key="Creator" value="EARL (earl analyze)"/>',
           f' <attr key="CUBE_CT_AGGR" value="SUM"/>',
           f' <doc><mirrors><murl></murl></mirrors></doc>', " <metrics>"]
    for metric in cube_metrics:
        if metric.parent is None:
            out += _metric_xml(cube_metrics, ids, metric, 2)
    out += [" </metrics>", " <program>"]
    for rid, name in enumerate(names):
        out += [f'  <region id="{rid}" mod="" begin="-1" end="-1">',
                f"   <name>{escape(name)}</name>", f"   <mangled_name>{escape(name)}</mangled_name>",
                "   <paradigm>unknown</paradigm>", "   <role>function</role>",
                "   <url></url>", "   <descr></descr>", "  </region>"]
    depth_open = []
    for cnode, (_, region, depth) in enumerate(order):
        while depth_open and depth_open[-1] >= depth:
            out.append("  " + " " * depth_open.pop() + "</cnode>")
        out.append("  " + " " * depth + f'<cnode id="{cnode}" calleeId="{region}">')
        depth_open.append(depth)
    while depth_open:
        out.append("  " + " " * depth_open.pop() + "</cnode>")
    out += [" </program>", " <system>", '  <systemtreenode Id="0">', "   <name>machine</name>",
            "   <class>machine</class>"]
    for loc in range(len(report.locations)):
        name = escape(report.location_name(loc))
        out += [f'   <locationgroup Id="{loc}">', f"    <name>{name}</name>",
                f"    <rank>{loc}</rank>", "    <type>process</type>",
                f'    <location Id="{loc}">', f"     <name>{name}</name>", "     <rank>0</rank>",
                "     <type>thread</type>", "    </location>", "   </locationgroup>"]
    out += ["  </systemtreenode>", " </system>", "</cube>", ""]
    return "\n".join(out).encode()


def metric_own_values(report, metric):
    """{(callpath id, location): value} of `metric` minus its metric children: what Cube stores."""
    own = {}
    for cp, loc, v in report.cells(metric):
        own[cp, loc] = own.get((cp, loc), 0.0) + v
    for child, info in report.metrics.items():
        if info["parent"] == metric:
            for cp, loc, v in report.cells(child):
                own[cp, loc] = own.get((cp, loc), 0.0) - v
    return own


def write_cube(report, path):
    """Write `report` as a Cube4 file at `path` (EarlError when it cannot be written)."""
    cube_metrics = _cube_metrics(report)
    names, order = _call_tree(report, cube_metrics)
    ids = {m.uniq: i for i, m in enumerate(cube_metrics)}
    row_of = {cp: row for row, (cp, _, _) in enumerate(order)}
    nlocs = len(report.locations)
    members = []
    for metric in cube_metrics:
        values = [0.0] * (len(order) * nlocs)
        for (cp, loc), v in metric.values.items():
            values[row_of[cp] * nlocs + loc] += v
        fmt = "q" if metric.integer else "d"
        if fmt == "q":
            values = [int(round(v)) for v in values]
        index = (_INDEX_HEADER + struct.pack("<iHBi", 1, 0, _SPARSE_INDEX, len(order))
                 + struct.pack(f"<{len(order)}i", *range(len(order))))
        data = _DATA_HEADER + struct.pack(f"<{len(values)}{fmt}", *values)
        members += [(f"{ids[metric.uniq]}.index", index), (f"{ids[metric.uniq]}.data", data)]
    members.append(("anchor.xml", _anchor(report, cube_metrics, ids, names, order)))
    try:
        with tarfile.open(path, "w", format=tarfile.USTAR_FORMAT) as tar:
            for name, content in members:
                info = tarfile.TarInfo(name)
                info.size, info.mtime, info.mode = len(content), int(time.time()), 0o644
                tar.addfile(info, io.BytesIO(content))
    except OSError as error:
        raise _core.EarlError(f"cannot write '{path}': {error.strerror or error}") from None
