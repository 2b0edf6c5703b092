"""The generator's one-sided fence epochs (`rma_every`, cpp/gen/generator.h) against its
ground truth: the wait-state analysis finds the injected fence waits (Wait at Fence, and
Wait at Create/Free of the window) exactly on ALOG and OTF2, the other injected waits are
still found with the epochs on, and the OTF2 records are those Score-P writes, read back
with the official OTF2 reader."""
import pytest

import earl
from gen_truth_checks import generated  # noqa: F401 (the fixture of test_analysis' tests)
from gen_truth_checks import FRAME_REGIONS, callpath, STANDARD_CASES, approx, check_profile, generate_and_analyze, needs_otf2
from script_checks import have_otf2
from test_analysis import (MPI_REGIONS, test_collective_waits_are_the_injected_imbalance,  # noqa: F401
                           test_late_senders_are_the_injected_ones)


RMA = dict(rma_every=2, rma_puts=2, fence_imbalance_rate=0.4, fence_imbalance_us=300)

CASES = STANDARD_CASES


@pytest.fixture(scope="module", params=CASES)
def generated_run(request, tmp_path_factory):
    return generate_and_analyze(request.param, tmp_path_factory, **RMA)


def per_location(report, waits_per_process):
    """{location: wait} of a list of per-process waits (the master threads, process *
    threads), positive ones only, and how many there are."""
    threads = len(report.locations) // len(waits_per_process)
    got = {p * threads: w for p, w in enumerate(waits_per_process) if w > 0}
    return got, len(got)


def test_fence_waits_are_the_injected_ones(generated):
    report, truth = generated
    rma = truth["rma"]
    assert rma["fences"] == 2 * (truth["rounds"] // RMA["rma_every"]) > 0
    assert len(rma["fence_waits"]) == rma["fences"] and not truth["truncated"]["fence_waits"]
    assert truth["injected"]["fence_imbalanced"] > 0
    expected, count = {}, 0
    for instance in rma["fence_waits"]:
        assert instance["region"] == "MPI_Win_fence"
        got, n = per_location(report, instance["waits"])
        count += n
        for loc, wait in got.items():
            expected[loc] = expected.get(loc, 0.0) + wait
    assert report.total("mpi_rma_wait_at_fence") == approx(rma["fence_wait_total"])
    assert rma["fence_wait_total"] > 0
    assert report.instances("mpi_rma_wait_at_fence") == count
    got = report.by_location("mpi_rma_wait_at_fence")
    assert got.keys() == expected.keys()
    for loc, wait in expected.items():
        assert got[loc] == approx(wait)
    assert set(report.by_callpath("mpi_rma_wait_at_fence")) == {callpath(truth, "main/step/MPI_Win_fence")}


def test_closing_fence_waits_come_from_the_injected_imbalance(generated, tmp_path):
    """Without the injection the closing fence waits only for the jitter of the puts and
    the work (a few tens of microseconds at most); with it (300 us mean) for far longer."""
    from earl.generate import generate
    report, truth = generated
    closing = [max(i["waits"]) for i in truth["rma"]["fence_waits"][1::2]]
    assert max(closing) > 100e-6
    options = {k: v for k, v in truth["options"].items()}
    options.update(fence_imbalance_rate=0.0, truth_limit=10**6)
    balanced = generate(tmp_path / "balanced.alog", locations=truth["locations"], events=8000,
                        seed=truth["seed"], **options)
    assert max(max(i["waits"]) for i in balanced["rma"]["fence_waits"][1::2]) < 50e-6


@pytest.mark.parametrize("metric,key,region", [
    ("mpi_rma_wait_at_create", "create_waits", "MPI_Win_create"),
    ("mpi_rma_wait_at_free", "free_waits", "MPI_Win_free"),
])
def test_window_create_and_free_waits(generated, metric, key, region):
    report, truth = generated
    expected, count = per_location(report, truth["rma"][key])
    assert len(truth["rma"][key]) == len(report.locations) // truth.get("threads", 1)
    got = report.by_location(metric)
    assert got.keys() == expected.keys()
    for loc, wait in expected.items():
        assert got[loc] == approx(wait)
    assert report.instances(metric) == count
    if count:
        assert set(report.by_callpath(metric)) == {callpath(truth, "main/" + region)}


RMA_REGIONS = dict(MPI_REGIONS, **FRAME_REGIONS, MPI_Win_fence="mpi_rma_synchronization",
                   MPI_Put="mpi_rma_communication", MPI_Win_create="mpi_mgmt_win",
                   MPI_Win_free="mpi_mgmt_win")


def test_profile_is_the_region_time_of_the_truth(generated):
    check_profile(*generated, RMA_REGIONS)


def test_event_counts_per_format(tmp_path):
    """ALOG holds the truth's events; OTF2 adds per put its RmaPut and completion, per
    window call RmaCollectiveBegin/End, RmaWinCreate/RmaWinDestroy once per process, and
    per process ProgramBegin/ProgramEnd. Its truth adds what only OTF2 holds: the program
    root and the collectives' counts."""
    from earl.generate import generate
    truth = generate(tmp_path / "c.alog", locations=3, events=3000, seed=4, **RMA)
    assert len(earl.EventTrace(str(tmp_path / "c.alog"))) == truth["events"]
    if not have_otf2():
        return
    otf2_truth = generate(tmp_path / "c.otf2", locations=3, events=3000, seed=4, **RMA)
    otf2_only = ("format", "program_root", "message_counts")
    assert {k: v for k, v in otf2_truth.items() if k not in otf2_only} == \
        {k: v for k, v in truth.items() if k not in otf2_only}
    n, rma = truth["locations"], truth["rma"]
    assert len(earl.EventTrace(str(tmp_path / "c.otf2"))) == \
        truth["events"] + 2 * rma["puts"] + 2 * n * (rma["fences"] + 2) + 2 * n + 2 * n


# ----------------------------------------------------------------- OTF2, as Score-P writes it
@needs_otf2
@pytest.mark.parametrize("extra", [dict(), dict(permute_ranks=True, threads=2, seed=5)],
                         ids=["plain", "permuted-threads"])
def test_otf2_records_read_back_with_the_official_reader(tmp_path, extra):
    otf2 = pytest.importorskip("otf2")
    from otf2.enums import CollectiveOp, RmaSyncLevel
    from earl.generate import generate
    path = tmp_path / "rma.otf2"
    truth = generate(path, locations=3, events=3000, **RMA, **extra)
    n = truth["locations"]
    rank_process = truth.get("rank_process", list(range(n)))
    rank_of = {p: r for r, p in enumerate(rank_process)}
    expected_op = {"MPI_Win_create": CollectiveOp.CREATE_HANDLE, "MPI_Win_fence": CollectiveOp.BARRIER,
                   "MPI_Win_free": CollectiveOp.DESTROY_HANDLE}
    sync_level = {"MPI_Win_fence": RmaSyncLevel.PROCESS | RmaSyncLevel.MEMORY}
    with otf2.reader.open(str(path)) as reader:
        wins = list(reader.definitions.rma_wins)
        assert len(wins) == 1 and wins[0].comm.name == "MPI_COMM_WORLD"
        win = wins[0]
        streams = {}
        for location, event in reader.events:
            streams.setdefault(location, []).append(event)
    puts = put_bytes = 0
    calls = {name: 0 for name in list(expected_op) + ["MPI_Put"]}
    for location, events in streams.items():
        names = [type(e).__name__ for e in events]
        if location.name != "Master thread":
            assert not any(name.startswith("Rma") for name in names)
            continue
        process = rank_process[int(location.group.name.split()[-1])]
        right_rank = rank_of[(process + 1) % n]
        for i, event in enumerate(events):
            if type(event).__name__ != "Enter" or event.region.name not in calls:
                continue
            region = event.region.name
            calls[region] += 1
            if region == "MPI_Put":
                put, done, leave = events[i + 1:i + 4]
                assert [type(e).__name__ for e in (put, done, leave)] == \
                    ["RmaPut", "RmaOpCompleteBlocking", "Leave"]
                assert put.win == win and done.win == win and put.matching_id == done.matching_id
                assert put.remote == right_rank
                assert event.time <= put.time <= done.time <= leave.time
                puts += 1
                put_bytes += put.bytes
                continue
            inner = {"MPI_Win_create": ["RmaWinCreate"], "MPI_Win_free": ["RmaWinDestroy"]}.get(region, [])
            seq = events[i + 1:i + 4 + len(inner)]
            assert [type(e).__name__ for e in seq] == \
                ["RmaCollectiveBegin"] + inner + ["RmaCollectiveEnd", "Leave"]
            end = seq[-2]
            assert end.collective_op == expected_op[region] and end.win == win
            assert end.sync_level == sync_level.get(region, RmaSyncLevel.PROCESS)
            assert end.root == 2 ** 32 - 1 and end.bytes_sent == end.bytes_received == 0
            assert seq[-1].region == event.region
    assert calls == {"MPI_Win_create": n, "MPI_Win_free": n,
                     "MPI_Win_fence": n * truth["rma"]["fences"], "MPI_Put": truth["rma"]["puts"]}
    assert puts == truth["rma"]["puts"] == n * RMA["rma_puts"] * (truth["rounds"] // RMA["rma_every"]) > 0
    assert put_bytes == truth["rma"]["put_bytes"]


# ----------------------------------------------------------------- off by default
def test_epoch_options_change_nothing_without_rma_every(tmp_path):
    from earl.generate import generate
    plain = generate(tmp_path / "a.alog", events=3000, seed=2)
    tuned = generate(tmp_path / "b.alog", events=3000, seed=2, rma_every=0, rma_puts=5,
                     fence_imbalance_rate=0.9, fence_imbalance_us=50)
    assert (tmp_path / "a.alog").read_bytes() == (tmp_path / "b.alog").read_bytes()
    assert "rma" not in plain and "rma" not in tuned
    assert "fence_waits" not in plain["truncated"]


def test_command_line_names_the_epochs(tmp_path, capsys):
    import json
    from earl.cli import main as earl_main
    out = tmp_path / "cli.alog"
    assert earl_main(["gen", str(out), "-e", "3000", "--rma-every", "2", "--rma-puts", "3",
                      "--lock-every", "3"]) == 0
    truth = json.load(open(str(out) + ".truth.json"))
    rma = truth["rma"]
    assert truth["options"]["rma_every"] == 2 and truth["options"]["lock_every"] == 3
    assert rma["puts"] == 4 * (3 * (truth["rounds"] // 2) + truth["rounds"] // 3)
    assert ("one-sided: %d fences (%.6f s waited), %d puts, %d lock epochs (%d waited %.6f s)"
            % (rma["fences"], rma["fence_wait_total"], rma["puts"], rma["locks"],
               rma["lock_wait_count"], rma["lock_wait_total"])) in capsys.readouterr().out


def test_truth_limit_keeps_totals_and_marks_truncated_lists(tmp_path):
    from earl.generate import generate
    options = dict(events=4000, seed=8, rma_every=1, lock_every=1)
    full = generate(tmp_path / "full.alog", **options)
    short = generate(tmp_path / "short.alog", truth_limit=3, **options)
    for key, count in (("fence_waits", "fences"), ("lock_waits", "lock_wait_count")):
        assert len(full["rma"][key]) == full["rma"][count] > 3 and not full["truncated"][key]
        assert short["rma"][key] == full["rma"][key][:3] and short["truncated"][key]
    for key in ("fences", "fence_wait_total", "locks", "lock_wait_count", "lock_wait_total", "puts",
                "create_waits", "free_waits"):
        assert short["rma"][key] == full["rma"][key]
