"""Every OTF2 archive EARL writes is one the Score-P tools read without complaint: Debian's
`otf2-print` (package otf2-tools, the OTF2 library's own reader and validator) reads the
definitions and all events of archives of every `earl gen` option and of `earl convert`
results, with exit status 0 and nothing on stderr."""
import os
import shutil
import subprocess

import pytest

from earl import _core
from earl.convert import convert
from earl.generate import generate

from script_checks import SCOREP as SHARED, needs_scorep_traces

OTF2_PRINT = shutil.which("otf2-print")
pytestmark = [
    pytest.mark.skipif(OTF2_PRINT is None, reason="otf2-print (Debian package otf2-tools) is not installed"),
    pytest.mark.skipif("otf2" not in _core.generator_formats(), reason="this EARL was built without libotf2"),
]

# One archive per option `earl gen --help` lists as a shape (and a mix of them).
GEN_OPTIONS = {
    "default": dict(),
    "every-collective": dict(collectives="allreduce,barrier,bcast,reduce,gather,scatter,allgather,"
                                         "alltoall,scan,exscan"),
    "nonblocking": dict(nonblocking=True, pattern="neighbors", locations=5),
    "late-receivers": dict(late_receiver_rate=0.3),
    "fences": dict(rma_every=2),
    "locks": dict(lock_every=2),
    "threads": dict(threads=3),
    "permuted": dict(permute_ranks=True, locations=6),
    "recursion-in-flight": dict(depth=3, in_flight=12, tag_per_message=True),
    "skewed-clocks": dict(clock_offset=1e-4, clock_drift=5.0),
    "mix": dict(permute_ranks=True, locations=5, pattern="neighbors", collectives="bcast,reduce,allreduce,scan",
                rma_every=3, lock_every=4, threads=2),
}


def otf2_print_complaints(anchor):
    """What otf2-print says is wrong with the archive: '' when it reads everything."""
    complaints = []
    for args in (["-A"], ["--silent"]):
        run = subprocess.run([OTF2_PRINT, *args, str(anchor)], capture_output=True, text=True, timeout=300)
        if run.returncode != 0 or run.stderr.strip():
            complaints.append("otf2-print %s: exit %d: %s" % (" ".join(args), run.returncode, run.stderr[-2000:]))
    return "\n".join(complaints)


@pytest.mark.parametrize("options", GEN_OPTIONS.values(), ids=GEN_OPTIONS.keys())
def test_otf2_print_reads_generated_archives(tmp_path, options):
    anchor = tmp_path / "gen.otf2"
    generate(anchor, events=3000, seed=7, **options)
    assert otf2_print_complaints(anchor) == ""


@needs_scorep_traces
def test_otf2_print_reads_converted_archives(tmp_path):
    # ALOG -> OTF2 (from a generated ALOG and from one without MPI_Init), OTF2 -> OTF2
    generate(tmp_path / "g.alog", events=3000, collectives="bcast,allreduce")
    convert(tmp_path / "g.alog", tmp_path / "g.otf2")
    plain = tmp_path / "plain.alog"
    plain.write_text("\n".join(["-3 0 0 2 0 0", "-13 0 1 2 0 0 red:solid work",
                                "1 0 0 0 0 10", "-101 0 0 1 0 11 3 8", "2 0 0 0 0 20",
                                "1 1 0 0 0 10", "-102 1 0 0 0 15 3 8", "2 1 0 0 0 30"]) + "\n")
    convert(plain, tmp_path / "plain.otf2")
    convert(os.path.join(SHARED, "ping-pong-otf2-papi", "traces.otf2"), tmp_path / "scorep.otf2")
    for name in ("g", "plain", "scorep"):
        assert otf2_print_complaints(tmp_path / (name + ".otf2")) == "", name
