"""Runs an EARL script in Python, Lua or Tcl, in this process (`earl run SCRIPT ARGS...`).

earl.shipped_scripts finds the script (a path, or a shipped script by name) and tells its
language. A Python script runs as `python SCRIPT` would run it (its folder first on
sys.path, so it imports its neighbours). One that fails raises ScriptFailed with a
traceback of the script's own frames only (the frames of earl, runpy and the command line
are not the user's); an EarlError it does not catch (a trace that cannot be read, ...) is
one line naming the script's line, as Lua's and Tcl's errors are.
"""
import os
import runpy
import sys
import traceback
from pathlib import Path


class ScriptFailed(Exception):
    """A Python script raised an exception; `report` is its traceback as Python prints it,
    without the frames that are not the user's."""

    def __init__(self, report):
        super().__init__(report)
        self.report = report


def _earl_folders():
    import earl
    from earl import _core

    return {str(Path(module.__file__).resolve().parent) + os.sep for module in (earl, _core)}


def _user_frames(error, script):
    """The frames of `error`'s traceback from the first frame of `script` on, without
    earl's own."""
    frames = traceback.extract_tb(error.__traceback__)
    script = os.path.abspath(script)
    first = next((i for i, frame in enumerate(frames)
                  if os.path.abspath(frame.filename) == script), len(frames))
    earl_folders = tuple(_earl_folders())
    return [frame for frame in frames[first:]
            if not os.path.abspath(frame.filename).startswith(earl_folders)]


def user_traceback(error, script):
    """What the user sees of `error`: for an EarlError, `FILE:LINE: message` (the
    innermost line of the user's code); else the traceback of the user's frames (a
    SyntaxError in the script has no frame of it: its message names the line)."""
    kept = _user_frames(error, script)
    from earl import EarlError

    if isinstance(error, EarlError):
        where = f"{kept[-1].filename}:{kept[-1].lineno}: " if kept else ""
        return f"earl: {where}{error}\n"
    lines = ["Traceback (most recent call last):\n"] if kept else []
    lines += traceback.format_list(kept)
    lines += traceback.format_exception_only(type(error), error)
    return "".join(lines)


def run_python_as_main(script, arguments):
    """Runs `script` as `python SCRIPT ARGS` would: ARGS in sys.argv, the script's folder
    first on sys.path (so it imports its neighbours); both restored afterwards. Its errors
    propagate as they are (the REPL and the command line show them each in their way)."""
    saved_argv, saved_path = sys.argv, list(sys.path)
    sys.argv = [script] + list(arguments)
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    try:
        runpy.run_path(script, run_name="__main__")
    finally:
        sys.argv = saved_argv
        sys.path[:] = saved_path


def run_python(script, arguments):
    try:
        run_python_as_main(script, arguments)
    except (SystemExit, KeyboardInterrupt, BrokenPipeError):  # the command line's to handle
        raise
    except BaseException as error:  # the user's error: shown as theirs, not as earl's
        raise ScriptFailed(user_traceback(error, script)) from None


def run_lua(script, arguments):
    from earl import lua

    lua.run(script, arguments)


def run_tcl(script, arguments):
    from earl import tcl

    tcl.run(script, arguments)


RUNNERS = {"python": run_python, "lua": run_lua, "tcl": run_tcl}
