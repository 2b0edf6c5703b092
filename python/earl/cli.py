"""The `earl` command: run scripts, describe, generate and convert traces, show the demo.

Every command is a module of earl/commands/ with HELP (one line), optionally DESCRIPTION,
configure(parser) and run(args) -> exit code; COMMANDS below is the one list of them. Exit codes are the same
for all: 0 done, 1 an EARL error (printed as `earl: MESSAGE` on stderr), 2 a usage error
(argparse's message), 130 Ctrl-C, 141 the reader of stdout went away (`earl ... | head`).
"""
import argparse
import os
import select
import difflib
import importlib
import sys

import earl

# command name -> module (imported when the parser is built: each adds its own arguments)
COMMANDS = {name: f"earl.commands.{name}" for name in
            ("run", "scripts", "info", "list", "check", "stats", "gen", "convert", "merge", "formats",
             "describe", "demo", "analyze", "compare", "experiment", "repl", "index")}

OK, EARL_ERROR, USAGE, INTERRUPTED, READER_GONE = 0, 1, 2, 130, 141


def build_parser():
    parser = argparse.ArgumentParser(
        prog="earl", description="EARL: analyse event traces of parallel programs.")
    parser.add_argument("--version", action="version", version=f"earl {earl.__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module_name in COMMANDS.items():
        module = importlib.import_module(module_name)
        sub = commands.add_parser(name, help=module.HELP,
                                  description=getattr(module, "DESCRIPTION", module.HELP))
        module.configure(sub)
        sub.set_defaults(run=module.run)
    return parser


def _check_command(parser, argv):
    """A mistyped command gets argparse's usage error with "did you mean" (argparse of
    Python < 3.14 has no suggest_on_error)."""
    if not argv or argv[0].startswith("-") or argv[0] in COMMANDS:
        return
    close = difflib.get_close_matches(argv[0], COMMANDS, n=1)
    if close:
        parser.error(f"argument COMMAND: invalid choice: '{argv[0]}' (did you mean {close[0]}?)")


def _message(error):
    """The error's text without a leading `earl COMMAND: ` (the library's errors say which
    command they come from; on the command line the prefix `earl: ` says it)."""
    text = str(error)
    for name in COMMANDS:
        if text.startswith(f"earl {name}: "):
            return text[len(f"earl {name}: "):]
    return text


def _printable_output():
    """Names in traces and paths may hold any bytes (carried as surrogate escapes): the
    output shows them as the bytes they are (as ls and cat do), messages as \\xNN."""
    for stream, errors in ((sys.stdout, "surrogateescape"), (sys.stderr, "backslashreplace")):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors=errors)


def _stdout_reader_gone():
    """Whether the reader of stdout has gone (`earl run SCRIPT TRACE | head`): a Lua or Tcl
    script meets the broken pipe inside its interpreter, which reports it as its error.
    A pipe whose reader has closed polls as an error for its writer."""
    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(events & select.POLLERR for _, events in poller.poll(0))
    except (AttributeError, OSError, ValueError):  # no poll, no file descriptor
        return False


def _quiet_after_broken_pipe():
    """Ends as a tool killed by SIGPIPE does: no message, exit status 128 + 13. stdout is
    pointed at /dev/null, so that Python's flush at exit has nowhere to fail."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return READER_GONE


def main(argv=None):
    """Runs the command line `argv` (default: sys.argv[1:]); returns the exit code."""
    _printable_output()
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        _check_command(parser, argv)
        args = parser.parse_args(argv)
    except SystemExit as stop:  # --help, --version, or a usage error argparse reported
        return stop.code if isinstance(stop.code, int) else USAGE
    if not getattr(args, "run", None):
        parser.print_help()
        return USAGE
    try:
        code = args.run(args)
    except BrokenPipeError:
        return _quiet_after_broken_pipe()
    except earl.EarlError as error:
        if _stdout_reader_gone():
            return _quiet_after_broken_pipe()
        print(f"earl: {_message(error)}", file=sys.stderr)
        return EARL_ERROR
    except KeyboardInterrupt:
        print("earl: interrupted", file=sys.stderr)
        return INTERRUPTED
    return OK if code is None else code


if __name__ == "__main__":
    sys.exit(main())
