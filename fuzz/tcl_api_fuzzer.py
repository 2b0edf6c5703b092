"""atheris target: EARL's Tcl extension (bindings/tcl) as tkinter runs it, with random call
sequences on small traces (fuzz/script_api_calls.py): both dialects' trace commands (the
2.0 `EventTrace e` and the 1998 `earl open`) and their P2Statistic objects, with hostile
arguments (64-bit extremes and beyond, NaN, strings with NUL or bytes that are not
UTF-8, lists, other commands' names), before and after close, and with variable traces
that rename or close the trace while `e event`/`$t set` write the array. Every call runs
inside `catch` and must end with TCL_OK or TCL_ERROR and a message that is not
"unexpected C++ exception". A crash, a hang, a C++ exception escaping or another return
code is a finding. As in the Lua target the C++ core is not instrumented.

Run: python fuzz/tcl_api_fuzzer.py CORPUS_DIR -max_total_time=60 (`make fuzz` does it).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_api_calls import sequence, traces  # noqa: E402

VALUES = ["0", "1", "2", "-1", "3", "17", "40", "9223372036854775807", "-9223372036854775808",
          "18446744073709551615", "18446744073709551616", "0xFFFFFFFFFFFFFFFF", "1.5", "nan", "1e309", "",
          "x", "{a b}", "a\\0b", "\\xff\\xfe", "ev", "-fetchonly", "-sym", "main", "All", "2147483648",
          "-format", "alog", "-bdist", "-cache"]
# What a variable trace on the array may do while a call writes it.
SABOTAGE = ["", "catch {rename $::fuzz::cmd {}}", "catch {$::fuzz::cmd close}", "catch {unset ::ev}"]

HARNESS = r"""
namespace eval ::fuzz {variable cmd ""}
proc ::fuzz::call {target method sabotage arguments} {
    variable values
    set words [list $target $method]
    foreach i $arguments {lappend words [lindex $values $i]}
    unset -nocomplain ::ev
    if {$sabotage ne ""} {trace add variable ::ev write [list apply [list args $sabotage]]}
    set code [catch {uplevel #0 $words} message]
    foreach t [trace info variable ::ev] {trace remove variable ::ev {*}$t}
    if {$code != 0 && $code != 1} {return "return code $code"}
    if {[string first "unexpected C++ exception" $message] >= 0} {return $message}
    return ""
}
"""

tcl = None
PATHS = []
METHODS = []


def check(data: bytes):
    import atheris

    fdp = atheris.FuzzedDataProvider(data)
    path = PATHS[fdp.ConsumeIntInRange(0, len(PATHS) - 1)]
    old = fdp.ConsumeBool()
    tcl.tk.call("set", "path", path)
    tcl.eval("foreach c [info commands ::fuzz_*] {rename $c {}}")
    tcl.eval("EventTrace ::fuzz_e -file $path; earl open $path ::fuzz_t; P2Statistic ::fuzz_p; earl stat ::fuzz_s")
    target = "::fuzz_t" if old else "::fuzz_e"
    tcl.tk.call("set", "::fuzz::cmd", target)
    for method, arguments in sequence(fdp, METHODS[old], list(range(len(VALUES)))):
        sabotage = SABOTAGE[fdp.ConsumeIntInRange(0, len(SABOTAGE) - 1)] if fdp.remaining_bytes() else ""
        where = target
        if method.startswith("p:"):
            where, method = ("::fuzz_s" if old else "::fuzz_p"), method[2:]
        finding = str(tcl.tk.call("::fuzz::call", where, method, sabotage, tuple(arguments)))
        assert finding == "", (where, method, [VALUES[a] for a in arguments], sabotage, finding)


def main():
    global tcl
    import atheris
    import earl.tcl

    tcl = earl.tcl.interpreter()
    tcl.eval(HARNESS)
    tcl.tk.call("set", "::fuzz::values", tcl.tk.call("list", *VALUES))
    PATHS.extend(traces())
    new = ["event", "next", "prev", "jump", "reset", "attributes", "values", "stack", "queue", "file",
           "format", "nrlocs", "locsym", "regions", "groups", "group", "types", "problems", "iterator",
           "size", "close", "closed", "members", "ranks", "metrics", "bogus"]
    old = ["get", "set", "getnext", "setnext", "getprev", "setprev", "reset", "stack", "queue", "info",
           "close", "bogus"]
    stats_new = ["p:add", "p:count", "p:reset", "p:state", "p:q25", "p:med", "p:var", "p:min"]
    stats_old = ["p:addval", "p:count", "p:print", "p:q75", "p:mean", "p:var"]
    METHODS.extend([new + stats_new, old + stats_old])
    atheris.Setup(sys.argv, atheris.instrument_func(check))
    atheris.Fuzz()


if __name__ == "__main__":
    main()
