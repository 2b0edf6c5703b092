"""Reads damaged OTF2 archives with EARL and with the official reader (PyPI `otf2`) and
compares them, in a child process of tests/test_damaged_archives.py (a crash or hang of
either reader then fails one test, not the run).

    python damaged_reading.py CASES.json

CASES.json: {"intact": anchor, "cases": [{"name", "anchor", and "readable" or "prefix":
records per location}]}. For each case the child prints "START name", then one line
"RESULT {json}" with the differences it found (none: the case passed).

The expectation per location: where `readable` is given (an event file cut short), the
first `readable` records the official reader reads from the intact archive: libotf2 does
not stop at a cut by itself (it reads on into whatever its chunk buffer holds past the
file's end: zeros that make a cut record look whole, or a previous chunk's bytes), so the
test works out which records lie wholly in the file. Otherwise (bytes changed, the length
unchanged; `prefix`: per location, the records before the first changed one) the records
the official reader hands out from the damaged archive, one location at a time (so that
one damaged location does not stop the others), up to the changed record. Those records
are mapped onto EARL events by tests/otf2_reference.py (the contract's rules). For a cut,
EARL must give exactly these events, the problem counts of that model, and one "damaged"
entry for each location whose records end before its announced count, naming its first
lost record; strict=True must fail naming it.
"""
from __future__ import annotations

import json
import random
import sys
import traceback
from pathlib import Path

import _otf2
import otf2

sys.path.insert(0, str(Path(__file__).resolve().parent))
from otf2_reference import Otf2Reference, check_event  # noqa: E402

import earl  # noqa: E402


def official_records(anchor, index):
    """Location `index`'s records as the official reader hands them out, up to its first
    failure (or its announced count); and whether it stopped on a library error ("otf2"),
    on a record it cannot map to its Python objects ("python"), or at the end (None)."""
    trace = otf2.reader.Reader(str(anchor), batch_events=1)
    records, stopped = [], None
    try:
        location = list(trace.definitions.locations)[index]
        reader = trace.events
        callbacks = _otf2.GlobalEvtReaderCallbacks_New()
        try:
            # Fails when the location's first record cannot be read.
            handle = trace._get_global_evt_reader_handle([location])
            reader._set_global_event_reader_callbacks(callbacks)
            _otf2.GlobalEvtReader_SetCallbacks(handle, callbacks, None)
        except _otf2.Error:
            return records, "otf2"
        finally:
            _otf2.GlobalEvtReaderCallbacks_Delete(callbacks)
        reader._handle = handle
        while len(records) < location.number_of_events:
            reader.buffer = []
            try:
                read = _otf2.GlobalEvtReader_ReadEvents(handle, 1)
            except _otf2.Error:
                stopped = "otf2"
            except Exception:  # a damaged reference the Python objects cannot resolve
                stopped = "python"
            records.extend((event.time, event) for _, event in reader.buffer)
            if stopped or read < 1:
                break
    finally:
        trace.close()
    return records, stopped


def reference_of(base, streams):
    """The model of `streams` (per location: [(time, record)]) with `base`'s definitions."""
    ref = Otf2Reference(anchor=base.anchor, resolution=base.resolution, offset=base.offset,
                        trace_length=base.trace_length, loc_ids=list(base.loc_ids),
                        locsyms=list(base.locsyms), regions=list(base.regions),
                        region_group=dict(base.region_group), groups=list(base.groups))
    ref.records_per_location = streams
    ref._map(streams, {ref_id: i for i, ref_id in enumerate(base.loc_ids)})
    return ref


def earl_reading(anchor, cache):
    trace = earl.EventTrace(str(anchor), cache=cache, progress=lambda f: None)
    events = [trace.event(pos) for pos in range(1, len(trace) + 1)]
    problems = trace.problems()
    damaged = problems.pop("damaged", {"locations": []})["locations"]
    return events, problems, damaged


def strict_error(anchor, cache):
    try:
        earl.EventTrace(str(anchor), cache=cache, strict=True, progress=lambda f: None)
    except earl.EarlError as error:
        return str(error)
    return None


LOCAL = ("pos", "enterptr", "sendptr")  # global positions: the merge of all locations


def local(event):
    return {k: v for k, v in event.items() if k not in LOCAL}


def compare_cut(case, base, intact_streams, announced):
    """A cut event file: exactly the model of the records wholly in the files."""
    anchor = case["anchor"]
    differences = []
    streams = [stream[:n] for stream, n in zip(intact_streams, case["readable"])]
    ref = reference_of(base, streams)
    # Damage shows where the records end early: at the first record not read.
    expect_damage = {loc: len(stream) + 1 for loc, stream in enumerate(streams) if len(stream) < announced[loc]}
    for cache in (True, False):
        where = f"cache={cache}"
        events, problems, damaged = earl_reading(anchor, cache)
        if len(events) != ref.m:
            differences.append(f"{where}: {len(events)} events, the official reader's records make {ref.m}")
        for pos, (g, w) in enumerate(zip(events, ref.events[1:]), 1):
            try:
                check_event(g, w, f"{where} event {pos}")
            except AssertionError as error:
                differences.append(str(error))
                break
        if problems != ref.problems():
            differences.append(f"{where}: problems {problems} != {ref.problems()}")
        got_damage = {d["loc"]: d["record"] for d in damaged}
        if got_damage != expect_damage:
            differences.append(f"{where}: damage at {got_damage} (location: first record not read), "
                               f"expected {expect_damage}; messages {[d['message'] for d in damaged]}")
        for d in damaged:
            if not d["message"].startswith(f"{anchor}: location {d['loc']} "):
                differences.append(f"{where}: message does not name the archive and location: {d['message']}")
        differences += random_access_differences(anchor, cache, ref)
        differences += strict_differences(anchor, cache, bool(damaged))
    return differences


def random_access_differences(anchor, cache, ref, probes=60):
    """Positions in a seeded random order with a bookmark every 5 events and a history of
    2: every event is reached by restoring a bookmark of the damaged archive."""
    trace = earl.EventTrace(str(anchor), cache=cache, bdist=5, hsize=2, progress=lambda f: None)
    rnd = random.Random(ref.m)
    for pos in (rnd.randint(1, ref.m) for _ in range(probes if ref.m else 0)):
        try:
            check_event(trace.event(pos), ref.event(pos), f"cache={cache} random access event {pos}")
        except AssertionError as error:
            return [str(error)]
    return []


def compare_changed(case, base, intact_streams, announced):
    """Bytes changed inside record `prefix[loc] + 1` of a location: up to it, EARL and the
    official reader read the intact records; after it each goes its own way (a changed
    record may read as another record, an unknown one or not at all), so there EARL must
    only agree with itself (cache or not) and its damage with strict."""
    anchor = case["anchor"]
    differences = []
    official = [official_records(anchor, i)[0] for i in range(len(base.loc_ids))]
    ref = reference_of(base, official)
    intact = reference_of(base, intact_streams)
    readings = {}
    for cache in (True, False):
        where = f"cache={cache}"
        events, problems, damaged = readings[cache] = earl_reading(anchor, cache)
        for loc, n in enumerate(case["prefix"]):
            got = [local(e) for e in events if e["loc"] == loc][:n]
            for name, model in (("the official reader", ref), ("the intact archive", intact)):
                want = [local(e) for e in model.events[1:] if e["loc"] == loc][:n]
                if len(got) != len(want) or len(got) < min(n, len(want)):
                    differences.append(f"{where}: location {loc}: {len(got)} of the {n} records before the "
                                       f"change read, {name} {len(want)}")
                for g, w in zip(got, want):
                    try:
                        check_event(g, w, f"{where} location {loc} against {name}")
                    except AssertionError as error:
                        differences.append(str(error))
                        break
        differences += strict_differences(anchor, cache, bool(damaged))
    if readings[True] != readings[False]:
        differences.append("the event cache and the direct reading differ")
    return differences


def strict_differences(anchor, cache, damaged):
    message = strict_error(anchor, cache)
    if damaged and (message is None or not message.startswith(f"{anchor}: location ")):
        return [f"cache={cache}: strict=True gave {message!r}, not an error naming the damage"]
    if not damaged and message is not None:
        return [f"cache={cache}: strict=True failed on an archive read whole: {message}"]
    return []


def compare(case, base, intact_streams, announced):
    if case.get("readable") is not None:
        return compare_cut(case, base, intact_streams, announced)
    return compare_changed(case, base, intact_streams, announced)


def main(spec_path):
    spec = json.loads(Path(spec_path).read_text())
    base = Otf2Reference.load(spec["intact"])
    intact_streams = base.records_per_location
    with otf2.reader.open(spec["intact"]) as trace:
        announced = [loc.number_of_events for loc in trace.definitions.locations]
    for case in spec["cases"]:
        print("START " + case["name"], flush=True)
        try:
            differences = compare(case, base, intact_streams, announced)
        except Exception:
            differences = ["traceback:\n" + traceback.format_exc()]
        print("RESULT " + json.dumps({"name": case["name"], "differences": differences}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
