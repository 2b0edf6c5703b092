"""`earl formats`: what this build reads and writes, as the registry says and as it does."""
import json
import subprocess
import sys

import pytest

import earl
from earl.generate import generate


def earl_command(*args):
    done = subprocess.run([sys.executable, "-m", "earl.cli", *args], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_every_format_has_a_line_saying_what_this_build_does():
    rows = json.loads(earl_command("formats", "--json"))
    lines = earl_command("formats").splitlines()
    listed = {}
    for line in lines[1:1 + len(rows)]:
        words = line.split()
        aliases = []
        while words[1 + len(aliases)].startswith("("):
            aliases.append(words[1 + len(aliases)].strip("()"))
        listed[words[0]] = (aliases, words[1 + len(aliases):3 + len(aliases)])
    assert {row["name"] for row in rows} == set(listed) and len(rows) >= 2
    for row in rows:
        assert listed[row["name"]] == (row["aliases"], ["yes" if row["reads"] else "no",
                                                        "yes" if row["writes"] else "no"])
        assert row["reads"] or row["unavailable"], row   # a format it cannot read says why


@pytest.mark.parametrize("row", [r for r in earl._core.formats() if r["writes"]], ids=lambda r: r["name"])
def test_what_it_calls_writable_is_written_and_read_back(tmp_path, row):
    """The listing is the truth: each format it writes, `earl gen` writes and EARL reads, and
    the content is recognised without the file's ending."""
    path = tmp_path / ("trace" + row["extensions"][0])
    truth = generate(str(path), format=row["name"], locations=3, events=500, seed=3)
    with earl.EventTrace(str(path)) as trace:
        assert trace.format() == row["name"]
        # every region visit is there (a format may leave out records it has no place for,
        # such as OTF2's program begin and end)
        visits = {}
        for event in trace:
            if event["type"] == "enter":
                key = (str(event["loc"]), event["region"])
                visits[key] = visits.get(key, 0) + 1
        assert visits == {(loc, region): row["count"] for loc, regions in truth["region_time"].items()
                          for region, row in regions.items()}
