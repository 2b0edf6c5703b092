"""Shared fixtures for the EventTrace tests (tests/reference_model.py and tests/alog_traces.py
are plain helper modules imported by the test files)."""
import functools

import pytest

import earl
from alog_traces import open_trace


@pytest.fixture(scope="session")
def hand(tmp_path_factory):
    """The path of the trace worked out by hand in tests/conformance/receive_order.toml, as
    an ALOG file (the mapping and binding tests of every language read it)."""
    from conformance_cases import load_cases
    path = tmp_path_factory.mktemp("hand") / "hand.alog"
    path.write_text(load_cases("receive_order")["trace"])
    return str(path)


@pytest.fixture
def EventTrace():
    """A constructor for earl.EventTrace (skip while the class is not built yet) that raises
    construction errors without a traceback into the half-built object."""
    cls = getattr(earl, "EventTrace", None)
    if cls is None:
        pytest.skip("earl.EventTrace is not available in this build")
    return functools.partial(open_trace, cls)


@pytest.fixture(scope="session", params=[True, False], ids=["cached", "direct"])
def otf2_cache(request):
    """The `cache` argument every OTF2 test opens its archives with. EARL reads an OTF2
    archive in two ways that must give the same trace: by default (cache=True) once,
    strictly forward, on a background thread into EARL's event cache, which then serves
    the merged order and all random access (cpp/formats/otf2/otf2_importer.cpp,
    cpp/cache/); with cache=False directly through libotf2 with a seek per location
    (cpp/formats/otf2/otf2_decoder.cpp). Every OTF2 test runs through both paths, so that
    neither is left untested behind the other."""
    return request.param


@pytest.fixture(scope="session")
def Otf2Trace(tmp_path_factory, otf2_cache):
    """earl.EventTrace for the OTF2 tests (tests/otf2_*.py), opening with
    cache=otf2_cache; skips where the official otf2 package is missing or this build of
    EARL reads no OTF2 (no libotf2 at build time)."""
    pytest.importorskip("otf2")
    cls = getattr(earl, "EventTrace", None)
    if cls is None:
        pytest.skip("earl.EventTrace is not available in this build")
    from otf2_archives import write_tiny
    probe = write_tiny(tmp_path_factory.mktemp("otf2-probe"))
    try:
        cls(str(probe), cache=otf2_cache).close()
    except earl.EarlError as e:
        if "no OTF2 support" in str(e):
            pytest.skip(f"this build of EARL reads no OTF2: {e}")
    return functools.partial(open_trace, cls, cache=otf2_cache)


@pytest.fixture
def index_dir(tmp_path, monkeypatch):
    """Every index of a test goes to its own directory, whatever the trace's size."""
    directory = tmp_path / "indexes"
    monkeypatch.setenv("EARL_INDEX_DIR", str(directory))
    monkeypatch.setenv("EARL_INDEX_MIN_BYTES", "0")
    monkeypatch.delenv("EARL_INDEX", raising=False)
    return directory
