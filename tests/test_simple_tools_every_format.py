"""earl list, earl check and earl merge on every format this build reads and writes
(issue 24: the tools work on every format). One program is written by `earl gen -f FMT`
(same options and seed) in each; in each:
- `earl list --as jsonl` gives the events of the first format's trace, as far as the
  format holds them (shared_model), and the sends the generator's ground truth counts
  (messages and bytes per location, counted by its own collector while it wrote);
- `earl check` finds it clean;
- `earl merge` of it with itself, locations renumbered, opens with its events twice, the
  second time on locations of their own, and checks clean."""
import json
from collections import Counter

import pytest

from earl import _core
from earl.cli import main as earl_main
from earl.generate import generate
from shared_model import shared_rows, without_added_frames

PROGRAM = dict(locations=3, events=1200, seed=21, nonblocking=True)

# (format `earl gen -f` writes, format the tools are told it is): every format both read
# and written by this build, from its format table; and ALOG files read through the shipped
# ALOG description, where this build reads described formats.
ROWS = [(row["name"], row["name"]) for row in _core.formats()
        if row["reads"] and row["writes"] and not row["unavailable"]]
if any(row["name"] == "described" and row["reads"] for row in _core.formats()):
    ROWS.append(("alog", "described:alog"))


def suffix(fmt):
    return next(row["extensions"][0] for row in _core.formats() if row["name"] == fmt)


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """{format: (path, ground truth)}, each written once."""
    root = tmp_path_factory.mktemp("simple_tools")
    made = {}
    for fmt in dict.fromkeys(written_as for written_as, _ in ROWS):
        path = root / ("program" + suffix(fmt))
        made[fmt] = (path, generate(str(path), format=fmt, **PROGRAM))
    return made


def earl(capsys, *argv, status=0):
    assert earl_main([str(arg) for arg in argv]) == status, capsys.readouterr().err
    return capsys.readouterr().out


def listed(capsys, path, fmt):
    return [json.loads(line) for line in earl(capsys, "list", path, "-f", fmt, "--as", "jsonl").splitlines()]


def per_location(events, kind, value=lambda event: 1):
    """[sum of value(event) over the `kind` events of each location]"""
    sums = Counter()
    for event in events:
        if event["type"] == kind:
            sums[event["loc"]] += value(event)
    return [sums[loc] for loc in range(PROGRAM["locations"])]


@pytest.mark.parametrize("written_as, read_as", ROWS)
def test_list_gives_the_same_events_in_every_format(written, capsys, written_as, read_as):
    path, truth = written[written_as]
    events = listed(capsys, path, read_as)
    assert per_location(events, "send") == truth["message_counts"]["comms_send"]
    assert per_location(events, "recv") == truth["message_counts"]["comms_recv"]
    assert per_location(events, "send", lambda event: event["len"]) == truth["bytes_sent_per_location"]
    first_path, _ = written[ROWS[0][0]]
    expected = shared_rows(listed(capsys, first_path, ROWS[0][1]))
    got = shared_rows(events)
    assert without_added_frames(got, expected) == without_added_frames(expected, got)


@pytest.mark.parametrize("written_as, read_as", ROWS)
def test_check_finds_every_format_clean(written, capsys, written_as, read_as):
    path, _ = written[written_as]
    report = json.loads(earl(capsys, "check", path, "-f", read_as, "--json"))
    assert report["violations"] == [] and not any(report["counts"].values()), report


def copy(rows, first):
    """The rows of locations first.., renumbered from 0 (their peers with them)."""
    n = PROGRAM["locations"]
    return [(row[0] - first,) + row[1:3] + ((row[3] - first,) + row[4:] if row[2] in ("send", "recv") else row[3:])
            for row in rows if first <= row[0] < first + n]


@pytest.mark.parametrize("written_as, read_as", ROWS)
def test_a_trace_merged_with_itself_opens_and_checks_clean(written, capsys, tmp_path, written_as, read_as):
    """Each copy holds the input's shared events; the second on locations of its own."""
    path, _ = written[written_as]
    merged = tmp_path / ("merged" + suffix(written_as))
    earl(capsys, "merge", merged, path, path, "--locations", "renumber", "--input-format", read_as,
         "-f", written_as)
    once = shared_rows(listed(capsys, path, read_as))
    twice = shared_rows(listed(capsys, merged, written_as))
    n = PROGRAM["locations"]
    assert {row[0] for row in twice} == set(range(2 * n))
    for first in (0, n):
        assert without_added_frames(copy(twice, first), once) == once, first
    report = json.loads(earl(capsys, "check", merged, "--json"))
    assert report["violations"] == [], report
