"""e:check() in Lua and `e check` in Tcl: on the hand-made defect traces of
test_check_violations.py, the same violations as earl.check in Python (a second
implementation: Python's loop tests the rule parts outside the common subset itself)."""
import pytest

import earl
from alog_traces import write_alog
from test_check_violations import DEFECTS, EXPECTED, RULES
from test_tcl_common import LIBRARY, error_of, interp

lua54 = pytest.importorskip("lupa.lua54")
import earl.lua  # noqa: E402

# RULES: 1 and 2 in the common subset (the core tests them), 3 a Lua rule with `%` (Lua
# tests it), 4 a Python rule with `%` (only Python can test it).
BLOCKS = ["[[rule]]" + block for block in RULES.split("[[rule]]")[1:]]
NATIVE, WITH_LUA = "".join(BLOCKS[:2]), "".join(BLOCKS[:3])


@pytest.fixture
def defects(tmp_path):
    return write_alog(tmp_path, DEFECTS)


def rules_file(tmp_path, text):
    path = tmp_path / "rules.toml"
    path.write_text(text)
    return str(path)


def python(defects, rules=None):
    return [(v["pos"], v["kind"], v["loc"], v["time"], v["message"], v["rule"])
            for v in earl.check(defects, rules=rules)]


# ------------------------------------------------------------------ Lua
def lua_check(defects, options="nil"):
    lua = earl.lua.runtime()
    lua.globals().path = defects
    found, counts = lua.execute(f"local e = EventTrace(path); return e:check({options})")
    rows = [(v.pos, v.kind, v.loc, v.time, v.message, None if v.rule is None else v.rule - 1)
            for v in found.values()]
    return rows, dict(counts.items())


def test_lua_standard_checks(defects):
    rows, counts = lua_check(defects)
    assert [(pos, kind, loc) for pos, kind, loc, *_ in rows] == EXPECTED
    assert rows == python(defects)
    assert counts == {kind: 1 for _, kind, _ in EXPECTED}


def test_lua_rules_file_with_a_lua_rule(defects, tmp_path):
    path = rules_file(tmp_path, WITH_LUA)
    lua = earl.lua.runtime()
    lua.globals().rules = path
    rows, counts = lua_check(defects, f"{{rules = '{path}'}}")
    assert rows == python(defects, path)
    # 6: a receive from 0 with tag 6 (rules 1 and 3); 3: B lasts 10 us (rule 2)
    assert sorted((pos, rule) for pos, kind, _, _, _, rule in rows if kind == "rule") == [(3, 1), (6, 0), (6, 2)]
    assert counts["rule"] == 3


def test_lua_rules_as_tables_and_max(defects):
    rows, counts = lua_check(defects, "{rules = {{name = 'r', assert = 'ev.type ~= \"send\"', language = 'lua'}}, max = 0}")
    assert rows == [] and counts["rule"] == 2 and counts["unreceived_send"] == 1


def test_lua_refuses_a_python_rule_only_python_can_test(defects, tmp_path):
    path = rules_file(tmp_path, RULES)
    with pytest.raises(lua54.LuaError, match=r"rule 4 \(.*\): assert: .*needs Python"):
        lua_check(defects, f"{{rules = '{path}'}}")


def test_lua_bad_rules_file_names_line_and_column(defects, tmp_path):
    path = rules_file(tmp_path, '[[rule]\nassert = "1"\n')
    with pytest.raises(lua54.LuaError, match=r"rules.toml: line 1, column \d+: .*expected .]."):
        lua_check(defects, f"{{rules = '{path}'}}")


# ------------------------------------------------------------------ Tcl
needs_tcl = pytest.mark.skipif(LIBRARY is None, reason="no Tcl extension")


def tcl_check(defects, options=""):
    tcl = interp()
    tcl.tk.call("set", "path", defects)
    tcl.eval("EventTrace e -file $path")
    result = tcl.eval(f"e check {options}")
    words = tcl.tk.splitlist(result)
    parts = dict(zip([str(w) for w in words[::2]], words[1::2]))
    rows = []
    for item in tcl.tk.splitlist(parts["violations"]):
        d = tcl.tk.splitlist(item)
        v = {str(k): str(x) for k, x in zip(d[::2], d[1::2])}
        rows.append((int(v["pos"]), v["kind"], int(v["loc"]), float(v["time"]), v["message"],
                     None if v["rule"] == "" else int(v["rule"])))
    counts = tcl.tk.splitlist(parts["counts"])
    return rows, {str(k): int(n) for k, n in zip(counts[::2], counts[1::2])}


@needs_tcl
def test_tcl_standard_checks_and_native_rules(defects, tmp_path):
    rows, counts = tcl_check(defects)
    assert [(pos, kind, loc) for pos, kind, loc, *_ in rows] == EXPECTED
    assert rows == python(defects)
    path = rules_file(tmp_path, NATIVE)
    rows, counts = tcl_check(defects, f"-rules {{{path}}}")
    assert rows == python(defects, path)
    assert sorted((pos, rule) for pos, kind, _, _, _, rule in rows if kind == "rule") == [(3, 1), (6, 0)]
    rows, counts = tcl_check(defects, f"-rules {{{path}}} -max 0")
    assert rows == [] and counts["rule"] == 2


@needs_tcl
def test_tcl_refuses_rules_outside_the_common_subset(defects, tmp_path):
    tcl = interp()
    tcl.tk.call("set", "path", defects)
    tcl.tk.call("set", "rules", rules_file(tmp_path, WITH_LUA))
    tcl.eval("EventTrace e -file $path")
    assert "rule 3 (" in error_of(tcl, "e check -rules $rules")
    assert "unknown option -colour" in error_of(tcl, "e check -colour 1")


def test_a_missing_rules_file_is_named(defects, tmp_path):
    missing = tmp_path / "missing.toml"
    with pytest.raises(lua54.LuaError, match="missing.toml: No such file"):
        lua_check(defects, f"{{rules = '{missing}'}}")
