"""Described formats (docs/formats.md#described-formats): where the shipped descriptions
live, so that `format="described:alog"` finds python/earl/descriptions/alog.toml."""
import os
from pathlib import Path

FOLDER = Path(__file__).parent / "descriptions"
# The C++ core searches the folders of this variable for short names (described:NAME).
SEARCH_PATH_ENV = "EARL_DESCRIPTIONS"


def add_shipped_folder():
    """Appends the shipped descriptions' folder to EARL_DESCRIPTIONS (the user's first)."""
    folders = [f for f in os.environ.get(SEARCH_PATH_ENV, "").split(os.pathsep) if f]
    if str(FOLDER) not in folders:
        os.environ[SEARCH_PATH_ENV] = os.pathsep.join(folders + [str(FOLDER)])


def shipped():
    """The short names of the shipped descriptions (the template excluded)."""
    return sorted(p.stem for p in FOLDER.glob("*.toml") if p.stem != "template")
