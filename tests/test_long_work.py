"""Long work: progress reports, Ctrl-C stops cleanly and leaves the trace usable."""
import subprocess
import sys
import textwrap
import threading

import pytest

import earl

LOCATIONS = 4


def write_ring_trace(path, rounds):
    """A regular trace: per round and location an enter/exit of `work` and a message."""
    lines = [f"-3 0 0 {LOCATIONS} 0 0", "-13 0 1 2 0 0 c:p main", "-13 0 3 4 0 0 c:p work"]
    lines += [f"1 {loc} 0 0 0 {loc}" for loc in range(LOCATIONS)]
    t = 10
    for _ in range(rounds):
        for loc in range(LOCATIONS):
            lines.append(f"3 {loc} 0 0 0 {t}")
            lines.append(f"-101 {loc} 0 {(loc + 1) % LOCATIONS} 0 {t + 1} 7 8")
            lines.append(f"4 {loc} 0 0 0 {t + 2}")
        for loc in range(LOCATIONS):
            lines.append(f"-102 {loc} 0 {(loc - 1) % LOCATIONS} 0 {t + 3} 7 8")
        t += 5
    lines += [f"2 {loc} 0 0 0 {t + loc}" for loc in range(LOCATIONS)]
    path.write_text("\n".join(lines) + "\n")
    return 2 * LOCATIONS + rounds * 4 * LOCATIONS


@pytest.fixture(scope="module")
def big_trace(tmp_path_factory):
    path = tmp_path_factory.mktemp("long") / "ring.alog"
    events = write_ring_trace(path, 60000)  # 960,008 events
    return path, events


def test_opening_reports_progress_up_to_one(big_trace):
    path, events = big_trace
    seen = []
    trace = earl.EventTrace(path, progress=seen.append)
    assert len(trace) == events
    assert len(seen) >= 5, "a ~1 M event scan reports progress several times"
    assert seen == sorted(seen)
    assert seen[-1] == 1.0
    assert all(0.0 <= f <= 1.0 for f in seen)


def test_far_jump_reports_progress(big_trace):
    path, events = big_trace
    trace = earl.EventTrace(path, bdist=0, progress=lambda f: None)
    seen = []
    trace.progress = seen.append
    assert trace.event(events - 100_000)["pos"] == events - 100_000
    assert seen and seen[-1] == 1.0


class Stop(Exception):
    """A user's own exception, raised by a progress callback."""


def far_work(trace, events):
    """Every call that may decode far ahead with the GIL released, by name."""
    return {
        "event": lambda: trace.event(events // 2),
        "values": lambda: trace.values(events // 2 + 1),
        "stack": lambda: trace.stack(0, events // 2 + 2),
        "queue": lambda: trace.queue(-1, -1, events // 2 + 3),
        "to_numpy": lambda: trace.to_numpy(events // 2 + 4, events // 2 + 5),
    }


@pytest.mark.parametrize("call", ["event", "values", "stack", "queue", "to_numpy"])
def test_exception_of_a_progress_callback_reaches_the_caller_as_itself(big_trace, call):
    path, events = big_trace
    trace = earl.EventTrace(path, bdist=0, progress=lambda f: None)
    raised = Stop("stop at the first report")

    def stop(fraction):
        raise raised

    trace.progress = stop
    with pytest.raises(Stop) as caught:
        far_work(trace, events)[call]()
    assert caught.value is raised
    trace.progress = None
    assert trace.event(events // 2)["pos"] == events // 2
    assert trace.stack(0, 4) == [1]
    assert trace.iterator == 0


def test_exception_of_a_progress_callback_while_opening(big_trace):
    path, _ = big_trace
    raised = earl.EarlError("the user's own EarlError")
    seen = []

    def stop(fraction):
        seen.append(fraction)
        if len(seen) == 2:
            raise raised

    with pytest.raises(earl.EarlError) as caught:
        earl.EventTrace(path, progress=stop)
    assert caught.value is raised and len(seen) == 2


# Ctrl-C is pressed from inside the work itself: a progress callback sends SIGINT to the
# process once the work is past a fraction, so the interruption always lands in the middle
# of it, however fast or slow the machine (a timer could fire before or after).
CTRL_C_SCRIPT = textwrap.dedent("""
    import os, signal, sys
    import earl
    path, events = sys.argv[1], int(sys.argv[2])

    class CtrlCWhenPast:
        def __init__(self, fraction):
            self.fraction = fraction
            self.pressed_at = None

        def __call__(self, done):
            if self.pressed_at is None and done > self.fraction:
                self.pressed_at = done
                os.kill(os.getpid(), signal.SIGINT)

    ctrl_c = CtrlCWhenPast(0.2)
    try:
        earl.EventTrace(path, bdist=0, progress=ctrl_c)
        print("open finished")
    except KeyboardInterrupt:
        print("open interrupted")
    print("pressed mid-work", 0.2 < ctrl_c.pressed_at < 1.0)

    trace = earl.EventTrace(path, bdist=0, progress=lambda f: None)
    ctrl_c = CtrlCWhenPast(0.2)
    trace.progress = ctrl_c
    try:
        trace.event(events - 5000)
        print("jump finished")
    except KeyboardInterrupt:
        print("jump interrupted")
    print("pressed mid-work", 0.2 < ctrl_c.pressed_at < 1.0)
    trace.progress = None
    ev = trace.event(events - 5000)
    print("usable", ev["pos"], trace.stack(0, 4))
""")


def test_ctrl_c_interrupts_open_and_far_jump(big_trace, tmp_path):
    """Ctrl-C is raised from a progress callback (no timer, so no race): the default SIGINT
    handler's KeyboardInterrupt stops the work, and the trace stays usable."""
    path, events = big_trace
    script = tmp_path / "ctrl_c.py"
    script.write_text(CTRL_C_SCRIPT)
    done = subprocess.run([sys.executable, str(script), str(path), str(events)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "open interrupted", "pressed mid-work True",
        "jump interrupted", "pressed mid-work True",
        f"usable {events - 5000} [1]"]


@pytest.mark.parametrize("move", ["next", "prev", "jump", "reset", "event", "len"])
def test_iterator_moves_wait_for_the_lock_of_a_long_call(big_trace, move):
    """While one thread decodes far ahead (lock held, GIL released), another thread's call
    waits for the lock: it cannot run until the long call has returned. The long call's
    progress callback gives the other thread time to run; if the call did not take the
    lock, it would finish within that time."""
    path, events = big_trace
    trace = earl.EventTrace(path, bdist=0, progress=lambda f: None)
    trace.jump(3)
    calls = {"next": trace.next, "prev": trace.prev, "jump": lambda: trace.jump(7),
             "reset": trace.reset, "event": lambda: trace.event(2), "len": lambda: len(trace)}
    other_done = threading.Event()
    order = []

    def other():
        calls[move]()
        order.append("other")
        other_done.set()

    thread = threading.Thread(target=other)
    reports = []

    def report(fraction):
        reports.append(fraction)
        if len(reports) == 1:
            thread.start()
        if len(reports) <= 3:
            assert not other_done.wait(0.05), f"{move}() ran while the trace was busy"

    trace.progress = report
    trace.event(events // 2)
    order.append("long call")
    thread.join(timeout=60)
    assert order == ["long call", "other"] and len(reports) >= 3
