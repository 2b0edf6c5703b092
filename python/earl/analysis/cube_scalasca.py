"""What Scalasca 2.6's trace analyzer (scout) stores in its Cube file differently from
EARL's metric tree, so that `earl analyze --cube` writes the file scout writes.

EARL's tree is Scalasca's remapped one (share/scout.spec): the file scout writes holds only
the metrics it measures; the engine's metric table marks the others `derived`. The groups by
region kind (Execution, MPI, Point-to-point, ...) and by message kind (syncs, comms, bytes and their point-to-point, collective and one-sided
parts) are HIDDEN patterns there, which Scalasca's remapping (`square`) derives from the
region paradigms and names; a stored metric whose parent is hidden is a root of scout's
metric tree (mpi_latesender is a root, mpi_latesender_wo stays its child).
"""

# Metrics scout stores inclusive along the call tree (Cube metric type INCLUSIVE: a call
# path holds its callees' values too); every other one is EXCLUSIVE.
CALL_TREE_INCLUSIVE = frozenset({"time"})

# Where a Cube browser finds each metric's documentation: Scalasca's pattern pages,
# "@mirror@" standing for the first mirror that answers.
MIRRORS = ("http://apps.fz-juelich.de/scalasca/releases/scalasca/2.6/help/",
           "http://perftools.pages.jsc.fz-juelich.de/cicd/scalasca/tags/scalasca-2.6/patterns/",
           "http://perftools.pages.jsc.fz-juelich.de/cicd/scalasca/tags/latest/patterns/")


def metric_url(metric_id):
    return f"@mirror@scalasca_patterns.html#{metric_id}"


def stored_parent(metrics, metric_id):
    """The parent of `metric_id` in scout's file: its parent in EARL's tree (`metrics`:
    Report.metrics) unless that one is derived, then none."""
    parent = metrics[metric_id]["parent"]
    return None if parent is None or metrics[parent]["derived"] else parent


# How scout's reader (PEARL) names OTF2's region paradigms and roles in the Cube file
# (Scalasca's pearl Paradigm.cpp and Region.cpp); a name PEARL does not know is "unknown".
_PARADIGMS = {"MEASUREMENT_SYSTEM": "measurement"}
_KNOWN_PARADIGMS = frozenset((
    "UNKNOWN", "USER", "COMPILER", "OPENMP", "MPI", "CUDA", "MEASUREMENT_SYSTEM", "PTHREAD",
    "HMPP", "OMPSS", "HARDWARE", "GASPI", "UPC", "SHMEM", "WINTHREAD", "QTTHREAD", "ACETHREAD",
    "TBBTHREAD", "OPENACC", "OPENCL", "MTAPI", "SAMPLING", "NONE"))
_ROLES = {
    "UNKNOWN": "unknown", "FUNCTION": "function", "WRAPPER": "wrapper", "LOOP": "loop",
    "CODE": "code", "PARALLEL": "parallel", "SECTIONS": "sections", "SECTION": "section",
    "WORKSHARE": "workshare", "SINGLE": "single", "SINGLE_SBLOCK": "single sblock",
    "MASTER": "master", "CRITICAL": "critical", "CRITICAL_SBLOCK": "critical sblock",
    "ATOMIC": "atomic", "BARRIER": "barrier", "IMPLICIT_BARRIER": "implicit barrier",
    "FLUSH": "flush", "ORDERED": "ordered", "ORDERED_SBLOCK": "ordered sblock", "TASK": "task",
    "TASK_CREATE": "task create", "TASK_WAIT": "taskwait", "COLL_ONE2ALL": "one2all",
    "COLL_ALL2ONE": "all2one", "COLL_ALL2ALL": "all2all", "COLL_OTHER": "other collective",
    "FILE_IO": "file io", "POINT2POINT": "point2point", "RMA": "rma",
    "DATA_TRANSFER": "data transfer", "ARTIFICIAL": "artificial",
    "THREAD_CREATE": "thread create", "THREAD_WAIT": "thread wait",
    "TASK_UNTIED": "untied task", "ALLOCATE": "allocate", "DEALLOCATE": "deallocate",
    "REALLOCATE": "reallocate"}

# The artificial regions scout's reader adds where the trace defines none (PEARL's
# MutableGlobalDefs), in its order: (name, file, paradigm, role). Score-P names the
# thread and task roots with paradigm MEASUREMENT_SYSTEM; PEARL gives them these.
INTERNAL_REGIONS = (("MEASUREMENT OFF", "", "user", "artificial"),
                    ("TRACE BUFFER FLUSH", "", "measurement", "artificial"),
                    ("TASKS", "", "openmp", "artificial"),
                    ("THREADS", "THREADS", "pthread", "artificial"))
_ROOT_PARADIGMS = {("TASKS", "measurement"): "openmp", ("task_root", "measurement"): "openmp",
                   ("THREADS", "measurement"): "pthread"}


def region_kind(name, paradigm, role):
    """(paradigm, role) of a region as scout's file names them, from OTF2's names (the
    corrections PEARL makes for Score-P before 2.0 are not made)."""
    cube_role = _ROLES.get(role, "unknown")
    cube_paradigm = (_PARADIGMS.get(paradigm, paradigm.lower()) if paradigm in _KNOWN_PARADIGMS
                     else "unknown")
    if cube_role == "artificial":
        cube_paradigm = _ROOT_PARADIGMS.get((name, cube_paradigm), cube_paradigm)
    return cube_paradigm, cube_role
