"""`earl demo`: generate a trace with known inefficiencies, run the example scripts on it and
check what they find against the generator's ground truth.

    earl demo [--output DIR] [--events N]

Writes DIR/demo.alog (and its ground truth DIR/demo.alog.truth.json) and, with matplotlib,
the bar chart DIR/data_received.png. The example scripts are those of the repository's
scripts/ directory, installed with the package; each also runs on its own, by name:
`earl run NAME DIR/demo.alog` (`earl scripts` lists them and says where they are).
"""
import contextlib
import importlib
import io
import math
import runpy
import time
from pathlib import Path

from earl import EarlError, EventTrace
from earl.shipped_scripts import scripts_folder


# (file, heading, extra arguments, lines of its output to show at most)
EXAMPLES = [
    ("wasted_time.py", "Wasted time of MPI_Recv (late senders)", [], 20),
    ("messages_out_of_order.py", "Messages received out of order", [], 8),
    ("region_statistics.py", "Region statistics (inclusive/exclusive time)", [], 60),
    ("data_received.py", "Data received per location", ["--output", "{output}/data_received.png"],
     20),
]


def _close(a, b):
    # The truth and the scripts convert times alike (cpp/model/clock.h) but a script may add
    # them in another order, so sums may differ in the last bits.
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def _verdict(ok):
    return "OK" if ok else "MISMATCH"


def _check_wasted_time(result, truth):
    total, per_loc = result
    count = sum(late for late, _ in per_loc.values())
    return [(f"wasted time: {total:.6f} s (injected: {truth['late_sender_wait_total']:.6f} s)",
             _close(total, truth["late_sender_wait_total"])),
            (f"late receives: {count} (injected: {truth['late_sender_count']})",
             count == truth["late_sender_count"])]


def _check_out_of_order(result, truth):
    overtaken = sum(len(finding[-1]) for finding in result)
    return [(f"out-of-order receives: {len(result)} (injected: {truth['out_of_order_count']})",
             len(result) == truth["out_of_order_count"]),
            (f"overtaken messages: {overtaken} (injected: {truth['out_of_order_reports']})",
             overtaken == truth["out_of_order_reports"])]


def _check_region_statistics(result, truth):
    expected = {(int(loc), region): (t["count"], t["incl"], t["excl"])
                for loc, regions in truth["region_time"].items() for region, t in regions.items()}
    bad = [key for key in expected.keys() | result.keys()
           if key not in expected or key not in result
           or result[key][0] != expected[key][0]
           or not _close(result[key][1], expected[key][1])
           or not _close(result[key][2], expected[key][2])]
    worst = max((abs(result[k][i] - expected[k][i]) for k in expected.keys() & result.keys()
                 for i in (1, 2)), default=0.0)
    return [(f"(location, region) rows: {len(result)} (expected: {len(expected)}), "
             f"{len(expected) - len(bad)} match count, incl and excl "
             f"(largest difference {worst:.1e} s)", not bad)]


def _check_data_received(result, truth):
    expected = truth["bytes_received_per_location"]
    return [(f"bytes received: {sum(result)} in total on {len(result)} locations "
             f"(expected: {sum(expected)} on {len(expected)})", list(result) == expected)]


CHECKS = {
    "wasted_time.py": _check_wasted_time,
    "messages_out_of_order.py": _check_out_of_order,
    "region_statistics.py": _check_region_statistics,
    "data_received.py": _check_data_received,
}


def _heading(title):
    print()
    print(title)
    print("=" * len(title))


def _show(text, limit):
    lines = text.rstrip("\n").split("\n")
    if len(lines) > limit:
        hidden = len(lines) - limit
        lines = lines[:limit - 1] + [f"... ({hidden} more lines)", lines[-1]]
    for line in lines:
        print("  " + line)


def _run_script(path, argv):
    """Runs the script's main(argv) in this process; returns (its output, its result)."""
    module = runpy.run_path(str(path), run_name="earl_demo_" + path.stem)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            result = module["main"](argv)
        except SystemExit as stop:
            raise EarlError(f"{path.name} failed: {stop.code}") from None
    return out.getvalue(), result


def _same_run_as_otf2(scripts, output, events, alog_trace):
    """Writes the same run as an OTF2 archive (Score-P's format) and shows that the
    analyses read it to the same results. Returns the number of mismatches."""
    from earl import _core
    from earl.generate import generate

    _heading("The same run as an OTF2 archive")
    if "otf2" not in _core.known_formats():
        print("this build of EARL has no OTF2 support (libotf2 was not found at build time)")
        return 0
    archive = output / "demo.otf2"
    generate(archive, locations=4, events=events, seed=1, format="otf2")
    with EventTrace(archive) as t:
        print(f"wrote {archive}: {len(t)} events, format {t.format()}, "
              f"locations named like {t.locsym(0)!r}")
    mismatches = 0
    for name in ("wasted_time.py", "region_statistics.py"):
        _, on_alog = _run_script(scripts / name, [str(alog_trace)])
        _, on_otf2 = _run_script(scripts / name, [str(archive)])
        same = on_alog == on_otf2
        print(f"  {name}: {'same result as on ALOG' if same else 'DIFFERS from ALOG'} "
              f"{_verdict(same)}")
        mismatches += not same
    return mismatches


def _same_analyses_in_lua_and_tcl(scripts, trace):
    """Runs the Lua and Tcl twins of the text-only example scripts on the same trace and
    shows that they print exactly what the Python script prints. Returns the number of
    differences."""
    _heading("The same analyses in Lua and Tcl")
    runners = {}
    for language, make in (("lua", "runtime"), ("tcl", "interpreter")):
        try:
            module = importlib.import_module(f"earl.{language}")
            getattr(module, make)()  # raises when this build or machine lacks the language
            runners[language] = module.run
        except (ImportError, EarlError) as error:
            print(f"  {language}: not available here ({error})")
    differences = 0
    for name in ("wasted_time", "messages_out_of_order", "region_statistics"):
        python_text, _ = _run_script(scripts / f"{name}.py", [str(trace)])
        for language, run_script in runners.items():
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                run_script(str(scripts / f"{name}.{language}"), [str(trace)])
            same = out.getvalue() == python_text
            differences += not same
            print(f"  {name}.{language}: {'prints what' if same else 'DIFFERS from'} "
                  f"{name}.py {_verdict(same)}")
    return differences


def _wait_state_analysis(output, trace, truth):
    """`earl analyze` on the demo trace: the report, and its late senders and collective
    waits against the ground truth. Returns the number of mismatches."""
    import earl

    _heading("Automatic wait-state analysis")
    print(f"$ earl analyze {trace} --cube {output}/demo.cubex --html {output}/demo.html")
    report = earl.analyze(trace)
    for metric in sorted(report.patterns(), key=lambda m: -report.total(m)):
        if report.total(metric) > 0:
            worst = next(iter(report.by_callpath(metric)))
            print(f"  {metric}: {report.total(metric):.6f} s in {report.instances(metric)} "
                  f"instances, most at {worst}")
    report.write_cube(output / "demo.cubex")
    report.write_html(output / "demo.html")
    checks = [("late sender time", report.total("mpi_latesender"), truth["late_sender_wait_total"]),
              ("collective waits", report.total("mpi_barrier_wait") + report.total("mpi_wait_nxn"),
               truth["imbalance_wait_total"])]
    failures = 0
    for what, found, injected in checks:
        ok = abs(found - injected) < 1e-6
        print(f"  {what}: {found:.6f} s found, {injected:.6f} s injected {_verdict(ok)}")
        failures += not ok
    return failures


def run_demo(output, events):
    """What `earl demo` does: writes the demo's files into `output` and prints what it
    found against the ground truth; returns the exit code (1: a check did not match)."""
    from earl.generate import generate
    from earl.info import describe

    scripts = scripts_folder()
    output = Path(output)
    output.mkdir(parents=True, exist_ok=True)
    trace = output / "demo.alog"

    _heading(f"Generating a trace of about {events} events")
    start = time.perf_counter()
    truth = generate(trace, locations=4, events=events, seed=1)
    print(f"wrote {trace} and its ground truth {trace}.truth.json "
          f"in {time.perf_counter() - start:.2f} s")
    print(f"injected: {truth['late_sender_count']} late senders, "
          f"{truth['out_of_order_count']} out-of-order messages, "
          f"{truth['imbalance_wait_total']:.6f} s waited in imbalanced collectives\n")
    with EventTrace(trace) as t:
        print(describe(t))

    failures = 0
    for name, title, extra, limit in EXAMPLES:
        script = scripts / name
        argv = [str(trace)] + [a.format(output=output) for a in extra]
        _heading(title)
        print(f"$ earl run {name} {' '.join(argv)}")
        start = time.perf_counter()
        text, result = _run_script(script, argv)
        seconds = time.perf_counter() - start
        _show(text, limit)
        print(f"ran in {seconds:.2f} s; against the ground truth:")
        for line, ok in CHECKS[name](result, truth):
            print(f"  {line} {_verdict(ok)}")
            failures += not ok

    failures += _same_run_as_otf2(scripts, output, events, trace)
    failures += _same_analyses_in_lua_and_tcl(scripts, trace)
    failures += _wait_state_analysis(output, trace, truth)

    _heading("Summary")
    if failures:
        print(f"{failures} check(s) did not match the ground truth.")
        return 1
    print(f"All {len(EXAMPLES)} example scripts agree with the ground truth. "
          f"Files are in {output}/.")
    print(f"`earl scripts` lists the scripts (they are in {scripts}).")
    return 0
