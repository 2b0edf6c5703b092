"""EARL's Chrome JSON opened in the real trace viewer: Catapult's (the one chrome://tracing
served; Debian's Chromium 156 fails to load chrome://tracing) made into a standalone page by Catapult's own
trace2html, loaded in headless Chromium, its model read over the DevTools protocol (a pipe,
no driver needed). Skipped unless EARL_CATAPULT names a Catapult checkout and chromium is on
PATH: neither is a dependency of EARL. The expected counts come from EARL's own reading of
the input (locations, sends) and the convert summary (wait states)."""
import json
import os
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import earl
from earl.convert import convert
from earl.generate import generate

CATAPULT = os.environ.get("EARL_CATAPULT", "")
pytestmark = pytest.mark.skipif(
    not (CATAPULT and (Path(CATAPULT) / "tracing" / "bin" / "trace2html").is_file() and shutil.which("chromium")),
    reason="needs EARL_CATAPULT (a Catapult checkout) and chromium")

MODEL = r"""
(() => {
  const view = document.querySelector('tr-ui-timeline-view');
  const m = view && view.model;
  if (!m) return null;
  const threads = m.getAllThreads();
  const slices = threads.flatMap(t => t.sliceGroup.slices);
  return JSON.stringify({
    threads: threads.map(t => t.name),
    slices: slices.length,
    waits: slices.filter(s => s.category === 'wait state').length,
    flows: m.flowEvents.length,
    bound: m.flowEvents.filter(f => f.startSlice && f.endSlice).length,
    warnings: m.importWarnings.map(w => w.message)});
})()
"""


class DevTools:
    """Chromium's remote debugging over --remote-debugging-pipe: JSON messages ending in
    NUL, written to its fd 3, read from its fd 4."""

    def __init__(self, profile):
        to_child, self._to = os.pipe()
        self._from, from_child = os.pipe()

        def fds():
            a, b = os.dup(to_child), os.dup(from_child)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self._proc = subprocess.Popen(
            ["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             "--user-data-dir=" + str(profile), "about:blank"],
            preexec_fn=fds, close_fds=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_child)
        os.close(from_child)
        self._buffer, self._id = b"", 0

    def call(self, method, params=None, session=None, timeout=60):
        self._id += 1
        message = {"id": self._id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to, json.dumps(message).encode() + b"\0")
        end = time.time() + timeout
        while True:
            while b"\0" in self._buffer:
                line, self._buffer = self._buffer.split(b"\0", 1)
                answer = json.loads(line)
                if answer.get("id") == self._id:
                    assert "error" not in answer, answer
                    return answer["result"]
            ready, _, _ = select.select([self._from], [], [], max(0.0, end - time.time()))
            assert ready, "no answer from chromium to " + method
            chunk = os.read(self._from, 1 << 20)
            assert chunk, "chromium ended"
            self._buffer += chunk

    def close(self):
        self._proc.kill()
        self._proc.wait()


def viewer_model(html, profile):
    tools = DevTools(profile)
    try:
        target = tools.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = tools.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        tools.call("Page.navigate", {"url": html.as_uri()}, session)
        end = time.time() + 120
        while time.time() < end:
            value = tools.call("Runtime.evaluate", {"expression": MODEL, "returnByValue": True},
                               session)["result"].get("value")
            if value:
                return json.loads(value)
            time.sleep(0.5)
        raise AssertionError("the trace viewer built no model of " + str(html))
    finally:
        tools.close()


@pytest.mark.parametrize("name", ["run.json", "run.json.gz"])
def test_the_trace_viewer_loads_earl_output_without_warnings(tmp_path, name):
    src = tmp_path / "run.alog"
    generate(src, locations=4, events=4000, seed=3, late_sender_rate=0.3, imbalance_rate=0.3)
    out = tmp_path / name
    summary = convert(src, out, wait_states=True)
    html = tmp_path / "run.html"
    subprocess.run([sys.executable, str(Path(CATAPULT) / "tracing" / "bin" / "trace2html"), str(out),
                    "--output", str(html)], check=True, capture_output=True)
    model = viewer_model(html, tmp_path / "profile")
    with earl.EventTrace(str(src)) as t:
        events = [t.event(p) for p in range(1, len(t) + 1)]
        names = [t.locsym(l) for l in range(t.nrlocs())]
    sends = sum(e["type"] == "send" for e in events)
    enters = sum(e["type"] == "enter" for e in events)
    assert model["warnings"] == []
    # each location's track, then a wait-state track beside each location that waits
    assert sorted(n for n in model["threads"] if not n.endswith(" wait states")) \
        == sorted(str(n) for n in names)
    assert all(n[:-len(" wait states")] in map(str, names)
               for n in model["threads"] if n.endswith(" wait states"))
    assert model["waits"] == summary["wait_states_written"] > 0
    assert model["slices"] == enters + model["waits"]
    assert model["flows"] == model["bound"] == sends
