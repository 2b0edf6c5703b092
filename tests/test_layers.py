"""The build keeps the layers of DESIGN.md section 5: each layer of cpp/ is a library whose
sources can include only their own headers and those of the layers below that they link.
These tests configure the C++ build and ask the compiler, with each layer's own flags,
which headers it can reach: the answer must be exactly the layers the architecture allows,
and an upward include must fail to compile."""
import json
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Layer -> (folder under cpp/, one of its headers).
LAYERS = {
    "model": ("model", "model/event.h"),
    "format_interface": ("format_interface", "format_interface/trace_decoder.h"),
    "output": ("output", "output/staged_output.h"),
    "format_alog": ("formats/alog", "formats/alog/alog_decoder.h"),
    "format_otf2": ("formats/otf2", "formats/otf2/otf2_anchor.h"),
    "format_clog2": ("formats/clog2", "formats/clog2/clog2_decoder.h"),
    "format_otf": ("formats/otf", "formats/otf/otf_anchor.h"),
    "format_chrome": ("formats/chrome", "formats/chrome/chrome_format.h"),
    "format_epilog": ("formats/epilog", "formats/epilog/epilog_decoder.h"),
    "format_described": ("formats/described", "formats/described/described_decoder.h"),
    "cache": ("cache", "cache/event_cache.h"),
    "registry": ("registry", "registry/format_registry.h"),
    "state": ("state", "state/trace_state.h"),
    "access": ("access", "access/random_access_trace.h"),
    "index": ("index", "index/persisted_index.h"),
    "timecorrect": ("timecorrect", "timecorrect/clock_corrections.h"),
    "trace": ("trace", "trace/event_trace.h"),
    "stats": ("stats", "stats/p2_statistic.h"),
    "gen": ("gen", "gen/generator.h"),
    "convert": ("convert", "convert/convert.h"),
    "query": ("query", "query/selection.h"),
    "analysis": ("analysis", "analysis/analysis.h"),
    "profile": ("profile", "profile/trace_profile.h"),
}

# What each layer's sources may include besides themselves (DESIGN.md section 5): the
# decoder/writer interface over the model; staged outputs over the model, for the writers of
# the formats; formats and the cache over the interface; the
# registry over every format and the cache; state over the model; random access over
# state and the decoder interface; the persisted index over random access; the trace facade
# over access, the index and the registry; the
# generator writes through the registry; conversion reads a trace and writes through the
# registry (and runs the analysis for --wait-states); the wait-state analysis reads each event once through the registry's decoder
# (it needs no random access); clock correction wraps a decoder, for the trace facade and
# the analysis; tables and statistics read a trace and intern call paths as the analysis
# does. Nothing sees a layer beside or above it.
ALLOWED = {
    "model": set(),
    "format_interface": {"model"},
    "output": {"model"},
    "format_alog": {"format_interface", "output", "model"},
    "format_otf2": {"format_interface", "output", "model"},
    "format_epilog": {"format_interface", "output", "model"},
    "format_described": {"format_interface", "model"},
    "format_chrome": {"format_interface", "output", "model"},
    "format_clog2": {"format_interface", "output", "model"},
    "format_otf": {"format_interface", "output", "model"},
    "cache": {"format_interface", "model"},
    "registry": {"format_alog", "format_otf2", "format_otf", "format_clog2", "format_chrome", "format_epilog", "format_described", "cache", "format_interface", "model"},
    "state": {"model"},
    "access": {"state", "format_interface", "model"},
    "index": {"access", "state", "format_interface", "model"},
    "timecorrect": {"format_interface", "model"},
    "trace": {"index", "access", "state", "timecorrect", "registry", "format_interface", "model"},
    "stats": {"model"},
    "gen": {"registry", "format_interface", "model"},
    "convert": {"trace", "index", "access", "state", "timecorrect", "analysis", "registry", "format_interface",
                "model"},
    "analysis": {"timecorrect", "registry", "format_interface", "model"},
    "query": {"trace", "index", "access", "state", "timecorrect", "format_interface", "model"},
    "profile": {"trace", "index", "access", "state", "timecorrect", "analysis", "format_interface", "model"},
}


@pytest.fixture(scope="module")
def compile_commands(tmp_path_factory):
    cmake = shutil.which("cmake")
    if not cmake:
        pytest.skip("cmake not on PATH")
    build = tmp_path_factory.mktemp("layers") / "build"
    done = subprocess.run([cmake, "-S", str(ROOT), "-B", str(build), "-DEARL_BUILD_PYTHON=OFF",
                           "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads((build / "compile_commands.json").read_text())


def layer_compiler(compile_commands, layer):
    """The compiler command of one of `layer`'s sources, without its input and output."""
    folder = str(ROOT / "cpp" / LAYERS[layer][0]) + os.sep
    entry = next(e for e in compile_commands
                 if e["file"].startswith(folder) and os.sep not in e["file"][len(folder):])
    words = shlex.split(entry["command"])
    kept, skip = [], False
    for word in words:
        if skip:
            skip = False
        elif word in ("-o", "-c"):
            skip = True
        else:
            kept.append(word)
    return kept, entry["directory"]


def compile_probe(compile_commands, layer, text, tmp_path):
    probe = tmp_path / f"probe_{layer}.cpp"
    probe.write_text(text)
    command, directory = layer_compiler(compile_commands, layer)
    return subprocess.run(command + ["-fsyntax-only", str(probe)], cwd=directory,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_a_layer_reaches_exactly_the_layers_below_it(compile_commands, layer, tmp_path):
    probe = "".join(f'#if __has_include("{header}")\n#pragma message("reaches {name}")\n#endif\n'
                    for name, (_, header) in LAYERS.items())
    done = compile_probe(compile_commands, layer, probe, tmp_path)
    assert done.returncode == 0, done.stderr
    reached = set(re.findall(r"reaches (\w+)", done.stderr))
    assert reached == ALLOWED[layer] | {layer}


def test_an_upward_include_fails_to_compile(compile_commands, tmp_path):
    done = compile_probe(compile_commands, "state", '#include "trace/event_trace.h"\n', tmp_path)
    assert done.returncode != 0
    assert "trace/event_trace.h" in done.stderr


def test_every_cpp_folder_is_a_layer():
    folders = {str(p.parent.relative_to(ROOT / "cpp")) for p in (ROOT / "cpp").rglob("*.h")}
    assert folders == {folder for folder, _ in LAYERS.values()}
