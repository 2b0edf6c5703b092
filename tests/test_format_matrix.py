"""Round trips between every pair of formats this build writes (issue 23, part 5): each of
the generator's shapes is written in format A by `earl gen`, converted to format B by `earl
convert`, and both are read back by EARL. Where the two models agree the events are the same:
every enter and exit (location, time, region) and every send and receive (location, time,
peer, tag, bytes), in the same order, and converting back to A gives A's events again.
What B cannot hold is left out and reported by the conversion, never silently changed.

The formats' shared model is stated by the tests (shared_model.py), independently of the writers: all
of them hold regions and point-to-point messages with a microsecond clock."""
import itertools

import pytest

import earl
from earl import _core
from earl.convert import convert
from earl.generate import generate
from shared_model import shared_rows, without_added_frames

WRITABLE = _core.generator_formats()

# Generator shapes: one per group of options, small enough that the matrix stays quick.
SHAPES = {
    "plain": dict(locations=4, events=3000),
    "neighbors_late": dict(locations=6, events=3000, pattern="neighbors", late_sender_rate=0.3,
                           late_receiver_rate=0.2, out_of_order_rate=0.2),
    "collectives": dict(locations=5, events=3000, barrier_every=3, imbalance_rate=0.3),
    "nonblocking": dict(locations=4, events=3000, nonblocking=True, in_flight=8),
    "threads": dict(locations=3, threads=2, events=3000, permute_ranks=True),
    "rma": dict(locations=4, events=3000, rma_every=2, lock_every=3),
    "deep_tags": dict(locations=3, events=3000, depth=12, tag_per_message=True),
    "skewed": dict(locations=3, events=3000, clock_offset=0.002, clock_drift=1e-5),
}

# Shapes whose receives may be recorded before their sends.
SKEWED = {"skewed"}


def shared_events(path, receive_lengths=True):
    """The events of the trace at `path` that every format holds (shared_model.shared_rows)."""
    with earl.EventTrace(str(path)) as trace:
        return shared_rows(trace, receive_lengths)


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    root = tmp_path_factory.mktemp("matrix")
    made = {}
    for fmt, (shape, options) in itertools.product(WRITABLE, SHAPES.items()):
        path = root / f"{shape}.{fmt}"
        generate(str(path), format=fmt, seed=11, **options)
        made[fmt, shape] = path
    return made


@pytest.mark.parametrize("shape", list(SHAPES))
def test_every_format_writes_the_same_program(generated, shape):
    """`earl gen -f A` and `-f B` write one program: the same shared events."""
    first = WRITABLE[0]
    lengths = shape not in SKEWED
    expected = shared_events(generated[first, shape], lengths)
    assert len(expected) > 1000
    for fmt in WRITABLE[1:]:
        got = shared_events(generated[fmt, shape], lengths)
        assert without_added_frames(got, expected) == without_added_frames(expected, got), (fmt, shape)


@pytest.mark.parametrize("source,target", list(itertools.product(WRITABLE, WRITABLE)))
def test_round_trip_keeps_the_shared_model(generated, tmp_path, source, target):
    for shape in SHAPES:
        original = generated[source, shape]
        middle = tmp_path / f"{shape}.mid.{target}"
        summary = convert(original, middle, target)
        assert summary["output_format"] == target
        # every event read is written (added frames are counted apart), or left out and
        # counted by type or reason
        assert summary["events_written"] == summary["events_read"] - sum(summary["dropped"].values()) \
            - sum(summary["refused"].values()), summary
        lengths = shape not in SKEWED
        before = shared_events(original, lengths)
        after = shared_events(middle, lengths)
        assert without_added_frames(after, before) == before, (source, target, shape)
        back = tmp_path / f"{shape}.back.{source}"
        convert(middle, back, source)
        assert without_added_frames(shared_events(back, lengths), before) == before, (source, target, shape)
