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
