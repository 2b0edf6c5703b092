"""EARL's Tcl mapping, run inside this Python process through tkinter.

    import earl.tcl
    tcl = earl.tcl.interpreter()             # tkinter.Tcl() with `package require earl` done
    tcl.eval('EventTrace e -file run.otf2; while {[e next]} {e event ev}')
    earl.tcl.run("scripts/wasted_time.tcl", ["run.otf2"])
    name = earl.tcl.share(trace, tcl)        # the same C++ trace (one iterator) in Tcl
    with earl.tcl.interruptible(tcl):        # Ctrl-C stops the evaluations: KeyboardInterrupt
        tcl.eval('while 1 {e next}')

The Tcl side is a native extension (bindings/tcl, installed as earl/tcl8.6/ with its
pkgIndex.tcl): every Tcl command goes straight to the C++ core, never through Python.
Built against Tcl's stubs, the same file loads into tclsh8.6 and wish8.6:

    TCLLIBPATH="$(python -m earl.tcl --libpath)" tclsh8.6 script.tcl TRACE

Both dialects are there: EARL 2.0 (EventTrace, P2Statistic) and the 1998 `earl` command
(earl open, earl stat, earl help); a script whose first line is `#!/usr/local/bin/earl`
(the 1998 interpreter, a tclsh with EARL built in) is Tcl.
"""
import contextlib
import os
import re
import sys

from earl import EarlError

__all__ = ["interpreter", "run", "share", "library_path", "is_tcl_script", "interruptible"]

# What a Tcl script's first line may say: the 1998 EARL interpreter, tclsh or wish.
_SHEBANG = re.compile(r"^#!\S*(/earl|tclsh|wish)")
_WISH = re.compile(r"^#!\S*wish")


def library_path():
    """The directory holding the extension and its pkgIndex.tcl, or EarlError saying how to
    get it."""
    import earl

    for base in earl.__path__:
        candidate = os.path.join(base, "tcl8.6")
        if os.path.isfile(os.path.join(candidate, "pkgIndex.tcl")):
            return candidate
    raise EarlError("the EARL Tcl extension (earl/tcl8.6) is not built: install the Tcl 8.6 "
                    "headers (Debian/Ubuntu: apt-get install tcl8.6-dev) and rebuild EARL "
                    "(make setup)")


def is_tcl_script(path):
    """True for a .tcl file or one whose first line names earl, tclsh or wish."""
    path = os.fspath(path)
    if path.endswith(".tcl"):
        return True
    try:
        with open(path, "rb") as f:
            first = f.readline(200).decode("utf-8", "replace")
    except OSError:
        return False
    return bool(_SHEBANG.match(first))


# Runs once in each new interpreter. puts to stdout/stderr goes to Python's sys.stdout and
# sys.stderr (Tcl's own channels write to the C streams, past Python's buffers and
# redirections); other channels are untouched. exit stops the script, not the Python
# process (tkinter removes Tcl's own exit): it raises an error whose errorCode is
# {EARL EXIT code}.
_SETUP = r"""
rename ::puts ::earl::_tcl_puts
proc ::puts {args} {
    set newline 1
    if {[lindex $args 0] eq "-nonewline"} {
        set newline 0
        set args [lrange $args 1 end]
    }
    switch -- [llength $args] {
        1 { set channel stdout; set text [lindex $args 0] }
        2 { lassign $args channel text }
        default { return -code error {wrong # args: should be "puts ?-nonewline? ?channelId? string"} }
    }
    if {$channel in {stdout stderr}} {
        # append, not expr: expr would read "1\n" as the number 1 and drop the newline
        if {$newline} {append text \n}
        ::earl::_write $channel $text
        return
    }
    if {$newline} {
        tailcall ::earl::_tcl_puts $channel $text
    }
    tailcall ::earl::_tcl_puts -nonewline $channel $text
}
if {[llength [info commands ::exit]]} {
    rename ::exit ::earl::_tcl_exit
}
proc ::exit {{code 0}} {
    return -code error -errorcode [list EARL EXIT $code] "exit $code"
}
"""


def _write(channel, text):
    (sys.stderr if channel == "stderr" else sys.stdout).write(text)


def interpreter():
    """A new tkinter.Tcl() interpreter with the EARL extension loaded (both dialects'
    commands), puts to stdout/stderr writing to sys.stdout/sys.stderr, and exit stopping
    the script instead of the process."""
    import tkinter

    library = library_path()
    interp = tkinter.Tcl()
    interp.tk.call("lappend", "::auto_path", library)
    try:
        interp.eval("package require earl")
    except tkinter.TclError as error:
        raise EarlError(f"cannot load the EARL Tcl extension from {library}: {error}") from None
    interp.createcommand("::earl::_write", _write)
    interp.eval(_SETUP)
    return interp


def _interruptible(tcl, word):
    """`::earl::_interruptible arm|disarm` (bindings/tcl/tcl_interrupt.h). Ctrl-C cancels
    the interpreter's evaluation, and Tcl keeps it cancelled until a command called at top
    level fails on it (tkinter's eval never clears it); a cancel may take a call or two to
    fire. The call is repeated until it works; True when a cancel was cleared so."""
    import tkinter

    for attempt in range(4):
        try:
            tcl.tk.call("::earl::_interruptible", word)
            return attempt > 0
        except tkinter.TclError:
            if attempt == 3:
                raise
    return True


@contextlib.contextmanager
def interruptible(tcl):
    """Runs the block's evaluations in `tcl` so that Ctrl-C stops them: KeyboardInterrupt
    (the cancel's TclError, should it come before Python's handler ran, becomes one), and
    the interpreter is ready for the next evaluation. Outside such a block Ctrl-C does not
    reach Tcl: a Ctrl-C that Python handled must not cancel what Tcl evaluates later."""
    import tkinter

    _interruptible(tcl, "arm")
    try:
        yield
    except tkinter.TclError:
        if _interruptible(tcl, "disarm"):
            raise KeyboardInterrupt from None
        raise
    finally:
        _interruptible(tcl, "disarm")


def run(path, args=(), interp=None):
    """Runs the Tcl script file `path` with argv, argc and argv0 set as tclsh sets them. A
    Tcl error raises EarlError("path:line: message"); exit n with n other than 0 raises
    SystemExit(n). Runs in `interp` if given (its variables stay afterwards), else in a
    new one. A script whose first line names wish gets Tk loaded and runs until its
    windows are closed, as under wish."""
    import tkinter

    tcl = interpreter() if interp is None else interp
    path = os.fspath(path)
    args = [str(a) for a in args]
    tcl.tk.call("set", "::argv0", path)
    tcl.tk.call("set", "::argv", tcl.tk.call("list", *args))
    tcl.tk.call("set", "::argc", len(args))
    wants_tk = _first_line(path).startswith("#!") and bool(_WISH.match(_first_line(path)))
    try:
        with interruptible(tcl):
            if wants_tk:
                tcl.loadtk()
            tcl.tk.call("source", path)
            if wants_tk and tcl.tk.call("winfo", "exists", "."):
                tcl.mainloop()
    except tkinter.TclError as error:
        code = _exit_code(tcl)
        if code is not None:
            if code != 0:
                raise SystemExit(code)
            return
        raise EarlError(_escaped(_located(str(error), _info(tcl, "::errorInfo"), path))) from None


def _escaped(message):
    """Bytes of a trace's names that are not UTF-8 reach Python as surrogate escapes; a
    message shows them as \\xNN, as earl's other messages do."""
    return message.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _first_line(path):
    try:
        with open(path, "rb") as f:
            return f.readline(200).decode("utf-8", "replace")
    except OSError:
        return ""


def _info(tcl, name):
    try:
        return tcl.tk.eval(f"set {name}")  # eval: the text, not tkinter's tuple of a list
    except Exception:  # the variable may not exist
        return ""


def _exit_code(tcl):
    """The code of an `exit` that stopped the script, or None for any other error."""
    words = _info(tcl, "::errorCode").split()
    if len(words) == 3 and words[:2] == ["EARL", "EXIT"]:
        try:
            return int(words[2])
        except ValueError:
            return 1
    return None


def _located(message, error_info, path):
    """path:line: message, from the innermost `(file "..." line N)` of errorInfo; an error
    inside a procedure also names it and its line."""
    if error_info.startswith("couldn't read file"):
        return message
    files = re.findall(r'\(file "((?:[^"\\]|\\.)*)" line (\d+)\)', error_info)
    where = f"{files[0][0]}:{files[0][1]}" if files else path
    procedure = re.search(r'\(procedure "([^"]+)" line (\d+)\)', error_info)
    inside = f" (in procedure {procedure.group(1)}, line {procedure.group(2)})" if procedure else ""
    return f"{where}: {message}{inside}"


_default = None


def _default_interpreter():
    global _default
    if _default is None:
        _default = interpreter()
    return _default


def share(trace, interp=None, name=None):
    """Hands a Python earl.EventTrace to Tcl as the same C++ trace: one iterator, one lock;
    moving it in either language moves it in both, and closing it closes it for both.
    Returns the name of the EARL 2.0 trace command made in `interp` (by default one
    interpreter kept by this module); `name` chooses it."""
    import tkinter

    ticket = getattr(trace, "_ticket", None)
    if ticket is None:
        raise EarlError(f"share: trace must be an earl.EventTrace, got {type(trace).__name__}")
    tcl = _default_interpreter() if interp is None else interp
    words = ["::earl::_adopt", ticket()] + ([name] if name is not None else [])
    try:
        return str(tcl.tk.call(*words))
    except tkinter.TclError as error:
        raise EarlError(str(error)) from None


if __name__ == "__main__":
    if sys.argv[1:] == ["--libpath"]:
        print(library_path())
    else:
        sys.exit("usage: python -m earl.tcl --libpath")
