"""Shared fixtures for the EventTrace tests (tests/reference_model.py and tests/alog_traces.py
are plain helper modules imported by the test files)."""
import functools

import pytest

import earl
from alog_traces import open_trace


@pytest.fixture
def EventTrace():
    """A constructor for earl.EventTrace (skip while the class is not built yet) that raises
    construction errors without a traceback into the half-built object."""
    cls = getattr(earl, "EventTrace", None)
    if cls is None:
        pytest.skip("earl.EventTrace is not available in this build")
    return functools.partial(open_trace, cls)
