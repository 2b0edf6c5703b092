"""The generated traces the query and check tests select from."""
import pytest

import earl
from earl.generate import generate


def generated(tmp_path_factory, name, **options):
    """Yields a generated ALOG trace `name` (options of earl.generate), open."""
    path = tmp_path_factory.mktemp(name) / f"{name}.alog"
    generate(str(path), **options)
    with earl.EventTrace(str(path)) as opened:
        yield opened


def every_event(trace):
    """The trace's events as dicts, in order: what the plain loops test."""
    return [trace.event(pos) for pos in range(1, len(trace) + 1)]


def loop(events, keep):
    """The independent answer: positions of the events `keep(event dict)` accepts."""
    return [e["pos"] for e in events if keep(e)]


def trace_fixtures(name, **options):
    """The module fixtures `trace` (generated(name, **options)) and `events` (its
    every_event): `trace, events = trace_fixtures(...)` in a test module."""
    @pytest.fixture(scope="module", name="trace")
    def trace_fixture(tmp_path_factory):
        yield from generated(tmp_path_factory, name, **options)

    @pytest.fixture(scope="module", name="events")
    def events_fixture(trace):
        return every_event(trace)
    return trace_fixture, events_fixture
