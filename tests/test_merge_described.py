"""earl merge of inputs in a described format (which cannot be detected from content, so the
caller names it): per-rank pieces of a generated ALOG trace, read through the shipped ALOG
description, merge to the same trace as the pieces read by the native ALOG reader, and
to the unsplit original."""
import os
import subprocess
import sys

import pytest

import earl
from earl.described import FOLDER
from earl.generate import generate
from alog_split import SHIFT_US, split_alog
from test_merge_split import records

SHIPPED_ALOG = str(FOLDER / "alog.toml")


@pytest.fixture(scope="module")
def pieces(tmp_path_factory):
    folder = tmp_path_factory.mktemp("described_merge")
    trace = folder / "run.alog"
    generate(str(trace), locations=3, events=2000, seed=5)
    return str(trace), split_alog(str(trace), folder)


def test_described_pieces_merge_like_native_ones(pieces, tmp_path):
    original, paths = pieces
    shift = [None, -SHIFT_US * 1e-6, None]
    native, described = str(tmp_path / "native.alog"), str(tmp_path / "described.alog")
    earl.merge(native, paths, offsets=shift, input_format="alog")
    summary = earl.merge(described, paths, offsets=shift, input_format="described:alog")
    # A described trace's format names the description it was read through.
    assert [i["format"] for i in summary["inputs"]] == ["described:" + SHIPPED_ALOG] * 3
    assert summary["output_format"] == "alog" and summary["locations_kept"]
    assert records(described) == records(native) == records(original)


def test_formats_per_input_and_its_errors(pieces, tmp_path):
    _, paths = pieces
    out = str(tmp_path / "mixed.alog")
    summary = earl.merge(out, paths, offsets=[None, -SHIFT_US * 1e-6, None],
                         input_format={paths[1]: "described:alog"})
    assert [i["format"] for i in summary["inputs"]] == ["alog", "described:" + SHIPPED_ALOG, "alog"]
    assert records(out) == records(pieces[0])
    with pytest.raises(earl.EarlError, match="no input"):
        earl.merge(out, paths, input_format={"elsewhere.alog": "alog"})
    with pytest.raises(earl.EarlError, match="input formats: 2 given for 3 inputs"):
        earl.merge(out, paths, input_format=["alog", "alog"])
    with pytest.raises(earl.EarlError, match="no format name"):
        earl.merge(out, paths, input_format=[None, 3, None])
    # No output format from a described input: the output's suffix or --format names it.
    with pytest.raises(earl.EarlError, match="--format"):
        earl.merge(str(tmp_path / "merged"), paths, input_format="described:alog")


def earl_cli(*args):
    return subprocess.run([sys.executable, "-m", "earl.cli", *args], capture_output=True, text=True)


def test_command_line_describe_and_input_format(pieces, tmp_path):
    original, paths = pieces
    offset = f"{paths[1]}={-SHIFT_US * 1e-6}"
    out = str(tmp_path / "all.alog")
    done = earl_cli("merge", out, *paths, "--describe", "alog", "--offset", offset)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count(f"(described:{SHIPPED_ALOG}, ") == 3
    assert records(out) == records(original)
    os.remove(out)
    done = earl_cli("merge", out, *paths, "--input-format", "alog", "--offset", offset,
                    "--input-format", f"{paths[2]}=described:alog")
    assert done.returncode == 0, done.stderr
    assert "(alog, " in done.stdout and done.stdout.count(f"(described:{SHIPPED_ALOG}, ") == 1
    assert records(out) == records(original)
    for extra in (["--input-format", "alog", "--input-format", "otf2"],
                  ["--input-format", f"{paths[0]}=alog", "--input-format", f"{paths[0]}=otf2"]):
        done = earl_cli("merge", out, *paths, *extra)
        assert done.returncode != 0 and "--input-format" in done.stderr
    done = earl_cli("merge", out, *paths, "--describe", "alog", "--input-format", "alog")
    assert done.returncode == 2 and "not allowed with" in done.stderr
