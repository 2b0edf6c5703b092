"""The hand-worked analysis cases of tests/analysis_cases/ (README there): each CASE.trace is
built into a trace, and every engine that computes the case's metrics must give the values
of CASE.expected.toml, which were worked out by hand (the working is in its comments):

- `engine`: the native engine through earl.analyze;
- `json`: `earl analyze --json`, as a user runs it;
- `python_scripts`, `lua_scripts`: the reference scripts of scripts/patterns (the readable
  specification), for the wait-state patterns only, less those a case's [scripts] table
  says they do not cover, with its reason."""
import tomllib

import pytest

import analysis_results
from case_trace import CASES, build_case, case_names, parse
from script_checks import have_otf2

US = 1e-6
VIEWS = ("engine", "json", "python_scripts", "lua_scripts")
RESERVED = {"problems", "traffic", "worst", "scripts"}


def expected_of(name):
    with open(CASES / f"{name}.expected.toml", "rb") as f:
        return tomllib.load(f)


def case_params():
    return list(each_case_and_view())


def each_case_and_view():
    for name in case_names():
        needs = parse(CASES / f"{name}.trace").format == "otf2" and not have_otf2()
        for view in VIEWS:
            yield pytest.param(name, view, id=f"{name}-{view}",
                               marks=pytest.mark.skipif(needs, reason="no OTF2 support"))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Each case's trace, built once for all views."""
    folder, paths = tmp_path_factory.mktemp("cases"), {}

    def get(name):
        if name not in paths:
            paths[name] = build_case(name, folder)
        return paths[name]
    return get


def view_of(kind, path, capsys):
    if kind == "lua_scripts":
        pytest.importorskip("lupa")
        return analysis_results.lua_scripts_view(path, capsys)
    return getattr(analysis_results, f"{kind}_view")(path)


def scaled(value, unit):
    """An expected value in the case file's units (microseconds for seconds) in the
    report's."""
    return value * US if unit == "sec" else value


def approx_map(expected, unit, key=lambda k: k):
    return {key(k): pytest.approx(scaled(v, unit), abs=1e-8) for k, v in expected.items()}


@pytest.mark.parametrize("name, kind", case_params())
def test_case(name, kind, built, capsys):
    expected = expected_of(name)
    units = metric_units()
    unknown = set(expected) - RESERVED - set(units)
    assert not unknown, f"{name}.expected.toml: no metric {sorted(unknown)}"
    view = view_of(kind, built(name), capsys)
    skipped = expected.get("scripts", {}).get("not_covered", {})
    checked = 0
    for metric, want in expected.items():
        if metric in RESERVED or (view.patterns_only and (not want_pattern(metric) or metric in skipped)):
            continue
        got, unit, checked = view.metric(metric), units[metric], checked + 1
        if "total" in want:
            assert got["total"] == pytest.approx(scaled(want["total"], unit), abs=1e-8), metric
        if "instances" in want:
            assert got["instances"] == want["instances"], metric
        if "by_location" in want:
            assert got["by_location"] == approx_map(want["by_location"], unit, int), metric
        if "by_callpath" in want:
            assert got["by_callpath"] == approx_map(want["by_callpath"], unit), metric
        if "parent" in want:
            check_part_of_parent(view, metric, want["parent"])
    assert checked, f"{name}: nothing for {kind} to check"
    if view.problems is not None and "problems" in expected:
        # the listed problems as counted, every other kind none
        assert {k: v for k, v in view.problems.items() if v} == expected["problems"]
    if view.traffic is not None and "traffic" in expected:
        assert view.traffic == [tuple(t) for t in expected["traffic"]]
    if view.worst is not None and "worst" in expected:
        check_worst(view.worst, expected["worst"])


def want_pattern(metric):
    return metric_info()[metric]["pattern"]


def metric_info():
    from earl import _core
    return {m["id"]: m for m in _core.analysis_metrics()}


def metric_units():
    return {m: info["unit"] for m, info in metric_info().items()}


def check_part_of_parent(view, metric, parent):
    """The metric's parent is `parent`, and the metric's time is part of its parent's,
    cell by cell, where the view holds both."""
    if view.parents:
        assert view.parents[metric] == parent
    cells, parent_cells = view.metric(metric)["cells"], view.metrics.get(parent, {}).get("cells")
    if cells is None or parent_cells is None:
        return
    assert cells
    for key, v in cells.items():
        assert v <= parent_cells[key] + 1e-12, (metric, key)


def check_worst(got, groups):
    """`groups`: the worst instances longest first, each group of equal lengths in any
    order; an instance is [metric, location, begin us, idle us, call path]."""
    rounded = [(m, loc, round(begin / US), round(idle / US), cp) for m, loc, begin, idle, cp in got]
    at = 0
    for group in groups:
        assert sorted(rounded[at:at + len(group)]) == sorted(tuple(w) for w in group)
        at += len(group)
    assert at == len(rounded)


@pytest.mark.parametrize("line, message", [
    ("0 10 enter", "enter takes region, not 0 fields"),
    ("0 10 mpi_sned 1 world 1 8", "no OTF2 event record 'mpi_sned'"),
    ("0 10 mpi_send 1 nowhere 1 8", "no comm named 'nowhere'"),
    ("0 10 rma_request_lock w 1 0 OPEN", "lockType: no LockType 'OPEN'"),
    ("0 10 mpi_send one world 1 8", "receiver must be a number or 'undefined', not 'one'"),
    ("5 10 enter main", "location 5, but the case has 2 ranks"),
    ("ranks two", "cannot read 'ranks two' (format, ranks, comm, group, window or an event)"),
])
def test_a_bad_case_file_names_its_line(tmp_path, line, message):
    if not have_otf2():
        pytest.skip("no OTF2 support")
    from case_trace import CaseError, build_trace
    case = tmp_path / "bad.trace"
    case.write_text(f"format otf2\nranks 2\ncomm world 0 1\nwindow w world\n{line}\n")
    with pytest.raises(CaseError) as caught:
        build_trace(case, tmp_path)
    assert str(caught.value) == f"bad.trace line 5: {message}"
