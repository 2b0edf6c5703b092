"""OTF2 archives of more locations than EARL keeps libotf2 readers open for.

Every libotf2 location reader holds one event chunk of the archive (256 KiB in the
generated archives of more than 64 processes, 1 MiB in Score-P's). The event cache's
importer reads the locations a window at a time (64 MiB of chunks, here 256 locations),
each to its end; the direct reader (cache=False) keeps every location's reader open.
Checked against the generator's ground truth and against the direct reader; peak memory
in fresh interpreters.
"""
import json
import subprocess
import sys

import numpy as np
import pytest

import earl
from earl.generate import generate

LOCATIONS = 600  # more than the 256 readers of 256 KiB the importer keeps open
EVENTS = 1_200_000  # 2000 per location: several batches each, so all would be open at once


@pytest.fixture(scope="module")
def wide(tmp_path_factory):
    path = tmp_path_factory.mktemp("wide") / "wide.otf2"
    truth = generate(str(path), locations=LOCATIONS, events=EVENTS, seed=5, late_sender_rate=0.1)
    return path, truth


def test_every_location_is_read_whole(wide):
    path, truth = wide
    with earl.EventTrace(str(path), cache=True) as tr:
        assert tr.nrlocs() == LOCATIONS
        assert len(tr) == truth["events"] + 2 * LOCATIONS   # and a ProgramBegin/End each
        rows = tr.to_numpy()
        assert np.all(np.diff(rows["time"]) >= 0), "global order by time"
        recv = tr.types().index("recv")
        received = np.bincount(rows["loc"][rows["type"] == recv],
                               weights=rows["len"][rows["type"] == recv], minlength=LOCATIONS)
        assert received.astype(int).tolist() == truth["bytes_received_per_location"]
        assert tr.problems()["unmatched_recv"]["count"] == 0
        # every location ends where it began: main entered and left
        for loc in (0, LOCATIONS // 2, LOCATIONS - 1):
            assert tr.stack(loc, len(tr)) == []


def test_cached_equals_direct(wide):
    path, _ = wide
    with earl.EventTrace(str(path), cache=True) as c, earl.EventTrace(str(path), cache=False) as d:
        assert c.types() == d.types() and c.regions() == d.regions()
        a, b = c.to_numpy(), d.to_numpy()
        for field in a.dtype.names:
            assert np.array_equal(a[field], b[field]), field
        m = len(d)
        for pos in (1, m // 3, m // 2, m - 1, m):
            assert c.event(pos) == d.event(pos)
            for loc in (0, 257, LOCATIONS - 1):
                assert c.stack(loc, pos) == d.stack(loc, pos), (loc, pos)
        assert c.problems() == d.problems()


CHILD = r'''
import json, sys, earl
def hwm():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
before = hwm()
with earl.EventTrace(sys.argv[1], cache=sys.argv[2] == "cached") as tr:
    n = len(tr)
print(json.dumps({"before": before, "after": hwm(), "events": n}))
'''


def peak_mb(path, mode):
    proc = subprocess.run([sys.executable, "-c", CHILD, str(path), mode],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.splitlines()[-1])


def test_importer_keeps_fewer_readers_than_locations(wide):
    """The direct reader holds a chunk per location (600 x 256 KiB = 150 MiB); the importer
    at most 64 MiB of them, so opening through the cache needs less memory although it
    also holds the cache's block buffers (measured: about 135 against 190 MB; with all
    600 readers open at once the importer needed 260 MB)."""
    path, truth = wide
    cached, direct = peak_mb(path, "cached"), peak_mb(path, "direct")
    assert cached["events"] == direct["events"] == truth["events"] + 2 * LOCATIONS  # + program records
    grew_cached = cached["after"] - cached["before"]
    grew_direct = direct["after"] - direct["before"]
    assert grew_direct > LOCATIONS * 0.25, (grew_cached, grew_direct)
    assert grew_cached < grew_direct, (grew_cached, grew_direct)
