"""Where a measurement series keeps its files, and what its metadata holds.

    ROOT/PROJECT/EXPERIMENT/experiment.json     the command, the grid, the trace's name
                                                and format (null: detected) (last run)
    ROOT/PROJECT/EXPERIMENT/MEASUREMENT/run.json    one run's metadata
    ROOT/PROJECT/EXPERIMENT/MEASUREMENT/TRACE       the trace the command wrote ({trace})
    ROOT/PROJECT/EXPERIMENT/MEASUREMENT/report.json `earl analyze --json` of the trace
    ROOT/PROJECT/EXPERIMENT/MEASUREMENT/output.txt  the command's stdout and stderr

MEASUREMENT is the run's parameters, "procs=2,size=S" (in the grid's order). run.json:
project, experiment, measurement, parameters {name: value}, command [argv as run], date
(UTC, ISO 8601, when the run began), seconds (its wall time), exit_status, reason, host,
earl_version, trace (file name or null when the command wrote none), report (file name or
null), analysis_error (the analysis' error message or null).
"""
import json
import os
import re

from earl import _core

EXPERIMENT_FILE = "experiment.json"
RUN_FILE = "run.json"
REPORT_FILE = "report.json"
OUTPUT_FILE = "output.txt"
_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.+-]*$")


def check_name(name, what):
    """A project, experiment or parameter name: letters, digits, _ . + - (a folder name on
    every system); EarlError otherwise."""
    if not isinstance(name, str) or not _NAME.match(name):
        raise _core.EarlError(f"earl experiment: {what} {name!r}: use letters, digits and _ . + - "
                              "(not starting with . + or -)")
    return name


def check_value(name, value):
    """A parameter value: becomes part of a folder name, so no / , = or NUL."""
    if not value or any(c in value for c in "/\\,=\0") or value in (".", ".."):
        raise _core.EarlError(f"earl experiment: parameter {name}: value {value!r} cannot name a "
                              "folder (empty, or holding / \\ , = or NUL)")
    return value


def measurement_name(parameters):
    """{"procs": "2", "size": "S"} -> "procs=2,size=S" (the grid's order)."""
    return ",".join(f"{k}={v}" for k, v in parameters.items()) or "run"


def experiment_folder(root, project, experiment):
    _core.check_path(root, "root")
    return os.path.join(os.fspath(root), check_name(project, "project"),
                        check_name(experiment, "experiment"))


def split_path(spec):
    """"P/E" -> ("P", "E"); EarlError for another shape."""
    parts = [p for p in spec.split("/") if p]
    if len(parts) != 2:
        raise _core.EarlError(f"earl experiment: {spec!r}: expected PROJECT/EXPERIMENT")
    return check_name(parts[0], "project"), check_name(parts[1], "experiment")


def read_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as error:
        raise _core.EarlError(f"earl experiment: cannot read {path}: {error}") from None


def write_json(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def measurements(folder):
    """The run.json of every measurement of an experiment folder, by folder name."""
    if not os.path.isdir(folder):
        raise _core.EarlError(f"earl experiment: no experiment at {folder}")
    out = []
    for name in sorted(os.listdir(folder)):
        meta = os.path.join(folder, name, RUN_FILE)
        if os.path.isfile(meta):
            out.append(read_json(meta))
    return out


def list_tree(root):
    """{project: {experiment: [run.json, ...]}} of everything under `root`."""
    _core.check_path(root, "root")
    tree = {}
    if not os.path.isdir(root):
        return tree
    for project in sorted(os.listdir(root)):
        pfolder = os.path.join(root, project)
        if not os.path.isdir(pfolder):
            continue
        for experiment in sorted(os.listdir(pfolder)):
            efolder = os.path.join(pfolder, experiment)
            if os.path.isfile(os.path.join(efolder, EXPERIMENT_FILE)):
                tree.setdefault(project, {})[experiment] = measurements(efolder)
    return tree
