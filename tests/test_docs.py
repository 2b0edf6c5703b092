"""The documentation's promises: every relative link in README.md, cpp/README.md and
docs/**/*.md reaches a file (and heading) of the repository; the README stays a user guide
(at most 400 lines, nothing outside the repository); docs/cli.md names every command and
every option its --help prints; every `earl ...` shell line in a code block names a real
command; cpp/README.md's "may use" column is what tests/test_layers.py checks the build
against."""
import argparse
import re
from pathlib import Path

import pytest

from earl import cli
from test_layers import ALLOWED, LAYERS

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
CLI_PAGE = ROOT / "docs" / "cli.md"
PAGES = [README, ROOT / "cpp" / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]

LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def heading_anchors(text):
    """The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces
    as hyphens, a repeated anchor numbered -1, -2, ..."""
    anchors, seen = set(), {}
    for line in prose_lines(text):
        match = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not match:
            continue
        slug = re.sub(r"[^\w\- ]", "", match.group(1).lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        anchors.add(slug if count == 0 else f"{slug}-{count}")
    return anchors


def prose_lines(text):
    """The lines outside fenced code blocks."""
    inside = False
    for line in text.splitlines():
        if FENCE.match(line):
            inside = not inside
        elif not inside:
            yield line


def code_lines(text):
    """The lines of fenced code blocks and of indented (4 spaces) blocks."""
    inside, previous_blank, indented = False, True, False
    for line in text.splitlines():
        if FENCE.match(line):
            inside = not inside
            continue
        if inside:
            yield line
            continue
        if line.startswith("    ") and (previous_blank or indented):
            indented = True
            yield line
        elif line.strip():
            indented = False
        previous_blank = not line.strip()


def broken_links(page):
    """(target, reason) of every relative link of `page` that does not resolve."""
    broken = []
    text = page.read_text()
    for target in LINK.findall("\n".join(prose_lines(text))):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto: ...
            continue
        path_part, _, anchor = target.partition("#")
        resolved = (page.parent / path_part).resolve() if path_part else page
        if not resolved.is_relative_to(ROOT):
            broken.append((target, "outside the repository"))
        elif not resolved.exists():
            broken.append((target, "no such file"))
        elif anchor and resolved.suffix == ".md" and anchor not in heading_anchors(resolved.read_text()):
            broken.append((target, f"no heading #{anchor} in {resolved.name}"))
    return broken


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves_inside_the_repository(page):
    assert broken_links(page) == []


def test_the_link_check_finds_broken_links(tmp_path, monkeypatch):
    """The check above can fail: a missing file, a missing heading and a path leaving the
    repository are each reported."""
    monkeypatch.setattr(__import__(__name__), "ROOT", tmp_path)
    (tmp_path / "other.md").write_text("# A heading\n")
    page = tmp_path / "page.md"
    page.write_text("[ok](other.md#a-heading) [gone](missing.md) [anchor](other.md#nope) "
                    "[out](../elsewhere.md) [web](https://example.org/x)\n"
                    "```\n[in code](not-checked.md)\n```\n")
    assert broken_links(page) == [("missing.md", "no such file"),
                                  ("other.md#nope", "no heading #nope in other.md"),
                                  ("../elsewhere.md", "outside the repository")]


def test_readme_is_a_user_guide_inside_the_repository():
    text = README.read_text()
    assert len(text.splitlines()) <= 400
    assert "../shared" not in text
    for diary in ("how it got here", "tried and reverted"):
        assert diary not in text.lower()


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_page_points_outside_the_repository(page):
    assert "../shared" not in page.read_text()


def subcommand_parsers():
    """{name: parser} of every `earl` command, from the command line's own parser."""
    parser = cli.build_parser()
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return subparsers.choices


def section(text, command):
    """The part of docs/cli.md under the heading `## earl COMMAND`, up to the next `## `."""
    match = re.search(rf"^## earl {re.escape(command)}\s*$(.*?)(?=^## |\Z)", text, re.M | re.S)
    return match.group(1) if match else None


def documented_words(parser):
    """Every option string and every choice `earl COMMAND --help` prints."""
    words = set()
    for action in parser._actions:
        words.update(action.option_strings)
        if action.choices and not isinstance(action, argparse._SubParsersAction):
            words.update(str(choice) for choice in action.choices)
    return words


def mentions(text, word):
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) is not None


@pytest.mark.parametrize("command", sorted(cli.COMMANDS))
def test_cli_page_has_every_command_and_every_option(command):
    text = section(CLI_PAGE.read_text(), command)
    assert text is not None, f"docs/cli.md has no section '## earl {command}'"
    parser = subcommand_parsers()[command]
    missing = sorted(word for word in documented_words(parser) if not mentions(text, word))
    assert missing == [], f"earl {command} --help prints {missing}, docs/cli.md's section does not"


def test_cli_page_documents_no_command_that_does_not_exist():
    headings = re.findall(r"^## earl (\S+)", CLI_PAGE.read_text(), re.M)
    assert sorted(headings) == sorted(cli.COMMANDS)


def test_the_option_check_finds_a_missing_option():
    parser = argparse.ArgumentParser()
    parser.add_argument("--shown")
    parser.add_argument("--engine", choices=["native", "scripts"])
    text = "`--shown X` and `--engine native` (a `--shown-more` does not count)"
    assert sorted(w for w in documented_words(parser) if not mentions(text, w)) == [
        "--help", "-h", "scripts"]


def earl_command_lines(text):
    """The shell lines of code blocks that run `earl` (a leading `$ ` allowed)."""
    for line in code_lines(text):
        words = line.strip().removeprefix("$ ").split()
        if words and words[0] == "earl":
            yield line.strip()


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_earl_command_in_a_code_block_exists(page):
    known = set(cli.COMMANDS) | {"--version", "--help", "-h", "COMMAND"}
    unknown = [line for line in earl_command_lines(page.read_text())
               if line.removeprefix("$ ").split()[1:2] and line.removeprefix("$ ").split()[1] not in known]
    assert unknown == []


def test_the_command_check_sees_indented_and_fenced_blocks():
    text = ("Prose about earl nothing here.\n\n    earl info run.otf2\n    $ earl nosuch x\n\n"
            "```sh\nearl analyze t\n```\n")
    assert list(earl_command_lines(text)) == ["earl info run.otf2", "$ earl nosuch x",
                                              "earl analyze t"]


def test_cpp_readme_says_what_each_layer_may_use_as_the_build_checks():
    rows = {}
    for line in (ROOT / "cpp" / "README.md").read_text().splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0] in LAYERS:
            folder = cells[1].strip("`").rstrip("/")
            uses = set() if cells[3] == "(nothing)" else {u.strip() for u in cells[3].split(",")}
            rows[cells[0]] = (folder, uses)
    assert set(rows) == set(LAYERS)
    for layer, (folder, uses) in rows.items():
        assert folder == LAYERS[layer][0], layer
        assert uses == ALLOWED[layer], layer


def table_rows(text):
    """The cells of every markdown table row of `text` (header and rule rows included)."""
    return [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in text.splitlines() if line.lstrip().startswith("|")]


def test_analysis_page_lists_every_metric_with_its_parent():
    """docs/analysis.md's metric table against the engine's own table (earl.analysis.metrics)."""
    from earl.analysis import metrics

    documented = {}
    for cells in table_rows((ROOT / "docs" / "analysis.md").read_text()):
        ids = re.findall(r"`(\w+)`", cells[0])
        if len(cells) == 4 and ids and cells[2] in ("s", "count", "bytes"):
            for metric in ids:
                documented[metric] = cells[1] or None
    assert documented == {m["id"]: m["parent"] for m in metrics()}


def tiny_trace(tmp_path):
    trace = tmp_path / "tiny.alog"
    trace.write_text("-3 0 0 2 0 0\n-13 0 1 2 0 0 c:p MPI_Recv\n"
                     "1 1 0 0 0 7\n-102 1 0 0 0 8 1 8\n2 1 0 0 0 9\n")
    return trace


def test_robustness_page_explains_every_kind_of_problem(tmp_path):
    from earl import EventTrace

    with EventTrace(str(tiny_trace(tmp_path))) as trace:
        kinds = set(trace.problems())
    documented = {cells[0].strip("`") for cells in table_rows((ROOT / "docs" / "robustness.md").read_text())}
    assert kinds <= documented


def test_analysis_page_names_every_problem_the_report_counts(tmp_path):
    import earl

    problems = earl.analyze(str(tiny_trace(tmp_path)), progress=lambda fraction: None).problems
    text = (ROOT / "docs" / "analysis.md").read_text()
    assert [kind for kind in problems if not mentions(text, f"`{kind}`")] == []


REPOSITORY_PATH = re.compile(
    r"(?<![\w/.-])((?:tests|bench|fuzz|scripts|cpp|python|repl|bindings)/[\w./-]+\.(?:py|cpp|h|md|txt|toml))")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_file_a_page_names_exists(page):
    """A file of the repository named in the text (tests/test_x.py, cpp/gen/options.h, ...)
    exists: renaming or removing it makes the page say so."""
    named = set(REPOSITORY_PATH.findall(page.read_text()))
    assert sorted(path for path in named if not (ROOT / path).exists()) == []


def test_the_file_check_sees_paths_in_text():
    assert REPOSITORY_PATH.findall("see tests/test_x.py, `cpp/gen/options.h` and "
                                   "earl/lua54/earl.so or ../shared/x.md") == [
        "tests/test_x.py", "cpp/gen/options.h"]
