"""The ALOG mapping (thesis appendix A; lines E1-E8 of ../shared/notes/earl-conformance.md;
docs/api-contract.md), with the thesis' own example records, roll-over arithmetic, ordering of
unsorted input, and malformed input."""
import os

import pytest

import earl
from alog_traces import write_alog
from reference_model import ReferenceTrace


def us(x):
    return x * 1e-6


def approx_time(x):
    return pytest.approx(x, rel=1e-14, abs=0)


def open_lines(EventTrace, tmp_path, lines, name="trace.alog", **kw):
    return EventTrace(write_alog(tmp_path, lines, name), **kw)


def events(tr):
    return [tr.event(p) for p in range(1, len(tr) + 1)]


# ----------------------------------------------------------------------------------------
def test_E1_line_layout_definitions_then_events_and_detection(EventTrace, tmp_path):
    lines = [
        "-3 0 0 2 0 0",
        "-13\t0\t1\t2\t0\t0\tgreen:boxes Region_A",     # tabs
        "",                                              # blank lines are skipped
        "1  0  0  0  0  100",                            # several spaces
        "-101 0 0 1 0 110 193 100",
        "   ",
        "2 0 7 0 0 120 a trailing comment is allowed",
    ]
    tr = open_lines(EventTrace, tmp_path, lines, name="trace.txt")   # detected from content
    assert tr.format() == "alog"
    assert len(tr) == 3
    assert [e["type"] for e in events(tr)] == ["enter", "send", "exit"]
    assert tr.event(3)["region"] == "Region_A" and tr.event(3)["enterptr"] == 1
    assert EventTrace(tr.file(), format="alog").format() == "alog"


def test_E2_process_count_and_rollover(EventTrace, tmp_path):
    tr = open_lines(EventTrace, tmp_path, [
        "-3 0 0 5 0 0",
        "-11 0 0 0 0 1000000",
        "-9 0 0 5 0 0 tick",
        "5 0 0 1 0 999999",
        "5 1 0 2 1 5",
        "5 0 0 3 3 0",
    ])
    assert tr.nrlocs() == 5                    # -3 count, although only 0 and 1 are used
    assert [e["time"] for e in events(tr)] == [approx_time(0.999999), approx_time(1.000005),
                                               approx_time(3.0)]
    assert tr.stack(4, 3) == [] and tr.queue(4, -1, 3) == []


def test_E3_trace_defined_type_thesis_example(EventTrace, tmp_path):
    tr = open_lines(EventTrace, tmp_path, ["-9 0 0 5 0 0 start", "5 0 0 4 0 2025436865"])
    ev = tr.event(1)
    assert ev == {"pos": 1, "loc": 0, "time": approx_time(us(2025436865)), "type": "start",
                  "enterptr": 0, "data1": 4, "data2": None}
    assert list(ev) == ["pos", "loc", "time", "type", "enterptr", "data1", "data2"]
    assert type(ev["data1"]) is int
    assert tr.types() == ["enter", "exit", "send", "recv", "start"]


def test_E3_several_types_in_definition_order(EventTrace, tmp_path):
    tr = open_lines(EventTrace, tmp_path, [
        "-9 0 0 7 0 0 stop", "-9 0 0 5 0 0 start", "-9 0 0 0 0 0 zero",
        "5 0 0 -4 0 10", "0 0 0 0 0 11", "7 1 0 123456 0 12"])
    assert tr.types() == ["enter", "exit", "send", "recv", "stop", "start", "zero"]
    assert [(e["type"], e["data1"], e["loc"]) for e in events(tr)] == \
        [("start", -4, 0), ("zero", 0, 0), ("stop", 123456, 1)]


def test_E4_region_definition_thesis_example(EventTrace, tmp_path):
    tr = open_lines(EventTrace, tmp_path, [
        "-13 0 1 2 0 0 green:boxes Region_A",
        "1 0 0 0 0 2025437342",
        "2 0 0 0 0 2025438566",
    ])
    assert tr.event(1) == {"pos": 1, "loc": 0, "time": approx_time(us(2025437342)),
                           "type": "enter", "enterptr": 0, "region": "Region_A"}
    assert tr.event(2) == {"pos": 2, "loc": 0, "time": approx_time(us(2025438566)),
                           "type": "exit", "enterptr": 1, "region": "Region_A"}
    assert tr.regions() == ["Region_A"]
    assert tr.group("Region_A") == "All" and tr.groups() == ["All"]


def test_E4_region_names_with_spaces_and_prefixes(EventTrace, tmp_path):
    tr = open_lines(EventTrace, tmp_path, [
        "-13 0 1 2 0 0 red:solid do some work",
        "-13 0 3 4 0 0 exchange halo",                 # no colour prefix: all of it
        "-13 0 5 6 0 0    blue:gray3     MPI_Send   ",  # extra blanks around
        "-13 0 7 8 0 0 main",
        "7 0 0 0 0 1", "1 0 0 0 0 2", "3 0 0 0 0 3", "5 0 0 0 0 4",
        "6 0 0 0 0 5", "4 0 0 0 0 6", "2 0 0 0 0 7", "8 0 0 0 0 8",
    ])
    assert tr.regions() == ["do some work", "exchange halo", "MPI_Send", "main"]
    assert [e["region"] for e in events(tr)] == [
        "main", "do some work", "exchange halo", "MPI_Send",
        "MPI_Send", "exchange halo", "do some work", "main"]
    assert tr.stack(0, 4) == [1, 2, 3, 4]
    # an exit's enterptr is its own enter
    assert [tr.event(p)["enterptr"] for p in range(1, 9)] == [0, 1, 2, 3, 4, 3, 2, 1]


@pytest.mark.parametrize("order", ["-9 first", "-13 first"])
def test_E4_region_definition_overrides_trace_type(EventTrace, tmp_path, order):
    defs = ["-9 0 0 1 0 0 start", "-13 0 1 2 0 0 red:solid Region A", "-9 0 0 3 0 0 mark"]
    if order == "-13 first":
        defs = [defs[1], defs[0], defs[2]]
    tr = open_lines(EventTrace, tmp_path, defs + ["1 0 0 9 0 5", "3 0 0 8 0 6", "2 0 0 7 0 7"])
    assert [e["type"] for e in events(tr)] == ["enter", "mark", "exit"]
    assert tr.event(1)["region"] == "Region A" and tr.event(3)["region"] == "Region A"
    assert tr.event(2)["data1"] == 8
    assert tr.event(3)["enterptr"] == 1
    assert "mark" in tr.types()
    # whether the overridden name 'start' is still listed by types() is left open by the
    # contract; no event may have it
    assert "start" not in [e["type"] for e in events(tr)]


def test_E5_location_names(EventTrace, tmp_path):
    tr = open_lines(EventTrace, tmp_path, [
        "-15 7 0 0 0 0 Server",
        "-15 2 0 0 0 0 head node",
        "-9 0 0 5 0 0 start",
        "5 0 0 4 0 10",
    ])
    assert tr.locsym(7) == "Server"
    assert tr.locsym(2) == "head node"
    assert tr.locsym(0) == 0
    assert tr.nrlocs() == 8                      # n includes every -15 location


def test_E6_defined_type_numbers_are_nonnegative(EventTrace, tmp_path):
    for i, bad in enumerate(["-9 0 0 -5 0 0 neg", "-13 0 -1 2 0 0 r", "-13 0 1 -2 0 0 r"]):
        path = write_alog(tmp_path, ["-9 0 0 5 0 0 ok", bad, "5 0 0 0 0 1"], f"e6_{i}.alog")
        with pytest.raises(earl.EarlError) as info:
            EventTrace(path)
        assert_names(info, path, 2)


def test_E7_loc_is_process_and_time_formula(EventTrace, tmp_path):
    tr = open_lines(EventTrace, tmp_path, [
        "-11 0 0 0 0 4096",
        "-9 0 0 5 0 0 mark",
        "5 3 0 0 0 4095",
        "5 1 0 0 2 17",
        "5 2 0 0 1000 0",
    ])
    assert [e["loc"] for e in events(tr)] == [3, 1, 2]
    assert tr.nrlocs() == 4
    for ev, (ts, cycle) in zip(events(tr), [(4095, 0), (17, 2), (0, 1000)]):
        assert ev["time"] == approx_time((ts + cycle * 4096) * 1e-6)


def test_E8_send_and_recv_thesis_example(EventTrace, tmp_path):
    tr = open_lines(EventTrace, tmp_path, [
        "-101 1 0 2 0 2025439346 193 100",
        "-102 2 0 1 0 2025439400 193 100",
    ])
    assert tr.event(1) == {"pos": 1, "loc": 1, "time": approx_time(us(2025439346)),
                           "type": "send", "enterptr": 0, "dest": 2, "tag": 193, "com": -1,
                           "len": 100}
    assert list(tr.event(1)) == ["pos", "loc", "time", "type", "enterptr", "dest", "tag", "com",
                                 "len"]
    assert tr.event(2) == {"pos": 2, "loc": 2, "time": approx_time(us(2025439400)),
                           "type": "recv", "enterptr": 0, "src": 1, "tag": 193, "com": -1,
                           "len": 100, "sendptr": 1}
    assert tr.nrlocs() == 3
    assert tr.queue(1, 2, 1) == [1] and tr.queue(-1, -1, 2) == []


def test_E8_message_peers_count_as_locations(EventTrace, tmp_path):
    tr = open_lines(EventTrace, tmp_path, ["-101 0 0 4 0 5 1 1", "-102 1 0 6 0 6 1 1"])
    assert tr.nrlocs() == 7
    assert tr.event(2)["sendptr"] == 0


# ----------------------------------------------------------------------------------------
# roll-over and ordering
def test_rollover_orders_by_full_time(EventTrace, tmp_path):
    tr = open_lines(EventTrace, tmp_path, [
        "-11 0 0 0 0 1000",
        "-9 0 0 5 0 0 mark",
        "5 0 0 1 1 5",        # 1005
        "5 0 0 2 0 999",      #  999
        "5 0 0 3 2 0",        # 2000
        "5 1 0 4 1 5",        # 1005, after data 1 (file order)
    ])
    evs = events(tr)
    assert [e["data1"] for e in evs] == [2, 1, 4, 3]
    assert [e["time"] for e in evs] == [approx_time(999e-6), approx_time(1005e-6),
                                        approx_time(1005e-6), approx_time(2000e-6)]


def test_unsorted_input_ordered_stably_by_time(EventTrace, tmp_path):
    tr = open_lines(EventTrace, tmp_path, [
        "-9 0 0 5 0 0 mark",
        "5 0 0 1 0 30", "5 1 0 2 0 10", "5 0 0 3 0 20", "5 2 0 4 0 10", "5 1 0 5 0 30",
    ])
    assert [e["data1"] for e in events(tr)] == [2, 4, 3, 1, 5]
    assert [e["loc"] for e in events(tr)] == [1, 2, 0, 0, 1]
    assert [e["pos"] for e in events(tr)] == [1, 2, 3, 4, 5]


def test_sorted_input_with_equal_times_keeps_file_order(EventTrace, tmp_path):
    tr = open_lines(EventTrace, tmp_path, ["-9 0 0 5 0 0 mark"] +
                    [f"5 {i % 3} 0 {i} 0 {10 * (i // 4)}" for i in range(12)])
    assert [e["data1"] for e in events(tr)] == list(range(12))


def test_unsorted_state_follows_time_order(EventTrace, tmp_path):
    tr = open_lines(EventTrace, tmp_path, [
        "-13 0 1 2 0 0 r",
        "-102 1 0 0 0 40 3 8",    # recv, after its send in time
        "2 0 0 0 0 20",           # exit, after the enter in time
        "-101 0 0 1 0 30 3 8",
        "1 0 0 0 0 10",
    ])
    assert [e["type"] for e in events(tr)] == ["enter", "exit", "send", "recv"]
    assert tr.event(2)["enterptr"] == 1
    assert tr.event(4)["sendptr"] == 3
    assert all(v["count"] == 0 for v in tr.problems().values())


def test_unknown_header_records_are_skipped_anywhere(EventTrace, tmp_path):
    tr = open_lines(EventTrace, tmp_path, [
        "-1 0 0 0 0 0 creator and date",
        "-13 0 1 2 0 0 r",
        "-2 0 0 2 0 0",
        "1 0 0 0 0 5",
        "-7 0 0 0 0 99",
        "-4 0 0 1 0 0",
        "2 0 0 0 0 6",
        "-20 5 5 5 5 5 whatever",
    ])
    assert len(tr) == 2
    assert tr.nrlocs() == 1
    assert [e["type"] for e in events(tr)] == ["enter", "exit"]


def test_last_line_without_newline_is_fine(EventTrace, tmp_path):
    path = write_alog(tmp_path, "-13 0 1 2 0 0 r\n1 0 0 0 0 5\n2 0 0 0 0 6")
    tr = EventTrace(path)
    assert len(tr) == 2 and tr.event(2)["type"] == "exit"


def test_reference_agrees_on_format_examples(tmp_path):
    """The reference model reads the thesis examples the same way (self-check)."""
    ref = ReferenceTrace.parse("-9 0 0 5 0 0 start\n5 0 0 4 0 2025436865\n"
                               "-101 1 0 2 0 2025439346 193 100\n")
    assert ref.event(1).as_dict() == {"pos": 1, "loc": 0, "time": 2025436865e-6, "type": "start",
                                      "enterptr": 0, "data1": 4, "data2": None}
    assert ref.event(2).as_dict()["tag"] == 193 and ref.nrlocs == 3


# ----------------------------------------------------------------------------------------
# malformed input: with strict=True an EarlError naming the file and "line N"; without it
# the same error where the bad line is in the header or the first event record, else the
# events before it and its damage entry (tests/test_damaged_alog.py cuts and corrupts more)
def assert_names(info, path, line):
    msg = str(info.value)
    assert os.path.basename(path) in msg, f"{msg!r} does not name the file"
    assert f"line {line}" in msg, f"{msg!r} does not name line {line}"


R = "-13 0 1 2 0 0 r"
MALFORMED = {
    "too few fields": ([R, "1 0 0 0 0"], 2),
    "too few fields in a definition": (["-13 0 1 2", "1 0 0 0 0 5"], 1),
    "non-integer field": ([R, "1 0 0 x 0 5"], 2),
    "float timestamp": ([R, "1 0 0 0 0 5.5"], 2),
    "non-integer process": ([R, "1 zero 0 0 0 5"], 2),
    "non-integer definition field": (["-13 0 a 2 0 0 r", "1 0 0 0 0 5"], 1),
    "non-integer record type": ([R, "x1 0 0 0 0 5"], 2),
    "undefined event type": ([R, "1 0 0 0 0 5", "77 0 0 0 0 6"], 3),
    "undefined type after blank line": ([R, "", "1 0 0 0 0 5", "77 0 0 0 0 6"], 4),
    "send without tag and len": ([R, "-101 0 0 1 0 5"], 2),
    "send without len": ([R, "-101 0 0 1 0 5 7"], 2),
    "recv without len": ([R, "-102 1 0 0 0 5 7"], 2),
    "recv with non-integer tag": ([R, "-102 1 0 0 0 5 x 3"], 2),
    "-3 after the first event": ([R, "1 0 0 0 0 5", "-3 0 0 2 0 0"], 3),
    "-9 after the first event": ([R, "1 0 0 0 0 5", "-9 0 0 5 0 0 late"], 3),
    "-11 after the first event": ([R, "1 0 0 0 0 5", "-11 0 0 0 0 1000"], 3),
    "-13 after the first event": ([R, "-101 0 0 0 0 5 1 1", "-13 0 3 4 0 0 late"], 3),
    "-15 after the first event": ([R, "1 0 0 0 0 5", "-15 0 0 0 0 0 late"], 3),
    "negative process": ([R, "1 -1 0 0 0 5"], 2),
    "negative dest": ([R, "-101 0 0 -1 0 5 1 1"], 2),
    "negative src": ([R, "-102 0 0 -3 0 5 1 1"], 2),
    "process beyond -3 count": (["-3 0 0 2 0 0", R, "1 2 0 0 0 5"], 3),
    "dest beyond -3 count": (["-3 0 0 2 0 0", R, "-101 0 0 2 0 5 1 1"], 3),
    "nonzero cycle without -11": ([R, "1 0 0 0 0 5", "2 0 0 0 1 5"], 3),
    "truncated last record": ("-13 0 1 2 0 0 r\n1 0 0 0 0 5\n2 0 0", 3),
}


def text_of(content):
    return content if isinstance(content, str) else "\n".join(content) + "\n"


@pytest.mark.parametrize("case", list(MALFORMED), ids=list(MALFORMED))
def test_malformed_input(EventTrace, tmp_path, case):
    content, line = MALFORMED[case]
    path = write_alog(tmp_path, content, "bad_input.alog")
    with pytest.raises(earl.EarlError) as info:   # the format given
        EventTrace(path, format="alog", strict=True)
    assert_names(info, path, line)
    strict_error = str(info.value)
    with pytest.raises(earl.EarlError) as info:   # the format detected
        EventTrace(path, strict=True)
    if line == 1 and "detect" in str(info.value):
        # a broken first record may also make the content undetectable; then the message
        # names the file
        assert os.path.basename(path) in str(info.value)
    else:
        assert_names(info, path, line)
    # Without strict, a bad line after the first event record is damage: the events before
    # it are read (the reference model's reading of the lines before it) and it is named.
    before = text_of(content).split("\n")[:line - 1]
    read_before = ReferenceTrace.parse("\n".join(before))
    if read_before.m == 0:   # the header or the first event record: an error all the same
        with pytest.raises(earl.EarlError) as info:
            EventTrace(path, format="alog")
        assert str(info.value) == strict_error
        return
    tr = EventTrace(path, format="alog")
    assert [e["time"] for e in events(tr)] == [approx_time(e.time) for e in read_before.events[1:]]
    [damage] = tr.problems()["damaged"]["locations"]
    assert damage["loc"] == -1 and damage["record"] == read_before.m + 1
    assert damage["message"].startswith(strict_error + "; ")


@pytest.mark.parametrize("case", list(MALFORMED), ids=list(MALFORMED))
def test_reference_rejects_malformed_input(case):
    """Self-check: the reference model rejects the same inputs at the same line."""
    from reference_model import AlogError
    content, line = MALFORMED[case]
    with pytest.raises(AlogError) as info:
        ReferenceTrace.parse(text_of(content))
    assert info.value.line == line


@pytest.mark.parametrize("content", ["", "\n\n", "   \n"], ids=["empty", "newlines", "blanks"])
def test_empty_file_is_an_error_naming_the_file(EventTrace, tmp_path, content):
    path = write_alog(tmp_path, content, "empty_trace.alog")
    with pytest.raises(earl.EarlError) as info:
        EventTrace(path)
    assert "empty_trace.alog" in str(info.value)
