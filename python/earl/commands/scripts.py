"""`earl scripts`: the scripts shipped with EARL, one line each (earl.shipped_scripts)."""
from earl.shipped_scripts import scripts_folder, shipped_scripts

HELP = "list the shipped scripts (earl run NAME TRACE runs one)"
DESCRIPTION = ("List the scripts shipped with EARL by folder: name, languages, and the first "
               "line of the script's header. `earl run NAME TRACE` runs one (NAME without "
               "extension: the Python one unless --lang says otherwise; NAME.lua, NAME.tcl: "
               "that language).")


def configure(parser):
    pass


def _rows():
    """name -> (languages, description), in the order shipped_scripts gives (by folder)."""
    rows = {}
    for name, language, description in shipped_scripts():
        languages, first = rows.get(name, ([], description))
        rows[name] = (languages + [language], first or description)
    return rows


def run(args):
    rows = _rows()
    width = max(len(name) for name in rows)
    language_width = max(len(" ".join(languages)) for languages, _ in rows.values())
    folder = None
    for name, (languages, description) in rows.items():
        here = "scripts/" + (name.rsplit("/", 1)[0] + "/" if "/" in name else "")
        if here != folder:
            print(("\n" if folder else "") + here)
            folder = here
        print(f"  {name:<{width}}  {' '.join(languages):<{language_width}}  {description}")
    print(f"\nearl run NAME TRACE runs one (the Python one unless NAME.lua, NAME.tcl or "
          f"--lang says otherwise); they are in {scripts_folder()}")
    return 0
