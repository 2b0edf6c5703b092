"""The regions of a Report as a Cube file lists them, as scout writes them.

Where the trace describes its regions (report_schema.RegionDetails: OTF2), each region
has the trace's canonical name, source file, lines, and the paradigm and role in scout's
words (cube_scalasca.region_kind), followed by the artificial regions scout's reader adds
where the trace lacks them. Elsewhere only names are known: an `MPI_*` region gets
paradigm `mpi` and file `MPI` (as Score-P marks MPI functions, so Scalasca's remapping
takes it for MPI), any other paradigm `user`; every role is `function`.
"""
from typing import NamedTuple

from earl.analysis import cube_scalasca

_MPI_PREFIX = "MPI_"
_NO_LINE = -1              # CubeW writes -1 for a line the trace does not give
_LARGEST_LINE = 2 ** 31 - 1  # CubeW keeps lines as C ints


class CubeRegion(NamedTuple):
    name: str
    mangled_name: str
    mod: str               # the source file
    begin: int             # first line; -1: unknown
    end: int
    paradigm: str
    role: str
    description: str


def named_region(name):
    """A region known by its name only."""
    mpi = name.startswith(_MPI_PREFIX)
    return CubeRegion(name, name, "MPI" if mpi else "", _NO_LINE, _NO_LINE,
                      "mpi" if mpi else "user", "function", "")


def cube_regions(report):
    """The report's regions by region id, then those scout's reader would add."""
    names = report.raw["regions"]
    details = report.raw.get("region_details")
    if details is None:
        return [named_region(name) for name in names]
    regions = [_described(name, d) for name, d in zip(names, details)]
    return regions + _internal_regions_missing(regions)


def _line(number):
    return number if 0 < number <= _LARGEST_LINE else _NO_LINE


def _described(name, details):
    paradigm, role = cube_scalasca.region_kind(name, details.paradigm, details.role)
    return CubeRegion(name, details.canonical_name, details.file, _line(details.begin_line),
                      _line(details.end_line), paradigm, role, details.description)


def _internal_regions_missing(regions):
    present = {(r.name, r.paradigm, r.role) for r in regions}
    present |= {("TASKS", p, r) for n, p, r in present if n == "task_root"}
    return [CubeRegion(name, name, mod, _NO_LINE, _NO_LINE, paradigm, role, "")
            for name, mod, paradigm, role in cube_scalasca.INTERNAL_REGIONS
            if (name, paradigm, role) not in present]
