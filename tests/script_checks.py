"""Checks shared by the Lua and Tcl script tests: what the example scripts print about a
generated trace, against the generator's ground truth (plain helpers, like alog_traces)."""
import re

import pytest


def check_against_ground_truth(run, path, truth, tmp_path):
    """`run(name, args)` returns the output of the example script `name` run with args."""
    out = run("wasted_time", [path]).splitlines()
    total = float(re.match(rf"{re.escape(path)}: (\d+\.\d{{6}}) sec wasted\.$", out[0]).group(1))
    assert truth["late_sender_count"] > 0
    assert total == pytest.approx(truth["late_sender_wait_total"], abs=1e-6)
    assert sum(int(line.split()[-2]) for line in out[2:]) == truth["late_sender_count"]

    out = run("messages_out_of_order", [path]).splitlines()
    assert truth["out_of_order_count"] > 0
    assert len(out) == truth["out_of_order_count"] + 1
    assert out[-1].endswith(f": {truth['out_of_order_count']} messages received out of order "
                            f"({truth['out_of_order_reports']} older messages overtaken).")

    out = run("region_statistics", [path]).splitlines()
    rows = {(int(r[0]), r[1]): r[2:] for r in map(str.split, out[1:])}
    expected = {(int(loc), region): t for loc, regions in truth["region_time"].items()
                for region, t in regions.items()}
    assert set(rows) == set(expected)
    for key, t in expected.items():
        count, incl, excl = rows[key]
        assert int(count) == t["count"]
        assert float(incl) == pytest.approx(t["incl"], abs=1e-6)
        assert float(excl) == pytest.approx(t["excl"], abs=1e-6)

    out = run("data_received", [path, str(tmp_path / "c.png")]).splitlines()
    assert [int(line.split()[-2]) for line in out[1:1 + truth["locations"]]] == \
        truth["bytes_received_per_location"]
    assert out[1 + truth["locations"]] == \
        f"{path}: {sum(truth['bytes_received_per_location'])} bytes received in total."
