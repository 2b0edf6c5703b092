"""The call tree and system tree of a Report as a Cube file holds them.

Call tree: the report's call paths nested by their parents, children in call-path order;
one root, as Cube readers expect (pycubexr reads only one): the report's root, or an
artificial root "(trace)" above several roots or above values outside any region.
System tree: as scout writes it, the trace's levels named "<class> <name>" ("machine
Linux" > "node quartz10"), each holding its processes (by the trace's process ids) and
then its sub-levels; where the trace places no location (report_schema.SystemTree),
"machine" > "node" > every process, numbered in order. Each process holds its threads;
EARL's location names ("MPI Rank 0 / Master thread") give each location its thread's name
(and its process, where the trace places no location).
"""
from typing import List, NamedTuple

from earl.analysis.cube_regions import named_region

ARTIFICIAL_ROOT = "(trace)"
_PROCESS_THREAD = " / "


class CallTree(NamedTuple):
    regions: List[tuple]   # cube_regions.CubeRegion; a cnode's region is an index into it
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


def call_tree(report, regions, outside_any_region):
    """The CallTree of `report` over its `regions` (cube_regions.cube_regions), cnodes
    numbered in depth-first pre-order; `outside_any_region`: whether some value belongs
    to no call path (call path id -1)."""
    regions = list(regions)
    below = {}
    for cp, parent in enumerate(report.callpath_parents):
        below.setdefault(parent, []).append(cp)
    roots = below.get(-1, [])
    cnodes, children = [], []
    if outside_any_region or len(roots) != 1:
        regions.append(named_region(ARTIFICIAL_ROOT))
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
    number: int            # its position among the processes: its Cube id
    name: str
    rank: int
    threads: List[tuple]   # (location index in the report, thread name)


class Level(NamedTuple):
    number: int            # its position in the trace's order: its Cube id
    name: str              # as Cube shows it: "node quartz10"
    kind: str              # its class: "node"
    processes: List[Process]
    levels: List["Level"]  # the levels below it


class Machine(NamedTuple):
    roots: List[Level]
    processes: List[Process]   # every process, in the trace's order


def machine(report):
    """The system tree of `report` as a Machine."""
    tree = report.raw.get("system_tree")
    if tree is None:
        processes = _processes_by_name(report)
        node = Level(1, "node", "node", processes, [])
        return Machine([Level(0, "machine", "machine", [], [node])], processes)
    processes = [Process(number, p.name, p.rank, []) for number, p in enumerate(tree["processes"])]
    for loc, index in enumerate(tree["location_process"]):
        process = processes[index]
        name = report.location_name(loc)
        prefix = process.name + _PROCESS_THREAD
        process.threads.append((loc, name[len(prefix):] if name.startswith(prefix) else name))
    levels = [Level(number, f"{level.kind} {level.name}", level.kind, [], [])
              for number, level in enumerate(tree["levels"])]
    for process, listed in zip(processes, tree["processes"]):
        levels[listed.level].processes.append(process)
    roots = []
    for level, listed in zip(levels, tree["levels"]):
        (roots if listed.parent < 0 else levels[listed.parent].levels).append(level)
    return Machine(roots, processes)


def _processes_by_name(report):
    """The report's locations grouped by process, in order of first appearance, numbered
    in that order."""
    out, index = [], {}
    for loc in range(len(report.locations)):
        name = report.location_name(loc)
        process, _, thread = name.partition(_PROCESS_THREAD)
        if not thread:
            process, thread = name, "Master thread"
        if process not in index:
            index[process] = len(out)
            out.append(Process(len(out), process, len(out), []))
        out[index[process]].threads.append((loc, thread))
    return out
