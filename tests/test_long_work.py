"""Long work: progress reports, Ctrl-C stops cleanly and leaves the trace usable."""
import subprocess
import sys
import textwrap

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


def test_failing_progress_callback_stops_the_work_and_trace_stays_usable(big_trace):
    path, events = big_trace
    trace = earl.EventTrace(path, bdist=0, progress=lambda f: None)

    def stop(fraction):
        raise RuntimeError("stop")

    trace.progress = stop
    with pytest.raises(KeyboardInterrupt):
        trace.event(events // 2)
    trace.progress = None
    assert trace.event(events // 2)["pos"] == events // 2
    assert trace.stack(0, 4) == [1]


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
