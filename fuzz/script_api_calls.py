"""What the Lua and Tcl API targets share: a few small traces, written once per process
(the generator's shapes, one with a region name that is not UTF-8, one with a clock that
goes backwards), and the hostile argument values calls are made of. A call sequence is
decoded from the fuzzer's bytes with atheris.FuzzedDataProvider: which trace, then
(method, arguments) pairs; a method or a value is an index into the lists here."""
import os
import tempfile

WORK = tempfile.TemporaryDirectory(prefix="earl-script-fuzz-")

# Calls per input: enough for a trace's iterator to wander, bounded for speed.
MAX_CALLS = 24
MAX_ARGUMENTS = 4


def traces():
    """Paths of the small traces every input chooses from."""
    import earl.generate

    paths = []
    for i, shape in enumerate([dict(locations=2, events=40, seed=1),
                               dict(locations=3, events=60, seed=2, pattern="neighbors"),
                               dict(locations=2, events=60, seed=3, threads=2)]):
        path = os.path.join(WORK.name, f"gen{i}.alog")
        earl.generate.generate(path, format="alog", truth_path=path + ".json", **shape)
        paths.append(path)
    odd = os.path.join(WORK.name, "odd.alog")
    with open(odd, "wb") as out:  # a name that is not UTF-8, a time going backwards, a stray recv
        out.write(b"-3 0 0 2 0 0\n-13 0 1 2 0 0 gray:solid ma\xffin\n-15 1 0 0 0 0 w\xfe\n"
                  b"1 0 0 0 0 5\n1 1 0 0 0 4\n-102 1 0 0 0 3 7 18446744073709551615\n2 0 0 0 0 2\n")
    paths.append(odd)
    return paths


def sequence(fdp, methods, values):
    """[(method, [argument, ...]), ...] drawn from the provider."""
    calls = []
    for _ in range(fdp.ConsumeIntInRange(0, MAX_CALLS)):
        if fdp.remaining_bytes() == 0:
            break
        method = methods[fdp.ConsumeIntInRange(0, len(methods) - 1)]
        arguments = [values[fdp.ConsumeIntInRange(0, len(values) - 1)]
                     for _ in range(fdp.ConsumeIntInRange(0, MAX_ARGUMENTS))]
        calls.append((method, arguments))
    return calls
