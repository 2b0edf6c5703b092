"""The declared analysis result (earl.analysis.report_schema): what both engines write
conforms to it exactly, the JSON output reads back into the same Report, and a result
that does not conform is refused with a message naming the key."""
import json
import subprocess
import sys

import pytest

import earl
from earl import _core
from earl.analysis import Report
from earl.analysis.report_schema import EngineResult, ReportJson, conform, engine_result
from script_checks import SCOREP, have_otf2

needs_otf2 = pytest.mark.skipif(not have_otf2(), reason="no OTF2 support")
# Keys the native engine writes only where the trace's format describes regions and machine
# (OTF2); the reference scripts never write them.
DESCRIBED = {"region_details", "system_tree"}
RMA_AND_LOCKS = dict(rma_every=3, lock_every=4, fence_imbalance_rate=0.4, lock_hold_rate=0.5)


def traces():
    yield pytest.param(("alog", dict(late_sender_rate=0.3, imbalance_rate=0.3,
                                     out_of_order_rate=0.2, barrier_every=3)), id="gen-alog")
    yield pytest.param(("otf2", dict(threads=2, late_receiver_rate=0.3, collectives="bcast,scan",
                                     **RMA_AND_LOCKS)), id="gen-otf2", marks=needs_otf2)
    for name in ("ping-pong-otf2", "ping-pong-otf2-papi"):
        yield pytest.param(("scorep", name), id=name, marks=needs_otf2)


@pytest.fixture(scope="module", params=list(traces()))
def trace(request, tmp_path_factory):
    kind, detail = request.param
    if kind == "scorep":
        path = SCOREP / detail / "traces.otf2"
        if not path.exists():
            pytest.skip("no Score-P trace")
        return path
    from earl.generate import generate
    path = tmp_path_factory.mktemp("schema") / f"run.{kind}"
    generate(path, format=kind, locations=4, events=6000, seed=3, **detail)
    return path


def check_row(row, types):
    """A row of the binding's dict: a tuple of exactly these Python types (bool is not int)."""
    assert isinstance(row, tuple) and [type(v) for v in row] == list(types), row


def test_the_native_engine_writes_exactly_the_declared_keys_and_types(trace):
    raw = _core.analyze(str(trace), None, lambda f: None)
    # the binding writes every key but time_corrected, which earl.analyze adds, and the
    # descriptions only for OTF2
    described = DESCRIBED if raw["format"] == "otf2" else set()
    assert set(raw) | {"time_corrected"} == set(EngineResult.__annotations__) - DESCRIBED | described
    for key in ("file", "format"):
        assert type(raw[key]) is str
    for key in ("events", "messages", "collective_instances", "clock_jumps"):
        assert type(raw[key]) is int and raw[key] >= 0, key
    assert all(type(r) is str for r in raw["regions"] + raw["locations"])
    for row in raw["callpaths"]:
        check_row(row, (int, int))
        assert -1 <= row[0] < len(raw["callpaths"]) and 0 <= row[1] < len(raw["regions"])
    ids = [m["id"] for m in earl.analysis.metrics()]
    assert list(raw["values"]) == ids
    assert list(raw["instances"]) == [m["id"] for m in earl.analysis.metrics() if m["pattern"]]
    for cells in raw["values"].values():
        for cell in cells:
            check_row(cell, (int, int, float))
            assert 0 <= cell[1] < len(raw["locations"])
    assert all(type(n) is int for n in list(raw["instances"].values()) + list(raw["problems"].values()))
    for row in raw["traffic"]:
        check_row(row, (int, int, int, int))
    for row in raw["worst"]:
        check_row(row, (str, int, int, float, float))
        assert row[0] in ids and row[4] > 0
    # ... and the schema's own check agrees, turning rows into its named tuples
    checked = engine_result(dict(raw, time_corrected=False), "test")
    assert checked["callpaths"] == raw["callpaths"] and checked["worst"] == raw["worst"]
    if checked["worst"]:
        assert checked["worst"][0].idle == raw["worst"][0][4]


def test_the_reference_scripts_write_the_same_keys_and_call_tree(trace):
    native = earl.analyze(trace, progress=lambda f: None)
    scripts = earl.analyze(trace, progress=lambda f: None, engine="scripts")
    assert set(scripts.raw) == set(native.raw) - DESCRIBED == set(EngineResult.__annotations__) - DESCRIBED
    assert scripts.raw["collective_instances"] is None and scripts.raw["worst"] == []
    for key in ("file", "format", "events", "messages", "locations", "traffic"):
        assert scripts.raw[key] == native.raw[key], key
    # the scripts number call paths as they meet them: compare them by name
    for metric in scripts.patterns():
        assert {scripts.callpaths[cp] for cp, _, _ in scripts.cells(metric)} <= set(native.callpaths)


def test_the_json_output_reads_back_into_the_same_report(trace):
    done = subprocess.run([sys.executable, "-m", "earl.cli", "analyze", str(trace), "--json"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    saved = json.loads(done.stdout)
    assert set(saved) == set(ReportJson.__required_keys__)   # no clock_jumps: not corrected
    conform(saved, ReportJson, "json")
    back = Report.from_json(done.stdout)
    original = earl.analyze(trace, progress=lambda f: None)
    assert back.to_dict() == original.to_dict()
    assert json.loads(back.to_json()) == saved
    for metric in original.metrics:
        assert back.cells(metric) == original.cells(metric)
    assert back.worst_instances() == original.worst_instances()


@needs_otf2
def test_the_json_of_a_time_corrected_analysis_carries_its_clock_jumps(tmp_path):
    from earl.generate import generate
    path = tmp_path / "skewed.otf2"
    generate(path, locations=3, events=3000, seed=2, clock_offset=40, late_sender_rate=0.3)
    report = earl.analyze(path, progress=lambda f: None, time_correct=True)
    saved = json.loads(report.to_json())
    assert set(saved) == set(ReportJson.__annotations__)
    assert saved["clock_jumps"] == saved["engine_result"]["clock_jumps"] == report.clock_jumps
    assert Report.from_json(report.to_json()).clock_jumps == report.clock_jumps


@pytest.fixture(scope="module")
def small_raw(tmp_path_factory):
    """A native result in its JSON form (rows as lists)."""
    from earl.generate import generate
    path = tmp_path_factory.mktemp("small") / "s.alog"
    generate(path, locations=3, events=2000, seed=5, late_sender_rate=0.4)
    return json.loads(json.dumps(earl.analyze(path, progress=lambda f: None).raw))


def test_a_result_that_does_not_conform_is_refused_naming_the_key(small_raw):
    good = small_raw
    Report(good)                       # the JSON form (lists for rows) is accepted
    cell_path = "x.values['mpi_latesender'][0]"
    cases = [
        (lambda r: r.pop("worst"), "x: missing worst"),
        (lambda r: r.update(extra=1), "x: unknown extra"),
        (lambda r: r.update(events="many"), "x.events: expected int, got str 'many'"),
        (lambda r: r.update(events=True), "x.events: expected int, got bool True"),
        (lambda r: r["values"]["mpi_latesender"][0].__setitem__(2, "1"),
         f"{cell_path}.value: expected float, got str '1'"),
        (lambda r: r["values"]["mpi_latesender"][0].append(1.0),
         f"{cell_path}: expected Cell, got list"),
        (lambda r: r["values"].pop("mpi_latesender"), "x: values must hold exactly"),
        (lambda r: r.update(collective_instances=None), None),   # declared Optional
    ]
    for change, message in cases:
        raw = json.loads(json.dumps(good))
        change(raw)
        if message is None:
            Report(raw, origin="x")
            continue
        with pytest.raises(earl.EarlError) as caught:
            Report(raw, origin="x")
        assert str(caught.value).startswith(message), str(caught.value)
        assert "\n" not in str(caught.value)


def test_a_json_file_that_is_not_a_report_is_refused_in_one_line():
    for text, message in (("{", "saved.json: not JSON"),
                          ('{"patterns": {}}', "saved.json: no engine_result"),
                          ('{"engine_result": {"file": 3}}',
                           "saved.json: engine_result: missing format")):
        with pytest.raises(earl.EarlError) as caught:
            Report.from_json(text, origin="saved.json")
        assert str(caught.value).startswith(message), str(caught.value)
