"""Rules for the bindings' sources that no behavioural test can see (pybind11's public API
only, one folder per language, each API rule written once in cpp/trace/), and the behaviour
those rules give: the same messages in every language, one table of methods per language."""
import re
from pathlib import Path

import pytest

import earl
import earl.lua
from test_tcl_common import LIBRARY, error_of, interp

BINDINGS = Path(__file__).resolve().parents[1] / "bindings" / "python"


def test_no_private_pybind11_api():
    """pybind11's `detail` namespace is internal and changes between releases; the module
    must build on the public API alone."""
    sources = sorted(BINDINGS.glob("*.cpp")) + sorted(BINDINGS.glob("*.h"))
    assert sources
    offenders = [f"{path.name}:{number}" for path in sources
                 for number, line in enumerate(path.read_text().splitlines(), 1)
                 if re.search(r"\b(py|pybind11)::detail\b", line)]
    assert offenders == []


def test_each_language_has_its_own_folder():
    """DESIGN.md section 5: bindings/ holds one folder per language (python/, lua/, tcl/);
    pybind11 is used in python/ alone, and nothing lies loose beside the folders."""
    root = BINDINGS.parent
    assert sorted(p.name for p in root.iterdir()) == ["lua", "python", "tcl"]
    using_pybind11 = {path.relative_to(root).parts[0] for path in root.rglob("*")
                      if path.suffix in (".cpp", ".h") and "pybind11" in path.read_text()}
    assert using_pybind11 == {"python"}


# ------------------------------------------------------------------ one source per rule
SOURCES = sorted(p for p in BINDINGS.parent.rglob("*") if p.suffix in (".cpp", ".h"))


def lines_matching(pattern, paths=SOURCES):
    return [f"{path.relative_to(BINDINGS.parent)}:{number}" for path in paths
            for number, line in enumerate(path.read_text().splitlines(), 1) if re.search(pattern, line)]


def test_bindings_leave_the_api_rules_to_the_core():
    """Where each attribute's value lives (visit_slot and visit_value in
    cpp/trace/event_attributes.h) and the position rules with their messages
    (EventTrace::checked_position, event_position, no_event_at) are written once, in
    cpp/trace/; a binding converts typed values and never switches on a slot itself."""
    assert SOURCES
    assert lines_matching(r"case (Slot|Value::Kind)::") == []
    assert lines_matching(r"no event at|numbered from 1") == []


def test_lock_then_call_is_written_once_per_language():
    """Lua's and Tcl's trace methods are rows of a table whose dispatcher takes the lock
    (Lua: locked()/answer(); Tcl: call_method() in tcl_methods.h); only the few bodies that
    must release it early (reading names, close, tostring, filling an array before
    assigning it) lock for themselves."""
    lua = BINDINGS.parent / "lua" / "lua_event_trace.cpp"
    tcl = BINDINGS.parent / "tcl" / "tcl_event_trace.cpp"
    assert len(lines_matching(r"\bLock lock\(", [lua])) <= 4
    assert len(lines_matching(r"\bLock lock\(", [tcl])) <= 1


# ------------------------------------------------------------------ the same rules, each language
# The hand-worked trace of tests/conformance/receive_order.toml (the `hand` fixture): 17 events.

AT_ITERATOR = "no event at the iterator: it stands at 0 (call next{0} or jump{0} first)"
NEGATIVE = "no event at position -1 (positions are numbered from 1)"


def lua_error(lua, chunk):
    """The message of the Lua error `chunk` raises, without its position prefix."""
    ok, message = lua.execute(f"return pcall(function() {chunk} end)")
    assert ok is False
    return message.split(": ", 1)[1]


def test_position_rules_say_the_same_in_every_language(hand):
    with earl.EventTrace(hand) as trace:
        for call in (trace.event, trace.values, trace.attributes):
            with pytest.raises(earl.EarlError) as at_iterator:
                call()
            assert str(at_iterator.value) == AT_ITERATOR.format("()")
        with pytest.raises(earl.EarlError) as negative:
            trace.event(-1)
        assert str(negative.value) == NEGATIVE
        with pytest.raises(earl.EarlError) as huge:
            trace.event(2 ** 64)
        assert str(huge.value) == ("no event at position 18446744073709551616 "
                                   "(positions are numbered from 1 and fit in 64 bits)")

    lua = earl.lua.runtime()
    lua.execute(f'e = EventTrace("{hand}")')
    for method in ("event", "values", "attributes"):
        assert lua_error(lua, f"return e:{method}()") == AT_ITERATOR.format("()")
        assert lua_error(lua, f"return e:{method}(-1)") == NEGATIVE

    if LIBRARY is None:
        pytest.skip("no Tcl extension")
    tcl = interp()
    tcl.tk.call("set", "path", hand)
    tcl.eval("EventTrace e -file $path")
    for command in ("e event ev", "e values", "e attributes"):
        assert error_of(tcl, command) == AT_ITERATOR.format("")
        assert error_of(tcl, command + " -1") == NEGATIVE


# The EARL 2.0 Tcl trace command's methods in the order Tcl lists them, with their
# arguments as the language reference writes them (docs/api-contract.md).
TCL_METHODS = {
    "event": "arr ?pos?", "next": "", "prev": "", "jump": "pos", "reset": "",
    "attributes": "?pos?", "values": "?pos?", "stack": "loc ?pos?", "queue": "src dest ?pos?",
    "file": "", "format": "", "nrlocs": "", "locsym": "loc", "regions": "?group?", "groups": "",
    "group": "region", "types": "", "eventTypes": "", "problems": "", "iterator": "", "size": "",
    "close": "", "closed": "", "members": "group", "ranks": "com", "metrics": "",
    "select": "expr arr body", "check": "?arg ...?", "profile": "?bins?",
    "region_instances": "arr body",
}


@pytest.mark.skipif(LIBRARY is None, reason="no Tcl extension")
def test_every_tcl_method_is_a_row_with_its_usage(hand):
    tcl = interp()
    tcl.tk.call("set", "path", hand)
    tcl.eval("EventTrace e -file $path")
    names = list(TCL_METHODS)
    assert error_of(tcl, "e frobnicate") == (
        f'bad method "frobnicate": must be {", ".join(names[:-1])}, or {names[-1]}')
    for name, arguments in TCL_METHODS.items():
        words = arguments.split()
        usage = f'wrong # args: should be "e {" ".join([name] + words)}"'
        if "...?" not in words:  # any number more: no call has too many
            assert error_of(tcl, f"e {name} " + " ".join(["1"] * (len(words) + 1))) == usage, name
        required = [w for w in words if not w.startswith("?") and w != "...?"]
        if required:
            assert error_of(tcl, f"e {name} " + " ".join(["1"] * (len(required) - 1))) == usage, name


def test_every_lua_method_checks_its_trace_first(hand):
    """Each row of the Lua method table (eventTypes is types' row) goes through the one
    dispatcher, which names the method when it is called without its trace."""
    lua = earl.lua.runtime()
    lua.execute(f'e = EventTrace("{hand}")')
    names = sorted(lua.execute("local t = {} for k in pairs(getmetatable(e).__index) do t[#t + 1] = k end "
                               "return table.concat(t, ' ')").split())
    assert names == sorted(["event", "attributes", "values", "stack", "queue", "next", "prev", "jump", "reset",
                            "iterator", "file", "format", "nrlocs", "locsym", "groups", "group", "regions",
                            "types", "eventTypes", "problems", "close", "closed", "members", "ranks", "metrics",
                            "select", "check", "profile", "region_instances"])
    for name in names:
        row = "types" if name == "eventTypes" else name
        assert lua_error(lua, f"return getmetatable(e).__index.{name}(5)") == (
            f"EventTrace:{row}: call it as a method, e:{row}(...) (got integer where the trace belongs)")
    assert lua_error(lua, "return getmetatable(e).__len(5)") == (
        "EventTrace:__len: call it as a method, e:__len(...) (got integer where the trace belongs)")


def test_the_1998_data_of_a_window_lock_lists_its_integer_attributes(tmp_path):
    """The 1998 dialect shows an RMA lock's 2.0 attributes in data as a name-value list,
    exclusive and request (its data values) aside (docs/api-contract.md)."""
    from script_checks import have_otf2
    if LIBRARY is None or not have_otf2():
        pytest.skip("needs the Tcl extension and OTF2")
    from case_trace import build_case
    path = build_case("rma_lock_competition", tmp_path)
    with earl.EventTrace(path) as trace:
        locks = [ev for ev in trace if ev["type"] in ("wlock", "wunlock")]
    assert locks
    tcl = interp()
    tcl.tk.call("set", "path", path)
    tcl.eval("set t [earl open $path]")
    for ev in locks:
        fields = dict(zip(*[iter(tcl.tk.splitlist(tcl.eval(f"$t get {ev['pos']} -fetchonly")))] * 2))
        assert [str(v) for v in tcl.tk.splitlist(fields["data"])] == [
            "win", str(ev["win"]), "peer", str(ev["peer"])]
