"""Reading many damaged traces in one child process with a timeout: a crash or a hang then
fails one test and names the case it was reading. The child script takes a JSON spec
({"cases": [...], ...}), prints `START name` before each case and `RESULT {json}` after it,
each result with "name", "differences" (empty when EARL read what it should) and, where the
script says so, "seen" (what the case was checked as)."""
import json
import subprocess
import sys

import pytest


def run_batch(script, spec, tmp_path, timeout, env=None):
    """Runs `script` over `spec` in a child; fails on a difference, a crash or a hang.
    Returns the results, one per case."""
    spec_path = tmp_path / "cases.json"
    spec_path.write_text(json.dumps(spec))
    try:
        child = subprocess.run([sys.executable, str(script), str(spec_path)], env=env,
                               capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as expired:
        started = [ln for ln in (expired.stdout or b"").decode().splitlines() if ln.startswith("START ")]
        pytest.fail(f"hang: still reading {started[-1] if started else 'nothing yet'} after {timeout} s")
    lines = child.stdout.splitlines()
    results = [json.loads(ln[len("RESULT "):]) for ln in lines if ln.startswith("RESULT ")]
    if child.returncode != 0 or len(results) != len(spec["cases"]):
        started = [ln for ln in lines if ln.startswith("START ")]
        pytest.fail(f"the child died (exit {child.returncode}) reading {started[-1] if started else '?'}:\n"
                    f"{child.stderr[-3000:]}")
    failed = {r["name"]: r["differences"] for r in results if r["differences"]}
    assert not failed, json.dumps(failed, indent=1)[:6000]
    return results
