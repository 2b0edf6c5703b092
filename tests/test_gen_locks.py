"""The generator's passive-target lock epochs (`lock_every`, cpp/gen/generator.h) against
its ground truth: on OTF2 the analysis finds exactly the lock competition the generator
computed by Scalasca's rule, a second computation from the lock records (official OTF2
reader) agrees, and the locks are exclusive; ALOG, without lock records, shows the calls'
time but no competition. The other injected waits are still found with the epochs on."""
from collections import defaultdict

import pytest

import earl
from gen_truth_checks import generated  # noqa: F401 (the fixture of test_analysis' tests)
from gen_truth_checks import (FRAME_REGIONS, callpath, STANDARD_CASES, approx, check_by_location, check_profile,
                              generate_and_analyze, needs_otf2, otf2_streams)
from test_analysis import (MPI_REGIONS, test_collective_waits_are_the_injected_imbalance,  # noqa: F401
                           test_late_senders_are_the_injected_ones)


LOCKS = dict(lock_every=2, lock_hold_rate=0.4, lock_hold_us=200)

CASES = [
    *STANDARD_CASES,
    pytest.param(("otf2", dict(rma_every=3, pattern="neighbors")), id="otf2-with-fences",
                 marks=needs_otf2),
]


@pytest.fixture(scope="module", params=CASES)
def generated_run(request, tmp_path_factory):
    return generate_and_analyze(request.param, tmp_path_factory, **LOCKS)


def test_lock_competition_is_the_truth(generated_run):
    path, report, truth = generated_run
    rma = truth["rma"]
    processes = truth["locations"]
    assert rma["locks"] == processes * (truth["rounds"] // LOCKS["lock_every"]) > 0
    assert truth["injected"]["locks_held_longer"] > 0
    assert rma["lock_wait_count"] == len(rma["lock_waits"]) > 0 and not truth["truncated"]["lock_waits"]
    metric = "mpi_rma_sync_lock_competition"
    if path.suffix == ".alog":  # no lock records: nothing to judge
        assert report.total(metric) == 0 and report.instances(metric) == 0
        return
    expected = defaultdict(float)
    for w in rma["lock_waits"]:
        expected[w["loc"]] += w["wait"]
        assert w["requested"] < w["acquired"] and w["wait"] > 0
    assert report.total(metric) == approx(rma["lock_wait_total"])
    assert report.instances(metric) == rma["lock_wait_count"]
    got = report.by_location(metric)
    assert got.keys() == expected.keys()
    for loc, wait in expected.items():
        assert got[loc] == approx(wait)
    assert set(report.by_callpath(metric)) == {callpath(truth, "main/step/MPI_Win_lock")}


LOCK_REGIONS = dict(MPI_REGIONS, **FRAME_REGIONS, MPI_Win_lock="mpi_rma_synchronization",
                    MPI_Win_unlock="mpi_rma_synchronization", MPI_Win_fence="mpi_rma_synchronization",
                    MPI_Put="mpi_rma_communication", MPI_Win_create="mpi_mgmt_win",
                    MPI_Win_free="mpi_mgmt_win")


def test_profile_is_the_region_time_of_the_truth(generated):
    check_profile(*generated, LOCK_REGIONS)


# ----------------------------------------------------------------- a second computation
def lock_epochs_from_otf2(anchor):
    """Per (window, target rank): the epochs (requested = enter of the call holding the
    RmaAcquireLock, acquired, released, location index, lock type) from the records."""
    locations, streams, seconds = otf2_streams(anchor)

    epochs = defaultdict(list)
    for location, events in streams.items():
        stack, held = [], {}
        for e in events:
            kind = type(e).__name__
            if kind == "Enter":
                stack.append((e.region.name, e.time))
            elif kind == "Leave":
                stack.pop()
            elif kind == "RmaRequestLock":
                assert stack[-1][0] == "MPI_Win_lock"
            elif kind == "RmaAcquireLock":
                assert stack[-1][0] == "MPI_Win_lock"
                held[(e.win, e.remote)] = (seconds(stack[-1][1]), seconds(e.time), e.lock_type)
            elif kind == "RmaReleaseLock":
                assert stack[-1][0] == "MPI_Win_unlock"
                requested, acquired, lock_type = held.pop((e.win, e.remote))
                epochs[(e.win, e.remote)].append(
                    (acquired, requested, seconds(e.time), locations.index(location), lock_type))
        assert not held
    return epochs


@needs_otf2
def test_a_second_computation_from_the_lock_records_agrees(generated_run):
    """Scalasca's Lock Competition: an exclusive acquisition waited from its call's enter
    until the latest release of the epochs acquired before it, at most until it acquired."""
    path, report, truth = generated_run
    if path.suffix != ".otf2":
        pytest.skip("the lock records are OTF2's")
    from otf2.enums import LockType
    totals, count = defaultdict(float), 0
    for epochs in lock_epochs_from_otf2(path).values():
        epochs.sort()
        latest_release = None
        for acquired, requested, released, loc, lock_type in epochs:
            assert lock_type == LockType.EXCLUSIVE
            # Exclusive: each epoch begins after the one before it released.
            assert latest_release is None or acquired > latest_release
            if latest_release is not None and min(latest_release, acquired) - requested > 0:
                totals[loc] += min(latest_release, acquired) - requested
                count += 1
            latest_release = released if latest_release is None else max(latest_release, released)
    assert count == truth["rma"]["lock_wait_count"] > 0
    check_by_location(report, "mpi_rma_sync_lock_competition", totals)


def test_lock_options_change_nothing_without_lock_every(tmp_path):
    from earl.generate import generate
    plain = generate(tmp_path / "a.alog", events=3000, seed=2)
    tuned = generate(tmp_path / "b.alog", events=3000, seed=2, lock_every=0, lock_hold_rate=0.9,
                     lock_hold_us=50)
    assert (tmp_path / "a.alog").read_bytes() == (tmp_path / "b.alog").read_bytes()
    assert "rma" not in plain and "rma" not in tuned
