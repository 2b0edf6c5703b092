"""Cube4 (.cubex) output laid out as Scalasca 2.6's trace analyzer (scout) lays out its
scout.cubex, so that a Cube reader (the Cube GUI, pycubexr) shows the same numbers for the
same trace: a ustar tar of, per metric, <id>.index and <id>.data, then anchor.xml
(pycubexr's docs/cube_file_format.md describes the layout; no library on the registries
writes it).

Along the metric tree a metric's stored value includes its children's, as in the report
(Late Sender holds its wrong-order part, `time` all time). Which metrics the file holds,
their parents and which are stored inclusive along the call tree are scout's
(cube_scalasca.py): `time` is INCLUSIVE (a call path holds its callees' time, rows in
Cube's wide-first order), every other metric EXCLUSIVE (rows in depth-first pre-order).
An index lists the rows holding a value (at least one: pycubexr reads no empty index).
Each hardware counter of the report is a root metric of its own (scout stores none), named
as the trace names it, with the trace's unit and its exclusive values.
"""
import io
import struct
import tarfile
import time
from typing import NamedTuple, Optional

from earl.analysis import cube_scalasca
from earl.analysis.cube_anchor import anchor_xml
from earl.analysis.cube_regions import cube_regions
from earl.analysis.cube_trees import call_tree, machine
from earl.output_paths import staged_output

_INDEX_HEADER, _DATA_HEADER = b"CUBEX.INDEX", b"CUBEX.DATA"
_SPARSE_INDEX = 1


class CubeMetric(NamedTuple):
    uniq: str                  # Cube's unique name: the metric id, or the counter's name
    name: str
    unit: str
    integer: bool              # INTEGER data (else FLOAT)
    description: str
    url: str
    parent: Optional[str]      # uniq of its parent in the file's metric tree
    call_tree_inclusive: bool  # Cube metric type INCLUSIVE (else EXCLUSIVE)
    values: dict               # {(callpath id, location): exclusive value along the call tree}


def cube_metrics(report):
    """Every metric the file holds, parents before children: the report's metrics scout
    stores, under scout's display names, then one per counter (named "counter:NAME" where its name is a metric id)."""
    out = [CubeMetric(m, info["scout_name"], info["unit"], info["unit"] != "sec", info["description"],
                      cube_scalasca.metric_url(m), cube_scalasca.stored_parent(report.metrics, m),
                      m in cube_scalasca.CALL_TREE_INCLUSIVE, _summed(report.cells(m)))
           for m, info in report.metrics.items() if not info["derived"]]
    taken = set(report.metrics)
    for name, counter in report.counters.items():
        uniq = name if name not in taken else f"counter:{name}"
        taken.add(uniq)
        out.append(CubeMetric(uniq, name, counter["unit"], counter["value_type"] != "double",
                              counter["description"], "", None, False,
                              _summed(counter["exclusive"])))
    return out


def _summed(cells):
    values = {}
    for cp, loc, v in cells:
        values[cp, loc] = values.get((cp, loc), 0.0) + v
    return values


class _RowOrders:
    """The call tree's two row orders and each cnode's position in them, made once per
    file (not per metric: 46 walks of a 10^5-deep tree took seconds)."""

    def __init__(self, tree):
        self.depth_first = tree.depth_first()
        wide_first = tree.wide_first()
        self.depth_position = {node: i for i, node in enumerate(self.depth_first)}
        self.wide_position = {node: i for i, node in enumerate(wide_first)}


def _rows(metric, tree, cnode_of, nlocs, orders):
    """[(row, [value per location])] of the cnodes with a value, `row` being the cnode's
    position in the row order of the metric's type (the root alone when none has one)."""
    by_cnode = {}
    for (cp, loc), v in metric.values.items():
        by_cnode.setdefault(cnode_of[cp], [0.0] * nlocs)[loc] += v
    if metric.call_tree_inclusive:
        for node in reversed(orders.depth_first):    # children before their parents
            for child in (c for c in tree.children[node] if c in by_cnode):
                row = by_cnode.setdefault(node, [0.0] * nlocs)
                for loc, v in enumerate(by_cnode[child]):
                    row[loc] += v
        position = orders.wide_position
    else:
        position = orders.depth_position
    rows = sorted(((node, row) for node, row in by_cnode.items() if any(row)),
                  key=lambda item: position[item[0]])
    return [(position[node], row) for node, row in rows] or [(0, [0.0] * nlocs)]


def _index_and_data(metric, rows):
    index = (_INDEX_HEADER + struct.pack("<iHBi", 1, 0, _SPARSE_INDEX, len(rows))
             + struct.pack(f"<{len(rows)}i", *(position for position, _ in rows)))
    values = [v for _, row in rows for v in row]
    if metric.integer:
        data = struct.pack(f"<{len(values)}q", *(int(round(v)) for v in values))
    else:
        data = struct.pack(f"<{len(values)}d", *values)
    return index, _DATA_HEADER + data


def write_cube(report, path):
    """Write `report` as a Cube4 file at `path` (EarlError when it cannot be written)."""
    metrics = cube_metrics(report)
    outside = any(cp < 0 for m in metrics for cp, _ in m.values)
    tree = call_tree(report, cube_regions(report), outside)
    cnode_of = {cp: node for node, (cp, _, _) in enumerate(tree.cnodes)}
    nlocs = len(report.locations)
    orders = _RowOrders(tree)
    members = []
    for number, metric in enumerate(metrics):
        index, data = _index_and_data(metric, _rows(metric, tree, cnode_of, nlocs, orders))
        members += [(f"{number}.index", index), (f"{number}.data", data)]
    members.append(("anchor.xml", anchor_xml(metrics, tree, machine(report))))
    with staged_output(path, binary=True) as out, \
            tarfile.open(fileobj=out, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for name, content in members:
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(content), int(time.time()), 0o644
            tar.addfile(info, io.BytesIO(content))
