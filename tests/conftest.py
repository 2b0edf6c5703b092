"""Shared fixtures for the EventTrace tests (tests/reference_model.py and tests/alog_traces.py
are plain helper modules imported by the test files)."""
import pytest

import earl


@pytest.fixture
def EventTrace():
    """earl.EventTrace, or skip while the class is not built yet."""
    cls = getattr(earl, "EventTrace", None)
    if cls is None:
        pytest.skip("earl.EventTrace is not available in this build")
    return cls
