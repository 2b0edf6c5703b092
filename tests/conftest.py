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


@pytest.fixture(scope="session")
def Otf2Trace(tmp_path_factory):
    """earl.EventTrace for the OTF2 tests (tests/otf2_*.py); skips where the official otf2
    package is missing or this build of EARL reads no OTF2 (no libotf2 at build time)."""
    pytest.importorskip("otf2")
    cls = getattr(earl, "EventTrace", None)
    if cls is None:
        pytest.skip("earl.EventTrace is not available in this build")
    from otf2_archives import write_tiny
    probe = write_tiny(tmp_path_factory.mktemp("otf2-probe"))
    try:
        cls(str(probe)).close()
    except earl.EarlError as e:
        if "no OTF2 support" in str(e):
            pytest.skip(f"this build of EARL reads no OTF2: {e}")
    return functools.partial(open_trace, cls)
