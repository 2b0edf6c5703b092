"""A trace with definitions but no events is valid: every query answers, nothing crashes."""
import pytest

import earl


@pytest.fixture
def empty(tmp_path):
    path = tmp_path / "empty.alog"
    path.write_text("-3 0 0 2 0 0\n-13 0 1 2 0 0 a:b main\n-15 1 0 0 0 0 worker\n")
    return earl.EventTrace(path)


def test_empty_trace_has_no_events_and_a_still_iterator(empty):
    assert len(empty) == 0
    assert (empty.next(), empty.prev(), empty.jump(1)) == (0, 0, 0)
    assert list(empty) == []
    with pytest.raises(earl.EarlError, match="no event"):
        empty.event()
    with pytest.raises(earl.EarlError, match="no event at position 1"):
        empty.event(1)


def test_empty_trace_state_and_definitions(empty):
    assert empty.stack(1, 0) == [] and empty.queue(-1, -1, 0) == []
    with pytest.raises(earl.EarlError, match="position 1"):
        empty.stack(0, 1)
    assert empty.nrlocs() == 2 and empty.locsym(1) == "worker" and empty.locsym(0) == 0
    assert empty.regions() == ["main"]
    assert empty.to_numpy().shape == (0,)
    assert all(kind["count"] == 0 for kind in empty.problems().values())
