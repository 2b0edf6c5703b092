"""Hardware counters (OTF2 Metric records, issue 20 point 7) against the official OTF2 reader:
the definitions (EventTrace.metrics() in Python, Lua and Tcl), the metric events and
to_numpy's counter columns, and `earl analyze`'s counters per call path and location,
exclusive and inclusive.

The per-call-path expectation is summed here from the reader's Enter, Leave and Metric
records the way Cube defines it: a region instance's inclusive value is the counter at its
leave minus the counter at its enter; its exclusive value is that minus its callees'
inclusive values. EARL adds each sample's increment to the call path open at the sample: a
different computation that must give the same numbers. A small hand-written archive covers
the metric modes (accumulated, relative, absolute) with values worked out by hand."""
import math
from collections import Counter, defaultdict

import pytest

import earl
from earl.trace import event_dtype

otf2 = pytest.importorskip("otf2")
from otf2.enums import Base, MetricMode, Paradigm, Type  # noqa: E402

from cube_reading import callpath_names  # noqa: E402
from otf2_archives import PING_PONG_PAPI, ArchiveWriter, T  # noqa: E402
from otf2_reference import Otf2Reference  # noqa: E402

needs_papi = pytest.mark.skipif(not PING_PONG_PAPI.exists(), reason="no Score-P PAPI trace")
FIELDS = ["name", "unit", "description", "mode", "source", "value_type", "base", "exponent",
          "per_callpath"]
SUMMED_MODES = {"accumulated_start", "accumulated_point", "accumulated_last", "relative_last"}


def enum_name(value):
    """MetricMode.ACCUMULATED_START -> "accumulated_start" (the reader's enums)."""
    return str(value).rsplit(".", 1)[-1].lower()


def reader_metrics(anchor):
    """The metric members as the official reader reads them, in EARL's field names."""
    with otf2.reader.open(str(anchor)) as trace:
        return [{"name": m.name, "unit": m.unit, "description": m.description,
                 "mode": enum_name(m.metric_mode), "source": enum_name(m.metric_type),
                 "value_type": enum_name(m.value_type),
                 "base": 2 if m.base == Base.BINARY else 10, "exponent": m.exponent,
                 "per_callpath": enum_name(m.metric_mode) in SUMMED_MODES}
                for m in trace.definitions.metric_members]


def leave_minus_enter(anchor):
    """{(counter, call path, location): value}, inclusive and exclusive, of every counter
    each Metric record carries, from the counter's value at each Leave minus its value at
    the matching Enter (the last sample of the location at or before each). ProgramBegin
    and ProgramEnd enter and leave the program's region, named as the executable (Score-P
    defines it; Scalasca and EARL root the call tree there)."""
    inclusive, exclusive = defaultdict(int), defaultdict(int)
    with otf2.reader.open(str(anchor)) as trace:
        locations = list(trace.definitions.locations)
        stacks, last = defaultdict(list), defaultdict(dict)
        for location, event in trace.events:
            loc = locations.index(location)
            kind = type(event).__name__
            if kind == "Metric":
                last[loc].update({m.name: v for m, v in zip(event.metric.members, event.values)})
            elif kind in ("Enter", "ProgramBegin"):
                stack = stacks[loc]
                name = event.region.name if kind == "Enter" else event.program_name.rpartition("/")[2]
                path = (stack[-1]["path"] + "/" if stack else "") + name
                stack.append({"path": path, "start": dict(last[loc]), "callees": Counter()})
            elif kind in ("Leave", "ProgramEnd"):
                frame = stacks[loc].pop()
                # the program's region begins before the first sample: it holds what its
                # callees counted (Cube's inclusive value), nothing of its own
                for name in frame["start"].keys() | frame["callees"].keys():
                    start = frame["start"].get(name)
                    amount = frame["callees"][name] if start is None else last[loc][name] - start
                    inclusive[name, frame["path"], loc] += amount
                    exclusive[name, frame["path"], loc] += amount - frame["callees"][name]
                    if stacks[loc]:
                        stacks[loc][-1]["callees"][name] += amount
    return inclusive, exclusive


def earl_cells(report, inclusive):
    out = {}
    for name in report.counters:
        for cp, loc, v in report.counter_cells(name, inclusive):
            path = report.callpaths[cp] if cp >= 0 else "(outside any region)"
            out[name, path, loc] = out.get((name, path, loc), 0.0) + v
    return out


def same_cells(mine, expected):
    keys = set(mine) | set(expected)
    wrong = {k: (mine.get(k, 0.0), expected.get(k, 0)) for k in keys
             if mine.get(k, 0.0) != expected.get(k, 0)}
    assert not wrong, wrong


# ---------------------------------------------------------------- the Score-P PAPI trace
@needs_papi
def test_definitions_are_the_metric_members_the_reader_reads(Otf2Trace):
    expected = reader_metrics(PING_PONG_PAPI)
    assert [m["name"] for m in expected] == ["PAPI_TOT_CYC", "PAPI_L2_TCM", "PAPI_BR_MSP"]
    with Otf2Trace(str(PING_PONG_PAPI)) as t:
        metrics = t.metrics()
    assert metrics == expected
    assert all(list(m) == FIELDS for m in metrics)


@needs_papi
def test_metric_events_and_to_numpy_columns_hold_the_readers_values(Otf2Trace):
    ref = Otf2Reference.load(PING_PONG_PAPI)
    names = [m["name"] for m in reader_metrics(PING_PONG_PAPI)]
    with Otf2Trace(str(PING_PONG_PAPI)) as t:
        rows = t.to_numpy()
        events = list(t)
        assert t.metric_columns() == names
    base = event_dtype()
    assert list(rows.dtype.names) == list(base.names) + names
    assert all(rows.dtype[f] == base[f] for f in base.names)       # the base fields unchanged
    assert all(rows.dtype[n] == "f8" for n in names)
    samples = 0
    for pos in range(1, ref.m + 1):
        want, row, event = ref.event(pos), rows[pos - 1], events[pos - 1]
        assert row["pos"] == pos
        if want["type"] == "metric":
            samples += 1
            assert (event["metric"], event["value"]) == (want["metric"], want["value"])
            assert list(event) == ["pos", "loc", "time", "type", "enterptr", "metric", "value"]
        for name in names:
            if want["type"] == "metric" and want["metric"] == name:
                assert row[name] == want["value"], (pos, name)
            else:
                assert math.isnan(row[name]), (pos, name)
    assert samples == 3 * 84          # 84 Metric records of 3 members each
    part = t_part = None
    with Otf2Trace(str(PING_PONG_PAPI)) as t:
        part = t.to_numpy(5, 9)
        t_part = rows[4:9]
    for field in rows.dtype.names:
        assert [str(v) for v in part[field]] == [str(v) for v in t_part[field]], field


@needs_papi
def test_analysis_counters_per_call_path_and_location_are_cubes_leave_minus_enter():
    inclusive, exclusive = leave_minus_enter(PING_PONG_PAPI)
    report = earl.analyze(PING_PONG_PAPI, progress=lambda f: None)
    assert list(report.counters) == ["PAPI_TOT_CYC", "PAPI_L2_TCM", "PAPI_BR_MSP"]
    # main and its six MPI calls under the program root
    assert len({k[1] for k in inclusive}) == 1 + 7 and {k[2] for k in inclusive} == {0, 1}
    same_cells(earl_cells(report, inclusive=True), inclusive)
    same_cells(earl_cells(report, inclusive=False), exclusive)
    assert any(inclusive[k] != exclusive[k] for k in inclusive)    # callees were subtracted
    counted = report.to_dict()["counters"]["PAPI_TOT_CYC"]
    root = "ping-pong.otf2"       # the program's region, main's caller
    assert counted["inclusive"][root] == inclusive["PAPI_TOT_CYC", root, 0] + \
        inclusive["PAPI_TOT_CYC", root, 1]
    assert counted["total"] == counted["inclusive"][root] == sum(counted["by_location"].values())
    assert counted["unit"] == "#" and counted["mode"] == "accumulated_start"


@needs_papi
def test_to_pandas_has_each_counters_exclusive_values_with_its_unit():
    pytest.importorskip("pandas")
    _, exclusive = leave_minus_enter(PING_PONG_PAPI)
    df = earl.analyze(PING_PONG_PAPI, progress=lambda f: None).to_pandas()
    counters = df[df.unit == "#"]
    assert set(counters.metric) == {"PAPI_TOT_CYC", "PAPI_L2_TCM", "PAPI_BR_MSP"}
    mine = {}
    for row in counters.itertuples():
        key = (row.metric, row.callpath or "(outside any region)", row.location)
        mine[key] = mine.get(key, 0.0) + row.value
    same_cells(mine, exclusive)
    assert set(df[df.metric == "time"].unit) == {"sec"}


@needs_papi
def test_the_cube_file_holds_each_counter_with_its_unit(tmp_path):
    pycubexr = pytest.importorskip("pycubexr")
    inclusive, exclusive = leave_minus_enter(PING_PONG_PAPI)
    report = earl.analyze(PING_PONG_PAPI, progress=lambda f: None)
    cube = tmp_path / "papi.cubex"
    report.write_cube(cube)
    stored_exclusive, stored_inclusive = {}, {}
    with pycubexr.CubexParser(str(cube)) as parser:
        paths = callpath_names(parser)
        for definition in reader_metrics(PING_PONG_PAPI):
            metric = parser.get_metric_by_name(definition["name"])
            assert (metric.units, metric.data_type) == ("#", "INTEGER")
            values = parser.get_metric_values(metric)
            for cnode in parser.all_cnodes():
                for loc, v in enumerate(values.cnode_values(cnode)):
                    stored_exclusive[definition["name"], paths[cnode.id], loc] = int(v)
                for loc, v in enumerate(values.cnode_values(cnode, convert_to_inclusive=True)):
                    stored_inclusive[definition["name"], paths[cnode.id], loc] = int(v)
    same_cells(stored_exclusive, exclusive)
    same_cells(stored_inclusive, inclusive)


@needs_papi
def test_lua_sees_the_same_definitions_and_values():
    pytest.importorskip("lupa.lua54")
    import earl.lua
    try:
        lua = earl.lua.runtime()
    except earl.EarlError as error:
        pytest.skip(f"no Lua module in this build: {error}")
    collect = lua.eval("""function(path)
      local e = EventTrace(path)
      local samples = {}
      while e:next() do
        local ev = e:event()
        if ev.type == "metric" then samples[#samples + 1] = {ev.pos, ev.metric, ev.value} end
      end
      return e:metrics(), samples
    end""")
    defs, samples = collect(str(PING_PONG_PAPI))
    assert [dict(d.items()) for d in defs.values()] == reader_metrics(PING_PONG_PAPI)
    ref = Otf2Reference.load(PING_PONG_PAPI)
    assert [tuple(s.values()) for s in samples.values()] == \
        [(p, ref.event(p)["metric"], ref.event(p)["value"])
         for p in range(1, ref.m + 1) if ref.event(p)["type"] == "metric"]


@needs_papi
def test_tcl_sees_the_same_definitions_and_values():
    import earl.tcl
    try:
        tcl = earl.tcl.interpreter()
    except earl.EarlError as error:
        pytest.skip(f"no Tcl extension in this build: {error}")
    tcl.tk.call("set", "path", str(PING_PONG_PAPI))
    tcl.eval("EventTrace e -file $path")
    expected = reader_metrics(PING_PONG_PAPI)
    assert int(tcl.eval("llength [e metrics]")) == len(expected)
    for i, metric in enumerate(expected):
        assert tcl.eval(f"dict keys [lindex [e metrics] {i}]").split() == FIELDS
        for field, value in metric.items():
            got = tcl.eval(f"dict get [lindex [e metrics] {i}] {field}")
            assert got == (str(int(value)) if isinstance(value, bool) else str(value)), field
    samples = tcl.eval("""set out {}
        while {[e next]} {
          e event ev
          if {$ev(type) eq "metric"} { lappend out [list $ev(pos) $ev(metric) $ev(value)] }
        }
        join $out \\n""").splitlines()
    ref = Otf2Reference.load(PING_PONG_PAPI)
    assert samples == [f"{p} {ref.event(p)['metric']} {ref.event(p)['value']}"
                       for p in range(1, ref.m + 1) if ref.event(p)["type"] == "metric"]
    assert "wrong # args" in tcl.eval("catch {e metrics extra} message; set message")


# ---------------------------------------------------------------- metric modes by hand
@pytest.fixture(scope="module")
def modes(tmp_path_factory):
    """Two locations, regions A and B, one metric class of three members:
    acc (accumulated_start, uint64), rel (relative_last: each sample the amount since the
    previous one, int64, unit J, exponent -3), abs (absolute_point, double: a level).
      loc 0: t1 (10, 1, .5) enter A; t2 (15, 2, .7) enter B; t3 (40, 3, .1) leave B;
             t4 (50, 4, .2) leave A; t5 (53, 5, .3) outside any region
      loc 1: t1 (100, 7, 0.) enter A; t2 (160, 8, 1.) leave A"""
    aw = ArchiveWriter(tmp_path_factory.mktemp("modes"), "modes")
    p0, = aw.process("P0")
    p1, = aw.process("P1")
    a, b = aw.region("A", Paradigm.USER), aw.region("B", Paradigm.USER)
    acc = aw.d.metric_member("acc", value_type=Type.UINT64, unit="cycles",
                             metric_mode=MetricMode.ACCUMULATED_START)
    rel = aw.d.metric_member("rel", value_type=Type.INT64, unit="J", exponent=-3,
                             metric_mode=MetricMode.RELATIVE_LAST)
    level = aw.d.metric_member("abs", value_type=Type.DOUBLE, unit="W",
                               metric_mode=MetricMode.ABSOLUTE_POINT)
    cls = aw.d.metric_class([acc, rel, level])
    e = aw.ev(p0)
    for t, values, record, region in [(1, [10, 1, .5], "enter", a), (2, [15, 2, .7], "enter", b),
                                      (3, [40, 3, .1], "leave", b), (4, [50, 4, .2], "leave", a),
                                      (5, [53, 5, .3], None, None)]:
        e.metric(T(t), cls, values)
        if record:
            getattr(e, record)(T(t), region)
    e = aw.ev(p1)
    e.metric(T(1), cls, [100, 7, 0.0])
    e.enter(T(1), a)
    e.metric(T(2), cls, [160, 8, 1.0])
    e.leave(T(2), a)
    return aw.close()


def test_modes_definitions(modes, Otf2Trace):
    with Otf2Trace(str(modes)) as t:
        metrics = t.metrics()
    assert [(m["name"], m["mode"], m["value_type"], m["unit"], m["exponent"], m["per_callpath"])
            for m in metrics] == [("acc", "accumulated_start", "uint64", "cycles", 0, True),
                                  ("rel", "relative_last", "int64", "J", -3, True),
                                  ("abs", "absolute_point", "double", "W", 0, False)]
    assert metrics == reader_metrics(modes)


def test_modes_summed_by_hand(modes):
    report = earl.analyze(modes, progress=lambda f: None)
    assert list(report.counters) == ["acc", "rel"]         # a level is no amount per call path
    assert earl_cells(report, inclusive=False) == {
        ("acc", "A", 0): 15.0, ("acc", "A/B", 0): 25.0, ("acc", "(outside any region)", 0): 3.0,
        ("acc", "A", 1): 60.0,
        ("rel", "A", 0): 6.0, ("rel", "A/B", 0): 3.0, ("rel", "(outside any region)", 0): 6.0,
        ("rel", "A", 1): 8.0, ("rel", "(outside any region)", 1): 7.0}
    assert earl_cells(report, inclusive=True) == {
        ("acc", "A", 0): 40.0, ("acc", "A/B", 0): 25.0, ("acc", "(outside any region)", 0): 3.0,
        ("acc", "A", 1): 60.0,
        ("rel", "A", 0): 9.0, ("rel", "A/B", 0): 3.0, ("rel", "(outside any region)", 0): 6.0,
        ("rel", "A", 1): 8.0, ("rel", "(outside any region)", 1): 7.0}
    # the accumulated counter agrees with leave - enter from the official reader
    inclusive, exclusive = leave_minus_enter(modes)
    assert {k: v for k, v in inclusive.items() if k[0] == "acc"} == \
        {("acc", "A", 0): 40, ("acc", "A/B", 0): 25, ("acc", "A", 1): 60}
    with pytest.raises(earl.EarlError, match="unknown counter 'abs'"):
        report.counter_cells("abs")


def test_modes_in_cube_and_json(modes, tmp_path):
    pycubexr = pytest.importorskip("pycubexr")
    report = earl.analyze(modes, progress=lambda f: None)
    cube = tmp_path / "modes.cubex"
    report.write_cube(cube)
    with pycubexr.CubexParser(str(cube)) as parser:
        names = {m.name for m in parser.get_metrics()}
        assert {"acc", "rel"} <= names and "abs" not in names
        assert parser.get_metric_by_name("rel").units == "J"
        # events outside any region put the call tree under an artificial root
        assert {parser.get_region(c).name for c in parser.all_cnodes()} == {"(trace)", "A", "B"}
    saved = report.to_dict()["counters"]
    assert saved["rel"]["exclusive"] == {"(outside any region)": 13.0, "A": 14.0, "A/B": 3.0}
    assert saved["acc"]["by_location"] == {"0": 43.0, "1": 60.0}
    back = earl.analysis.Report.from_json(report.to_json())
    assert back.counters == report.counters


def test_the_persisted_index_keeps_the_definitions(modes):
    with earl.EventTrace(modes, index=True, progress=lambda f: None) as t:
        assert t.index_info()["state"] in ("built", "rebuilt")
        first, rows = t.metrics(), t.to_numpy()
    with earl.EventTrace(modes, index=True, progress=lambda f: None) as t:
        assert t.index_info()["state"] == "loaded"
        assert t.metrics() == first
        again = t.to_numpy()
    for field in rows.dtype.names:
        assert [str(v) for v in again[field]] == [str(v) for v in rows[field]], field


def test_a_trace_without_metrics_keeps_the_plain_rows(tmp_path):
    from earl.generate import generate
    path = tmp_path / "plain.alog"
    generate(path, locations=2, events=200, seed=1)
    with earl.EventTrace(path, progress=lambda f: None) as t:
        assert t.metrics() == [] and t.metric_columns() == []
        assert t.to_numpy().dtype == event_dtype()
    assert earl.analyze(path, progress=lambda f: None).counters == {}


# ---------------------------------------------------------------- text and HTML views
def summed_over_locations(cells):
    out = defaultdict(int)
    for (name, path, _), v in cells.items():
        out[name, path] += v
    return out


@needs_papi
def test_text_output_shows_each_counter_by_call_path(tmp_path):
    import subprocess
    import sys
    inclusive, exclusive = (summed_over_locations(c) for c in leave_minus_enter(PING_PONG_PAPI))
    done = subprocess.run([sys.executable, "-m", "earl.cli", "analyze", str(PING_PONG_PAPI),
                           "--top", "10"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    for name in ("PAPI_TOT_CYC", "PAPI_L2_TCM", "PAPI_BR_MSP"):
        heading = next(i for i, line in enumerate(lines) if line.startswith(f"{name}: "))
        root = "ping-pong.otf2"   # the program's region
        total = inclusive[name, root]
        assert lines[heading].startswith(f"{name}: {total} # in total (")
        rows = {}
        for line in lines[heading + 1:]:
            cells = [c.strip() for c in line.strip("│ ").split("│")]
            if line.startswith("└"):
                break
            if len(cells) == 4 and cells[0].startswith(root):
                rows[cells[0]] = (int(cells[1]), int(cells[2]))
        assert rows == {path: (inclusive[n, path], exclusive[n, path])
                        for n, path in inclusive if n == name}


@needs_papi
def test_html_report_has_a_table_per_counter(tmp_path):
    import html
    import re
    inclusive, exclusive = (summed_over_locations(c) for c in leave_minus_enter(PING_PONG_PAPI))
    page = tmp_path / "r.html"
    earl.analyze(PING_PONG_PAPI, progress=lambda f: None).write_html(page)
    text = page.read_text()
    for name in ("PAPI_TOT_CYC", "PAPI_L2_TCM", "PAPI_BR_MSP"):
        table = re.search(rf"<table class='earl-counter' data-counter='{name}'>(.*?)</table>",
                          text).group(1)
        rows = re.findall(r"<tr><td>(.*?)</td><td>(\d+)</td><td>(\d+)</td><td>[\d.]+%</td></tr>",
                          table)
        want = sorted(((path, v) for (n, path), v in inclusive.items() if n == name),
                      key=lambda kv: -kv[1])
        assert [(html.unescape(p), int(i), int(e)) for p, i, e in rows] == \
            [(path, v, exclusive[name, path]) for path, v in want]
