"""The scripts that ship with EARL (the repository's scripts/, installed as earl/scripts) and
the one table of script languages: find a script by name, tell its language, list them.

    find_script("wasted_time")            # the shipped wasted_time.py (Python wins a tie)
    find_script("wasted_time", "lua")     # the shipped wasted_time.lua
    find_script("my.py")                  # a path that exists wins over a shipped name
    language_of("x.tcl")                  # "tcl"

Every shipped script starts with a header (a Python docstring, else `--` or `#` comment
lines after an optional #! line) whose first line is its one-line description.
"""
import difflib
import os
from pathlib import Path

from earl import EarlError

# script file extension -> language; a tie between languages goes to the first listed
EXTENSIONS = {".py": "python", ".lua": "lua", ".tcl": "tcl"}
LANGUAGES = tuple(EXTENSIONS.values())

_COMMENT = {"python": "#", "lua": "--", "tcl": "#"}


def language_of(path, lang=None):
    """The language to run `path` in: `lang` when given, else its extension's, else Tcl for
    a script whose #! line names earl, tclsh or wish (1998's EARL was a tclsh)."""
    if lang is not None:
        if lang not in LANGUAGES:
            raise EarlError(f"unknown language {lang!r} (one of {', '.join(LANGUAGES)})")
        return lang
    path = os.fspath(path)
    extension = os.path.splitext(path)[1].lower()
    if extension in EXTENSIONS:
        return EXTENSIONS[extension]
    from earl import tcl

    if tcl.is_tcl_script(path):
        return "tcl"
    raise EarlError(f"{path}: cannot tell the script's language (name it "
                    f"{', '.join(EXTENSIONS)}, or give --lang {'|'.join(LANGUAGES)})")


def scripts_folder():
    """Where the shipped scripts are. In a checkout (an editable install) that is the
    repository's scripts/, so edits take effect at once; otherwise earl/scripts in the
    installed package (an editable install spreads the package over several folders, so
    every folder of it is looked at)."""
    import earl

    package = Path(earl.__file__).resolve().parent
    checkout = package.parent.parent
    candidates = []
    if (checkout / "pyproject.toml").is_file():
        candidates.append(checkout / "scripts")
    candidates += [Path(folder) / "scripts" for folder in earl.__path__]
    for folder in candidates:
        if folder.is_dir() and any(_is_script(p) for p in folder.iterdir()):
            return folder
    raise EarlError("the example scripts are not installed with this earl package (no "
                    f"scripts/ in {', '.join(earl.__path__)}); reinstall earl")


def _is_script(path):
    return path.is_file() and path.suffix in EXTENSIONS


def _shipped_files():
    """(name without extension, relative to the scripts folder with / as separator, path)
    of every shipped script, sorted by folder then name."""
    folder = scripts_folder()
    found = [p for p in folder.rglob("*") if _is_script(p) and "__pycache__" not in p.parts]
    found = [(p.relative_to(folder).with_suffix("").as_posix(), p) for p in found]
    return sorted(found, key=lambda item: (item[0].count("/"), item[0],
                                           LANGUAGES.index(EXTENSIONS[item[1].suffix])))


def description(path):
    """The first line of the script's header: its one-line description ("" if none)."""
    path = Path(path)
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    if lines and lines[0].startswith("#!"):
        lines = lines[1:]
    if not lines:
        return ""
    first = lines[0].strip()
    if EXTENSIONS[path.suffix] == "python":
        for quote in ('"""', "'''"):
            if first.startswith(quote):
                return first[len(quote):].split(quote)[0].strip()
    marker = _COMMENT[EXTENSIONS[path.suffix]]
    if first.startswith(marker):
        return first[len(marker):].strip()
    return ""


def shipped_scripts():
    """Every shipped script as (name, language, one-line description): name relative to
    the scripts folder without extension (e.g. "wasted_time", "patterns/late_sender")."""
    return [(name, EXTENSIONS[path.suffix], description(path))
            for name, path in _shipped_files()]


def _shipped_by_name(name, lang):
    """The shipped script NAME (with or without extension, with or without its folder when
    that is unambiguous) in language `lang` (None: the first language that has it)."""
    stem, extension = os.path.splitext(name.replace(os.sep, "/"))
    if extension.lower() not in EXTENSIONS:
        stem, extension = name.replace(os.sep, "/"), ""
    files = _shipped_files()
    matches = [(n, p) for n, p in files if n == stem]
    if not matches:
        matches = [(n, p) for n, p in files if n.rsplit("/", 1)[-1] == stem]
        if len({n for n, _ in matches}) > 1:
            raise EarlError(f"{name} names several shipped scripts: "
                            f"{', '.join(sorted({n for n, _ in matches}))}")
    if extension:
        matches = [(n, p) for n, p in matches if p.suffix == extension.lower()]
    elif lang is not None and matches:
        languages = [EXTENSIONS[p.suffix] for _, p in matches]
        if lang not in languages:
            raise EarlError(f"the shipped script {name} is not written in {lang} "
                            f"(only in {', '.join(languages)})")
        matches = [(n, p) for n, p in matches if EXTENSIONS[p.suffix] == lang]
    return matches[0][1] if matches else None


def find_script(name, lang=None):
    """The path of the script `name`: a file that exists, else a shipped script by name
    (with or without extension: without, the one in `lang`, else in the first language of
    LANGUAGES that has it). An unknown name raises EarlError with the closest names."""
    if os.path.isfile(name):
        return os.fspath(name)
    found = _shipped_by_name(name, lang)
    if found is not None:
        return str(found)
    names = set()
    for shipped, path in _shipped_files():
        names |= {shipped, shipped + path.suffix, shipped.rsplit("/", 1)[-1]}
    close = difflib.get_close_matches(name, sorted(names), n=1)
    hint = f"; did you mean {close[0]}?" if close else ""
    raise EarlError(f"no such script: {name} (earl scripts lists the shipped ones{hint})")
