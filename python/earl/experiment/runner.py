"""Runs an experiment: the command once per point of the parameter grid, each in its own
measurement folder (layout.py), then the analysis of each trace."""
import datetime
import itertools
import os
import platform
import re
import subprocess
import time

from earl import _core
from earl.experiment import layout

_PLACEHOLDER = re.compile(r"\{([A-Za-z0-9_.+-]*)\}")


def parse_param(text):
    """`NAME=V1,V2,...` (the command line's --param) -> (NAME, [V1, V2, ...])."""
    name, sep, values = text.partition("=")
    if not sep:
        raise _core.EarlError(f"earl experiment: --param {text!r}: expected NAME=VALUE[,VALUE...]")
    layout.check_name(name, "parameter")
    items = values.split(",")
    for value in items:
        layout.check_value(name, value)
    return name, items


def _grid(parameters):
    names = list(parameters)
    for values in itertools.product(*(parameters[n] for n in names)):
        yield dict(zip(names, values))


def _expand(command, values):
    def one(argument):
        def replace(match):
            key = match.group(1)
            if key not in values:
                raise _core.EarlError(
                    f"earl experiment: the command's {{{key}}} is no parameter (known: "
                    + ", ".join("{%s}" % k for k in values) + ")")
            return values[key]
        return _PLACEHOLDER.sub(replace, argument)
    return [one(a) for a in command]


def _check(parameters, command, trace_name):
    if not command:
        raise _core.EarlError("earl experiment: no command to run (give it after --)")
    for name, values in parameters.items():
        layout.check_name(name, "parameter")
        if name == "trace":
            raise _core.EarlError("earl experiment: 'trace' is the trace's placeholder, no parameter")
        if not values:
            raise _core.EarlError(f"earl experiment: parameter {name} has no values")
        for value in values:
            layout.check_value(name, value)
    if os.sep in trace_name or not trace_name or trace_name.startswith("."):
        raise _core.EarlError(f"earl experiment: trace name {trace_name!r}: a file name, e.g. trace.otf2")
    # Every placeholder names a parameter (checked before anything runs).
    _expand(command, dict({k: v[0] for k, v in parameters.items()}, trace=trace_name))


def run(root, project, experiment, parameters, command, reason="", trace_name="trace.otf2",
        analyze=True, again=False, echo=None, trace_format=None):
    """Runs `command` (argv; "{name}" is replaced by a parameter's value, "{trace}" by the
    path the command is to write its trace to; the environment also holds EARL_TRACE) for
    every point of the grid `parameters` ({name: [values]}, in order). A measurement whose
    folder holds a run.json already is kept, not run again, unless `again`. Returns the
    run.json of every point. `echo` takes a line per run (progress). `trace_format`: the
    format the command writes, for the analysis (None: detected; a described format,
    which cannot be, must be named)."""
    import earl
    parameters = {k: [str(v) for v in vs] for k, vs in parameters.items()}
    _check(parameters, list(command), trace_name)
    folder = layout.experiment_folder(root, project, experiment)
    os.makedirs(folder, exist_ok=True)
    layout.write_json(os.path.join(folder, layout.EXPERIMENT_FILE), {
        "project": project, "experiment": experiment, "parameters": parameters,
        "command": list(command), "trace_name": trace_name, "trace_format": trace_format,
        "reason": reason})
    results = []
    for point in _grid(parameters):
        name = layout.measurement_name(point)
        mfolder = os.path.join(folder, name)
        meta_path = os.path.join(mfolder, layout.RUN_FILE)
        if os.path.isfile(meta_path) and not again:
            results.append(layout.read_json(meta_path))
            if echo:
                echo(f"{name}: measured already (kept)")
            continue
        os.makedirs(mfolder, exist_ok=True)
        trace = os.path.abspath(os.path.join(mfolder, trace_name))
        argv = _expand(list(command), dict(point, trace=trace))
        began = datetime.datetime.now(datetime.timezone.utc)
        start = time.monotonic()
        env = dict(os.environ, EARL_TRACE=trace)
        with open(os.path.join(mfolder, layout.OUTPUT_FILE), "wb") as output:
            try:
                status = subprocess.run(argv, stdout=output, stderr=subprocess.STDOUT, env=env).returncode
            except OSError as error:
                raise _core.EarlError(f"earl experiment: cannot run {argv[0]!r}: {error.strerror}") from None
        meta = {"project": project, "experiment": experiment, "measurement": name,
                "parameters": point, "command": argv, "date": began.isoformat(timespec="seconds"),
                "seconds": round(time.monotonic() - start, 3), "exit_status": status,
                "reason": reason, "host": platform.node(), "earl_version": earl.__version__,
                "trace": trace_name if os.path.exists(trace) else None, "report": None,
                "analysis_error": None}
        if analyze and status == 0 and meta["trace"]:
            try:
                report = earl.analyze(trace, format=trace_format, progress=lambda fraction: True)
                with open(os.path.join(mfolder, layout.REPORT_FILE), "w", encoding="utf-8") as f:
                    f.write(report.to_json())
                meta["report"] = layout.REPORT_FILE
            except _core.EarlError as error:
                meta["analysis_error"] = str(error)
        layout.write_json(meta_path, meta)
        results.append(meta)
        if echo:
            what = ("analysed" if meta["report"] else meta["analysis_error"] or "no trace written"
                    if status == 0 else f"exit status {status}")
            echo(f"{name}: {what}")
    return results
