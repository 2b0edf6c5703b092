"""Quoted fields in described text formats (RFC 4180): a field starting with the quote
character holds separators and blanks up to the next lone quote, a doubled quote inside is
one quote. On by default with separator ",", opt-in (or off) with [text] quote. Expected
values worked out by hand from the lines written."""
import pytest

import earl
from earl import _core
from described_helpers import events_of, text_description

# pipit's CSV as pandas writes it: C++ names holding commas or quotes are quoted.
QUOTED_CSV = ('"Timestamp (ns)",Event Type,Name,Process\n'
              '0,Enter,"foo(int, int)",0\n'
              '5, Enter , "say ""hi""" ,"1"\n'
              '7,Enter," padded ",0\n'
              '8,Leave," padded ",0\n'
              '9,Leave,"say ""hi""",1\n'
              '10,Leave,"foo(int, int)",0\n')


def test_pipit_csv_with_quoted_names(tmp_path):
    path = tmp_path / "quoted.csv"
    path.write_text(QUOTED_CSV)
    with earl.EventTrace(str(path), format="described:pipit_csv", progress=lambda f: None) as trace:
        got = [(e["type"], e["loc"], e["time"], e["region"]) for e in events_of(trace)]
    assert got == [("enter", 0, 0.0, "foo(int, int)"), ("enter", 1, 5e-9, 'say "hi"'),
                   ("enter", 0, 7e-9, " padded "), ("exit", 0, 8e-9, " padded "),
                   ("exit", 1, 9e-9, 'say "hi"'), ("exit", 0, 1e-8, "foo(int, int)")]


@pytest.mark.parametrize("line, reason", [
    ('10,Leave,"foo(int, 0\n', "unterminated quoted field 3: '\"foo(int, 0'"),
    ('10,Leave,"foo"x,0\n', "text after the closing quote of field 3: 'x,0'"),
])
def test_a_bad_quote_is_damage_naming_the_line(tmp_path, line, reason):
    path = tmp_path / "bad.csv"
    path.write_text("Timestamp (ns),Event Type,Name,Process\n0,Enter,foo,0\n" + line)
    with earl.EventTrace(str(path), format="described:pipit_csv", progress=lambda f: None) as trace:
        assert len(trace) == 1
        [entry] = trace.problems()["damaged"]["locations"]
        assert entry["message"] == (f"{path}: line 3: {reason}; the event record before it was read, line 3, "
                                    "the file's last, was not")
    with pytest.raises(earl.EarlError) as raised:
        earl.EventTrace(str(path), format="described:pipit_csv", strict=True, progress=lambda f: None)
    assert str(raised.value) == f"{path}: line 3: {reason}"


def description(separator, quote=None):
    """Enter records "k loc t r" with `separator` and, unless None, the [text] quote line."""
    text = [f'separator = "{separator}"'] + ([f"quote = {quote}"] if quote is not None else [])
    return text_description(["k string", "loc int", "t time s", "r string"],
                            [{"name": "enter", "match": "E", "event": "enter", "location": "loc", "time": "t",
                              "region": "r"}], text=text)


def read_regions(tmp_path, toml_text, text):
    (tmp_path / "d.toml").write_text(toml_text)
    (tmp_path / "t.txt").write_text(text)
    with earl.EventTrace(str(tmp_path / "t.txt"), format=f"described:{tmp_path / 'd.toml'}",
                         progress=lambda f: None) as trace:
        return [e["region"] for e in events_of(trace)]


def test_quotes_are_opt_in_for_blanks(tmp_path):
    text = "E 0 1 'my region'\nE 0 2 'it''s'\nE 0 3 plain\n"
    assert read_regions(tmp_path, description("blanks", "\"'\""), text) == ["my region", "it's", "plain"]
    # Without it, a token ends at a blank.
    assert read_regions(tmp_path, description("blanks"), "E 0 1 'my\n") == ["'my"]


def test_quote_off_for_csv(tmp_path):
    assert read_regions(tmp_path, description(",", '""'), 'E,0,1,"a"\n') == ['"a"']


@pytest.mark.parametrize("quote", ['"ab"', '","', '" "'])
def test_a_bad_quote_key_names_line_and_column(tmp_path, quote):
    text = description(",", quote)
    line = text.split("\n").index(f"quote = {quote}") + 1
    (tmp_path / "d.toml").write_text(text)
    with pytest.raises(earl.EarlError, match=rf"d\.toml:{line}:9: quote must be one character"):
        _core.check_description(str(tmp_path / "d.toml"))


def test_outline_says_fields_may_be_quoted(tmp_path):
    (tmp_path / "d.toml").write_text(description(","))
    assert "separator ',', fields may be quoted with '\"'" in _core.check_description(str(tmp_path / "d.toml"))
