"""The conformance cases of tests/conformance/ (shared with Lua and Tcl) through the Python
mapping: earl.EventTrace or earl.P2Statistic, a method call per operation, `size` as len(), `iterator` as the
property."""
import pytest

import earl
from conformance_cases import NONE, NOTHING, Failure, cases, run, write_trace


def answer(trace, method, args):
    try:
        if method == "size":
            got = len(trace)
        elif method == "iterator":       # a property in Python
            got = trace.iterator
        else:
            got = getattr(trace, method)(*args)
    except earl.EarlError as error:
        return Failure(str(error))
    if got is None:
        return NOTHING
    if method == "event":
        return {k: v for k, v in got.items() if v is not None}
    if method == "values":
        return [NONE if v is None else v for v in got]
    return got


@pytest.mark.parametrize("trace, ops", cases())
def test_case(tmp_path, trace, ops):
    if trace is None:
        p = earl.P2Statistic()
        run(ops, lambda method, args, expected: answer(p, method, args), None)
        return
    path = write_trace(tmp_path, trace)
    with earl.EventTrace(path) as t:
        run(ops, lambda method, args, expected: answer(t, method, args), path)
