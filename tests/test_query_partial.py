"""trace.select of `A and B` with A in the shared grammar and B not: the core tests A and
the language only B, on A's matches. Checked against a plain Python loop over every event
(dict lookups and Python's own comparisons), and by counting the language's calls."""
import builtins

import pytest

import earl
import earl.lua
from query_traces import loop, trace_fixtures


trace, events = trace_fixtures("partial", events=3000, locations=4, seed=11)


def is_send_to_3(e):
    return e["type"] == "send" and e["dest"] == 3


# (expression, language, the same test on an event dict): B (arithmetic, a call) leaves
# the grammar; A is in it, before, after or between B's operands.
CASES = [
    ('ev.type == "send" and ev.dest * 1 == 3', "python", is_send_to_3),
    ('ev.dest + 0 == 3 and ev.type == "send"', "python", is_send_to_3),
    ('ev.type == "send" and ev.dest - 0 == 3', "lua", is_send_to_3),
    ('(ev.loc == 1\n and abs(ev.time) > 0.01\n and ev.type != "enter")', "python",
     lambda e: e["loc"] == 1 and e["time"] > 0.01 and e["type"] != "enter"),
    ('ev.loc == 1 and math.abs(ev.time) > 0.01 and not (ev.type == "enter")', "lua",
     lambda e: e["loc"] == 1 and e["time"] > 0.01 and e["type"] != "enter"),
    ('not ev.type in ("enter", "exit") and ev.tag % 2 == 0', "python",
     lambda e: e["type"] not in ("enter", "exit") and "tag" in e and e["tag"] % 2 == 0),
    ("ev.duration > 0.0001 and ev.region[:4] == 'MPI_'", "python",
     lambda e: e["type"] == "exit" and e["enterptr"] and
     e["time"] - events_of[0][e["enterptr"] - 1]["time"] > 0.0001 and e["region"].startswith("MPI_")),
]
events_of = []  # the events, for the duration case (a lambda cannot take the fixture)


@pytest.mark.parametrize("expression, language, keep", CASES)
def test_partial_selection_equals_a_plain_loop(trace, events, expression, language, keep):
    events_of[:] = [events]
    chosen = trace.select(expression, language, positions=True)
    assert chosen.native == "partial"
    assert chosen.reason.startswith("line ")
    assert list(chosen) == loop(events, keep)
    assert [e["pos"] for e in trace.select(expression, language)] == loop(events, keep)


@pytest.fixture
def counted(monkeypatch):
    """seen(ev) in a Python expression: counts its calls, true."""
    calls = []
    monkeypatch.setattr(builtins, "seen", lambda ev: calls.append(ev.pos) or True, raising=False)
    return calls


def test_python_sees_only_the_native_operands_matches(trace, events, counted):
    chosen = trace.select('seen(ev) and ev.type == "send" and ev.loc == 2', positions=True)
    assert chosen.native == "partial"
    expected = loop(events, lambda e: e["type"] == "send" and e["loc"] == 2)
    assert list(chosen) == expected
    assert counted == expected  # the language ran on these events and no others


def test_python_sees_every_event_without_a_top_level_and(trace, events, counted):
    chosen = trace.select('seen(ev) and ev.type == "send" or ev.loc == 2', positions=True)
    assert chosen.native is False
    found = list(chosen)
    assert found == loop(events, lambda e: e["type"] == "send" or e["loc"] == 2)
    assert len(counted) == len(events)


def test_lua_sees_only_the_native_operands_matches(trace, events, monkeypatch):
    runtimes = []
    made = earl.lua.runtime
    monkeypatch.setattr(earl.lua, "runtime", lambda: runtimes.append(made()) or runtimes[-1])
    count = "(function() rawset(_G, 'n', (rawget(_G, 'n') or 0) + 1) return true end)()"
    chosen = trace.select(f'ev.type == "recv" and {count} and ev.loc ~= 0', "lua", positions=True)
    assert chosen.native == "partial"
    expected = loop(events, lambda e: e["type"] == "recv" and e["loc"] != 0)
    assert list(chosen) == expected
    assert runtimes[-1].eval("n") == len(expected)


def send_to_3_or_loc_0(e):
    return is_send_to_3(e) or e["loc"] == 0


# Expressions whose top level is no conjunction, or that the scan for one does not follow:
# the language evaluates them whole, with the same events.
@pytest.mark.parametrize("expression, language, keep", [
    ('ev.type == "send" and ev.dest * 1 == 3 or ev.loc == 0', "python", send_to_3_or_loc_0),
    ('ev.type == "send" and ev.dest * 1 == 3 or ev.loc == 0', "lua", send_to_3_or_loc_0),
    ('ev.type == "send" and ev.dest * 1 == 3 if ev.loc != 0 else True', "python", send_to_3_or_loc_0),
    ('(lambda: ev.type == "send" and ev.dest * 1 == 3)()', "python", is_send_to_3),
    ('ev.type == "send" and ev.dest * 1 == 3 # a comment', "python", is_send_to_3),
    ('ev.type == "send" and ev.dest * 1 == 3 -- a comment', "lua", is_send_to_3),
    ('ev.type == "send" and ev.dest * 1 == [[3]] + 0', "lua", is_send_to_3),
    ('ev.type == "send" and ev.dest * 1 == int(r"3")', "python", is_send_to_3),
])
def test_no_partial_where_the_language_could_read_it_otherwise(trace, events, expression, language, keep):
    chosen = trace.select(expression, language, positions=True)
    assert chosen.native is False
    assert list(chosen) == loop(events, keep)


def test_errors_of_the_language_keep_their_place(trace):
    with pytest.raises(earl.EarlError, match="expression: line 2, column "):
        list(trace.select('ev.type == "send" and\n ev.dest * == 3', "lua"))
    with pytest.raises(earl.EarlError, match="expression: line 1, column 1: no event has an attribute"):
        list(trace.select('ev.colour == 3 and ev.dest * 1 == 3'))
    with pytest.raises(earl.EarlError, match=r"expression: ZeroDivisionError: .* \(at event \d+\)"):
        list(trace.select('ev.type == "send" and ev.dest / 0 == 3'))


def test_lua_select_in_lua_tests_in_part(trace, events):
    runtime = earl.lua.runtime()
    shared = earl.lua.share(trace, runtime)
    positions = runtime.eval("""function(e)
      local found = {}
      local count = "(function() rawset(_G, 'n', (rawget(_G, 'n') or 0) + 1) return true end)()"
      for ev in e:select(count .. ' and ev.dest - 0 == 3 and ev.type == "send"') do
        found[#found + 1] = ev.pos
      end
      return found
    end""")(shared)
    assert list(positions.values()) == loop(events, is_send_to_3)
    assert runtime.eval("n") == len(loop(events, lambda e: e["type"] == "send"))


def rule_violations(trace, when, assertion, language="python"):
    rules = [{"name": "r", "language": language, "when": when, "assert": assertion}]
    return [v["pos"] for v in earl.check(trace, rules) if v["kind"] == "rule"]


def test_check_rules_test_in_part_too(trace, events, counted):
    """A rule's when and assert, each `A and B`: the core tests A, the language B on A's
    matches only; a native operand found false decides the assertion by itself."""
    recvs = loop(events, lambda e: e["type"] == "recv")
    sends = loop(events, lambda e: e["type"] == "send")
    to_0 = loop(events, lambda e: e["type"] == "send" and e["dest"] == 0)
    assert recvs and to_0
    found = rule_violations(trace, 'seen(ev) and ev.type == "recv"', "ev.tag % 5 == 0")
    assert found == loop(events, lambda e: e["type"] == "recv" and e["tag"] % 5 != 0)
    assert counted == recvs
    counted.clear()
    found = rule_violations(trace, 'ev.type == "send"', "ev.dest != 0 and seen(ev)")
    assert found == to_0
    assert counted == [pos for pos in sends if pos not in to_0]
    counted.clear()
    found = rule_violations(trace, 'ev.type == "send" and seen(ev)', "ev.dest != 0 and ev.tag * 1 >= 0")
    assert found == to_0
    assert counted == sends
    found = rule_violations(trace, 'ev.type == "recv" and ev.tag % 5 == 0', "ev.src ~= 0", "lua")
    assert found == loop(events, lambda e: e["type"] == "recv" and e["tag"] % 5 == 0 and e["src"] == 0)
