"""atheris target: EARL's Python API (earl.EventTrace, earl.P2Statistic) on any ALOG text.

Every input is written to a file and opened as a trace. Opening either raises
earl.EarlError or gives a trace on which, whatever the text held:
- a scan with next() and random access with event(pos) in a shuffled order read the same
  events, and stack()/queue() answer the same in either order (random access is the scan);
- positions outside 1..len raise EarlError;
- a P2Statistic fed the event times has their count, min and max;
- after close() every call raises EarlError.
Any other exception, a crash or a hang is a finding (atheris reports it and keeps the
input). Python code is instrumented for coverage; the C++ core is not (the libFuzzer
targets of fuzz/ cover it).

Run: python fuzz/python_api_fuzzer.py CORPUS_DIR [SEED_DIR] -max_total_time=60
(`make fuzz` does it with the seeds of fuzz/seed_corpora.py); replay: pass files instead.
tests/test_fuzz_regressions.py replays fuzz/regressions/python_api/ through check()
without atheris.
"""
import hashlib
import os
import random
import sys
import tempfile

earl = None  # imported by main() under atheris' instrumentation, or by check() without it

# Positions read by random access per input: enough to mix seeks, bounded for speed.
MAX_PROBES = 40
WORK = tempfile.TemporaryDirectory(prefix="earl-atheris-")
PATH = os.path.join(WORK.name, "input.alog")


def expect_earl_error(call, *args):
    try:
        call(*args)
    except earl.EarlError:
        return
    raise AssertionError(f"{call.__name__}{args} did not raise EarlError")


def states(trace, loc_pairs, pos):
    return ([trace.stack(loc, pos) for loc in range(trace.nrlocs())],
            [trace.queue(src, dest, pos) for src, dest in loc_pairs])


def check(data: bytes):
    global earl
    if earl is None:
        import earl
    with open(PATH, "wb") as out:
        out.write(data)
    try:
        trace = earl.EventTrace(PATH, format="alog")
    except earl.EarlError:
        return
    n = len(trace)
    locs = trace.nrlocs()
    pairs = [(s, d) for s in range(min(locs, 3)) for d in range(min(locs, 3)) if s != d]

    scanned = []
    trace.reset()
    while trace.next():
        scanned.append(trace.event())
    assert len(scanned) == n, (len(scanned), n)

    rng = random.Random(hashlib.sha256(data).digest())
    probes = rng.sample(range(1, n + 1), min(n, MAX_PROBES))
    shuffled = {pos: (trace.event(pos), states(trace, pairs, pos)) for pos in probes}
    for pos in sorted(probes):
        event, state = shuffled[pos]
        assert event == scanned[pos - 1], (pos, event, scanned[pos - 1])
        assert state == states(trace, pairs, pos), pos

    for pos in (0, n + 1, -1):
        expect_earl_error(trace.event, pos)
    trace.problems()
    trace.bookmarks()
    for loc in range(locs):
        trace.locsym(loc)

    times = [e["time"] for e in scanned]
    stat = earl.P2Statistic()
    stat.add_many(times)
    assert stat.count() == len(times)
    if times:
        assert stat.min() == min(times) and stat.max() == max(times), (stat.min(), stat.max())

    trace.close()
    expect_earl_error(trace.event, 1)
    expect_earl_error(len, trace)


def instrument_earl(atheris):
    """Coverage instrumentation of the earl package's Python functions, in place. (earl is
    often an editable install, whose import hook instrument_imports() skips, and
    instrument_all() spends seconds on numpy and the rest.)"""
    import inspect
    import types
    for name, module in list(sys.modules.items()):
        if name != "earl" and not name.startswith("earl."):
            continue
        for value in list(vars(module).values()):
            members = vars(value).values() if inspect.isclass(value) else [value]
            for member in members:
                member = getattr(member, "fget", member)  # properties
                member = getattr(member, "__func__", member)  # static and class methods
                if isinstance(member, types.FunctionType) and member.__module__ == name:
                    atheris.instrument_func(member)


def main():
    global earl
    import atheris
    import earl
    instrument_earl(atheris)
    atheris.Setup(sys.argv, atheris.instrument_func(check))
    atheris.Fuzz()


if __name__ == "__main__":
    main()
