"""Tcl in the REPL (tkinter's Tcl 8.6 with EARL's extension, both dialects): input runs at
global level and a non-empty result is shown, as tclsh does; `ev` is an array."""
import re

import earl.tcl
from earl.repl.languages import EvaluationError

# The evaluator's procedures, in their own namespace; ::earl::repl::trace is the session's
# trace under a name the user's code will not redefine.
_SETUP = r"""
namespace eval ::earl::repl {variable at 0}

proc ::earl::repl::set_event {} {
    upvar #0 ev ev
    unset -nocomplain ev
    if {[::earl::repl::trace iterator]} {::earl::repl::trace event ev}
}

# {ok result}, {error message errorInfo} or {exit code} (earl.tcl's exit: the shell
# refuses to end the session for it); break/continue outside a loop are errors.
#
# A bare value shows its value, as docs/repl.md promises and tclsh does not: one word that
# is a variable or a command substitution ($ev(type), [e size]) is read with set, never
# run as a command (at an exit event, $ev(type) would run exit); input whose first word
# is not a command's name is an expression if it parses as one ($ev(len) > 1000, 1 + 2).
# Anything else, and what does not parse as an expression, runs as a script. (Each runs
# right inside catch, so errorInfo holds the user's frames only.)
proc ::earl::repl::evaluate {script} {
    if {[::earl::repl::is_one_value $script]} {
        set code [catch {uplevel #0 "set ::earl::repl::shown [string trim $script]"} result options]
    } elseif {![::earl::repl::names_a_command $script]} {
        set code [catch {uplevel #0 [list expr $script]} result options]
        # a parse error comes before anything in the expression runs
        if {$code == 1 && [lrange [dict get $options -errorcode] 0 1] eq {TCL PARSE}} {
            set code [catch {uplevel #0 $script} result options]
        }
    } else {
        set code [catch {uplevel #0 $script} result options]
    }
    switch -- $code {
        0 - 2 {return [list ok $result]}
        1 {
            set code [dict get $options -errorcode]
            if {[lrange $code 0 1] eq {EARL EXIT}} {return [list exit [lindex $code 2]]}
            return [list error $result [dict get $options -errorinfo]]
        }
        3 {return [list error {invoked "break" outside of a loop} {}]}
        default {return [list error {invoked "continue" outside of a loop} {}]}
    }
}

proc ::earl::repl::is_one_value {script} {
    set word [string trim $script]
    if {[regexp {^\$(?:\{[^\}]*\}|(?:::)?\w+(?:::\w+)*(?:\([^()]*\))?)$} $word]} {return 1}
    if {[string index $word 0] ne "\["} {return 0}
    # the bracket that opens the word closes at its end: the first complete prefix
    for {set end [string first "\]" $word]} {$end >= 0} {set end [string first "\]" $word $end+1]} {
        if {[info complete [string range $word 0 $end]]} {
            return [expr {$end == [string length $word] - 1}]
        }
    }
    return 0
}

proc ::earl::repl::names_a_command {script} {
    if {![regexp {^\s*([^\s\[\]$"{}\\;]+)} $script -> name]} {return 0}
    return [expr {[uplevel #0 [list namespace which -command $name]] ne ""}]
}

# An element of ev its event lacks cannot be read in Tcl: for that event, no match (as a
# missing attribute is None in Python and nil in Lua); any other error stops the search.
# (One catch around the loop, not one per event: the loop goes on after such an event.)
proc ::earl::repl::find {expression first last step} {
    upvar #0 ev ev
    variable at
    unset -nocomplain ev
    set test [list expr $expression]
    set pos $first
    while {$step > 0 ? $pos <= $last : $pos >= $last} {
        if {![catch {
            for {} {$step > 0 ? $pos <= $last : $pos >= $last} {incr pos $step} {
                set at $pos
                ::earl::repl::trace event ev $pos
                if {[uplevel #0 $test]} {return $pos}
            }
        } result options]} {
            return 0
        }
        if {[dict get $options -code] == 2} {return $result}
        if {![string match {can't read "ev(*)": no such element in array} $result]} {
            return -options $options $result
        }
        incr pos $step
    }
    return 0
}
"""


class Evaluator:
    name = "tcl"

    def __init__(self, trace):
        import tkinter

        self._error = tkinter.TclError
        self.tcl = earl.tcl.interpreter()
        earl.tcl.share(trace, self.tcl, "e")
        self.tcl.eval("namespace eval ::earl::repl {}")
        earl.tcl.share(trace, self.tcl, "::earl::repl::trace")
        self.tcl.eval(_SETUP)

    def set_event(self, event):
        self.tcl.eval("::earl::repl::set_event")

    def is_complete(self, source):
        return self.tcl.tk.call("info", "complete", source) in (1, "1", True)

    def evaluate(self, source, origin=("<input>", 1)):
        filename, first_line = origin
        # eval, not call: the outcome as Tcl's text (call would turn lists into tuples)
        with earl.tcl.interruptible(self.tcl):
            self.tcl.tk.call("set", "::earl::repl::source", source)
            outcome = self.tcl.tk.splitlist(self.tcl.tk.eval("::earl::repl::evaluate $::earl::repl::source"))
        if outcome[0] == "ok":
            text = str(outcome[1])
            return text if text else None
        if outcome[0] == "exit":
            raise SystemExit(int(outcome[1]))
        message, info = str(outcome[1]), str(outcome[2])
        # errorInfo names the line of the input last, as the body of the uplevel that ran it
        lines = re.findall(r'\("uplevel" body line (\d+)\)', info)
        line = int(lines[-1]) if lines else 1
        raise EvaluationError(f"{filename}:{line + first_line - 1}: {message}{_procedure(info)}")

    def searcher(self, expression):
        def search(first, last, step):
            try:
                with earl.tcl.interruptible(self.tcl):
                    return int(self.tcl.tk.call("::earl::repl::find", expression, first, last, step))
            except self._error as error:
                code = earl.tcl._exit_code(self.tcl)
                if code is not None:  # exit in the expression: the shell refuses it
                    raise SystemExit(code) from None
                raise EvaluationError(f"<find>: {error} (at event {self.last_searched()})") from None

        return search

    def last_searched(self):
        return int(self.tcl.tk.call("set", "::earl::repl::at"))

    def run_script(self, path, args):
        """Runs the script in an interpreter of its own, as `earl run` does: its own
        `EventTrace e` or globals cannot clash with the session's e and ev."""
        try:
            earl.tcl.run(path, args)
        except earl.EarlError as error:
            raise EvaluationError(str(error)) from None

    def method_names(self):
        """The trace command's subcommands, as Tcl lists them when asked for a bad one."""
        try:
            self.tcl.tk.call("::earl::repl::trace", "?")
        except self._error as error:
            listed = re.search(r"must be (.*)", str(error))
            if listed:
                return sorted(re.split(r",\s*(?:or\s+)?|\s+or\s+", listed.group(1).strip()))
        return []

    def global_names(self):
        commands = self.tcl.tk.splitlist(self.tcl.tk.call("info", "commands"))
        variables = self.tcl.tk.splitlist(self.tcl.tk.call("info", "globals"))
        return sorted({str(name).lstrip(":") for name in commands + variables})


def _procedure(error_info):
    """ (in procedure NAME, line N) when the error happened inside a procedure."""
    innermost = re.search(r'\(procedure "([^"]+)" line (\d+)\)', error_info)
    return f" (in procedure {innermost.group(1)}, line {innermost.group(2)})" if innermost else ""
