"""Completion at the REPL's prompt: command names (with their summaries), and for their
arguments languages, marks, commands, shipped scripts and paths; in code (and in :find
expressions) the trace's method names after `e.` / `e:` / `e `, attribute keys after
`ev[` / `ev.` / `$ev(`, region and type names inside a string, and the language's own
global names."""
import re

from prompt_toolkit.completion import Completer, Completion, PathCompleter
from prompt_toolkit.document import Document

from earl.repl import commands, languages
from earl.repl.session import CommandError

# (language, pattern before the cursor, what completes the last group)
_CODE_RULES = [
    ("python", re.compile(r"\be\.(\w*)$"), "methods"),
    ("python", re.compile(r"\bev\[\s*[\"'](\w*)$"), "attributes"),
    ("lua", re.compile(r"\be:(\w*)$"), "methods"),
    ("lua", re.compile(r"\bev\.(\w*)$"), "attributes"),
    ("lua", re.compile(r"\bev\[\s*[\"'](\w*)$"), "attributes"),
    ("tcl", re.compile(r"(?:^|[\[;{]\s*)e\s+(\w*)$"), "methods"),
    ("tcl", re.compile(r"\$ev\((\w*)$"), "attributes"),
    (None, re.compile(r"[\"']([^\"']*)$"), "names"),
    (None, re.compile(r"(?<![\w.:$])([A-Za-z_]\w*)$"), "globals"),
]


class ReplCompleter(Completer):
    def __init__(self, session):
        self.session = session
        self._paths = PathCompleter(expanduser=True)

    def get_completions(self, document, complete_event):
        text = document.text_before_cursor
        stripped = text.lstrip()
        if not stripped.startswith(":"):
            yield from self._code(text)
            return
        name, space, rest = stripped[1:].partition(" ")
        if not space:
            for each in commands.COMMANDS.values():
                if each.name.startswith(name):
                    yield Completion(each.name, -len(name), display_meta=each.summary)
            return
        try:
            found = commands.lookup(name).name
        except CommandError:
            return
        rest = rest.lstrip()
        if found == "lang":
            yield from _matching(languages.NAMES, rest)
        elif found in ("goto", "mark"):
            yield from _matching(sorted(self.session.marks), rest)
        elif found == "help":
            yield from _matching(list(commands.COMMANDS), rest.lstrip(":"))
        elif found == "run" and " " not in rest:
            yield from _shipped_scripts(rest)
            yield from self._paths.get_completions(Document(rest), complete_event)
        elif found in ("find", "rfind"):
            yield from self._code(rest)

    def _code(self, text):
        language = self.session.language
        for rule_language, pattern, kind in _CODE_RULES:
            if rule_language not in (None, language):
                continue
            match = pattern.search(text)
            if not match:
                continue
            if kind == "names" and _inside_code_string(text, match) is False:
                continue
            yield from _matching(self._names(kind), match.group(1))
            return

    def _names(self, kind):
        session = self.session
        if kind == "methods":
            return session.evaluator().method_names()
        if kind == "attributes":
            return session.attribute_names()
        if kind == "names":
            trace = session.trace
            return trace.regions() + trace.types() + session.attribute_names()
        return session.evaluator().global_names()


def _inside_code_string(text, match):
    """False where the quote that opens the match closes an earlier string."""
    return text[:match.start()].count(text[match.start()]) % 2 == 0


def _shipped_scripts(prefix):
    """The shipped scripts' names (`:run` finds them by name), with their descriptions."""
    from earl import EarlError
    from earl.shipped_scripts import shipped_scripts

    try:
        scripts = shipped_scripts()
    except EarlError:  # not installed: paths only
        return
    seen = set()
    for name, _, summary in scripts:
        if name.startswith(prefix) and name != prefix and name not in seen:
            seen.add(name)
            yield Completion(name, -len(prefix), display_meta=summary)


def _matching(names, prefix):
    seen = set()
    for name in names:
        if name.startswith(prefix) and name != prefix and name not in seen:
            seen.add(name)
            yield Completion(name, -len(prefix))
