"""Tcl loop against the Python loop and the official otf2 Python reader, in the same run;
prints events/s.

usage: measure_tcl.py [TRACE] [--events N] [--locations N] [--repeat N] [--no-reference]

Without TRACE, writes a generated OTF2 archive (`earl gen X.otf2 -f otf2 -n 16 -e N`,
default 10^7 events) to a temporary directory. The trace is opened once in Python and
shared with Tcl (earl.tcl.share), so the first two loops read the same C++ trace:

    Python:  while e.next(): e.event()
    Tcl:     while {[e next]} {e event ev}                     (tkinter.Tcl(), this process)

then the Tcl loop in a standalone tclsh8.6 (which opens the trace itself; only its loop is
timed, with clock microseconds), and the official otf2 Python reader iterating every event
(bench/measure_references.py, in a fresh process). Each EARL loop runs --repeat times; the
median is reported, with the load average before and after.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import earl
import earl.tcl
import language_loops

HERE = Path(__file__).resolve().parent

# At global level, as the issue states the loop (the slower case for variable lookups),
# and run through the `eval` command so that Tcl compiles it as it compiles a sourced
# script; tkinter's own eval() would interpret it command by command.
TCL_LOOP = "set n 0; e reset; while {[e next]} {e event ev; incr n}; set n"

STANDALONE = """
package require earl
EventTrace e -file [lindex $argv 0]
# an untimed first pass: the event cache is still being filled on a second thread
while {[e next]} {}
e reset
for {set r 0} {$r < [lindex $argv 1]} {incr r} {
    set start [clock microseconds]
    set n 0
    while {[e next]} {e event ev; incr n}
    puts "$n [expr {([clock microseconds] - $start) / 1e6}]"
    e reset
}
"""


def standalone(path, repeat):
    tclsh = shutil.which("tclsh8.6")
    if tclsh is None:
        return None
    with tempfile.NamedTemporaryFile("w", suffix=".tcl", delete=False) as script:
        script.write(STANDALONE)
    try:
        env = dict(os.environ, TCLLIBPATH=earl.tcl.library_path())
        out = subprocess.run([tclsh, script.name, path, str(repeat)], text=True, capture_output=True,
                             env=env, check=True).stdout
    finally:
        os.unlink(script.name)
    runs = [line.split() for line in out.splitlines()]
    return int(runs[0][0]), statistics.median(float(s) for _, s in runs)


def official_reader(path):
    out = subprocess.run([sys.executable, str(HERE / "measure_references.py"), "otf2", path],
                         text=True, capture_output=True, check=True).stdout
    result = json.loads(out)
    return result["records"], result["seconds"]


def main():
    parser = language_loops.parser(__doc__.splitlines()[0])
    parser.add_argument("--no-reference", action="store_true", help="skip the official otf2 reader")
    args = parser.parse_args()
    load_before = os.getloadavg()

    with tempfile.TemporaryDirectory(prefix="earl-bench-tcl-") as tmp:
        path, e = language_loops.open_trace(args, tmp)

        tcl = earl.tcl.interpreter()
        earl.tcl.share(e, tcl, name="e")
        results = [("Python  while e.next(): e.event()", *language_loops.timed(language_loops.python_loop(e), args.repeat)),
                   ("Tcl     while {[e next]} {e event ev}  (tkinter.Tcl)",
                    *language_loops.timed(lambda: int(tcl.tk.call("eval", TCL_LOOP)), args.repeat))]
        fmt = e.format()
        e.close()
        alone = standalone(path, args.repeat)
        if alone:
            results.append(("Tcl     the same loop in standalone tclsh8.6", *alone))
        if not args.no_reference and fmt == "otf2":
            try:
                results.append(("official otf2 Python reader (for _, _ in trace.events)",
                                *official_reader(path)))
            except (subprocess.CalledProcessError, json.JSONDecodeError) as error:
                print(f"official otf2 reader not measured: {error}", file=sys.stderr)

    language_loops.print_table(results)
    rates = {name.split()[0] + (" tclsh" if "tclsh" in name else ""): count / seconds
             for name, count, seconds in results}
    summary = f"Tcl (tkinter) / Python: {rates['Tcl'] / rates['Python']:.2f}x"
    if "official" in rates:
        summary += f"; Tcl (tkinter) / official otf2 reader: {rates['Tcl'] / rates['official']:.2f}x"
    load_after = os.getloadavg()
    print(f"{summary}  (load average {load_before[0]:.1f} before, {load_after[0]:.1f} after, "
          f"on {os.cpu_count()} CPUs)")


if __name__ == "__main__":
    sys.exit(main())
