"""__init__ runs once per object (issue 22, class 12): pybind11 ignores a second __init__
on a live object, so `t.__init__("other.alog")` returned with `t` still on its first trace.
Every class the core binds refuses it with a TypeError naming the class (its state stays);
the first __init__ of an object made by __new__, and one after a failed first, still work."""
import inspect

import pytest

import earl
from earl import _core

from alog_traces import write_alog

ONE_EVENT = ["-3 0 0 1 0 0", "-13 0 1 2 0 0 black:solid main", "1 0 0 0 0 5"]
TWO_EVENTS = ONE_EVENT + ["2 0 0 0 0 7"]


def bound_classes():
    return {name for name, cls in inspect.getmembers(_core, inspect.isclass)
            if not issubclass(cls, BaseException)}


@pytest.fixture
def traces(tmp_path):
    return write_alog(tmp_path, ONE_EVENT, "one.alog"), write_alog(tmp_path, TWO_EVENTS, "two.alog")


def made(name, traces):
    """(a live object of the bound class `name`, the arguments of a second __init__, a
    function telling its state)."""
    one, two = traces
    if name == "EventTrace":
        return earl.EventTrace(one, index=False), (two,), lambda t: (len(t), t.file())
    if name == "P2Statistic":
        stat = earl.P2Statistic()
        stat.add(3.0)
        return stat, (), lambda s: s.state()
    if name == "StagedFile":
        staged = _core.StagedFile(one + ".out")
        return staged, (two + ".out",), lambda f: f.staged_path
    if name in ("Selection", "Checker"):
        trace = earl.EventTrace(one, index=False)
        if name == "Selection":
            return _core.Selection(trace._ticket(), "ev.loc == 0"), (trace._ticket(), None), lambda s: s.native
        return _core.Checker(trace._ticket(), []), (trace._ticket(), []), lambda c: c.fallbacks()
    raise AssertionError(f"a new bound class {name}: add it here")


@pytest.mark.parametrize("name", sorted(bound_classes()))
def test_a_second_init_is_a_type_error_naming_the_class(name, traces):
    obj, args, state = made(name, traces)
    before = state(obj)
    for cls in {type(obj), getattr(_core, name)}:  # earl's subclass and the core's class
        with pytest.raises(TypeError, match=f"^{name}.__init__ called again on an initialised {name}; "
                                            f"create a new {name} instead$"):
            cls.__init__(obj, *args)
    assert state(obj) == before


def test_the_classes_tested_are_every_bound_class():
    assert bound_classes() == {"EventTrace", "P2Statistic", "StagedFile", "Selection", "Checker"}


def test_a_first_init_after_new_or_after_a_failed_one_opens(traces, tmp_path):
    one, two = traces
    trace = earl.EventTrace.__new__(earl.EventTrace)
    with pytest.raises(earl.EarlError, match="cannot open"):
        trace.__init__(str(tmp_path / "missing.alog"))
    trace.__init__(two, index=False)
    assert len(trace) == 2
    stat = _core.P2Statistic.__new__(_core.P2Statistic)
    stat.__init__()
    assert stat.count() == 0


def test_an_object_at_the_address_of_a_dead_one_is_new():
    # Python reuses the memory of a freed object at once: each new statistic often sits
    # where the last one died, and its first __init__ must still go through.
    addresses = set()
    for _ in range(200):
        stat = _core.P2Statistic.__new__(_core.P2Statistic)
        addresses.add(id(stat))
        stat.__init__()
        stat.add(1.0)
        assert stat.count() == 1
        del stat
    assert len(addresses) < 200  # the reuse this test is about happened
