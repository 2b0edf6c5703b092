"""earl merge against the unsplit trace: a generated trace split into one ALOG file per
process (one piece's clock shifted), merged back, equals the original; the offset estimate
brackets the shift; OTF2 archives of separate runs merge with renumbered locations."""
import pytest

import earl
from earl import _core
from earl.generate import generate
from alog_split import SHIFT_US, split_alog


def records(path):
    t = earl.EventTrace(path)
    out = []
    while t.next():
        ev = t.event()
        row = (round(ev["time"] * 1e6), ev["loc"], ev["type"])
        if ev["type"] in ("enter", "exit"):
            row += (ev["region"],)
        elif ev["type"] in ("send", "recv"):
            row += (ev["dest"] if ev["type"] == "send" else ev["src"], ev["tag"], ev["len"])
        out.append(row)
    return out


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    folder = tmp_path_factory.mktemp("split")
    trace = folder / "run.alog"
    truth = generate(str(trace), locations=4, events=4000, seed=3)
    return folder, str(trace), truth


def test_split_shifted_and_merged_back_is_the_original(generated, tmp_path):
    folder, trace, truth = generated
    pieces = split_alog(trace, tmp_path)
    assert len(pieces) == 4
    out = str(tmp_path / "merged.alog")
    summary = earl.merge(out, pieces, offsets=[None, -SHIFT_US * 1e-6, None, None])
    assert summary["locations_kept"]
    assert records(out) == records(trace)
    report = earl.analyze(out, progress=lambda f: True)
    original = earl.analyze(trace, progress=lambda f: True)
    assert truth["late_sender_wait_total"] > 0
    assert report.total("mpi_latesender") == pytest.approx(truth["late_sender_wait_total"], abs=1e-6)
    assert report.by_location("mpi_latesender") == pytest.approx(original.by_location("mpi_latesender"))


def test_estimated_offset_brackets_the_shift_and_bounds_the_late_sender_error(tmp_path):
    trace = tmp_path / "two.alog"
    truth = generate(str(trace), locations=2, events=3000, seed=11)
    pieces = split_alog(str(trace), tmp_path)
    out = str(tmp_path / "merged.alog")
    summary = earl.merge(out, pieces, estimate=True)
    est = summary["inputs"][1]
    assert est["how"] == "estimated" and est["messages"] > 0
    assert est["low"] <= -SHIFT_US * 1e-6 <= est["high"]
    error = abs(est["offset"] + SHIFT_US * 1e-6)
    assert error <= (est["high"] - est["low"]) / 2 + 1e-9
    # Each late-sender wait moves by at most the offset's error (the estimate is rounded
    # to a microsecond when applied).
    merged = earl.analyze(out, progress=lambda f: True)
    original = earl.analyze(str(trace), progress=lambda f: True)
    assert original.total("mpi_latesender") == pytest.approx(truth["late_sender_wait_total"], abs=1e-6)
    waits = max(merged.instances("mpi_latesender"), original.instances("mpi_latesender"))
    assert abs(merged.total("mpi_latesender") - original.total("mpi_latesender")) <= waits * (error + 1e-6)


def test_otf2_runs_of_a_client_and_a_server_merge_renumbered(tmp_path):
    if "otf2" not in _core.generator_formats():
        pytest.skip("this build writes no OTF2")
    client, server = str(tmp_path / "client.otf2"), str(tmp_path / "server.otf2")
    generate(client, locations=2, events=1500, seed=1)
    generate(server, locations=3, events=1500, seed=2)
    out = str(tmp_path / "cs.otf2")
    summary = earl.merge(out, [client, server], offsets={server: 0.25})
    assert not summary["locations_kept"]            # both have locations 0 and 1
    assert summary["locations"] == 5
    assert [i["first_location"] for i in summary["inputs"]] == [0, 2]
    merged = records(out)
    assert [r[0] for r in merged] == sorted(r[0] for r in merged)
    # Each location's events are its input's, renumbered and shifted.
    def per_location(rows, first=0, shift=0):
        """{location: its rows}, locations and message peers + first, times + shift."""
        out = {}
        for time, loc, kind, *rest in rows:
            if kind in ("send", "recv"):
                rest[0] += first
            out.setdefault(loc + first, []).append((time + shift, loc + first, kind, *rest))
        return out
    # What the writers have no record for (OTF2's program records) is dropped, counted.
    kept = lambda rows: [r for r in rows if r[2] not in summary["dropped"]]
    expected = per_location(kept(records(client)))
    expected.update(per_location(kept(records(server)), first=2, shift=250000))
    assert per_location(merged) == expected
    report = earl.analyze(out, progress=lambda f: True)
    sums = [earl.analyze(p, progress=lambda f: True).raw["messages"] for p in (client, server)]
    assert report.raw["messages"] == sum(sums)


@pytest.mark.parametrize("fmt", _core.generator_formats())
def test_every_writable_format_merges_and_reads_back(tmp_path, fmt):
    """Two runs written in `fmt`, merged into `fmt`: the merged trace holds every event the
    format's writer takes (the summary's dropped and refused, counted, are the rest)."""
    suffix = {"otf2": ".otf2", "alog": ".alog"}.get(fmt, "." + fmt)
    inputs = []
    for seed in (1, 2):
        path = str(tmp_path / f"run{seed}{suffix}")
        generate(path, locations=2, events=600, seed=seed, format=fmt)
        inputs.append(path)
    out = str(tmp_path / f"merged{suffix}")
    summary = earl.merge(out, inputs, format=fmt)
    assert summary["output_format"] == fmt and summary["locations"] == 4
    left_out = sum(summary["dropped"].values()) + sum(summary["refused"].values())
    assert summary["events_written"] + left_out == sum(i["events"] for i in summary["inputs"])
    merged = earl.EventTrace(out, format=fmt)
    kinds = ("enter", "exit", "send", "recv")
    count = lambda path: sum(1 for r in records(path) if r[2] in kinds)
    assert count(out) == sum(count(p) for p in inputs)
    assert merged.nrlocs() == 4


def test_every_estimated_interval_holds_its_pieces_true_offset(generated, tmp_path):
    """Four pieces, piece 1 shifted: each interval (what the messages allow) holds the
    offset that undoes the shift, and the estimates keep every message's order."""
    folder, trace, truth = generated
    pieces = split_alog(trace, tmp_path)
    out = str(tmp_path / "merged.alog")
    summary = earl.merge(out, pieces, estimate=True)
    for k, info in enumerate(summary["inputs"][1:], start=1):
        true = -SHIFT_US * 1e-6 if k == 1 else 0.0
        assert info["how"] == "estimated" and info["low"] - 1e-9 <= true <= info["high"] + 1e-9, info
    problems = earl.EventTrace(out).problems()
    assert problems["clock_condition"]["count"] == 0
    assert problems["unmatched_recv"] == earl.EventTrace(trace).problems()["unmatched_recv"]


def test_the_generators_skewed_clocks_are_recovered_within_the_interval(tmp_path):
    """`earl gen --clock-offset`: each process records with its own offset (the ground
    truth's clocks); its file alone, merged with the others, gets the offset that undoes
    it relative to process 0, inside the interval the messages allow."""
    trace = tmp_path / "skewed.alog"
    truth = generate(str(trace), locations=3, events=3000, seed=5, clock_offset=0.01)
    clocks = [c["offset"] for c in truth["clocks"]]
    assert len(set(clocks)) == 3
    pieces = split_alog(str(trace), tmp_path, shift_us=0)
    summary = earl.merge(str(tmp_path / "merged.alog"), pieces, estimate=True)
    for k, info in enumerate(summary["inputs"][1:], start=1):
        undo = clocks[0] - clocks[k]  # global = local + offset, on process 0's clock
        assert info["low"] - 1e-9 <= undo <= info["high"] + 1e-9, (k, info, clocks)
        assert abs(info["offset"] - undo) <= (info["high"] - info["low"]) / 2 + 1e-6
