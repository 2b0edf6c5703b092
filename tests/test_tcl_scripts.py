"""The Tcl analysis scripts (scripts/*.tcl, EARL 2.0 dialect) print exactly what their
Python twins print, on generated ALOG and OTF2 traces and on the Score-P traces, run in
this process (earl.tcl.run) and by tclsh8.6; and their results equal the generator's
ground truth and values worked out by hand."""
import subprocess
import sys

import pytest

import earl
import earl.tcl
from test_tcl_common import TCLSH, needs_extension, tclsh
from test_tcl_mapping import HAND
from script_checks import (NAMES, SCRIPTS, TIMEOUT, check_against_ground_truth, check_png, generate_traces,
                           have_otf2, python_output, resolve, script_args, trace_params)

pytestmark = needs_extension



@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    return generate_traces(tmp_path_factory.mktemp("tcl-scripts"))


def tkinter_output(name, args, capsys):
    capsys.readouterr()
    earl.tcl.run(SCRIPTS / f"{name}.tcl", args)
    return capsys.readouterr().out


@pytest.mark.parametrize("trace", trace_params())
@pytest.mark.parametrize("name", NAMES)
def test_same_output_as_python(name, trace, generated, tmp_path, capsys):
    args = script_args(name, resolve(trace, generated), tmp_path)
    expected = python_output(name, args)
    assert expected.strip()
    assert tkinter_output(name, args, capsys) == expected
    if name == "data_received":
        check_png(tmp_path / "chart.png")
    if TCLSH:
        (tmp_path / "chart.png").unlink(missing_ok=True)
        assert tclsh(SCRIPTS / f"{name}.tcl", *args).stdout == expected
        if name == "data_received":
            check_png(tmp_path / "chart.png")


@pytest.mark.parametrize("fmt", ["alog", pytest.param("otf2", marks=pytest.mark.skipif(
    not have_otf2(), reason="no OTF2 support"))])
def test_results_equal_the_ground_truth(fmt, generated, tmp_path, capsys):
    path, truth = generated[fmt]
    path = str(path)

    check_against_ground_truth(lambda name, args: tkinter_output(name, args, capsys), path, truth,
                               tmp_path)


def test_hand_worked_results(tmp_path, capsys):
    path = tmp_path / "hand.alog"
    path.write_text(HAND)
    p = str(path)
    # tag 2 is received at 16 us inside the MPI_Recv entered at 7 and was sent inside the
    # MPI_Send entered at 13: 6 us wasted; tag 1, received in the MPI_Recv entered at 19,
    # was sent in the one entered at 10: not late. Both on loc 1 ("worker").
    assert tkinter_output("wasted_time", [p], capsys).splitlines() == [
        f"{p}: 0.000006 sec wasted.",
        f"  {'receiver':<20} {'late recvs':>10} {'wasted [s]':>12}",
        f"  {'1 (worker)':<20} {1:>10} {6e-6:>12.6f}"]
    assert tkinter_output("messages_out_of_order", [p], capsys).splitlines() == [
        "event 10 at 0.000016 s: location 1 received tag 2 from location 0 before older tag(s) 1",
        f"{p}: 1 messages received out of order (1 older messages overtaken)."]
    rows = [line.split() for line in tkinter_output("region_statistics", [p], capsys).splitlines()[1:]]
    table = [(int(r[0]), r[1], int(r[2]), float(r[3]), float(r[4])) for r in rows]
    # loc 0: main 50 us, minus MPI_Send 2+2; loc 1: main 50, minus MPI_Recv 10+2
    assert table == [(0, "main", 1, 50e-6, 46e-6), (0, "MPI_Send", 2, 4e-6, 4e-6),
                     (1, "main", 1, 50e-6, 38e-6), (1, "MPI_Recv", 2, 12e-6, 12e-6)]
    out = tkinter_output("data_received", [p, "--output", str(tmp_path / "x.png")], capsys)
    assert out.splitlines()[1:4] == [
        f"{'0':<20} {0:>14} {0.0:>12.1f}",
        f"{'1 (worker)':<20} {150:>14} {150 / 1024:>12.1f}",
        f"{p}: 150 bytes received in total."]
    check_png(tmp_path / "x.png")


@pytest.mark.parametrize("name", NAMES)
def test_a_missing_trace_is_reported_like_python(name, tmp_path):
    missing = str(tmp_path / "absent.otf2")
    py = subprocess.run([sys.executable, str(SCRIPTS / f"{name}.py"), missing],
                        capture_output=True, text=True, timeout=TIMEOUT)
    assert py.returncode == 1
    with pytest.raises(SystemExit) as stopped:
        earl.tcl.run(SCRIPTS / f"{name}.tcl", [missing])
    assert stopped.value.code == 1
    if TCLSH:
        result = tclsh(SCRIPTS / f"{name}.tcl", missing, check=False)
        assert result.returncode == 1
        assert result.stderr == py.stderr.replace(".py:", ".tcl:")


def test_usage_errors(capsys):
    with pytest.raises(SystemExit) as stopped:
        earl.tcl.run(SCRIPTS / "wasted_time.tcl", [])
    assert stopped.value.code == 1
    assert capsys.readouterr().err == "usage: wasted_time.tcl TRACE\n"
    with pytest.raises(SystemExit) as stopped:
        earl.tcl.run(SCRIPTS / "data_received.tcl", ["a", "b", "c"])
    assert stopped.value.code == 2
    assert capsys.readouterr().err.endswith("data_received.tcl: error: unrecognized arguments: c\n")
