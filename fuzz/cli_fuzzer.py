"""atheris target: the `earl` command line (earl.cli.main), in process, on random argument
lists.

Each input byte picks one word of a small vocabulary: the subcommands, every option the
parser of each subcommand declares, values (numbers at and beyond the limits, nan, empty,
format names, shipped script names), small real traces (ALOG and OTF2), outputs in the
work directory and hostile paths (missing, a directory, /dev/null, a newline, bytes that
are not UTF-8, a very long name). The first byte picks the subcommand. Whatever the words,
main() must return 0, 1 with one line `earl: MESSAGE` on stderr, or 2 (a usage error), and
print no traceback; an exception escaping main, a crash or a hang (-timeout) is a finding.
`demo` is left out (it runs for seconds by design); `repl` reads an empty stdin; under
`run` the script's own exit status and messages are its own (no traceback still holds).

Run: python fuzz/cli_fuzzer.py CORPUS_DIR [SEED_DIR] -max_total_time=60 (`make fuzz` does
it; seeds: fuzz/seed_corpora.py writes the byte strings of sensible command lines, made by
seed_inputs()).
"""
import contextlib
import io
import os
import stat
import sys
import tempfile

earl_cli = None  # imported by main() under atheris' instrumentation, or by setup()
WORK = tempfile.TemporaryDirectory(prefix="earl-cli-fuzz-")
LEFT_OUT = {"demo"}
CODES = {0, 1, 2}


def _traces(work):
    """Small real traces in `work`: an ALOG and, where this build writes OTF2, an archive."""
    from earl import _core
    from earl.generate import generate
    paths = [os.path.join(work, "in.alog")]
    generate(paths[0], locations=3, events=200, seed=1)
    if "otf2" in _core.generator_formats():
        paths.append(os.path.join(work, "in.otf2"))
        generate(paths[1], locations=2, events=120, seed=2, threads=2)
    return paths


def _vocabulary(parser, work, traces):
    """(subcommands, words): the words any position may take."""
    import argparse
    subcommands = sorted(name for name in earl_cli.COMMANDS if name not in LEFT_OUT)
    options = set()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                if name in subcommands:
                    for sub_action in sub._actions:
                        options.update(sub_action.option_strings)
    script = os.path.join(work, "prints.py")
    with open(script, "w") as out:
        out.write("import sys\nprint(sys.argv[1:])\n")
    values = ["0", "1", "2", "3", "-1", "7", "100", "2000", "0.5", "1e308", "-1e308", "nan", "inf",
              "18446744073709551615", "18446744073709551616", "-9223372036854775809", "", " ", "x",
              "alog", "otf2", "native", "scripts", "clean", "python", "lua", "tcl",
              "wasted_time", "wasted_time.lua", "wasted_time.tcl", "no_such_script", script]
    outputs = [os.path.join(work, name) for name in
               ("out.alog", "out.otf2", "out.html", "out.cubex", "out.json", "out")]
    hostile = ["/nonexistent/dir/x.alog", work, os.devnull, os.path.join(work, "new\nline.alog"),
               os.path.join(work, "bytes-\udcff\udcfe.alog"), os.path.join(work, "x" * 300 + ".alog"),
               "-", "--", "-h"]
    words = subcommands + sorted(options) + values + traces + outputs + hostile
    return subcommands, words


_state = {}


def setup():
    """Imports earl and builds the vocabulary (once per process)."""
    global earl_cli
    if _state:
        return _state
    import earl.cli
    earl_cli = earl.cli
    os.environ["EARL_INDEX_DIR"] = os.path.join(WORK.name, "indexes")  # `index clean` stays here
    os.chdir(WORK.name)  # relative outputs land in the work directory
    traces = _traces(WORK.name)
    _state["subcommands"], _state["words"] = _vocabulary(earl_cli.build_parser(), WORK.name, traces)
    return _state


def argv_of(data: bytes):
    state = setup()
    if not data:
        return []
    subcommands, words = state["subcommands"], state["words"]
    return [subcommands[data[0] % len(subcommands)]] + [words[b % len(words)] for b in data[1:12]]


def seed_inputs():
    """Byte strings of sensible command lines (fuzz/seed_corpora.py writes them)."""
    state = setup()
    subcommands, words = state["subcommands"], state["words"]
    lines = [["info", "in.alog"], ["info", "--json", "in.otf2"], ["analyze", "in.alog"],
             ["analyze", "in.alog", "--json"], ["convert", "in.alog", "out.otf2"],
             ["convert", "in.otf2", "out.alog"], ["gen", "out.alog", "-e", "100"], ["scripts"],
             ["run", "wasted_time", "in.alog"], ["repl", "in.alog"], ["index", "clean"],
             ["list", "in.alog"], ["list", "in.otf2", "--as", "jsonl"], ["check", "in.alog"]]
    seeds = []
    for line in lines:
        full = [line[0]] + [next((w for w in words if w == word or w.endswith("/" + word)), word)
                            for word in line[1:]]
        if all(word in words for word in full[1:]) and full[0] in subcommands:
            seeds.append(bytes([subcommands.index(full[0])] + [words.index(w) for w in full[1:]]))
    return seeds


def check(data: bytes):
    argv = argv_of(data)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            open(os.devnull) as stdin:
        saved, sys.stdin = sys.stdin, stdin
        try:
            code = earl_cli.main(argv)
        except SystemExit:  # `earl run`: the script's own sys.exit is the exit status
            if argv[0] != "run":
                raise
            code = None
        finally:
            sys.stdin = saved
    text = err.getvalue()
    assert "Traceback" not in text, (argv, text)
    # An output named /dev/null must not replace the device (staged outputs rename).
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode), (argv, "/dev/null is no longer a device")
    if argv and argv[0] == "run":  # the script's own messages and status are its own
        return
    assert code in CODES, (argv, code, text)
    if code == 1:
        errors = [line for line in text.splitlines() if line.startswith("earl: ")]
        assert len(errors) == 1 and text.endswith("\n") and "\n" not in errors[0], (argv, text)


def main():
    import atheris
    from python_api_fuzzer import instrument_earl
    setup()
    instrument_earl(atheris)
    atheris.Setup(sys.argv, atheris.instrument_func(check))
    atheris.Fuzz()


if __name__ == "__main__":
    main()
