"""The `earl` command: run scripts, describe traces, generate traces, show the demo."""
import argparse
import os
import runpy
import sys

import earl


def _run(args):
    """Runs an EARL script the way the interpreter would, with its own argv."""
    script = args.script
    if not os.path.isfile(script):
        raise earl.EarlError(f"{script}: no such script")
    if not script.endswith(".py"):
        raise earl.EarlError(f"{script}: only Python scripts (.py) are supported so far")
    saved_argv = sys.argv
    sys.argv = [script] + list(args.arguments)
    try:
        runpy.run_path(script, run_name="__main__")
    finally:
        sys.argv = saved_argv
    return 0


def _info(args):
    from earl.info import describe

    for index, path in enumerate(args.traces):
        if index:
            print()
        with earl.EventTrace(path, format=args.format, cache=not args.no_cache) as trace:
            print(describe(trace))
    return 0


def _demo(args):
    from earl import demo

    return demo.main(args)


def build_parser():
    parser = argparse.ArgumentParser(
        prog="earl", description="EARL: analyse event traces of parallel programs.")
    parser.add_argument("--version", action="version", version=f"earl {earl.__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    run = commands.add_parser("run", help="run an EARL script: earl run SCRIPT TRACE...")
    run.add_argument("script")
    run.add_argument("arguments", nargs=argparse.REMAINDER)
    run.set_defaults(func=_run)

    info = commands.add_parser("info", help="describe traces: format, locations, events, ...")
    info.add_argument("traces", nargs="+", metavar="TRACE")
    info.add_argument("--format", default=None, help="trace format (default: detect)")
    info.add_argument("--no-cache", action="store_true",
                      help="read OTF2 directly instead of through EARL's event cache in $TMPDIR")
    info.set_defaults(func=_info)

    from earl import generate
    from earl import convert

    generate.add_parser(commands)
    convert.add_parser(commands)

    demo = commands.add_parser("demo", help="generate a trace and run the example scripts on it")
    demo.add_argument("--output", default="demo-output", help="directory for the demo's files")
    demo.add_argument("--events", type=int, default=200000, help="size of the demo trace")
    demo.set_defaults(func=_demo)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return args.func(args) or 0
    except earl.EarlError as error:
        print(f"earl: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("earl: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
