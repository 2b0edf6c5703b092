"""Seed corpora of the fuzz targets, written under BUILD/seeds/<target>/ (never committed):

- alog_decoder, python_api: ALOG traces of the project's generator (`earl gen`, several
  shapes) and of tests/alog_traces.py (unsorted lines, roll-over cycles, odd spacing);
- otf2_definitions, otf2_events: the global definitions and the event files of OTF2
  archives of the generator (the one the targets mutate, `earl gen -n 2 -e 60 -s 1`,
  among them) and of tests/otf2_archives.py (RMA, threads, metrics, other records);
- clog2_decoder: CLOG2 files of the generator, tests/test_clog2_format.py's file of every
  record kind in both byte orders and one cut short after its first blocks, and a file
  MPE's MPI logging wrote (tests/clog2_mpe);
- otf_definitions, otf_events: the definitions and event files of OTF traces of
  tests/otf_archives.py (random scripts written by libotf's own writer; none where no C
  compiler or libotf is there);
- event_codec: the events of generated traces encoded as the event cache stores them
  (by BUILD/fuzz/event_codec_seeds);
- chrome_json: Chrome JSON of the generator (`earl gen -f chrome`, both container forms,
  gzip, a bare array without its `]`) and hand-written events of every phase EARL maps;
- described_description: the shipped format descriptions; described_decoder: a selector
  byte and an ALOG trace, pipit CSV or sample binary file of the tests;
- rules_file: the rules file of tests/test_check_violations.py;
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


def clog2_seeds(work: Path):
    """(name, path) of CLOG2 files: generated ones (EARL's writer, big-endian) and the
    hand-built every-record-kind files of tests/test_clog2_format.py in both byte orders."""
    for i, shape in enumerate(SHAPES[:2]):
        path = work / f"gen{i}.clog2"
        earl.generate.generate(str(path), format="clog2", truth_path=str(work / f"gen{i}.json"), **shape)
        yield f"gen{i}", path
    from test_clog2_format import every_kind, ping_pong
    for big in (True, False):
        path = work / f"kinds-{big}.clog2"
        every_kind(big).write(path)
        yield f"kinds-{'big' if big else 'little'}", path
    # Blocks of 512 bytes, cut inside the fourth: the reading up to the damage.
    path = work / "cut.clog2"
    path.write_bytes(ping_pong().bytes()[:1024 + 3 * 512 + 100])
    yield "cut", path
    # What MPE's MPI logging wrote (tests/clog2_mpe/README.md).
    import gzip
    path = work / "mpe-mpi4.clog2"
    path.write_bytes(gzip.decompress((ROOT / "tests" / "clog2_mpe" / "mpi4.clog2.gz").read_bytes()))
    yield "mpe-mpi4", path


# Events of every phase the Chrome reader maps, with ties, nesting and unmatched ends.
CHROME_EVENTS = [
    {"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "main"}},
    {"ph": "X", "name": "a", "cat": "c", "ts": 1, "dur": 4, "pid": 1, "tid": 1},
    {"ph": "X", "name": "b", "ts": 1, "dur": 0, "pid": 1, "tid": 1, "bind_id": 3, "flow_out": True},
    {"ph": "B", "name": "c", "ts": 2.5, "pid": 1, "tid": 2, "bind_id": 3, "flow_in": True},
    {"ph": "E", "ts": 3, "pid": 1, "tid": 2, "args": {"root": 0, "sent": 8, "recvd": 8}},
    {"ph": "E", "ts": 3, "pid": 1, "tid": 2},
    {"ph": "s", "cat": "m", "id": "0x1f", "ts": 1, "pid": 1, "tid": 1},
    {"ph": "t", "cat": "m", "id": "0x1f", "ts": 2, "pid": 1, "tid": 2},
    {"ph": "f", "cat": "m", "id": "0x1f", "ts": 3, "pid": 2, "tid": 1, "bp": "e"},
    {"ph": "b", "cat": "q", "id2": {"local": "k"}, "ts": 1, "pid": 1, "tid": 1},
    {"ph": "e", "cat": "q", "id2": {"local": "k"}, "ts": 2, "pid": 1, "tid": 2},
    {"ph": "n", "cat": "q", "id": 1, "ts": 2, "pid": 1, "tid": 2},
    {"ph": "i", "name": "now", "s": "g", "ts": 2, "pid": 1, "tid": 1},
    {"ph": "C", "name": "mem", "ts": 2, "pid": 1, "args": {"heap": 5, "x": 0.5}},
]


def chrome_seeds(work: Path, out: Path):
    import gzip
    import json
    for i, shape in enumerate(SHAPES):
        path = work / f"chrome{i}.json"
        earl.generate.generate(str(path), format="chrome", truth_path=str(work / f"chrome{i}.truth"), **shape)
        shutil.copy(path, out / f"gen{i}.json")
    text = json.dumps(CHROME_EVENTS)
    (out / "phases-array.json").write_text(text)
    (out / "phases-object.json").write_text(json.dumps({"traceEvents": CHROME_EVENTS, "displayTimeUnit": "ns"}))
    (out / "phases-unterminated.json").write_text(text[:-1] + ",")
    (out / "phases.json.gz").write_bytes(gzip.compress(text.encode()))


EXPRESSION_SEEDS = [
    (0, 'ev.type == "send" and ev.dest == 3'), (1, 'ev.type == "send" and ev.dest ~= 3'),
    (0, 'ev.region in ("MPI_Send", "main") or not (ev.time > 1.5e-3)'),
    (0, 'ev["data1"] == "send" and -2 <= ev.tag and ev.duration < .5'),
    (1, 'not not (ev.len >= 18446744073709551615) or ev.loc == 0'),
    (0, "ev.time * 2 > 1"), (1, "ev.tag ==\n 'x\\n'"),
]


def described_seeds(seeds: Path):
    """The shipped descriptions (described_description) and traces of the test files for
    the pipit CSV (plain and quoted) and binary descriptions (described_decoder, after
    their selector byte)."""
    for description in (ROOT / "python" / "earl" / "descriptions").glob("*.toml"):
        shutil.copy(description, seeds / "described_description" / description.name)
    from test_described_access import PIPIT_CSV
    (seeds / "described_decoder" / "pipit.csv").write_bytes(b"p" + PIPIT_CSV.encode())
    from test_described_quoting import QUOTED_CSV  # quoted fields, doubled quotes
    (seeds / "described_decoder" / "quoted.csv").write_bytes(b"p" + QUOTED_CSV.encode())
    from test_described_binary import sample_records
    binary = b"EBT1\0\0\0\0" + b"".join(sample_records("<"))
    (seeds / "described_decoder" / "sample.ebt").write_bytes(b"b" + binary)


def main(build: Path):
    seeds = build.resolve() / "seeds"  # cli_fuzzer works in a directory of its own
    shutil.rmtree(seeds, ignore_errors=True)
    for target in ("alog_decoder", "clog2_decoder", "python_api", "otf2_definitions", "otf2_events", "otf_definitions",
                   "otf_events", "event_codec", "cli",
                   "chrome_json", "epilog_decoder", "expression_parser",
                   "described_description", "described_decoder", "rules_file"):
        (seeds / target).mkdir(parents=True)
    from test_check_violations import RULES
    (seeds / "rules_file" / "rules.toml").write_text(RULES)
    # expression_parser: the first byte picks the language (odd: Lua)
    for i, (language, text) in enumerate(EXPRESSION_SEEDS):
        (seeds / "expression_parser" / f"expression{i}").write_bytes(bytes([language]) + text.encode())
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
            # described_decoder: a first byte choosing the description, then the trace.
            (seeds / "described_decoder" / f"{name}.alog").write_bytes(b"a" + path.read_bytes())
        described_seeds(seeds)

        for name, path in clog2_seeds(work):
            shutil.copy(path, seeds / "clog2_decoder" / f"{name}.clog2")
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

        import otf_archives
        writer, _ = otf_archives.build_writer(work)
        for seed in range(4) if writer else ():
            script = otf_archives.random_script(seed, processes=2, steps=60)
            anchor = otf_archives.write_otf(writer, work / f"otf{seed}", script)
            shutil.copy(anchor.with_name("trace.1.events"), seeds / "otf_events" / f"random{seed}.events")
            shutil.copy(anchor.with_name("trace.0.def"), seeds / "otf_definitions" / f"random{seed}.def")

        codec_tool = build / "fuzz" / "event_codec_seeds"
        for name, path in alogs[:len(SHAPES)] + archives[:len(SHAPES)]:
            out = work / f"codec-{name}-{path.suffix[1:]}"
            out.mkdir()
            subprocess.run([str(codec_tool), str(path), str(out)], check=True)
            for stream in out.iterdir():
                shutil.copy(stream, seeds / "event_codec" / f"{out.name}-{stream.name}")
        if "chrome" in _core.generator_formats():
            chrome_seeds(work, seeds / "chrome_json")
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
