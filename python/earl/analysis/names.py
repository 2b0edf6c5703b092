"""How the report shows a trace's names: one form for every output (text, JSON, HTML, Cube).

A name in a trace is any bytes (docs/robustness.md#names); Python receives bytes that are
not UTF-8 as surrogate escapes (U+DC80..U+DCFF, as os.fsdecode gives them). No report output
can carry those: JSON and HTML must be valid UTF-8, XML 1.0 (Cube's anchor.xml) allows no
control character but tab, LF and CR, not even as a character reference, and control bytes
in a terminal's output move the cursor or change colours. So the report shows each name in
a visible, printable form: a byte that is not UTF-8 and every control character (C0, DEL)
as \\xNN (the byte), a C1 control or a lone surrogate as \\uNNNN; everything else as it is.
The form is applied once, where a result enters the Report (Report.__init__), so every view
and a JSON report read back (Report.from_json) hold the same names. It is for reading, not
reversible: a name that holds the text "\\x01" shows as the one holding the byte 0x01.
"""
import re

# Control characters (C0, DEL, C1) and every surrogate: nothing else needs escaping.
_UNSHOWN = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def _shown_char(match):
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:          # a surrogate escape: the byte code - 0xDC00
        return "\\x%02x" % (code - 0xDC00)
    return "\\x%02x" % code if code < 0x80 else "\\u%04x" % code


def shown(name):
    """`name` (a str, possibly with surrogate escapes) as every report output shows it."""
    return _UNSHOWN.sub(_shown_char, name)


def shown_result(raw):
    """An EngineResult (report_schema, rows as its NamedTuples) with every name it holds
    from the trace in the shown form: the file, regions, locations, damage lines, the
    counters' and regions' texts, the system tree's names. Ids (metrics, problems) are
    EARL's own ASCII and stay."""
    out = dict(raw)
    out["file"] = shown(raw["file"])
    out["regions"] = [shown(r) for r in raw["regions"]]
    out["locations"] = [shown(n) for n in raw["locations"]]
    if "damaged" in raw:
        out["damaged"] = [shown(line) for line in raw["damaged"]]
    if "counters" in raw:
        out["counters"] = [dict(c, name=shown(c["name"]), unit=shown(c["unit"]),
                                description=shown(c["description"])) for c in raw["counters"]]
    if "region_details" in raw:
        out["region_details"] = [d._replace(canonical_name=shown(d.canonical_name), file=shown(d.file),
                                            description=shown(d.description))
                                 for d in raw["region_details"]]
    if "system_tree" in raw:
        tree = raw["system_tree"]
        out["system_tree"] = dict(
            tree, levels=[lv._replace(name=shown(lv.name), kind=shown(lv.kind)) for lv in tree["levels"]],
            processes=[p._replace(name=shown(p.name)) for p in tree["processes"]])
    return out
