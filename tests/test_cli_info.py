"""`earl info`: -f like `earl analyze -f`, --json, regions in use (--all: every one), the
note about a newly written index on a terminal; and the command line's small courtesies
(did you mean, `earl index`'s usage)."""
import json
import os
import pty
import subprocess
import sys

import pytest

import earl

from script_checks import SCOREP, needs_scorep_traces

EARL = [sys.executable, "-m", "earl.cli"]
PING_PONG = SCOREP / "ping-pong-otf2" / "traces.otf2"
needs_otf2 = pytest.mark.skipif("otf2" not in earl._core.known_formats(),
                                reason="this build reads no OTF2")

# Two locations (main, server), regions main and idle (idle defined, never entered);
# events at 10, 11, 12 (a receive nobody sent), 20, 30 microseconds.
ALOG = ("-3 0 0 2 0 0\n-13 0 1 2 0 0 c:p main\n-13 0 3 4 0 0 c:p idle\n"
        "-15 1 0 0 0 0 server\n"
        "1 0 0 0 0 10\n1 1 0 0 0 11\n-102 1 0 0 0 12 5 8\n2 0 0 0 0 20\n2 1 0 0 0 30\n")


def earl_cli(*args, cwd=None, env=None):
    return subprocess.run(EARL + [str(a) for a in args], capture_output=True, text=True,
                          timeout=120, cwd=cwd, env=env)


@pytest.fixture
def alog(tmp_path):
    path = tmp_path / "t.alog"
    path.write_text(ALOG)
    return path


def test_short_format_option_as_analyze_has_it(alog):
    short, long = earl_cli("info", "-f", "alog", alog), earl_cli("info", "--format", "alog", alog)
    assert short.returncode == 0 and short.stdout == long.stdout, short.stderr
    wrong = earl_cli("info", "-f", "nosuchformat", alog)
    assert wrong.returncode == 1 and "nosuchformat" in wrong.stderr
    assert "Traceback" not in wrong.stderr


def test_json_of_a_hand_written_trace(alog):
    done = earl_cli("info", "--json", alog)
    assert done.returncode == 0, done.stderr
    (line,) = done.stdout.splitlines()
    info = json.loads(line)
    assert info["file"] == str(alog) and info["format"] == "alog" and info["events"] == 5
    assert info["time"] == {"first": 10e-6, "last": 30e-6, "span": pytest.approx(20e-6)}
    assert info["locations"] == [{"index": 0, "name": None}, {"index": 1, "name": "server"}]
    assert info["regions"] == {"All": {"used": ["main"], "unused": ["idle"]}}
    assert info["problems"]["unmatched_recv"] == {"count": 1, "first": [3]}
    assert info["metrics"] == [] and info["clocks"] is None
    assert info["index"]["state"] == "off"
    assert set(info) == {"file", "format", "events", "time", "locations", "types", "regions",
                         "metrics", "problems", "bookmarks", "index", "clocks"}
    assert {"enter", "exit", "send", "recv"} <= set(info["types"])


def test_json_gives_one_line_per_trace_and_the_help_names_every_field(alog, tmp_path):
    empty = tmp_path / "empty.alog"
    empty.write_text("-3 0 0 1 0 0\n")
    done = earl_cli("info", "--json", alog, empty)
    assert done.returncode == 0, done.stderr
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert (first["events"], second["events"], second["time"]) == (5, 0, None)
    help_text = earl_cli("info", "--help").stdout
    for field in first:
        assert f"\n  {field} " in help_text, field


def regions_by_group_from_the_official_reader(anchor):
    """{group: (defined names, names some Enter or Leave record names)}, read with the
    official otf2 package (the group is the region's paradigm)."""
    import otf2
    from otf2_reference import enum_name

    groups = {}
    with otf2.reader.open(str(anchor)) as trace:
        for region in trace.definitions.regions:
            groups.setdefault(enum_name(region.paradigm), ([], set()))[0].append(region.name)
        group_of = {r.name: enum_name(r.paradigm) for r in trace.definitions.regions}
        for _, event in trace.events:
            if isinstance(event, (otf2.events.Enter, otf2.events.Leave)):
                groups[group_of[event.region.name]][1].add(event.region.name)
    return groups


@needs_otf2
@needs_scorep_traces
def test_the_regions_in_use_against_the_official_reader():
    pytest.importorskip("otf2")
    truth = regions_by_group_from_the_official_reader(PING_PONG)
    done = earl_cli("info", "--json", PING_PONG)
    regions = json.loads(done.stdout)["regions"]
    assert set(regions) == set(truth)
    for group, (defined, used) in truth.items():
        assert regions[group]["used"] == [name for name in defined if name in used]
        assert regions[group]["unused"] == [name for name in defined if name not in used]
    text = earl_cli("info", PING_PONG).stdout
    mpi_defined, mpi_used = truth["MPI"]
    shown = ", ".join(name for name in mpi_defined if name in mpi_used)
    assert (f"regions:   {len(mpi_used)} in group MPI: {shown} ({len(mpi_defined)} MPI regions "
            f"defined, {len(mpi_used)} used; --all lists all)") in text.splitlines()
    idle = [f"{g} ({len(d)} defined)" for g, (d, u) in truth.items() if not u]
    assert f"regions:   none in use in groups {', '.join(idle)} (--all lists them)" in text
    everything = earl_cli("info", "--all", PING_PONG).stdout
    line = next(line for line in everything.splitlines() if " in group MPI: " in line)
    assert line.startswith(f"regions:   {len(mpi_defined)} in group MPI: {mpi_defined[0]}, ")
    assert all(name in line for name in mpi_defined) and "--all" not in line


@needs_otf2
@needs_scorep_traces
@pytest.mark.skipif(not hasattr(earl.EventTrace, "metrics"),
                    reason="this build does not read counter definitions (EventTrace.metrics)")
def test_info_lists_the_counters_the_official_reader_finds():
    otf2 = pytest.importorskip("otf2")
    anchor = SCOREP / "ping-pong-otf2-papi" / "traces.otf2"
    with otf2.reader.open(str(anchor)) as trace:
        members = [(m.name, m.unit) for m in trace.definitions.metric_members]
    assert members, "the PAPI trace defines counters"
    info = json.loads(earl_cli("info", "--json", anchor).stdout)
    assert [(m["name"], m["unit"]) for m in info["metrics"]] == members
    text = earl_cli("info", anchor).stdout
    assert ("metrics:   " + ", ".join(f"{n} ({u})" if u else n for n, u in members)) in text


def test_text_shows_unused_regions_as_a_count(alog):
    text = earl_cli("info", alog).stdout
    assert "regions:   1 in group All: main (2 All regions defined, 1 used; --all lists all)" in text
    assert "regions:   2 in group All: main, idle (2 All regions defined, 1 used)" in \
        earl_cli("info", "--all", alog).stdout


def info_on_a_terminal(trace, env):
    """Runs `earl info TRACE` with stderr on a real pseudo-terminal; returns (stdout,
    what the terminal showed)."""
    controller, terminal = pty.openpty()
    try:
        done = subprocess.run(EARL + ["info", str(trace)], stdout=subprocess.PIPE,
                              stderr=terminal, text=True, timeout=120, env=env)
        os.close(terminal)
        terminal = None
        shown = b""
        while True:
            try:
                chunk = os.read(controller, 4096)
            except OSError:  # the terminal's other end is closed: all was read
                break
            if not chunk:
                break
            shown += chunk
    finally:
        if terminal is not None:
            os.close(terminal)
        os.close(controller)
    assert done.returncode == 0
    return done.stdout, shown.decode()


def test_a_new_index_is_announced_once_and_only_on_a_terminal(tmp_path):
    trace = tmp_path / "big.alog"
    from earl.generate import generate
    generate(trace, locations=2, events=2000, seed=3)
    # every trace counts as large; the index goes beside the trace
    env = dict(os.environ, EARL_INDEX_MIN_BYTES="0")
    env.pop("EARL_INDEX", None)
    env.pop("EARL_INDEX_DIR", None)
    index = tmp_path / "big.alog.earlidx"

    piped = earl_cli("info", trace, env=env)
    assert index.is_file() and piped.stderr == "", piped.stderr
    index.unlink()

    _, shown = info_on_a_terminal(trace, env)
    size = os.path.getsize(index) / 2**20
    assert shown.strip() == (f"earl: wrote an index of {trace} to {index} ({size:.1f} MiB), so "
                             "that it opens fast next time; --no-index or EARL_INDEX=0 turns "
                             "this off, earl index clean removes it")
    _, again = info_on_a_terminal(trace, env)
    assert again == "", "the note comes once: the next open reads the index"


@pytest.mark.parametrize("typo,meant", [("anlyze", "analyze"), ("inf", "info"),
                                        ("scirpts", "scripts")])
def test_a_mistyped_command_gets_did_you_mean(typo, meant, tmp_path):
    done = earl_cli(typo, "x", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (f"earl: error: argument COMMAND: invalid choice: "
                                            f"'{typo}' (did you mean {meant}?)")


def test_a_command_nothing_like_any_gets_the_list(tmp_path):
    done = earl_cli("frobnicate", cwd=tmp_path)
    assert done.returncode == 2 and "did you mean" not in done.stderr
    assert "invalid choice: 'frobnicate' (choose from " in done.stderr


def test_index_usage_shows_path_as_optional(tmp_path):
    done = earl_cli("index", cwd=tmp_path)
    assert done.returncode == 2
    assert "usage: earl index [-h] [-q] {clean} [PATH ...]" in done.stderr
    assert done.stderr.splitlines()[-1] == \
        "earl index: error: the following arguments are required: action"
