"""Seed corpora of the fuzz targets, written under BUILD/seeds/<target>/ (never committed):

- alog_decoder, python_api: ALOG traces of the project's generator (`earl gen`, several
  shapes) and of tests/alog_traces.py (unsorted lines, roll-over cycles, odd spacing);
- otf2_definitions, otf2_events: the global definitions and the event files of OTF2
  archives of the generator (the one the targets mutate, `earl gen -n 2 -e 60 -s 1`,
  among them) and of tests/otf2_archives.py (RMA, threads, metrics, other records);
- event_codec: the events of generated traces encoded as the event cache stores them
  (by BUILD/fuzz/event_codec_seeds);
- cli: the byte strings of sensible command lines (cli_fuzzer.seed_inputs()).

Usage: python fuzz/seed_corpora.py BUILD   (`make fuzz` runs it)
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import earl.generate  # noqa: E402
from earl import _core  # noqa: E402
from alog_traces import random_alog  # noqa: E402

# Generator shapes: small, so that every run of a target is short.
SHAPES = [
    dict(locations=2, events=60, seed=1),  # the archive of fuzz/otf2_archive_input.h
    dict(locations=3, events=80, seed=2, pattern="neighbors"),
    dict(locations=2, events=80, seed=3, threads=2),
    dict(locations=4, events=100, seed=4, permute_ranks=True, in_flight=4),
]
ALOG_ONLY = [dict(locations=2, events=60, seed=5, rollover=300)]


def generated(work: Path, fmt: str):
    """(name, path) of each generated trace of format `fmt`."""
    shapes = SHAPES + (ALOG_ONLY if fmt == "alog" else [])
    for i, shape in enumerate(shapes):
        folder = work / f"{fmt}{i}"
        folder.mkdir()
        path = folder / {"otf2": "traces.otf2", "epilog": "trace.elg"}.get(fmt, "trace.alog")
        earl.generate.generate(str(path), format=fmt, truth_path=str(folder / "truth.json"), **shape)
        yield f"gen{i}", path


def test_archives(work: Path):
    """Anchors of hand-written and random archives of the OTF2 tests."""
    import otf2_archives as A
    for i, write in enumerate([A.write_rma, A.write_other_records, A.write_threads]):
        folder = work / f"hand{i}"
        folder.mkdir()
        written = write(folder)  # some return (anchor, facts)
        yield f"hand{i}", Path(written[0] if isinstance(written, tuple) else written)
    for seed in (1, 2):
        folder = work / f"random{seed}"
        folder.mkdir()
        written = A.random_archive(folder, seed, n_steps=120)
        yield f"random{seed}", Path(written[0] if isinstance(written, tuple) else written)


def main(build: Path):
    seeds = build.resolve() / "seeds"  # cli_fuzzer works in a directory of its own
    shutil.rmtree(seeds, ignore_errors=True)
    for target in ("alog_decoder", "python_api", "otf2_definitions", "otf2_events", "event_codec", "cli",
                   "epilog_decoder"):
        (seeds / target).mkdir(parents=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        alogs = list(generated(work, "alog"))
        for seed in range(12):
            path = work / f"random{seed}.alog"
            path.write_text(random_alog(seed, max_events=30).text)
            alogs.append((f"random{seed}", path))
        for name, path in alogs:
            for target in ("alog_decoder", "python_api"):
                shutil.copy(path, seeds / target / f"{name}.alog")

        # EPILOG: the generator's traces and the hand-made files of tests/epilog_traces.py.
        for name, path in generated(work, "epilog"):
            shutil.copy(path, seeds / "epilog_decoder" / f"{name}.elg")
        from epilog_traces import seed_files
        for name, data in seed_files():
            (seeds / "epilog_decoder" / f"{name}.elg").write_bytes(data)

        # A build without OTF2 has no OTF2 targets to seed.
        with_otf2 = "otf2" in _core.generator_formats()
        archives = list(generated(work, "otf2")) + list(test_archives(work)) if with_otf2 else []
        for name, anchor in archives:
            shutil.copy(anchor.with_suffix(".def"), seeds / "otf2_definitions" / f"{name}.def")
            for evt in sorted(anchor.with_suffix("").glob("*.evt")):
                shutil.copy(evt, seeds / "otf2_events" / f"{name}-{evt.name}")

        codec_tool = build / "fuzz" / "event_codec_seeds"
        for name, path in alogs[:len(SHAPES)] + archives[:len(SHAPES)]:
            out = work / f"codec-{name}-{path.suffix[1:]}"
            out.mkdir()
            subprocess.run([str(codec_tool), str(path), str(out)], check=True)
            for stream in out.iterdir():
                shutil.copy(stream, seeds / "event_codec" / f"{out.name}-{stream.name}")
    sys.path.insert(0, str(ROOT / "fuzz"))
    import cli_fuzzer  # last: it changes into a directory of its own
    for i, data in enumerate(cli_fuzzer.seed_inputs()):
        (seeds / "cli" / f"command{i}").write_bytes(data)
    for target in sorted(p.name for p in seeds.iterdir()):
        print(f"{target}: {len(list((seeds / target).iterdir()))} seeds")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(Path(sys.argv[1]))
