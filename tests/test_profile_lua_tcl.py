"""The profile in Lua (`e:profile{bins=N}`, `e:region_instances()`) and Tcl (`e profile
?bins?`, `e region_instances arr body`): the same rows as Python's earl.stats() and
trace.region_instances() on the same traces, and the hand-worked values of
tests/hand_profile_trace.py."""
import math

import pytest

import earl
from earl.generate import generate
import hand_profile_trace
from hand_profile_trace import US
from otf2_archives import PING_PONG_PAPI

pytest.importorskip("pandas")
lua54 = pytest.importorskip("lupa.lua54")
import earl.lua  # noqa: E402
from test_tcl_common import LIBRARY, error_of, interp  # noqa: E402

try:
    earl.lua.module_path()
except earl.EarlError as error:
    pytest.skip(f"no Lua module in this build: {error}", allow_module_level=True)
needs_tcl = pytest.mark.skipif(LIBRARY is None, reason="no Tcl extension")

FLAT = ("region", "visits", "inclusive", "exclusive", "min", "mean", "max", "imbalance")
INSTANCE = ("loc", "region", "callpath", "callpath_id", "enter_pos", "exit_pos", "enter_time",
            "exit_time", "inclusive", "exclusive")


def traces(tmp_path):
    open_trace = tmp_path / "open.alog"  # loc 1 never leaves main
    open_trace.write_text("\n".join(hand_profile_trace.LINES[:-1]) + "\n")
    generated = tmp_path / "run.alog"
    generate(str(generated), locations=3, events=3000, seed=5, late_sender_rate=0.3)
    found = [hand_profile_trace.write(tmp_path), str(open_trace), str(generated)]
    if PING_PONG_PAPI.exists():
        found.append(str(PING_PONG_PAPI))
    return found


@pytest.fixture(scope="module")
def paths(tmp_path_factory):
    return traces(tmp_path_factory.mktemp("profile-lua-tcl"))


# ------------------------------------------------------------------ what Python shows
def python_profile(path, bins):
    with earl.EventTrace(path) as trace:
        tables = earl.stats(trace, bins=bins)
    counts, sizes = tables["message_count"], tables["message_bytes"]
    messages = [{"src": src, "dest": dest, "count": int(counts.loc[src, dest]),
                 "bytes": int(sizes.loc[src, dest])}
                for src in counts.index for dest in counts.columns if counts.loc[src, dest]]
    return {"types": tables["types"].to_dict("records"),
            "flat_profile": tables["flat_profile"][list(FLAT)].to_dict("records"),
            "messages": messages,
            "traffic": tables["traffic"].to_dict("records")}


def python_instances(path):
    """Rows of region_instances(); NaN (an open instance's exit) is None, counters a list."""
    with earl.EventTrace(path) as trace:
        frame = trace.region_instances()
        counters = trace.metric_columns()
    rows = []
    for record in frame.to_dict("records"):
        row = {name: record[name] for name in INSTANCE}
        row["region"], row["callpath"] = str(row["region"]), str(row["callpath"])
        row["counters"] = [record[name] for name in counters]
        rows.append({k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in row.items()})
    return rows


def same(found, expected):
    """Rows equal, numbers to the last bit or (after a trip through Tcl's text) 1e-15."""
    assert len(found) == len(expected)
    for got, want in zip(found, expected):
        # Lua leaves out what is nil
        assert set(got) == {key for key, value in want.items() if value is not None} or set(got) == set(want)
        for key, value in want.items():
            if isinstance(value, float):
                assert got[key] == pytest.approx(value, rel=1e-15, abs=1e-300), key
            elif isinstance(value, list):
                assert len(got[key]) == len(value)
                for a, b in zip(got[key], value):
                    assert (a is None and (b is None or math.isnan(b))) or a == pytest.approx(b, rel=1e-15)
            else:
                assert got.get(key) == value, key


# ------------------------------------------------------------------ Lua
def lua_rows(table):
    return [lua_row(row) for row in table.values()]


def lua_row(row):
    out = {}
    for key, value in row.items():
        if lua54.lua_type(value) == "table":  # counters: a sequence with holes and n
            value = [value[i] for i in range(1, value["n"] + 1)]
        out[key] = value
    return out


def lua_open(path):
    lua = earl.lua.runtime()
    lua.globals().path = path
    lua.execute("e = EventTrace(path)")
    return lua


@pytest.mark.parametrize("bins", [1, 3])
def test_lua_profile_equals_earl_stats(paths, bins):
    for path in paths:
        lua = lua_open(path)
        found = lua.eval(f"e:profile{{bins = {bins}}}")
        expected = python_profile(path, bins)
        for name, rows in expected.items():
            same(lua_rows(found[name]), rows)


def test_lua_profile_of_the_hand_trace(paths):
    lua = lua_open(paths[0])
    found = lua.eval("e:profile()")  # 20 bins unless told
    assert len(found["traffic"]) == 20
    assert found["begin"] == 0 and found["end"] == pytest.approx(100 * US)
    main = lua_row(found["flat_profile"][1])  # most inclusive first
    assert main["region"] == "main" and main["visits"] == 2
    assert main["inclusive"] == pytest.approx(200 * US) and main["exclusive"] == pytest.approx(91 * US)
    recv = lua_row(found["flat_profile"][2])
    assert recv["region"] == "MPI_Recv" and recv["imbalance"] == pytest.approx(1.0)
    assert lua_rows(found["messages"]) == [{"src": 0, "dest": 1, "count": 1, "bytes": 100}]


def test_lua_region_instances_equal_pythons(paths):
    for path in paths:
        lua = lua_open(path)
        found = lua.eval("(function() local t = {} for inst in e:region_instances() do "
                         "t[#t + 1] = inst end return t end)()")
        same(lua_rows(found), python_instances(path))


def test_lua_open_instance_has_no_exit_time(paths):
    lua = lua_open(paths[1])
    rows = lua.eval("(function() for inst in e:region_instances() do "
                    "if inst.exit_pos == 0 then return inst end end end)()")
    assert rows.loc == 1 and rows.exit_time is None and rows.inclusive is None


def test_lua_bins_outside_the_range_are_refused(paths):
    lua = lua_open(paths[0])
    # the error names the script's line, as every method's does
    with pytest.raises(lua54.LuaError, match=r":2: bins 0 is outside 1..1000000"):
        lua.execute("local x = 1\ne:profile{bins = 0}")
    assert len(lua.eval("e:profile(3)")["traffic"]) == 3
    with pytest.raises(lua54.LuaError, match="bins must be an integer"):
        lua.execute("e:profile{bins = 'x'}")


# ------------------------------------------------------------------ Tcl
def tcl_open(path):
    tcl = interp()
    tcl.tk.call("set", "path", path)
    tcl.eval("EventTrace e -file $path")
    return tcl


def tcl_value(text):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return None if text == "" else text


def tcl_dict(tcl, text, lists=()):
    words = tcl.tk.splitlist(text)
    return {str(k): ([tcl_value(w) for w in tcl.tk.splitlist(v)] if str(k) in lists else tcl_value(str(v)))
            for k, v in zip(words[::2], words[1::2])}


@needs_tcl
@pytest.mark.parametrize("bins", [1, 3])
def test_tcl_profile_equals_earl_stats(paths, bins):
    for path in paths:
        tcl = tcl_open(path)
        tcl.eval(f"set p [e profile {bins}]")
        for name, rows in python_profile(path, bins).items():
            found = [tcl_dict(tcl, row) for row in tcl.tk.splitlist(tcl.eval(f"dict get $p {name}"))]
            same(found, rows)


@needs_tcl
def test_tcl_profile_of_the_hand_trace(paths):
    tcl = tcl_open(paths[0])
    tcl.eval("set p [e profile]")
    assert tcl.eval("llength [dict get $p traffic]") == "20"
    assert tcl.eval("dict get [lindex [dict get $p flat_profile] 0] region") == "main"
    assert float(tcl.eval("dict get [lindex [dict get $p flat_profile] 2] mean")) == pytest.approx(19.5 * US)
    assert error_of(tcl, "e profile 0") == "bins 0 is outside 1..1000000"


@needs_tcl
def test_tcl_region_instances_equal_pythons(paths):
    for path in paths:
        tcl = tcl_open(path)
        tcl.eval("set rows {}; e region_instances i {lappend rows [array get i]}")
        found = [tcl_dict(tcl, row, lists=("counters",)) for row in tcl.tk.splitlist(tcl.eval("set rows"))]
        same(found, python_instances(path))


@needs_tcl
def test_tcl_region_instances_break_and_continue(paths):
    tcl = tcl_open(paths[0])
    found = tcl.eval("set n {}; e region_instances i {if {[llength $n] == 3} break; "
                     "lappend n $i(enter_pos); continue; lappend n x}; set n")
    assert [int(p) for p in tcl.tk.splitlist(found)] == [r["enter_pos"] for r in python_instances(paths[0])[:3]]
