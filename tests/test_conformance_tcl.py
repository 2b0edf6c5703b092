"""The conformance cases of tests/conformance/ (shared with Python and Lua) through the Tcl
mapping (EventTrace or P2Statistic as `e`): `e method args` per operation, `event` as
`e event ev ?pos?` read back with `array get`; Tcl's words become the neutral form in the
shape of the expected answer."""
import tkinter

import pytest

from conformance_cases import NONE, NOTHING, INTEGER, Failure, cases, run, write_trace
from test_tcl_common import as_list, interp, needs_extension

pytestmark = needs_extension


def neutral(tcl, word, expected):
    """Tcl text read in the shape of `expected`."""
    if isinstance(expected, list):
        words = as_list(tcl, word)
        return [neutral(tcl, w, e) for w, e in zip(words, expected + [None] * len(words))]
    if isinstance(expected, dict):
        words = as_list(tcl, word)
        return {k: neutral(tcl, v, expected.get(k)) for k, v in zip(words[::2], words[1::2])}
    if expected == NONE and word == "":
        return NONE
    if isinstance(expected, bool) or isinstance(expected, int):
        return int(word) if INTEGER.match(word) else word
    if isinstance(expected, float):
        return float(word)
    return word


def answer(tcl, method, args, expected):
    words = " ".join("{" + str(a) + "}" for a in args)
    command = f"e event ev {words}" if method == "event" else f"e {method} {words}"
    try:
        got = tcl.eval(command)
    except tkinter.TclError as error:
        return Failure(str(error))
    if method == "event":
        # Tcl has no null: an absent attribute is the empty string
        shape = expected if isinstance(expected, dict) else {}
        return {k: v for k, v in neutral(tcl, tcl.eval("array get ev"), shape).items() if v != ""}
    if got == "" and expected == NOTHING:
        return NOTHING
    return neutral(tcl, got, expected)


@pytest.mark.parametrize("trace, ops", cases())
def test_case(tmp_path, trace, ops):
    tcl = interp()
    if trace is None:
        tcl.eval("P2Statistic e")
        path = None
    else:
        tcl.tk.call("set", "path", path := write_trace(tmp_path, trace))
        tcl.eval("EventTrace e -file $path")
    run(ops, lambda method, args, expected: answer(tcl, method, args, expected), path)
    tcl.eval("rename e {}")
