"""Where definition records may be in a described trace: before the first event record
(definitions = "first", the default, as native ALOG: one after it is damage), or anywhere
(definitions = "anywhere": a scan at open finds them all, each applies to the whole trace).
Expected values worked out by hand from the lines written."""
from pathlib import Path

import pytest

import earl
from earl import _core
from described_helpers import events_of, text_description

REGIONS = [{"name": "region", "match": "R", "define": "region", "id": "id", "label": "name"},
           {"name": "enter", "match": "E", "event": "enter", "location": "loc", "time": "t", "region_id": "id"},
           {"name": "exit", "match": "X", "event": "exit", "location": "loc", "time": "t", "region_id": "id"}]


def description(definitions):
    """Regions by id; `definitions`: the [records] line saying where definitions may be."""
    return text_description(["k string", "loc int", "t time s", "id int", "name string optional"], REGIONS,
                            extra=[definitions] if definitions else [])

# Region 2 is defined after the first event record and used before its definition.
LATE = "R 0 0 1 main\nE 0 1 1\nE 0 2 2\nR 0 0 2 work\nX 0 3 2\nX 0 4 1\n"


def opened(tmp_path, definitions, text, strict=False):
    (tmp_path / "d.toml").write_text(description(definitions))
    (tmp_path / "t.txt").write_text(text)
    return earl.EventTrace(str(tmp_path / "t.txt"), format=f"described:{tmp_path / 'd.toml'}", strict=strict,
                           progress=lambda f: None)


def test_definitions_anywhere_apply_to_the_whole_trace(tmp_path):
    with opened(tmp_path, 'definitions = "anywhere"', LATE) as trace:
        assert [(e["type"], e["time"], e["region"]) for e in events_of(trace)] == [
            ("enter", 1.0, "main"), ("enter", 2.0, "work"), ("exit", 3.0, "work"), ("exit", 4.0, "main")]
        assert "damaged" not in trace.problems()


@pytest.mark.parametrize("definitions", ["", 'definitions = "first"'])
def test_by_default_a_late_definition_is_damage(tmp_path, definitions):
    path = tmp_path / "t.txt"
    reason = f"{path}: line 3: region id 2 is not defined (no define = \"region\" record gives it)"
    with opened(tmp_path, definitions, LATE) as trace:
        assert [(e["type"], e["region"]) for e in events_of(trace)] == [("enter", "main")]
        [entry] = trace.problems()["damaged"]["locations"]
        assert entry["message"] == f"{reason}; the event record before it was read, lines 3 to 6 (4 of the file's 6) were not"
    with pytest.raises(earl.EarlError) as raised:
        opened(tmp_path, definitions, LATE, strict=True)
    assert str(raised.value) == reason
    # Defined before its use but after the first event record: named as such.
    with opened(tmp_path, definitions, "R 0 0 1 main\nE 0 1 1\nR 0 0 2 work\nE 0 2 2\n") as trace:
        [entry] = trace.problems()["damaged"]["locations"]
        assert entry["message"].startswith(f"{path}: line 3: definition record 'region' after the first event "
                                           "record (definitions come first); ")


def test_a_bad_late_definition_is_damage_where_it_is(tmp_path):
    """Its region has no name: found by the scan at open, reported when reading reaches it
    (the events before it are read), or with strict an error at open."""
    path = tmp_path / "t.txt"
    text = "R 0 0 1 main\nE 0 1 1\nR 0 0 2\nE 0 2 1\nX 0 3 1\n"
    reason = f"{path}: line 3: no label (its fields are absent)"
    with opened(tmp_path, 'definitions = "anywhere"', text) as trace:
        assert [(e["type"], e["region"]) for e in events_of(trace)] == [("enter", "main")]
        [entry] = trace.problems()["damaged"]["locations"]
        assert entry["message"] == f"{reason}; the event record before it was read, lines 3 to 5 (3 of the file's 5) were not"
    with pytest.raises(earl.EarlError) as raised:
        opened(tmp_path, 'definitions = "anywhere"', text, strict=True)
    assert str(raised.value) == reason
    # A late line that cannot be read at all: the same.
    text = "R 0 0 1 main\nE 0 1 1\nR x 0 2 work\nE 0 2 1\n"
    with opened(tmp_path, 'definitions = "anywhere"', text) as trace:
        assert len(trace) == 1
        assert trace.problems()["damaged"]["locations"][0]["message"].startswith(
            f"{path}: line 3: field loc is not an integer: 'x'; the event record before it was read")


def test_alog_with_region_definitions_among_the_events(tmp_path):
    """The shipped alog.toml with definitions = "anywhere": a -13 after the first event
    defines types 3 and 4 for the whole file (the native reader stops at it: damage)."""
    shipped = Path(earl.__file__).parent / "descriptions" / "alog.toml"
    text = shipped.read_text().replace('unmatched = "error"', 'unmatched = "error"\ndefinitions = "anywhere"')
    (tmp_path / "anywhere.toml").write_text(text)
    path = tmp_path / "t.alog"
    path.write_text("-13 0 1 2 0 0 main\n1 0 0 0 0 10\n3 0 0 0 0 20\n-13 0 3 4 0 0 red:solid work\n"
                    "4 0 0 0 0 30\n2 0 0 0 0 40\n")
    with earl.EventTrace(str(path), format=f"described:{tmp_path / 'anywhere.toml'}", progress=lambda f: None) as trace:
        assert [(e["type"], e["time"], e["region"]) for e in events_of(trace)] == [
            ("enter", 10e-6, "main"), ("enter", 20e-6, "work"), ("exit", 30e-6, "work"), ("exit", 40e-6, "main")]
    with earl.EventTrace(str(path), format="alog", progress=lambda f: None) as trace:
        assert len(trace) == 1 and trace.problems()["damaged"]["count"] == 1


def test_the_key_is_checked_and_outlined(tmp_path):
    text = description('definitions = "later"')
    line = text.split("\n").index('definitions = "later"') + 1
    (tmp_path / "d.toml").write_text(text)
    with pytest.raises(earl.EarlError, match=rf'd\.toml:{line}:15: definitions must be "first" or "anywhere"'):
        _core.check_description(str(tmp_path / "d.toml"))
    (tmp_path / "d.toml").write_text(description('definitions = "anywhere"'))
    assert "definitions: anywhere" in _core.check_description(str(tmp_path / "d.toml"))
