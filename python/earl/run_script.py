"""Runs an EARL script in Python, Lua or Tcl, in this process (`earl run SCRIPT ARGS...`).

The language comes from --lang, else from the script's extension (.py, .lua, .tcl), else
from its first line: `#!/usr/local/bin/earl` was the 1998 EARL interpreter, a tclsh with
EARL built in, so such a script is Tcl, as is one naming tclsh or wish (earl.tcl decides).
"""
import os
import runpy
import sys

from earl import EarlError

LANGUAGES = {".py": "python", ".lua": "lua", ".tcl": "tcl"}


def language_of(script):
    extension = os.path.splitext(script)[1].lower()
    if extension in LANGUAGES:
        return LANGUAGES[extension]
    from earl import tcl

    if tcl.is_tcl_script(script):
        return "tcl"
    raise EarlError(f"{script}: cannot tell the script's language (name it .py, .lua or .tcl, "
                    "or give --lang python|lua|tcl)")


def run_python(script, arguments):
    saved_argv = sys.argv
    sys.argv = [script] + list(arguments)
    try:
        runpy.run_path(script, run_name="__main__")
    finally:
        sys.argv = saved_argv


def run_lua(script, arguments):
    from earl import lua

    lua.run(script, arguments)


def run_tcl(script, arguments):
    from earl import tcl

    tcl.run(script, arguments)


RUNNERS = {"python": run_python, "lua": run_lua, "tcl": run_tcl}
