"""The Lua analysis scripts (scripts/*.lua) print exactly what their Python twins print,
on generated ALOG and OTF2 traces and on the Score-P traces, run in this process
(earl.lua.run) and by a standalone lua5.4; and their results equal the generator's
ground truth and values worked out by hand."""
import os
import shutil
import subprocess

import pytest

import earl

pytest.importorskip("lupa.lua54")
import earl.lua  # noqa: E402
from script_checks import (NAMES, SCRIPTS, TIMEOUT, check_against_ground_truth,  # noqa: E402
                           check_png, generate_traces, have_otf2, python_output, resolve,
                           script_args, trace_params)

try:
    earl.lua.module_path()
except earl.EarlError as error:
    pytest.skip(f"no Lua module in this build: {error}", allow_module_level=True)

LUA = shutil.which("lua5.4")


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    return generate_traces(tmp_path_factory.mktemp("lua-scripts"))


def lupa_output(name, args, capsys):
    capsys.readouterr()
    earl.lua.run(SCRIPTS / f"{name}.lua", args)
    return capsys.readouterr().out


def standalone_output(name, args):
    env = dict(os.environ, LUA_CPATH=earl.lua.cpath() + ";;")
    result = subprocess.run([LUA, str(SCRIPTS / f"{name}.lua"), *args], capture_output=True,
                            text=True, env=env, timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("trace", trace_params())
@pytest.mark.parametrize("name", NAMES)
def test_same_output_as_python(name, trace, generated, tmp_path, capsys):
    args = script_args(name, resolve(trace, generated), tmp_path)
    expected = python_output(name, args)
    assert expected.strip()
    assert lupa_output(name, args, capsys) == expected
    if name == "data_received":
        check_png(tmp_path / "chart.png")
    if LUA:
        (tmp_path / "chart.png").unlink(missing_ok=True)
        assert standalone_output(name, args) == expected
        if name == "data_received":
            check_png(tmp_path / "chart.png")


@pytest.mark.parametrize("fmt", ["alog", pytest.param("otf2", marks=pytest.mark.skipif(
    not have_otf2(), reason="no OTF2 support"))])
def test_results_equal_the_ground_truth(fmt, generated, tmp_path, capsys):
    path, truth = generated[fmt]
    path = str(path)

    check_against_ground_truth(lambda name, args: lupa_output(name, args, capsys), path, truth, tmp_path)


# A hand-worked trace (microseconds): loc 1 receives tag 2 while tag 1, sent earlier by
# the same sender, is still queued: one receive out of order.
#   loc 0: main [0, 50] { MPI_Send [10, 12] send tag 1 at 11; MPI_Send [13, 15] send tag 2 at 14 }
#   loc 1: main [0, 50] { MPI_Recv [7, 17] recv tag 2 at 16; MPI_Recv [18, 20] recv tag 1 at 19 }
HAND = """-3 0 0 2 0 0
-13 0 1 2 0 0 gray:solid main
-13 0 3 4 0 0 red:solid MPI_Send
-13 0 5 6 0 0 green:solid MPI_Recv
-15 1 0 0 0 0 worker
1 0 0 0 0 0
1 1 0 0 0 0
5 1 0 0 0 7
3 0 0 0 0 10
-101 0 0 1 0 11 1 100
4 0 0 0 0 12
3 0 0 0 0 13
-101 0 0 1 0 14 2 50
4 0 0 0 0 15
-102 1 0 0 0 16 2 50
6 1 0 0 0 17
5 1 0 0 0 18
-102 1 0 0 0 19 1 100
6 1 0 0 0 20
2 0 0 0 0 50
2 1 0 0 0 50
"""


def test_hand_worked_results(tmp_path, capsys):
    path = tmp_path / "hand.alog"
    path.write_text(HAND)
    p = str(path)
    # tag 2 is received at 16 inside the MPI_Recv entered at 7 and was sent inside the
    # MPI_Send entered at 13: 6 us; tag 1, received in the MPI_Recv entered at 18, was
    # sent in the one entered at 10: not late. Both receives are on loc 1 ("worker").
    assert lupa_output("wasted_time", [p], capsys).splitlines() == [
        f"{p}: 0.000006 sec wasted.",
        f"  {'receiver':<20} {'late recvs':>10} {'wasted [s]':>12}",
        f"  {'1 (worker)':<20} {1:>10} {6e-6:>12.6f}"]
    assert lupa_output("messages_out_of_order", [p], capsys).splitlines() == [
        "event 10 at 0.000016 s: location 1 received tag 2 from location 0 before older tag(s) 1",
        f"{p}: 1 messages received out of order (1 older messages overtaken)."]
    rows = [line.split() for line in lupa_output("region_statistics", [p], capsys).splitlines()[1:]]
    table = [(int(r[0]), r[1], int(r[2]), float(r[3]), float(r[4])) for r in rows]
    assert table == [(0, "main", 1, 50e-6, 46e-6), (0, "MPI_Send", 2, 4e-6, 4e-6),
                     (1, "main", 1, 50e-6, 38e-6), (1, "MPI_Recv", 2, 12e-6, 12e-6)]
    out = lupa_output("data_received", [p, "--output", str(tmp_path / "x.png")], capsys)
    assert out.splitlines()[1:4] == [
        f"{'0':<20} {0:>14} {0.0:>12.1f}",
        f"{'1 (worker)':<20} {150:>14} {150 / 1024:>12.1f}",
        f"{p}: 150 bytes received in total."]
    check_png(tmp_path / "x.png")


@pytest.mark.parametrize("name", NAMES)
def test_usage_and_missing_file(name, tmp_path, capsys):
    with pytest.raises(SystemExit) as raised:
        earl.lua.run(SCRIPTS / f"{name}.lua", [])
    assert raised.value.code != 0
    assert "usage" in capsys.readouterr().err
    missing = str(tmp_path / "missing.alog")
    args = [missing, str(tmp_path / "c.png")] if name == "data_received" else [missing]
    with pytest.raises(SystemExit) as raised:
        earl.lua.run(SCRIPTS / f"{name}.lua", args)
    assert raised.value.code == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{name}.lua: {missing}") and "Traceback" not in err


def test_data_received_unwritable_output(tmp_path, capsys):
    path = tmp_path / "hand.alog"
    path.write_text(HAND)
    with pytest.raises(SystemExit):
        earl.lua.run(SCRIPTS / "data_received.lua", [str(path), str(tmp_path / "no" / "x.png")])
    assert "data_received.lua: cannot write" in capsys.readouterr().err


@pytest.mark.parametrize("name", NAMES)
def test_script_form(name):
    text = (SCRIPTS / f"{name}.lua").read_text()
    assert f"scripts/{name}.py" in text and "while e:next() do" in text
    assert 'require "earl"' in text
