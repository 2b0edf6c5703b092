"""earl.check and `earl check`: traces with each violation injected by hand, the positions
worked out by hand from the file's lines; clean generated traces and the real Score-P
traces report nothing."""
import json

import pytest

import earl
from alog_traces import write_alog
from earl.cli import main as earl_main
from earl.generate import generate
from script_checks import SCOREP

# One ALOG file with one defect per event; ALOG orders events by time, so each line's
# position is its rank in time (comments: position, location, what).
DEFECTS = [
    "-3 0 0 2 0 0",
    "-13 0 1 2 0 0 red:solid A",
    "-13 0 3 4 0 0 red:solid B",
    "1 0 0 0 0 100",            # 1 loc 0 enter A: never exited (the exit at 3 closes B)
    "3 0 0 0 0 110",            # 2 loc 0 enter B
    "2 0 0 0 0 120",            # 3 loc 0 exit A while B is open: mismatched
    "2 1 0 0 0 130",            # 4 loc 1 exit A with nothing open
    "-101 0 0 1 0 140 5 8",     # 5 loc 0 send to 1 tag 5: never received
    "-102 1 0 0 0 150 6 8",     # 6 loc 1 receive from 0 tag 6 before its send (7)
    "-101 0 0 1 0 170 6 8",     # 7 loc 0 send to 1 tag 6
    "-102 0 0 1 0 180 9 4",     # 8 loc 0 receive from 1 tag 9: no send at all
]
EXPECTED = [(1, "unclosed_region", 0), (3, "mismatched_exit", 0), (4, "exit_without_enter", 1),
            (5, "unreceived_send", 0), (6, "clock_condition", 1), (8, "unmatched_recv", 0)]


def found(violations):
    return [(v["pos"], v["kind"], v["loc"]) for v in violations]


@pytest.fixture
def defects(tmp_path):
    return write_alog(tmp_path, DEFECTS)


def test_each_injected_defect_is_found_where_it_is(defects):
    violations = earl.check(defects)
    assert found(violations) == EXPECTED
    by_kind = {v["kind"]: v for v in violations}
    assert by_kind["clock_condition"]["time"] == pytest.approx(150e-6)
    assert "event 7" in by_kind["clock_condition"]["message"]
    assert "entered at event 2" in by_kind["mismatched_exit"]["message"]
    assert all(v["rule"] is None for v in violations)


RULES = """\
# a comment
[[rule]]
name = "receives from rank 0 carry tag 5"
when = 'ev.type == "recv" and ev.src == 0'
assert = "ev.tag == 5"

[[rule]]
name = "no region lasts 5 us"
when = 'ev.type == "exit" and ev.enterptr != 0'
assert = "ev.duration <= 0.000005"

[[rule]]
name = "tags are multiples of 5 (Lua, evaluated in Lua)"
language = "lua"
when = 'ev.type == "recv" and ev.src == 0'
assert = "ev.tag % 5 == 0"

[[rule]]
name = "tags are multiples of 5 (Python, evaluated in Python)"
when = 'ev.type == "recv"'
assert = "ev.tag % 5 == 0 or ev.src == 1"
"""


def test_rules_in_the_same_pass(defects, tmp_path):
    rules = tmp_path / "rules.toml"
    rules.write_text(RULES)
    violations = [v for v in earl.check(defects, rules=str(rules)) if v["kind"] == "rule"]
    # 6: a receive from 0 with tag 6; 3: B open from 110 to 120 us, 10 us
    assert sorted((v["pos"], v["rule"]) for v in violations) == [(3, 1), (6, 0), (6, 2), (6, 3)]


def test_rules_as_dicts(defects):
    violations = earl.check(defects, rules=[{"name": "r", "assert": 'ev.type != "send"'}])
    assert [(v["pos"], v["rule"]) for v in violations if v["kind"] == "rule"] == [(5, 0), (7, 0)]


@pytest.mark.parametrize("text, where", [
    ('[[rule]]\nassert = "ev.tag ==="\n', "line 2, column 20"),
    ('[[rule]]\nname = "x"\nwhen = \'ev.type == "send" and ev.colour == 1\'\nassert = "1"\n',
     "line 3, column 31"),
    ('[[rule]]\nlanguage = "lua"\nassert = "ev.tag == == 1"\n', "line 3, column 21"),
    ('[[rule]]\nlanguage = "lua"\nwhen = "ev.len % 2 == 0"\nassert = "ev.tag ==== 1"\n', "line 4, column 20"),
    # toml++ (the core's reader) names the character it saw instead of the `]`: the newline
    # after `[[rule]`, column 8 (tomllib named the last `]`, column 7).
    ('[[rule]\nassert = "1"\n', "line 1, column 8"),
    # A rule's own errors name where its table starts: the [[rule]] header.
    ('[[rule]]\nasert = "1"\n', "line 1, column 1: rule 1: unknown key 'asert'"),
    ('[[rule]]\nassert = """\nev.tag ==="""\n', "line 3, column 10"),
    ('[[rule]]\nname = "é"\nassert = "ev.tag ==="\n', "line 3, column 20"),
    # Refused before toml++ reads it (format_interface/toml_ascii.h): U+00A1 as a key.
    ('[[rule]]\n¡ = "1"\n', "line 2, column 1: a character beyond ASCII outside a string"),
])
def test_bad_rule_files_name_line_and_column(defects, tmp_path, text, where):
    rules = tmp_path / "bad.toml"
    rules.write_text(text)
    with pytest.raises(earl.EarlError, match=f"bad.toml: {where}"):
        earl.check(defects, rules=str(rules))


def test_command_line(defects, tmp_path, capsys):
    assert earl_main(["check", defects]) == 1
    out = capsys.readouterr().out.splitlines()
    assert len(out) == len(EXPECTED) + len(EXPECTED)  # each violation, then a count per kind
    assert "unmatched_recv: 1" in out
    assert earl_main(["check", defects, "--json", "--max", "0"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["counts"] == {kind: 1 for _, kind, _ in EXPECTED}
    assert report["violations"] == [] and report["events"] == 8
    rules = tmp_path / "rules.toml"
    rules.write_text(RULES)
    assert earl_main(["check", defects, "--json", "--rules", str(rules)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["counts"]["rule"] == 4
    assert {v["rule"] for v in report["violations"] if v["kind"] == "rule"} == {
        "receives from rank 0 carry tag 5", "no region lasts 5 us",
        "tags are multiples of 5 (Lua, evaluated in Lua)",
        "tags are multiples of 5 (Python, evaluated in Python)"}


@pytest.mark.parametrize("trace", ["ping-pong-otf2", "ping-pong-otf2-papi"])
def test_real_traces(trace):
    # Score-P's ping-pong: matched sends and receives, balanced regions (its README).
    anchor = SCOREP / trace / "traces.otf2"
    if not anchor.exists():
        pytest.skip(f"{anchor} is not there")
    assert earl.check(str(anchor)) == []


def test_otf2_collectives(tmp_path):
    pytest.importorskip("otf2")
    from otf2.enums import CollectiveOp, Paradigm
    from otf2_archives import UNDEF_RANK, ArchiveWriter, T
    aw = ArchiveWriter(tmp_path, "defects")
    locs = []
    for r in range(3):
        locs += aw.process(f"MPI Rank {r}")
    aw.comm_locations(locs)
    world = aw.comm("MPI_COMM_WORLD", locs)
    barrier = aw.region("MPI_Barrier", Paradigm.MPI)
    e = [aw.ev(loc) for loc in locs]
    # positions by time: 1 loc 0 enter (10), 2 loc 0 exit (12), 3 loc 1 enter (20),
    # 4 loc 1 exit (22); location 2 never enters the barrier
    for loc, (begin, end) in ((0, (10, 12)), (1, (20, 22))):
        e[loc].enter(T(begin), barrier)
        e[loc].mpi_collective_begin(T(begin))
        e[loc].mpi_collective_end(T(end - 1), CollectiveOp.BARRIER, world, UNDEF_RANK, 0, 0)
        e[loc].leave(T(end), barrier)
    anchor = aw.close()
    try:
        violations = earl.check(str(anchor))
    except earl.EarlError as error:
        if "no OTF2 support" in str(error):
            pytest.skip(str(error))
        raise
    assert sorted(found(violations)) == [
        (2, "clock_condition", 0),          # left the barrier at 12, location 1 entered at 20
        (2, "incomplete_collective", 0)]    # location 2 never took part
    incomplete = next(v for v in violations if v["kind"] == "incomplete_collective")
    assert "location(s) 2 of its 3" in incomplete["message"]


def test_epilog_time_order_and_undefined_references(tmp_path):
    import epilog_traces as E
    f = E.ElgFile()
    for sid, text in enumerate(["main", "USER", "MPI Rank 0", "MPI Rank 1", "Master thread"]):
        f.string(sid, text)
    f.process(0, 2)
    f.process(1, 3)
    f.thread(0, 0, 4)
    f.thread(0, 1, 4)
    f.location(0, 0, 0)
    f.location(1, 1, 0)
    f.region(0, 0, 1)
    f.comm(0, [0, 1])
    # a merged EPILOG file keeps its record order (positions 1..6 are the lines below)
    f.enter(0, 1.0, 0)
    f.enter(1, 1.0, 0)
    f.exit(1, 0.5)              # 3: location 1 goes back from 1.0 to 0.5
    f.send(0, 2.0, 7, 0, 1, 8)  # 4: rank 7 of a 2-rank communicator; never received
    f.enter(0, 2.5, 9)          # 5: region 9 is not defined
    f.exit(0, 2.6)
    f.exit(0, 3.0)
    path = tmp_path / "defects.elg"
    path.write_bytes(f.data())
    assert sorted(found(earl.check(str(path)))) == [
        (3, "time_order", 1), (4, "unreceived_send", 0), (4, "unresolved_reference", 0),
        (5, "unresolved_reference", 0)]


def test_a_damaged_file_is_a_violation(tmp_path):
    # ALOG reads up to the first damaged line after the first event record
    path = write_alog(tmp_path, ["-3 0 0 1 0 0", "-13 0 1 2 0 0 red:solid A", "1 0 0 0 0 100",
                                 "2 0 0 0 0 110", "1 0 0 x 0 120"])
    violations = earl.check(path)
    assert [(v["kind"], v["pos"]) for v in violations] == [("damaged", 0)]
    assert "line 5" in violations[0]["message"]


def independent_clock_violations(events):
    """Positions breaking the clock condition, by a plain loop: the k-th receive of a
    channel pairs with its k-th send; an N-to-N collective exit (root -1) before the last
    enter of its instance (the k-th such exit on the communicator at each location)."""
    import collections
    sends, recvs = collections.defaultdict(list), collections.defaultdict(list)
    instances, number = collections.defaultdict(list), collections.Counter()
    for e in events:
        if e["type"] == "send":
            sends[(e["loc"], e["dest"], e["tag"], e["com"])].append(e)
        elif e["type"] == "recv":
            recvs[(e["src"], e["loc"], e["tag"], e["com"])].append(e)
        elif e["type"] == "exit" and e.get("root") == -1:
            k = number[(e["com"], e["loc"])]
            number[(e["com"], e["loc"])] += 1
            instances[(e["com"], k)].append((e, events[e["enterptr"] - 1]["time"]))
    found = []
    for channel, received in recvs.items():
        for recv, send in zip(received, sends.get(channel, [])):
            if recv["time"] < send["time"]:
                found.append(recv["pos"])
    for members in instances.values():
        latest = max(enter for _, enter in members)
        found += [exit["pos"] for exit, _ in members if exit["time"] < latest]
    return sorted(found)


def test_skewed_clocks_break_the_clock_condition_where_a_plain_loop_says(tmp_path):
    path = tmp_path / "skewed.otf2"
    try:
        generate(str(path), events=6000, locations=4, seed=4, clock_offset=0.001)
    except earl.EarlError as error:
        pytest.skip(str(error))
    with earl.EventTrace(str(path)) as trace:
        events = list(trace)
        expected = independent_clock_violations(events)
        violations = earl.check(trace)
        problems = trace.problems()["clock_condition"]
    assert expected  # the skew breaks it
    assert sorted(v["pos"] for v in violations if v["kind"] == "clock_condition") == expected
    assert {v["kind"] for v in violations} == {"clock_condition"}
    # and the state's time checks (a second implementation) count the same
    assert problems["count"] == len(expected) and problems["first"] == expected[:10]


def test_time_correct_leaves_only_the_clock_conditions_out(defects, capsys):
    """--time-correct: the receive before its send (6) is moved after it; every other
    violation stays where it was."""
    assert earl_main(["check", str(defects), "--json", "--time-correct"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["time_corrected"] is True
    assert found(report["violations"]) == [v for v in EXPECTED if v[1] != "clock_condition"]
    assert earl_main(["check", str(defects), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["time_corrected"] is False


def test_time_correct_makes_skewed_clocks_check_clean(tmp_path, capsys):
    path = tmp_path / "skewed.alog"
    generate(str(path), events=3000, locations=4, seed=4, clock_offset=0.001)
    with earl.EventTrace(str(path)) as trace:
        skewed = independent_clock_violations(list(trace))
    with earl.EventTrace(str(path), time_correct=True) as trace:
        corrected = list(trace)
    assert skewed and independent_clock_violations(corrected) == []
    for loc in {e["loc"] for e in corrected}:  # each location's clock still runs forward
        times = [e["time"] for e in corrected if e["loc"] == loc]
        assert times == sorted(times)
    assert earl_main(["check", str(path), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["counts"] == {"clock_condition": len(skewed)}
    assert earl_main(["check", str(path), "--time-correct"]) == 0
    assert "no violations" in capsys.readouterr().out


def test_a_native_assertion_after_a_when_only_the_language_tests(tmp_path):
    """The when in Python, the assertion by the core: a violation only where it is false."""
    path = tmp_path / "rules.alog"
    generate(str(path), events=2000, locations=3, seed=8)
    with earl.EventTrace(str(path)) as trace:
        events = list(trace)
        rules = [{"name": "r", "when": '(ev.type == "recv" and ev.tag % 5 == 0) or False',
                  "assert": "ev.src != 0"}]
        found = [v["pos"] for v in earl.check(trace, rules) if v["kind"] == "rule"]
    expected = [e["pos"] for e in events if e["type"] == "recv" and e["tag"] % 5 == 0 and e["src"] == 0]
    assert expected and found == expected
