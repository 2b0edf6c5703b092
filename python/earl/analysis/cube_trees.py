"""The call tree and system tree of a Report as a Cube file holds them.

Call tree: the report's call paths nested by their parents, children in call-path order;
one root, as Cube readers expect (pycubexr reads only one): the report's root, or an
artificial root "(trace)" above several roots or above values outside any region.
System tree: machine > node > process > thread, as scout writes it; EARL's location names
("MPI Rank 0 / Master thread") give each location its process and thread.
"""
from typing import List, NamedTuple

ARTIFICIAL_ROOT = "(trace)"
_PROCESS_THREAD = " / "


class CallTree(NamedTuple):
    regions: List[str]     # region names; a cnode's region is an index into it
    cnodes: List[tuple]    # (call path id or -1 for the artificial root, region, parent cnode or -1)
    children: List[list]   # cnode -> its child cnodes, in order

    def depth_first(self):
        """Cnodes in depth-first pre-order (Cube's order for EXCLUSIVE metrics' rows)."""
        order, stack = [], [0]
        while stack:
            node = stack.pop()
            order.append(node)
            stack.extend(reversed(self.children[node]))
        return order

    def wide_first(self):
        """Cnodes in the order Cube's writer numbers INCLUSIVE metrics' rows: the root, its
        children, then each child's children before descending into that child."""
        order, queue = [0], [0]
        while queue:   # each node's children numbered together, then each child's subtree
            node = queue.pop()
            order.extend(self.children[node])
            queue.extend(reversed(self.children[node]))
        return order


def call_tree(report, outside_any_region):
    """The CallTree of `report`, cnodes numbered in depth-first pre-order;
    `outside_any_region`: whether some value belongs to no call path (call path id -1)."""
    regions = list(report.raw["regions"])
    below = {}
    for cp, parent in enumerate(report.callpath_parents):
        below.setdefault(parent, []).append(cp)
    roots = below.get(-1, [])
    cnodes, children = [], []
    if outside_any_region or len(roots) != 1:
        regions.append(ARTIFICIAL_ROOT)
        stack = [(-1, len(regions) - 1, -1)]
    else:
        stack = [(roots[0], report.raw["callpaths"][roots[0]].region, -1)]
    while stack:   # not recursive: a call tree may be a million levels deep
        cp, region, parent = stack.pop()
        node = len(cnodes)
        cnodes.append((cp, region, parent))
        children.append([])
        if parent >= 0:
            children[parent].append(node)
        stack.extend((child, report.raw["callpaths"][child].region, node)
                     for child in reversed(below.get(cp, []) if cp >= 0 else roots))
    return CallTree(regions, cnodes, children)


class Process(NamedTuple):
    name: str
    threads: List[tuple]   # (location index in the report, thread name)


def processes(report):
    """The report's locations grouped by process, in order of first appearance."""
    out, index = [], {}
    for loc in range(len(report.locations)):
        name = report.location_name(loc)
        process, _, thread = name.partition(_PROCESS_THREAD)
        if not thread:
            process, thread = name, "Master thread"
        if process not in index:
            index[process] = len(out)
            out.append(Process(process, []))
        out[index[process]].threads.append((loc, thread))
    return out
