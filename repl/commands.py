"""The REPL's `:` commands: one table (name, arguments, one-line summary, details, handler)
that dispatch, `:help` and completion all read. A command may be shortened to any prefix
that names only it (`:n` is `:next`).

A handler gets the shell and the text after the command's name, and returns formatted
text to show (render.Text), or None.
"""
import math
import shlex
from collections import namedtuple

from earl import EarlError
from earl.repl import languages, render, timeline
from earl.repl.session import CommandError
from earl.repl.suggest import did_you_mean

Command = namedtuple("Command", "name usage summary details handler")
COMMANDS = {}
ALIASES = {"q": "quit", "exit": "quit"}  # short names a prefix would leave ambiguous
QUIT = object()  # a handler's answer that ends the session


def command(name, usage, summary, details=""):
    def register(handler):
        COMMANDS[name] = Command(name, usage, summary, details, handler)
        return handler
    return register


def lookup(name):
    """The command `name` names exactly or as the prefix of only one command."""
    name = ALIASES.get(name, name)
    if name in COMMANDS:
        return COMMANDS[name]
    matches = [each for each in COMMANDS if each.startswith(name)]
    if len(matches) == 1:
        return COMMANDS[matches[0]]
    if matches:
        raise CommandError(f"':{name}' is ambiguous: " + ", ".join(f":{m}" for m in matches))
    hint = did_you_mean(name, COMMANDS, ":") or " (:help lists the commands)"
    raise CommandError(f"unknown command :{name}{hint}")


def dispatch(shell, line):
    """Runs `line`, the text after the colon."""
    name, _, argument = line.strip().partition(" ")
    if not name:
        raise CommandError("a command name must follow ':' (:help lists the commands)")
    found = lookup(name)
    return found.handler(shell, argument.strip())


# ------------------------------------------------------------------ argument parsing
def _words(argument, name, low, high):
    try:
        words = shlex.split(argument)
    except ValueError as error:
        raise CommandError(f":{name}: {error}") from None
    if len(words) < low or (high is not None and len(words) > high):
        usage = f":{name} {COMMANDS[name].usage}".rstrip()
        raise CommandError(f":{name} takes {_count(low, high)} (usage: {usage})")
    return words


def _count(low, high):
    if high is None:
        return f"at least {low} argument{'s' if low != 1 else ''}"
    if low == high:
        return f"{low} argument{'s' if low != 1 else ''}" if low else "no arguments"
    return f"{low} to {high} arguments"


def _integer(word, name, what):
    try:
        return int(word)
    except ValueError:
        raise CommandError(f":{name}: {what} must be an integer, got '{word}'") from None


def _moved(shell):
    """What every move shows: the event now at the iterator, in one line."""
    trace = shell.session.trace
    if not trace.iterator:
        return render.Text().line("at the start (position 0)", "dim")
    return render.brief(trace, trace.event()).line()


# ------------------------------------------------------------------ moves
@command("next", "[K]", "move K events forward (default 1)",
         "Stops at the last event; K may be large (it is one jump, not K steps).")
def _next(shell, argument):
    words = _words(argument, "next", 0, 1)
    count = _integer(words[0], "next", "K") if words else 1
    if count < 1:
        raise CommandError(f":next: K must be at least 1, got {count}")
    shell.session.step(count)
    return _moved(shell)


@command("prev", "[K]", "move K events back (default 1)", "Stops at the first event.")
def _prev(shell, argument):
    words = _words(argument, "prev", 0, 1)
    count = _integer(words[0], "prev", "K") if words else 1
    if count < 1:
        raise CommandError(f":prev: K must be at least 1, got {count}")
    shell.session.step(-count)
    return _moved(shell)


@command("jump", "POS", "move to event POS", ":back returns to where you were.")
def _jump(shell, argument):
    words = _words(argument, "jump", 1, 1)
    shell.session.jump(_integer(words[0], "jump", "POS"))
    return _moved(shell)


@command("time", "SECONDS", "move to the first event at or after a time (in seconds)",
         "A binary search over positions: a few random accesses, never a scan. :back returns.")
def _time(shell, argument):
    words = _words(argument, "time", 1, 1)
    try:
        seconds = float(words[0])
    except ValueError:
        raise CommandError(f":time: SECONDS must be a number, got '{words[0]}'") from None
    if not math.isfinite(seconds):  # nan compares false with every time: it found event 1
        raise CommandError(f":time: SECONDS must be a finite number, got '{words[0]}'")
    shell.session.jump(shell.session.first_at_or_after(seconds))
    return _moved(shell)


@command("up", "", "follow enterptr: to the enter of the region the event happens in",
         "For an exit this is its own enter; for an enter, its caller's. :back returns.")
def _up(shell, argument):
    _words(argument, "up", 0, 0)
    shell.session.follow("enterptr")
    return _moved(shell)


@command("send", "", "follow sendptr: from a receive to its matching send", ":back returns.")
def _send(shell, argument):
    _words(argument, "send", 0, 0)
    shell.session.follow("sendptr")
    return _moved(shell)


@command("back", "", "return to where the last jump came from",
         "Jumps are :jump, :time, :up, :send, :goto and what :find/:rfind found; "
         ":back undoes them one by one.")
def _back(shell, argument):
    _words(argument, "back", 0, 0)
    shell.session.back()
    return _moved(shell)


@command("mark", "[NAME]", "name the current position (without NAME: list the marks)")
def _mark(shell, argument):
    words = _words(argument, "mark", 0, 1)
    session = shell.session
    if not words:
        text = render.Text()
        if not session.marks:
            return text.line("no marks yet", "dim")
        for name, pos in sorted(session.marks.items(), key=lambda item: item[1]):
            text.add(f"{name:<12} ", "key")
            render.brief(session.trace, session.trace.event(pos), text).line()
        return text
    pos = session.mark(words[0])
    return render.Text().add(f"mark {words[0]} = ").line(pos, "pos")


@command("goto", "NAME", "move to a mark", ":back returns.")
def _goto(shell, argument):
    words = _words(argument, "goto", 1, 1)
    shell.session.goto(words[0])
    return _moved(shell)


def _search(shell, argument, forward):
    name = "find" if forward else "rfind"
    if not argument:
        raise CommandError(f":{name} needs an expression over ev (usage: :{name} EXPR)")
    session = shell.session
    try:
        with shell.progress(name) as bar:
            found = session.find(argument, forward, progress=bar)
    except KeyboardInterrupt:
        return render.Text().line(f"search interrupted at event {session.searched_to}; "
                                  f"the iterator stays at {session.position}", "error")
    if not found:
        where = "after" if forward else "before"
        return render.Text().line(f"no event {where} {session.position} where {argument}", "dim")
    return _moved(shell)


@command("find", "EXPR", "move to the next event where EXPR over ev is true",
         "EXPR is in the current language, e.g.\n"
         "  python: ev['type'] == 'recv' and ev['len'] > 1000\n"
         "  lua:    ev.type == 'recv' and ev.len > 1000\n"
         "  tcl:    $ev(type) eq \"recv\" && $ev(len) > 1000\n"
         "An event without an attribute the expression uses (None in Python, nil in Lua, "
         "an absent element in Tcl) is no match; a misspelt name is an error.\n"
         "A long search shows its progress; Ctrl-C stops it and leaves the iterator where "
         "it was. :back returns from what it found.")
def _find(shell, argument):
    return _search(shell, argument, True)


@command("rfind", "EXPR", "move to the previous event where EXPR over ev is true",
         "As :find, backwards.")
def _rfind(shell, argument):
    return _search(shell, argument, False)


# ------------------------------------------------------------------ views
@command("event", "[POS]", "show the event (default: at the iterator), pointers followed")
def _event(shell, argument):
    words = _words(argument, "event", 0, 1)
    session = shell.session
    if words:
        pos = session.check_position(_integer(words[0], "event", "POS"))
    elif session.position:
        pos = session.position
    else:
        raise CommandError("no event at the iterator (position 0): :next or :jump first")
    return render.event_view(session.trace, pos)


@command("stack", "[LOC]", "show every location's region stack (or LOC's) at the iterator",
         "Each entry: the position of the enter, its time and the region, outermost first.")
def _stack(shell, argument):
    words = _words(argument, "stack", 0, 1)
    loc = shell.session.check_location(_integer(words[0], "stack", "LOC")) if words else None
    return render.stack_view(shell.session.trace, loc)


@command("queue", "[SRC DEST]", "show the messages in flight at the iterator (-1: any)",
         "The sends not yet received, oldest first; SRC and DEST are locations.")
def _queue(shell, argument):
    words = _words(argument, "queue", 0, 2)
    if len(words) == 1:
        raise CommandError(":queue takes both SRC and DEST, or neither (-1 means any)")
    ends = [_integer(word, "queue", what) for word, what in zip(words, ("SRC", "DEST"))]
    for loc in ends:
        if loc != -1:
            shell.session.check_location(loc)
    return render.queue_view(shell.session.trace, *ends)


@command("where", "", "the system state here: the event and every location's stack")
def _where(shell, argument):
    _words(argument, "where", 0, 0)
    return render.where_view(shell.session.trace)


@command("timeline", "[WIDTH]", "a text picture of all locations around the current time",
         "Each location is a row; each column a slice of time. A region is a bar of its "
         "letter (the legend names them; a region keeps its letter for the whole session); "
         "> marks a send and < a receive, | the current time. Below: the messages in flight "
         "as arrows. WIDTH is the number of columns.")
def _timeline(shell, argument):
    words = _words(argument, "timeline", 0, 1)
    width = _integer(words[0], "timeline", "WIDTH") if words else shell.width()
    if not 10 <= width <= 1000:
        raise CommandError(f":timeline: WIDTH must be 10..1000, got {width}")
    return timeline.picture(shell.session.trace, width, letters=shell.session.region_letters)


@command("view", "", "full-screen live view (Esc returns)",
         "Top: the timeline around the current time; below: the current event with its "
         "pointers and the stacks; a status bar. Keys: Right/Left (or n/p) step, PgDn/PgUp "
         "move in time, l follows the location of the current event (arrows then step "
         "through its events only), s follows the send of a receive, u follows enterptr, "
         "b goes back, / searches with an expression, Esc or q returns.")
def _view(shell, argument):
    _words(argument, "view", 0, 0)
    shell.full_screen()


# ------------------------------------------------------------------ the session
@command("lang", "[python|lua|tcl]", "the language of code typed at the prompt",
         "e is the same trace in every language (one iterator) and ev the event at it: "
         "a dict in Python, a table in Lua, an array in Tcl.")
def _lang(shell, argument):
    words = _words(argument, "lang", 0, 1)
    if words:
        shell.session.use_language(words[0])
    return render.Text().line(f"language: {shell.session.language}")


@command("run", "SCRIPT [ARGS...]", "run a script (.py, .lua, .tcl) in its language",
         "SCRIPT is a file, or a shipped script by name (`earl scripts` lists them), with "
         "or without its extension: :run wasted_time runs the one in the session's language "
         "if there is one. Without ARGS the script gets the session's trace file as its one "
         "argument (the example scripts take TRACE first). An exit in the script ends the "
         "script, not the session.")
def _run(shell, argument):
    from earl.shipped_scripts import language_of

    words = _words(argument, "run", 1, None)
    script, args = _script(words[0], shell.session.language), words[1:] or [shell.session.trace.file()]
    evaluator = shell.session.evaluator(language_of(script))
    try:
        evaluator.run_script(script, args)
    except SystemExit as stop:
        if isinstance(stop.code, str):  # sys.exit(message): Python prints the message
            raise CommandError(stop.code) from None
        if stop.code not in (None, 0):
            raise CommandError(f"{words[0]} exited with {stop.code}") from None


def _script(name, language):
    """The path of the script `name` (a file, else a shipped script by name): without an
    extension, the one in `language` where the script is written in it."""
    from earl.shipped_scripts import find_script

    try:
        try:
            return find_script(name, language)
        except EarlError:  # not written in the session's language: the first there is
            return find_script(name)
    except EarlError as error:
        raise CommandError(f":run: {error}") from None


@command("help", "[COMMAND]", "list the commands, or explain one")
def _help(shell, argument):
    words = _words(argument, "help", 0, 1)
    text = render.Text()
    if words:
        found = lookup(words[0].lstrip(":"))
        text.add(f":{found.name} {found.usage}".rstrip(), "heading").line()
        text.line(f"  {found.summary}")
        for line in found.details.splitlines():
            text.line(f"  {line}")
        return text
    for each in COMMANDS.values():
        text.add(f"  :{each.name} {each.usage}".ljust(26), "heading").line(each.summary)
    language = shell.session.language
    text.line()
    text.line(f"Anything else is {language} code (:lang switches; {', '.join(languages.NAMES)}): "
              "e is the trace, ev the event at the iterator.")
    text.line("A command may be shortened (:n is :next). :help COMMAND says more.")
    return text


@command("quit", "", "leave the REPL (Ctrl-D too)")
def _quit(shell, argument):
    _words(argument, "quit", 0, 0)
    return QUIT
