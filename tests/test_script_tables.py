"""The shipped scripts' per-location tables stay aligned whatever the location names: the
label column is as wide as the longest label (Score-P names such as "MPI Rank 0 / Master
thread" are wider than the 20 characters a label used to get), in all three languages."""
import subprocess
import sys
from pathlib import Path

import pytest

from script_checks import SCOREP, have_otf2

EARL = str(Path(sys.executable).parent / "earl")
TRACE = SCOREP / "ping-pong-otf2" / "traces.otf2"
NAMES = ["MPI Rank 0 / Master thread", "MPI Rank 1 / Master thread"]


@pytest.mark.skipif(not (have_otf2() and TRACE.exists()), reason="no OTF2 support or no Score-P trace")
@pytest.mark.parametrize("language", ["py", "lua", "tcl"])
@pytest.mark.parametrize("script, header", [("wasted_time", "receiver"), ("data_received", "location")])
def test_the_location_table_is_aligned(script, header, language, tmp_path):
    done = subprocess.run([EARL, "run", f"{script}.{language}", str(TRACE), str(tmp_path / "c.png")]
                          if script == "data_received" else [EARL, "run", f"{script}.{language}", str(TRACE)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.split()[:1] == [header])
    table = lines[start:start + 1 + len(NAMES)]
    # every column is right-aligned after the label: aligned rows end at one column
    assert len({len(line) for line in table}) == 1, table
    for loc, (row, name) in enumerate(zip(table[1:], NAMES)):
        assert row.index(f"{loc} ({name})") == table[0].index(header), table
