"""trace.select(EXPR): the events an expression selects, checked against a plain Python
loop over every event (an independent implementation: dict lookups and Python's own
comparisons), on the native path (the core's predicate) and on the fallback path (the
expression evaluated in its language), which must agree."""
import pytest

import earl
from query_traces import loop, trace_fixtures


trace, events = trace_fixtures("select", events=3000, locations=4, seed=7)


def selected(trace, expression, language="python", **kw):
    chosen = trace.select(expression, language, positions=True, **kw)
    return chosen.native, list(chosen)


# (expression in Python, in Lua, the same test on an event dict)
CASES = [
    ('ev.type == "send" and ev.dest == 3', 'ev.type == "send" and ev.dest == 3',
     lambda e: e["type"] == "send" and e["dest"] == 3),
    ('ev.region == "MPI_Barrier"', 'ev.region == "MPI_Barrier"',
     lambda e: e.get("region") == "MPI_Barrier"),
    ("ev.time > 0.05", "ev.time > 0.05", lambda e: e["time"] > 0.05),
    ("0.05 >= ev.time", "0.05 >= ev.time", lambda e: e["time"] <= 0.05),
    ('ev.type != "enter" and not (ev.loc == 0 or ev.loc == 2)',
     'ev.type ~= "enter" and not (ev.loc == 0 or ev.loc == 2)',
     lambda e: e["type"] != "enter" and e["loc"] not in (0, 2)),
    ("ev.tag >= 1 and ev.len < 5000", "ev.tag >= 1 and ev.len < 5000",
     lambda e: "tag" in e and e["tag"] >= 1 and e["len"] < 5000),
    ('ev["type"] == "recv" and ev.src == -1 or ev.loc == 1',
     'ev["type"] == "recv" and ev.src == -1 or ev.loc == 1',
     lambda e: (e["type"] == "recv" and e["src"] == -1) or e["loc"] == 1),
    ("ev.dest != 2", "ev.dest ~= 2", lambda e: e.get("dest") != 2),
]


@pytest.mark.parametrize("python, lua, keep", CASES, ids=[c[0] for c in CASES])
def test_native_selection_equals_a_plain_loop(trace, events, python, lua, keep):
    expected = loop(events, keep)
    native, found = selected(trace, python)
    assert native and found == expected
    native, found = selected(trace, lua, "lua")
    assert native and found == expected


def test_in_sets_are_native_in_python(trace, events):
    expected = loop(events, lambda e: e.get("region") in ("MPI_Send", "MPI_Recv"))
    native, found = selected(trace, 'ev.region in ("MPI_Send", "MPI_Recv")')
    assert native and found == expected
    native, found = selected(trace, 'ev.region not in ["MPI_Send", "MPI_Recv"]')
    assert native and found == loop(events, lambda e: e.get("region") not in ("MPI_Send", "MPI_Recv"))


@pytest.mark.parametrize("python, lua, keep", [
    ("ev.time * 1000 > 50", "ev.time * 1000 > 50", lambda e: e["time"] * 1000 > 50),
    ('ev.type == "send" and ev.dest == ev.loc + 1', 'ev.type == "send" and ev.dest == ev.loc + 1',
     lambda e: e["type"] == "send" and e["dest"] == e["loc"] + 1),
    ('ev.region and ev.region.startswith("MPI_")', 'ev.region ~= nil and ev.region:sub(1, 4) == "MPI_"',
     lambda e: e.get("region", "").startswith("MPI_")),
])
def test_fallback_selection_equals_a_plain_loop(trace, events, python, lua, keep):
    expected = loop(events, keep)
    native, found = selected(trace, python)  # "partial": the language tests the rest
    assert native in (False, "partial") and found == expected
    native, found = selected(trace, lua, "lua")
    assert native in (False, "partial") and found == expected


def test_native_and_fallback_agree_on_absent_attributes(trace):
    # `(ev.dest) != 2 or False` says the same as `ev.dest != 2` but leaves the subset
    native, simple = selected(trace, "ev.dest != 2")
    fallback_native, fallback = selected(trace, "ev.dest != 2 or False")
    assert native and not fallback_native and simple == fallback
    native, simple = selected(trace, "ev.dest > 1")
    fallback_native, fallback = selected(trace, "ev.dest > 1 or False")
    assert native and not fallback_native and simple == fallback


def test_absent_values_equal_none_in_python(trace, events):
    native, found = selected(trace, "ev.dest == None or ev.dest == 99999")
    assert not native and found == loop(events, lambda e: "dest" not in e)


def test_window_and_locations(trace, events):
    native, found = selected(trace, 'ev.type == "enter"', first=100, last=900, locations=[1, 3])
    assert native and found == loop(events, lambda e: 100 <= e["pos"] <= 900 and e["loc"] in (1, 3)
                                     and e["type"] == "enter")
    t0, t1 = events[499]["time"], events[1499]["time"]
    _, found = selected(trace, None, first=t0, last=t1)
    assert found == loop(events, lambda e: t0 <= e["time"] <= t1)
    _, found = selected(trace, None, first=f"{t0 * 1000}ms", last=f"{t1}s")
    assert found == loop(events, lambda e: t0 <= e["time"] <= t1)


def test_select_yields_event_dicts_lazily(trace, events):
    chosen = trace.select('ev.type == "recv"')
    first = next(chosen)
    assert first == next(e for e in events if e["type"] == "recv")


def test_duration_of_exits(trace, events):
    def duration(e):
        if e["type"] != "exit" or not e["enterptr"]:
            return None
        return e["time"] - events[e["enterptr"] - 1]["time"]
    expected = loop(events, lambda e: duration(e) is not None and duration(e) > 0.0005)
    native, found = selected(trace, "ev.duration > 0.0005")
    assert native and found == expected
    native, found = selected(trace, "ev.duration and ev.duration * 1 > 0.0005")
    assert not native and found == expected
    native, found = selected(trace, "ev.duration ~= nil and ev.duration * 1 > 0.0005", "lua")
    assert not native and found == expected


@pytest.mark.parametrize("expression, language, where", [
    ('ev.type == ', "python", "line 1, column 12"),
    ('ev.type ==\n  "send" and', "lua", "line 2, column 13"),
    ('ev.type == "send" and and', "lua", "line 1, column 23"),
    ('ev.colour == 3', "python", "line 1, column 1"),
    ('ev.type == "send" and\n ev.colour == 3', "lua", "line 2, column 2"),
])
def test_errors_name_line_and_column(trace, expression, language, where):
    with pytest.raises(earl.EarlError, match=f"expression: {where}: "):
        list(trace.select(expression, language))


def test_a_runtime_error_names_the_event(trace):
    with pytest.raises(earl.EarlError, match=r"ZeroDivisionError.*\(at event 1\)"):
        list(trace.select("1 / 0"))
    with pytest.raises(earl.EarlError, match=r"^expression: line 2: attempt to perform arithmetic on a nil "
                                             r"value \(field 'nothing'\) \(at event 1\)$"):
        list(trace.select("ev.type == 'x' or\n ev.nothing + 1 > 0", "lua"))


def test_lua_select(trace, events):
    import earl.lua
    lua = earl.lua.runtime()
    lua_trace = earl.lua.share(trace, lua)
    collect = lua.eval("""function(e, expression, first, last)
        local found = {}
        for ev in e:select(expression, first, last) do found[#found + 1] = ev.pos end
        return found
    end""")
    for _, expression, keep in CASES[:3]:
        assert list(collect(lua_trace, expression).values()) == loop(events, keep)
    found = collect(lua_trace, "ev.time * 1000 > 50", 10, 2000)
    assert list(found.values()) == loop(events, lambda e: 10 <= e["pos"] <= 2000 and e["time"] > 0.05)
