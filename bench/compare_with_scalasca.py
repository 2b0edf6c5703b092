"""Compare `earl analyze --cube` with Scalasca's trace analyzer (scout), cell by cell.

Not a test (the project's tests never need Scalasca): a tool to run where Scalasca 2.6 is
built. For each OTF2 archive it runs scout.mpi (scout.hyb for archives with threads, where
Scalasca was built with OpenMP) on a copy (in a temporary directory) and
`earl analyze --cube` on the original, reads both Cube files with pycubexr, maps call paths
by their region-name path ("main/MPI_Recv") and locations by (process rank, thread rank),
and prints, for every metric both files have, "agree" (relative 1e-6) or the first
differing cells with both values, the metrics only one side has, and the metric
definitions (unit, data type, Cube metric type, parent) that differ. Values are compared
as exclusive along the call tree (an INCLUSIVE metric is converted), as stored along the
metric tree. Exit status 1 when anything differs, 2 when a run fails.

usage: python bench/compare_with_scalasca.py [--scalasca PREFIX] [--wait-states-only]
                                             [--gen] [--cells N] [--keep DIR] [--earl COMMAND]
                                             [ANCHOR.otf2 ...]

  --gen               also compare archives of every `earl gen` option (GEN_SHAPES below),
                      generated into the temporary directory
  --wait-states-only  run scout with --no-critical-path --no-rootcause
"""
import argparse
import contextlib
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from xml.etree import ElementTree

from earl.analysis.cube_trees import ARTIFICIAL_ROOT

RELATIVE = 1e-6
# Below this both sides are zero for our purpose (seconds and counts alike): float noise of
# a difference of timestamps, not a disagreement.
NEGLIGIBLE = 1e-12

# Archives covering every `earl gen` option: each shape is the options added to the common
# ones (small, 4 processes, seeded), so a difference names the option that caused it.
COMMON = ["-n", "4", "-e", "4000", "-s", "3", "-q"]
GEN_SHAPES = {
    "default": [],
    "collectives": ["--collectives", "allreduce,barrier,bcast,reduce,gather,scatter,"
                    "allgather,alltoall,scan,exscan", "-e", "8000"],
    "nonblocking": ["--nonblocking", "--in-flight", "2"],
    "late-receivers": ["--late-receiver-rate", "0.4"],
    "fences": ["--rma-every", "2", "--rma-puts", "2"],
    "locks": ["--lock-every", "2"],
    "threads": ["--threads", "2", "--depth", "2"],
    "mix": ["--permute-ranks", "--pattern", "neighbors", "--in-flight", "3",
            "--tag-per-message", "--out-of-order-rate", "0.3", "--late-sender-rate", "0.3",
            "--imbalance-rate", "0.3", "--barrier-every", "2", "--msg-bytes", "100",
            "--max-kernels", "4", "--kernel-us", "50", "--jitter", "0.2"],
    "skewed-clocks": ["--clock-offset", "0.001", "--clock-drift", "10"],
}


class RunFailed(Exception):
    pass


def run(what, command, cwd=None, timeout=1800):
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        lines = (done.stdout + done.stderr).splitlines()
        # the first line naming the cause (scout's assertion or error), else the last ones
        cause = [l for l in lines if "Assertion" in l or "ERROR" in l or "rror:" in l][:1]
        raise RunFailed(f"{what} exited with {done.returncode}: "
                        + " | ".join(cause or [l for l in lines if l.strip()][-3:]))
    return done


EARL = [sys.executable, "-m", "earl.cli"]   # --earl replaces it


def copy_archive(anchor, into):
    """Copies an OTF2 archive (ANCHOR.otf2, ANCHOR.def, ANCHOR/) into `into`; the copy's anchor."""
    anchor = Path(anchor)
    stem = anchor.with_suffix("")
    into.mkdir(parents=True)
    shutil.copy(anchor, into)
    if stem.with_suffix(".def").exists():
        shutil.copy(stem.with_suffix(".def"), into)
    if stem.is_dir():
        shutil.copytree(stem, into / stem.name)
    return into / anchor.name


def processes_and_threads(anchor):
    """(MPI processes, most locations of one process) of the archive: scout needs one MPI
    rank per location group, and one OpenMP thread per location of it."""
    import otf2
    from collections import Counter
    with otf2.reader.open(str(anchor)) as reader:
        processes = [g for g in reader.definitions.location_groups
                     if g.location_group_type == otf2.LocationGroupType.PROCESS]
        threads = Counter(loc.group for loc in reader.definitions.locations)
        return len(processes), max((threads[g] for g in processes), default=1)


def scout_for(prefix, threads):
    """scout.hyb (Scalasca built with OpenMP) for archives with threads where the prefix has
    it: scout.mpi reads only each process's master thread. Else scout.mpi."""
    hybrid = Path(prefix) / "bin" / "scout.hyb"
    return hybrid if threads > 1 and hybrid.exists() else Path(prefix) / "bin" / "scout.mpi"


def run_scout(prefix, anchor, workdir, wait_states_only):
    copy = copy_archive(anchor, workdir / "scout")
    options = ["--no-critical-path", "--no-rootcause"] if wait_states_only else []
    processes, threads = processes_and_threads(copy)
    scout = scout_for(prefix, threads)
    run(scout.name, ["mpirun", "--oversubscribe", "--allow-run-as-root", "-x", f"OMP_NUM_THREADS={threads}",
                     "-np", str(processes), str(scout), *options, copy.name], cwd=copy.parent)
    found = sorted(copy.parent.rglob("scout.cubex"))
    if not found:
        raise RunFailed(f"scout wrote no scout.cubex for {anchor}")
    return found[0]


def run_earl(anchor, workdir):
    workdir.mkdir(parents=True, exist_ok=True)
    out = workdir / "earl.cubex"
    run("earl analyze", EARL + ["analyze", str(anchor), "--cube", str(out)])
    return out


class CubeView:
    """What a Cube reader shows of one file: metric definitions and, per metric, the
    exclusive value of every (call path, (process rank, thread rank)) cell."""

    def __init__(self, path):
        import pycubexr
        self.path = path
        with tarfile.open(path) as tar:
            anchor = ElementTree.parse(tar.extractfile("anchor.xml")).getroot()
        self.locations = {}   # location id -> (process rank, thread rank)
        for group in anchor.iter("locationgroup"):
            for location in group.findall("location"):
                self.locations[int(location.get("Id"))] = (int(group.findtext("rank")),
                                                           int(location.findtext("rank")))
        self.definitions, self.cells = {}, {}
        with several_roots_allowed(), pycubexr.CubexParser(str(path)) as parser:
            self.paths = {}
            for cnode in parser.all_cnodes():
                names, node = [], cnode
                while node is not None:
                    names.append(parser.get_region(node).name)
                    node = node.parent
                self.paths[cnode.id] = "/".join(reversed(names))

            def walk(metrics, parent):
                for metric in metrics:
                    self.definitions[metric.name] = dict(
                        name=metric.display_name, unit=metric.units, dtype=metric.data_type,
                        type=metric.metric_type, parent=parent)
                    self.cells[metric.name] = self._values(parser, metric)
                    walk(metric.childs, metric.name)
            walk(parser.get_metrics(), None)

    def drop_root(self, name):
        """Call paths without the root `name` (EARL's artificial root above several roots:
        pycubexr reads only one), so they match scout's; the root itself keeps its name.
        Whether the file had it."""
        prefix = name + "/"
        if not any(path.startswith(prefix) for path in self.paths.values()):
            return False
        self.paths = {c: p[len(prefix):] if p.startswith(prefix) else p for c, p in self.paths.items()}
        self.cells = {m: {(p[len(prefix):] if p.startswith(prefix) else p, loc): v
                          for (p, loc), v in cells.items()} for m, cells in self.cells.items()}
        return True

    def _values(self, parser, metric):
        from pycubexr.utils.exceptions import MissingMetricError
        try:
            values = parser.get_metric_values(metric)
        except (AssertionError, MissingMetricError):
            return {}   # scout writes an empty index, or none, for a metric without values
        out = {}
        for cnode in parser.all_cnodes():
            row = values.cnode_values(cnode, convert_to_exclusive=True)
            for column, value in enumerate(row):
                value = float(value)
                if value != 0.0:
                    key = (self.paths[cnode.id], self.locations[column])
                    out[key] = out.get(key, 0.0) + value
        return out


@contextlib.contextmanager
def several_roots_allowed():
    """pycubexr reads call trees of one root only (it asserts so); scout.hyb writes one root
    per entry point of the worker threads besides the program's. The same reading of the
    anchor, from pycubexr's own parts, without that assertion (its enumerations take a list
    of roots)."""
    from pycubexr.parsers import anchor_xml_parser, tar_parser, xml_parser_helper

    def parse(root):
        result = anchor_xml_parser.AnchorXMLParseResult(
            attrs=xml_parser_helper.parse_attrs(root), metrics=xml_parser_helper.parse_metrics(root),
            regions=xml_parser_helper.parse_regions(root), cnodes=xml_parser_helper.parse_cnodes(root),
            system_tree_nodes=xml_parser_helper.parse_system_tree_nodes(root))
        anchor_xml_parser._metric_tree_enumerations(result)
        for cnode in result.all_cnodes.values():
            cnode.region = result.regions_by_id[cnode.callee_region_id]
        return result

    original = tar_parser.parse_anchor_xml
    tar_parser.parse_anchor_xml = parse
    try:
        yield
    finally:
        tar_parser.parse_anchor_xml = original


def differ(a, b):
    gap = abs(a - b)
    return gap > NEGLIGIBLE and gap > RELATIVE * max(abs(a), abs(b))


def compare(scout, earl, cells_shown):
    """Lines describing the comparison and whether anything differs."""
    lines, differs, agree = [], False, []
    only_scout = [m for m in scout.definitions if m not in earl.definitions]
    only_earl = [m for m in earl.definitions if m not in scout.definitions]
    for metric in (m for m in scout.definitions if m in earl.definitions):
        fields = [f"{k} {scout.definitions[metric][k]!r} vs {earl.definitions[metric][k]!r}"
                  for k in ("name", "unit", "dtype", "type", "parent")
                  if scout.definitions[metric][k] != earl.definitions[metric][k]]
        a, b = scout.cells[metric], earl.cells[metric]
        bad = [(key, a.get(key, 0.0), b.get(key, 0.0)) for key in sorted(set(a) | set(b))
               if differ(a.get(key, 0.0), b.get(key, 0.0))]
        if not fields and not bad:
            agree.append(f"{metric} ({len(a)})" if a else metric)
            continue
        differs = True
        lines.append(f"  {metric}: DIFFERS" + (
            f" in {len(bad)} of {len(set(a) | set(b))} cells (totals scout {sum(a.values()):.9g}, "
            f"earl {sum(b.values()):.9g})" if bad else ""))
        if fields:
            lines.append("    definition: " + "; ".join(fields))
        for (path, (rank, thread)), va, vb in bad[:cells_shown]:
            lines.append(f"    {path} @ rank {rank} thread {thread}: scout {va:.9g}, earl {vb:.9g}")
    lines.insert(0, "  agree (cells with a value): " + (", ".join(agree) or "none"))
    if only_scout:
        differs = True
        lines.append("  only in scout's file: " + ", ".join(
            m + ("" if scout.cells[m] else " (all 0)") for m in only_scout))
    if only_earl:
        differs = True
        lines.append("  only in EARL's file: " + ", ".join(only_earl))
    return lines, differs


def compare_trace(anchor, prefix, workdir, wait_states_only, cells_shown):
    print(f"== {anchor}", flush=True)
    try:
        scout = CubeView(run_scout(prefix, anchor, workdir, wait_states_only))
        earl = CubeView(run_earl(anchor, workdir))
    except (RunFailed, subprocess.TimeoutExpired) as failure:
        print(f"  FAILED: {failure}")
        return 2
    if earl.drop_root(ARTIFICIAL_ROOT):
        print(f"  EARL's call tree has the artificial root {ARTIFICIAL_ROOT} above several roots; "
              "call paths are compared without it")
    same_locations = sorted(scout.locations.values()) == sorted(earl.locations.values())
    if not same_locations:
        print(f"  locations differ: scout {sorted(scout.locations.values())}, "
              f"earl {sorted(earl.locations.values())}")
    paths_scout, paths_earl = set(scout.paths.values()), set(earl.paths.values())
    if paths_scout != paths_earl:
        print(f"  call paths only in scout's file: {sorted(paths_scout - paths_earl)[:10]}")
        print(f"  call paths only in EARL's file: {sorted(paths_earl - paths_scout)[:10]}")
    lines, differs = compare(scout, earl, cells_shown)
    print("\n".join(lines), flush=True)
    return 1 if differs or paths_scout != paths_earl or not same_locations else 0


def generate(workdir):
    """The archives of GEN_SHAPES, written with `earl gen` into workdir/gen."""
    anchors = []
    for name, options in GEN_SHAPES.items():
        anchor = workdir / "gen" / name / "trace.otf2"
        anchor.parent.mkdir(parents=True)
        run("earl gen", EARL + ["gen", str(anchor), *COMMON, *options])
        anchors.append(anchor)
    return anchors


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("anchors", nargs="*", type=Path, metavar="ANCHOR.otf2")
    parser.add_argument("--scalasca", default="/work/scalasca", metavar="PREFIX",
                        help="Scalasca's install prefix (default: %(default)s)")
    parser.add_argument("--gen", action="store_true",
                        help="also compare archives of every earl gen option")
    parser.add_argument("--wait-states-only", action="store_true",
                        help="run scout with --no-critical-path --no-rootcause")
    parser.add_argument("--cells", type=int, default=5, metavar="N",
                        help="differing cells shown per metric (default: %(default)s)")
    parser.add_argument("--keep", type=Path, metavar="DIR",
                        help="work in DIR and keep the archives and Cube files")
    parser.add_argument("--earl", metavar="COMMAND",
                        help="the earl command to run (default: this Python's earl)")
    args = parser.parse_args(argv)
    if args.earl:
        EARL[:] = [args.earl]
    scout = Path(args.scalasca) / "bin" / "scout.mpi"
    if not scout.exists():
        parser.error(f"no {scout} (give Scalasca's install prefix with --scalasca)")
    for anchor in args.anchors:
        if not anchor.is_file():
            parser.error(f"no OTF2 anchor file {anchor}")
    if not args.anchors and not args.gen:
        parser.error("give OTF2 anchors or --gen")
    with tempfile.TemporaryDirectory(prefix="earl-vs-scalasca-") as temporary:
        workdir = args.keep or Path(temporary)
        workdir.mkdir(parents=True, exist_ok=True)
        anchors = list(args.anchors) + (generate(workdir) if args.gen else [])
        status = 0
        for i, anchor in enumerate(anchors):
            status = max(status, compare_trace(anchor, args.scalasca, workdir / f"run{i}",
                                               args.wait_states_only, args.cells))
    return status


if __name__ == "__main__":
    sys.exit(main())
