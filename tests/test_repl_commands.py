"""Every REPL command typed into the real prompt_toolkit front end (a pipe for input, a
dummy terminal for output), good and bad, on the small trace of repl_driver whose values
are known by construction; what the REPL printed is checked against them."""
import os
import signal

import pytest

from earl.repl import commands
from repl_driver import CTRL_C, ENTER, RIGHT, TAB, UP, Driver, small_trace


@pytest.fixture(autouse=True)
def history_home(tmp_path, monkeypatch):
    """Each test keeps its history in its own data directory."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


@pytest.fixture
def repl(tmp_path):
    driver = Driver(small_trace(tmp_path))
    yield driver
    driver.close()


def brief_fields(line):
    """pos, time, loc and type of a one-line event (the brief every move prints)."""
    words = line.split()
    return int(words[0]), float(words[1]), int(words[3]), words[4]


# ------------------------------------------------------------------ moves
def test_next_prev_jump_move_the_shared_iterator(repl):
    out, err = repl.lines(":next", ":next 4", ":prev", ":prev 2", ":jump 11", ":next 100")
    assert err == []
    assert [brief_fields(line)[0] for line in out] == [1, 5, 4, 2, 11, 18]
    assert brief_fields(out[1]) == (5, 21e-6, 0, "send")
    assert out[1].split()[5:] == ["dest=1", "tag=7", "com=-1", "len=64"]
    assert repl.trace.iterator == 18


def test_moves_past_the_ends_and_bad_positions_are_one_line_errors(repl):
    out, err = repl.lines(":prev", ":jump 0", ":jump 19", ":jump x", ":next 0", ":jump 18",
                          ":next", ":jump 1", ":prev")
    assert err == ["at the start (position 0): nothing precedes it",
                   "position 0 is not an event: the trace has events 1..18",
                   "position 19 is not an event: the trace has events 1..18",
                   ":jump: POS must be an integer, got 'x'",
                   ":next: K must be at least 1, got 0",
                   "at the last event (18): nothing follows",
                   "at the first event: nothing precedes it"]
    assert [brief_fields(line)[0] for line in out] == [18, 1]
    assert repl.trace.iterator == 1


def test_time_finds_the_first_event_at_or_after_a_time(repl):
    # times by construction: event 12 at 42 us, 13 at 50 us; 0.0000415 s lies between
    # 11 (41 us) and 12; 50 us is event 13's own time; before the first event: event 1
    out, err = repl.lines(":time 0.0000415", ":time 0.00005", ":time 0", ":time 1", ":time x")
    assert [brief_fields(line)[0] for line in out] == [12, 13, 1]
    assert err == ["no event at or after 1 s: the last is at 0.000072000 s",
                   ":time: SECONDS must be a number, got 'x'"]


def test_time_refuses_what_is_not_a_finite_time(repl):
    """nan compares false with every time, so the binary search found event 1; inf and
    1e400 (inf after parsing) have no event after them either way: all are refused."""
    out, err = repl.lines(":jump 5", ":time nan", ":time inf", ":time -inf", ":time 1e400", ":time NaN")
    assert brief_fields(out[0])[0] == 5 and len(out) == 1 and repl.trace.iterator == 5
    assert err == [f":time: SECONDS must be a finite number, got '{word}'"
                   for word in ("nan", "inf", "-inf", "1e400", "NaN")]


@pytest.mark.parametrize("language, close", [("python", "e.close()"), ("lua", "e:close()"),
                                             ("tcl", "e close")])
def test_closing_the_trace_from_code_keeps_the_session(repl, language, close):
    """The session says the trace is closed once and reads on: code still runs, what reads
    the trace says it is closed, the toolbar and prompt say so too (no traceback)."""
    from earl.repl.toolbar import prompt, toolbar

    show = {"python": "print(6 * 7)", "lua": "print(6 * 7)", "tcl": "puts [expr 6 * 7]"}[language]
    out, err = repl.lines(f":lang {language}", ":jump 3", close, show, ":next", ":lang python", "1 + 1")
    assert out[0] == f"language: {language}" and brief_fields(out[1])[0] == 3
    assert out[2:] == ["42", "language: python", "2"]
    assert err == ["the trace is closed: what reads it fails from here on; :quit (or Ctrl-D) ends the session",
                   "the trace is closed"]
    assert repl.trace.closed and repl.session.position == 0
    assert "the trace is closed" in toolbar(repl.session)[0][1]
    assert prompt(repl.session) == [("class:prompt", "python 0> ")]


def test_up_send_and_back_follow_pointers_and_return(repl):
    out, err = repl.lines(":jump 14", ":send", ":up", ":back", ":back", ":up", ":up", ":up",
                          ":back", ":back", ":back", ":back")
    # 14 (recv) -> sendptr 8 -> its enterptr 7 (enter MPI_Send) -> back to 8 -> back to 14;
    # 14 -> enterptr 13 -> its enterptr 3 (enter main on loc 2) -> 3 has none
    assert [brief_fields(line)[0] for line in out[:9]] == [14, 8, 7, 8, 14, 13, 3, 13, 14]
    assert out[9] == "at the start (position 0)"  # the first jump came from position 0
    assert err == ["event 3 has enterptr 0: it points nowhere", "no jump to return from"]


def test_send_of_an_event_that_is_not_a_receive(repl):
    out, err = repl.lines(":send", ":jump 4", ":send")
    assert err == ["no event at the iterator (position 0): there is no sendptr",
                   "event 4 is an enter: it has no sendptr"]


def test_mark_and_goto(repl):
    out, err = repl.lines(":jump 8", ":mark sent", ":jump 14", ":mark", ":goto sent",
                          ":goto nowhere", ":mark a b")
    assert out[1] == "mark sent = 8"
    assert out[2].split()[0] == "14" and out[3].split()[:2] == ["sent", "8"]
    assert brief_fields(out[4])[0] == 8
    assert err == ["no mark named 'nowhere' (marks: sent)",
                   ":mark takes 0 to 1 arguments (usage: :mark [NAME])"]


# ------------------------------------------------------------------ views
def test_event_shows_every_attribute_and_follows_pointers(repl):
    out, err = repl.lines(":event", ":event 14")
    assert err == ["no event at the iterator (position 0): :next or :jump first"]
    assert out[0] == "event 14 of 18"
    rows = {line.split()[0]: line.split()[1:] for line in out[1:]}
    assert list(rows) == ["pos", "loc", "time", "type", "enterptr", "src", "tag", "com", "len",
                          "sendptr"]
    assert rows["loc"] == ["2", "rank", "two"] and rows["src"] == ["0", "rank", "zero"]
    assert rows["time"] == ["0.000060000", "s"]
    assert rows["enterptr"][:2] == ["13", "->"] and rows["enterptr"][2:] == \
        ["13", "0.000050000", "loc", "2", "enter", "MPI_Recv"]
    assert rows["sendptr"][:2] == ["8", "->"] and rows["sendptr"][2:] == \
        ["8", "0.000031000", "loc", "0", "send", "dest=2", "tag=8", "com=-1", "len=128"]


def test_stack_of_all_locations_and_of_one(repl):
    out, err = repl.lines(":jump 13", ":stack", ":stack 2", ":stack 3", ":stack x")
    assert out[1] == "stacks after event 13:"
    assert out[2:10] == ["loc 0  rank zero", "   1  0.000010000  main",
                         "loc 1  rank one", "   2  0.000011000  main",
                         "loc 2  rank two", "   3  0.000012000  main",
                         "  13  0.000050000  MPI_Recv",
                         "stacks after event 13:"]
    assert out[10:] == ["loc 2  rank two", "   3  0.000012000  main",
                        "  13  0.000050000  MPI_Recv"]
    assert err == ["location 3 does not exist: the trace has locations 0..2",
                   ":stack: LOC must be an integer, got 'x'"]


def test_queue_all_and_between_two_locations(repl):
    out, err = repl.lines(":jump 9", ":queue", ":queue 0 2", ":queue 1 0", ":queue -1 1",
                          ":queue 0", ":queue 0 5")
    # after event 9 both sends (5 and 8) are in flight
    assert out[1] == "2 messages in flight after event 9"
    assert [brief_fields(line)[0] for line in out[2:4]] == [5, 8]
    assert out[4] == "1 message in flight from 0 to 2 after event 9"
    assert brief_fields(out[5])[0] == 8
    assert out[6] == "0 messages in flight from 1 to 0 after event 9"
    assert out[7] == "1 message in flight from any to 1 after event 9"
    assert brief_fields(out[8])[0] == 5
    assert err == [":queue takes both SRC and DEST, or neither (-1 means any)",
                   "location 5 does not exist: the trace has locations 0..2"]


def test_where_shows_the_event_and_every_stack(repl):
    out, err = repl.lines(":where", ":jump 10", ":where")
    assert out[0] == "at the start (position 0): no event yet; every stack is empty"
    where = out[out.index("at") :]
    assert brief_fields(where[1])[0] == 10
    assert where[2] == "  loc 0  main  since 0.000010000  [rank zero]"
    assert where[3] == "* loc 1  main > MPI_Recv  since 0.000040000  [rank one]"
    assert where[4] == "  loc 2  main  since 0.000012000  [rank two]"
    assert where[5] == "2 messages in flight"


def test_timeline_draws_regions_messages_and_the_current_time(repl):
    out, err = repl.lines(":jump 12", ":timeline 40", ":timeline 5")
    assert err == [":timeline: WIDTH must be 10..1000, got 5"]
    picture = out[1:]
    # the window: event 12 at 42 us, the nearer end 30 us away (the last event at 72 us),
    # so 12..72 us in 40 columns of 1.5 us; a column holds the deepest region open in it
    assert picture[0] == "time 0.000012000 .. 0.000072000  (60 us, 1.5 us a column)"
    column = lambda us: int((us - 12) / 1.5)
    assert picture[1].index("v") - 3 == column(42)
    rows = {int(line.split("|")[0]): line.split("|")[1] for line in picture[2:5]}
    assert [len(row) for row in rows.values()] == [40, 40, 40]
    assert picture[6] == "regions: A main  B MPI_Send  C MPI_Recv"
    # loc 0: MPI_Send from 20 us, the send at 21 us and again at 31 us; main ends at 70 us
    assert rows[0][column(20)] == "B" and rows[0][column(21)] == ">" and rows[0][column(31)] == ">"
    assert rows[0][column(70) + 1:] == " " * (39 - column(70))
    # loc 1 receives at 41 us inside MPI_Recv (40..42 us); loc 2 receives at 60 us
    assert rows[1][column(40)] == "C" and rows[1][column(41)] == "<"
    assert rows[2][column(50):column(60)] == "C" * (column(60) - column(50))
    assert rows[2][column(60)] == "<"
    # after event 12 only the send of event 8 is in flight, 0 -> 2
    assert picture[-2] == "1 message in flight"
    assert picture[-1].split() == ["0", "---->", "2", "tag", "8", "len", "128", "sent", "at",
                                   "event", "8", "0.000031000"]


# ------------------------------------------------------------------ search
@pytest.mark.parametrize("language, forward, backward", [
    ("python", 'ev["type"] == "recv"', 'ev["type"] == "send" and ev["dest"] == 1'),
    ("lua", 'ev.type == "recv"', 'ev.type == "send" and ev.dest == 1'),
    ("tcl", '$ev(type) eq "recv"', '$ev(type) eq "send" && $ev(dest) == 1'),
])
def test_find_and_rfind_in_each_language(repl, language, forward, backward):
    out, err = repl.lines(f":lang {language}", ":jump 6", f":find {forward}", f":find {forward}",
                          f":find {forward}", f":rfind {backward}", ":back", ":rfind " + backward)
    assert out[0] == f"language: {language}"
    # receives at 11 and 14; none after 14; the send to 1 before 14 is 5, and before 5 none
    assert [brief_fields(line)[0] for line in out[1:4]] == [6, 11, 14]
    assert out[4] == f"no event after 14 where {forward}"
    assert [brief_fields(line)[0] for line in out[5:7]] == [5, 14]
    assert brief_fields(out[7])[0] == 5
    assert err == []


@pytest.mark.parametrize("language, by_size, by_region, by_method", [
    ("python", 'ev["len"] > 100', 'ev["region"] == "MPI_Recv"', 'ev["region"].endswith("Recv")'),
    ("lua", "ev.len > 100", 'ev.region == "MPI_Recv"', 'ev.region:find("Recv$")'),
    ("tcl", "$ev(len) > 100", '$ev(region) eq "MPI_Recv"', '[string match *Recv $ev(region)]'),
])
def test_an_event_without_the_attribute_is_no_match(repl, language, by_size, by_region, by_method):
    """Events 1-4 have no len (enters) and 5 sends 64 bytes: the first send of more than
    100 bytes is 8 (128). The first enter of MPI_Recv is 10; the sends before it have no
    region. Backwards from 18, the last receive of more than 100 bytes is 14."""
    out, err = repl.lines(f":lang {language}", f":find {by_size}", ":jump 1", f":find {by_region}",
                          ":jump 1", f":find {by_method}", ":jump 18", f":rfind {by_size}")
    assert err == []
    assert [brief_fields(line)[0] for line in out[1:]] == [8, 1, 10, 1, 10, 18, 14]


@pytest.mark.parametrize("language, expression, message", [
    ("python", 'ev["len"] > limit', "<find>:1: NameError: name 'limit' is not defined (at event 5)"),
    ("python", 'ev["len"] > "64"',
     "<find>:1: TypeError: '>' not supported between instances of 'int' and 'str' (at event 5)"),
    ("python", 'ev["type"] ==', "<find>:1: SyntaxError: invalid syntax"),
    ("lua", "ev.len > limit", "<find>:1: unknown variable 'limit' (at event 5)"),
    ("lua", 'ev.len > "64"', "<find>:1: attempt to compare string with number (at event 5)"),
    ("lua", "ev.type ==", "<find>:1: unexpected symbol near <eof>"),
    ("tcl", "$ev(len) > $limit", '<find>: can\'t read "limit": no such variable (at event 5)'),
    ("tcl", "$ev(len) >", "<find>: missing operand at _@_ in expression \"$ev(len) >_@_\" "
                           "(at event 5)"),
])
def test_find_with_a_bad_expression_says_where_and_stays(repl, language, expression, message):
    """A misspelt name, values that do not compare and syntax errors are errors, reported
    at the first event that reaches them (5, the first after 4, has len), not no match."""
    out, err = repl.lines(f":lang {language}", ":jump 4", f":find {expression}", ":find")
    assert err == [message, ":find needs an expression over ev (usage: :find EXPR)"]
    assert repl.trace.iterator == 4


def test_ctrl_c_during_find_stops_it_and_leaves_the_iterator(repl):
    """A real SIGINT arrives while the search evaluates event 12 (the expression sends it
    to this process, as a terminal does on Ctrl-C)."""
    out, err = repl.lines(":jump 3", "import os, signal",
                          ':find ev["pos"] == 12 and os.kill(os.getpid(), signal.SIGINT)',
                          'ev["pos"]', ":find ev['pos'] == 15")
    assert out[1].startswith("search interrupted at event 1")
    interrupted_at = int(out[1].split()[4].rstrip(";"))
    assert 12 <= interrupted_at <= 18
    assert out[1].endswith("the iterator stays at 3")
    assert out[2] == "3"  # ev is again the event at the iterator
    assert brief_fields(out[3])[0] == 15  # the session goes on


def test_ctrl_c_during_a_lua_find(repl):
    repl.session.evaluator("lua").lua.globals().interrupt = \
        lambda: os.kill(os.getpid(), signal.SIGINT)
    out, err = repl.lines(":lang lua", ":jump 2", ":find ev.pos == 9 and interrupt()", "ev.pos")
    assert out[2].startswith("search interrupted at event ")
    assert out[2].endswith("the iterator stays at 2") and out[3] == "2"


def test_ctrl_c_at_the_prompt_drops_the_line(repl):
    out, err = repl.type(":jump 1" + CTRL_C + ":jump 2" + ENTER)
    assert [brief_fields(line)[0] for line in out.splitlines()] == [2]


# ------------------------------------------------------------------ languages
def test_one_trace_in_three_languages(repl):
    out, err = repl.lines(":jump 5", 'ev["dest"]', ":lang lua", "ev.dest, e:next()", "ev.pos",
                          ":lang tcl", "set ev(pos)", "e next", "set ev(type)", ":lang python",
                          'ev["pos"], ev["type"], e.iterator')
    assert err == []
    assert out[1] == "1"                    # Python: the send's destination
    assert out[3] == "1\t6"                 # Lua: ev was the send; e:next() moved to 6
    assert out[4] == "6"                    # ...and ev followed the move
    assert out[6:9] == ["6", "7", "enter"]  # Tcl sees 6, moves to 7 (enter MPI_Send)
    assert out[10] == "(7, 'enter', 7)"     # Python sees the move made in Tcl


def test_bare_expressions_show_values_as_each_language_does(repl):
    out, err = repl.lines("x = 6 * 7", "x", "None", "[e.nrlocs(), e.locsym(1)]",
                          ":lang lua", "y = 1", "y + 1, nil, 'text'", "e:stack(0, 5)",
                          ":lang tcl", "set z 3", "incr z", "e stack 0 5", "proc p {} {}")
    assert err == []
    assert out == ["42", "[3, 'rank one']", "language: lua", "2\tnil\ttext", "{1, 4}",
                   "language: tcl", "3", "4", "1 4"]


def test_a_lua_event_table_shows_in_model_order(repl):
    out, err = repl.lines(":lang lua", "e:event(11)")
    assert out[1] == ('{pos = 11, loc = 1, time = 4.1e-05, type = "recv", enterptr = 10, '
                      'src = 0, tag = 7, com = -1, len = 64, sendptr = 5}')


@pytest.mark.parametrize("language, code, message", [
    ("python", "x = (1 +\r" + CTRL_C, None),  # unfinished: Ctrl-C drops it
    ("python", "1 +* 2", "<input>:1: SyntaxError: invalid syntax"),
    ("python", "e.event(0)", "<input>:1: EarlError: no event at position 0 (the trace has 18 "
                             "events, numbered from 1)"),
    ("python", "def f():\r    return 1 / 0\r\rf()", "<input>:2: ZeroDivisionError: division by zero"),
    ("lua", "x = = 1", "<input>:1: unexpected symbol near '='"),
    ("lua", "e:jump('x')", None),
    ("lua", "local t = nil; return t.x", "<input>:1: attempt to index a nil value (local 't')"),
    ("tcl", "set a [expr {1 +}]", None),
    ("tcl", "if 1 {\rset a 1\rnosuch\r}", "<input>:3: invalid command name \"nosuch\""),
    ("tcl", "proc p {} {\rerror boom\r}\rp", "<input>:1: boom (in procedure p, line 2)"),
])
def test_errors_in_each_language_are_one_line_and_the_session_goes_on(repl, language, code, message):
    out, err = repl.type(f":lang {language}{ENTER}{code}{ENTER}:jump 2{ENTER}")
    err = err.splitlines()
    if message is not None:
        assert err == [message]
    else:
        assert len(err) <= 1 and all("Traceback" not in line and "earl/" not in line for line in err)
    assert brief_fields(out.splitlines()[-1])[0] == 2


def test_lua_jump_with_a_bad_argument_names_the_input(repl):
    out, err = repl.lines(":lang lua", "e:jump('x')")
    assert err[0].startswith("<input>:1: ") and "jump" in err[0]


def test_multi_line_blocks_in_each_language(repl):
    out, err = repl.type("for i in range(3):\rprint(i * 10)\r\r"
                         ":lang lua\rfor i = 1, 2 do\rprint(i)\rend\r"
                         ":lang tcl\rforeach w {a b} {\rputs $w\r}\r")
    assert err == ""
    assert out.splitlines() == ["0", "10", "20", "language: lua", "1", "2", "language: tcl",
                                "a", "b"]


def test_unknown_and_ambiguous_commands(repl):
    out, err = repl.lines(":nosuch", ":", ":s", ":q")
    assert err == ["unknown command :nosuch (:help lists the commands)",
                   "a command name must follow ':' (:help lists the commands)",
                   "':s' is ambiguous: :send, :stack"]
    assert out == []  # :q quit: nothing after it ran


def test_mistyped_commands_languages_and_marks_get_did_you_mean(repl):
    out, err = repl.lines(":nxt", ":jmp 3", ":stak", ":help fnd", ":xyz", ":lang pyton",
                          ":lang tlc", ":jump 8", ":mark sent", ":goto snet", ":goto zzz")
    assert err == ["unknown command :nxt (did you mean :next?)",
                   "unknown command :jmp (did you mean :jump?)",
                   "unknown command :stak (did you mean :stack?)",
                   "unknown command :fnd (did you mean :find?)",
                   "unknown command :xyz (:help lists the commands)",
                   "unknown language 'pyton' (did you mean python?)",
                   "unknown language 'tlc' (did you mean tcl?)",
                   "no mark named 'snet' (did you mean sent?)",
                   "no mark named 'zzz' (marks: sent)"]
    assert repl.trace.iterator == 8 and repl.session.language == "python"


def test_lang_switches_and_rejects_unknown_languages(repl):
    out, err = repl.lines(":lang", ":lang perl", ":lang tcl", "set x 1")
    assert out == ["language: python", "language: tcl", "1"]
    assert err == ["unknown language 'perl' (choose from python, lua, tcl)"]


def test_run_scripts_in_their_language(repl, tmp_path):
    (tmp_path / "count.py").write_text(
        "import sys, earl\nprint(len(earl.EventTrace(sys.argv[1])), sys.argv[2:])\n")
    (tmp_path / "count.lua").write_text("print(#EventTrace(arg[1]), arg[2])\n")
    (tmp_path / "count.tcl").write_text("EventTrace t -file [lindex $argv 0]\nputs [t size]\n")
    (tmp_path / "bad.py").write_text("x = 1\nraise ValueError('no')\n")
    (tmp_path / "exit.lua").write_text("os.exit(3)\n")
    trace = repl.trace.file()
    out, err = repl.lines(f":run {tmp_path}/count.py {trace} more", f":run {tmp_path}/count.lua",
                          f":run {tmp_path}/count.tcl", f":run {tmp_path}/bad.py",
                          f":run {tmp_path}/exit.lua", f":run {tmp_path}/none.py", ":run")
    assert out == ["18 ['more']", "18\tnil", "18"]
    assert err == [f"{tmp_path}/bad.py:2: ValueError: no",
                   f"{tmp_path}/exit.lua exited with 3",
                   f":run: no such script: {tmp_path}/none.py (earl scripts lists the shipped ones)",
                   ":run takes at least 1 argument (usage: :run SCRIPT [ARGS...])"]


def test_a_script_of_its_own_cannot_clash_with_the_session(repl, tmp_path):
    """A Tcl script's `EventTrace e` (as the shipped ones do) or a Lua script's global e
    runs in an interpreter of its own: the session's e is untouched."""
    (tmp_path / "own.tcl").write_text("EventTrace e -file [lindex $argv 0]\nputs [e size]\n")
    (tmp_path / "own.lua").write_text("e = EventTrace(arg[1]); e:jump(3); print(e:iterator())\n")
    out, err = repl.lines(":jump 2", ":lang tcl", f":run {tmp_path}/own.tcl", "e iterator",
                          ":lang lua", f":run {tmp_path}/own.lua", "e:iterator()")
    assert err == []
    assert out[1:] == ["language: tcl", "18", "2", "language: lua", "3", "2"]


def test_help_lists_every_command_and_explains_one(repl):
    out, err = repl.lines(":help", ":help find", ":help :stack", ":help nosuch")
    listed = [line.split()[0] for line in out if line.startswith("  :")]
    assert listed == [f":{name}" for name in commands.COMMANDS]
    assert out[out.index(":find EXPR") + 1] == "  move to the next event where EXPR over ev is true"
    assert ":stack [LOC]" in out
    assert err == ["unknown command :nosuch (:help lists the commands)"]


def test_only_quit_ends_the_session(repl):
    out, err = repl.lines(":quit", ":jump 1")
    assert out == [] and err == [] and repl.trace.iterator == 0
    out, err = repl.lines(":q", ":jump 1")
    assert out == [] and repl.trace.iterator == 0


@pytest.mark.parametrize("language, code, status", [
    ("python", "exit()", 0), ("python", "quit()", 0), ("python", "import sys; sys.exit(2)", 2),
    ("python", "raise SystemExit(3)", 3), ("python", "raise SystemExit", 0),
    ("python", "raise SystemExit('bye')", 1),
    ("lua", "os.exit()", 0), ("lua", "os.exit(2)", 2), ("lua", "(function() os.exit(true) end)()", 0),
    ("lua", "os.exit(false)", 1),
    ("tcl", "exit", 0), ("tcl", "exit 2", 2), ("tcl", "proc leave {} {exit 3}; leave", 3),
    ("tcl", "if 1 {\rexit 4\r}", 4),
])
def test_code_that_exits_ends_the_session_with_its_status(repl, language, code, status):
    """As it ends Python's, Lua's and tclsh's own REPLs (raise SystemExit(3) used to be
    refused, and the session then ended with 0); what follows it does not run."""
    out, err = repl.type(f":lang {language}{ENTER}:jump 2{ENTER}{code}{ENTER}:jump 5{ENTER}", status=status)
    assert out.splitlines()[0] == f"language: {language}" and brief_fields(out.splitlines()[1])[0] == 2
    assert len(out.splitlines()) == 2 and repl.trace.iterator == 2
    assert err == ("bye\n" if "bye" in code else "")


def test_python_exit_shown_bare_says_how_to_leave(repl):
    out, err = repl.lines("exit", "quit")
    assert out == ["use :quit (or Ctrl-D) to leave the REPL"] * 2 and err == []


def test_a_script_that_exits_ends_itself_not_the_session(repl, tmp_path):
    for name, text in [("stop.py", "import sys\nprint('py')\nsys.exit(0)\nprint('no')\n"),
                       ("stop.lua", "print('lua')\nos.exit(0)\nprint('no')\n"),
                       ("stop.tcl", "puts tcl\nexit\nputs no\n"),
                       ("fail.tcl", "exit 4\n")]:
        (tmp_path / name).write_text(text)
    out, err = repl.lines(*(f":run {tmp_path}/{name}" for name in
                            ("stop.py", "stop.lua", "stop.tcl", "fail.tcl")), ":jump 3")
    assert out[:3] == ["py", "lua", "tcl"] and brief_fields(out[3])[0] == 3
    assert err == [f"{tmp_path}/fail.tcl exited with 4"]
    # sourced at the prompt, the script's exit is the session's: it ends
    out, err = repl.type(f":lang tcl{ENTER}source {tmp_path}/stop.tcl{ENTER}:jump 4{ENTER}")
    assert out.splitlines()[1:] == ["tcl"] and err == "" and repl.trace.iterator == 3


# What a bare input shows in Tcl mode, at event 6 (exit MPI_Send on loc 0): a variable or
# a command substitution alone is its value (never run as a command: $ev(type) is "exit");
# input whose first word is no command is an expression; commands run as in tclsh.
TCL_BARE_VALUES = [
    ("$ev(type)", "exit"), ("$ev(region)", "MPI_Send"), ("${ev(pos)}", "6"), ("$::ev(loc)", "0"),
    ("[e size]", "18"), ("[lindex [e stack 0] end]", "1"), ("$ev(pos) * 2 + 1", "13"),
    ('$ev(type) eq "exit"', "1"), ("7 % 4", "3"), ('"text"', "text"), ("set y 5", "5"),
    ("$y", "5"), ("e iterator", "6"), ("string length $ev(region)", "8"),
]


def test_tcl_bare_values_show_their_value(repl):
    inputs = [code for code, _ in TCL_BARE_VALUES]
    out, err = repl.lines(":jump 6", ":lang tcl", *inputs)
    assert err == []
    assert out[2:] == [shown for _, shown in TCL_BARE_VALUES]
    assert repl.trace.iterator == 6


def test_tcl_bare_values_at_an_enter_event_and_their_errors(repl):
    out, err = repl.lines(":jump 4", ":lang tcl", "$ev(type)", "[e event x 4; set x(region)]", "$x(type)",
                          "$ev(len)", "$nosuch", "nosuch 1", "[nosuch]", "1 +", "$ev(pos) >")
    assert out[2:] == ["enter", "MPI_Send", "enter"]
    assert err == ['<input>:1: can\'t read "ev(len)": no such element in array',
                   '<input>:1: can\'t read "nosuch": no such variable',
                   '<input>:1: invalid command name "nosuch"',
                   '<input>:1: invalid command name "nosuch"',
                   '<input>:1: invalid command name "1"',
                   '<input>:1: invalid command name "4"']


# ------------------------------------------------------------------ terminal comforts
def test_history_is_kept_between_sessions_and_recalled(repl, tmp_path):
    """(Suggestions from history appear once prompt_toolkit has computed them in the
    background: the tmux test checks them on a real screen.)"""
    repl.lines(":jump 7", ":jump 9")
    history = (tmp_path / "data" / "earl" / "repl_history").read_text()
    assert "+:jump 7" in history and "+:jump 9" in history
    again = Driver(repl.trace.file())
    try:
        out, err = again.type(UP + UP + ENTER)     # the input before the last: :jump 7
        assert brief_fields(out.splitlines()[0])[0] == 7
        out, err = again.type(UP + ENTER)          # now the latest
        assert brief_fields(out.splitlines()[0])[0] == 7
    finally:
        again.close()


def test_tab_completes_commands(repl):
    out, err = repl.type(":jum" + TAB + " 3" + ENTER + ":whe" + TAB + ENTER)
    assert brief_fields(out.splitlines()[0])[0] == 3 and "at" in out.splitlines()


def test_view_from_the_prompt(repl):
    """:view takes the keys until q: Right twice from 4 gives 6; the prompt goes on."""
    out, err = repl.type(":jump 4" + ENTER + ":view" + ENTER + RIGHT + RIGHT + "q" +
                         ":event" + ENTER)
    assert err == ""
    assert "event 6 of 18" in out.splitlines()


def completions(repl, text):
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from earl.repl.completion import ReplCompleter

    found = ReplCompleter(repl.session).get_completions(Document(text),
                                                        CompleteEvent(completion_requested=True))
    return [each.text for each in found]


def test_completion_of_commands_methods_attributes_regions_and_marks(repl):
    assert completions(repl, ":ju") == ["jump"]
    assert completions(repl, ":help ti") == ["time", "timeline"]
    assert completions(repl, ":lang l") == ["lua"]
    repl.lines(":jump 8", ":mark sent")
    assert completions(repl, ":goto s") == ["sent"]
    assert completions(repl, ":run wasted_t") == ["wasted_time"]  # scripts/wasted_time.*
    assert completions(repl, ":run patterns/late_s") == ["patterns/late_sender"]
    # Python: methods after e., attribute keys in ev["..."], regions in strings, globals
    assert completions(repl, "e.sta") == ["stack"]
    assert completions(repl, 'ev["send') == ["sendptr"]
    assert completions(repl, 'ev["region"] == "MPI_S') == ["MPI_Send"]
    assert completions(repl, ':find ev["ty') == ["type"]
    assert completions(repl, "P2S") == ["P2Statistic"]
    # Lua and Tcl: their own method and attribute spellings
    repl.session.use_language("lua")
    assert completions(repl, "e:ne") == ["next"]
    assert completions(repl, "x = ev.sen") == ["sendptr"]
    repl.session.use_language("tcl")
    assert completions(repl, "e ne") == ["next"]
    assert completions(repl, "set x $ev(de") == ["dest"]
    assert completions(repl, "puts [e si") == ["size"]


def test_each_language_has_its_pygments_lexer():
    from earl.repl import languages

    assert [languages.lexer(name).name for name in languages.NAMES] == ["Python", "Lua", "Tcl"]


def test_toolbar_says_where_the_iterator_stands(repl):
    from earl.repl.toolbar import toolbar

    def text():
        return "".join(part for _, part in toolbar(repl.session))

    assert text() == " 0 / 18  at the start: :next steps in | python "
    repl.lines(":jump 11", ":lang lua")
    assert text() == " 11 / 18 | 0.000041000 s | loc 1 rank one | recv | MPI_Recv | lua "


def view_keys(repl, keys):
    """Types `keys` into the full-screen view, then q; returns the view (its status)."""
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from earl.repl import view

    with create_pipe_input() as pipe:
        pipe.send_text(keys + "q")
        return view.run(repl.session, input=pipe, output=DummyOutput())


def test_view_keys_step_follow_search_and_move_in_time(repl):
    from repl_driver import LEFT, PAGE_DOWN, PAGE_UP

    repl.trace.jump(4)
    view_keys(repl, RIGHT + RIGHT)
    assert repl.trace.iterator == 6
    shown = view_keys(repl, "l" + RIGHT + RIGHT + LEFT)  # loc 0's events after 6: 7, 8
    assert repl.trace.iterator == 7 and shown.followed == 0
    view_keys(repl, "u")                                  # enterptr of 7: main's enter on 0
    assert repl.trace.iterator == 1
    view_keys(repl, "b")
    assert repl.trace.iterator == 7
    view_keys(repl, '/ev["type"] == "recv"' + ENTER)      # the first receive after 7
    assert repl.trace.iterator == 11
    view_keys(repl, "s")
    assert repl.trace.iterator == 5
    view_keys(repl, "b")
    assert repl.trace.iterator == 11
    # in time: the picture around 11 (41 us) reaches from the first event (10 us) to the
    # last (72 us); half of it, 31 us, later is 72 us: event 18. Around 18 the picture is
    # the same, and 31 us before 72 us is 41 us: event 11 again
    view_keys(repl, PAGE_DOWN)
    assert repl.trace.iterator == 18
    view_keys(repl, PAGE_UP)
    assert repl.trace.iterator == 11
    shown = view_keys(repl, '/ev["type"] == "nothing"' + ENTER)
    assert repl.trace.iterator == 11 and shown.message == 'find ev["type"] == "nothing": none found'
    shown = view_keys(repl, "/ev[" + ENTER)
    assert repl.trace.iterator == 11 and "SyntaxError" in shown.message
    shown = view_keys(repl, RIGHT * 10)
    assert repl.trace.iterator == 18 and shown.message == "at the last event (18): nothing follows"


def test_view_panes_follow_the_iterator(repl):
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.output import DummyOutput

    from earl.repl.render import plain
    from earl.repl.view import LiveView

    repl.trace.jump(14)
    with create_app_session(output=DummyOutput()):
        shown = LiveView(repl.session)
        assert plain(shown.event_pane()).splitlines()[0] == "event 14 of 18"
        assert "* loc 2  main > MPI_Recv  since 0.000050000  [rank two]" in \
            plain(shown.stack_pane()).splitlines()
        # 80 columns less the labels: 77; 14 is at 60 us, the last event 12 us later, so
        # the picture spans 48..72 us, where loc 2's MPI_Recv (50..61 us) is all but main
        assert "regions: A main  B MPI_Recv" in plain(shown.timeline_pane()).splitlines()
        assert plain(shown.status()).startswith(" 14 / 18 | 0.000060000 s | loc 2 rank two | recv")
        repl.trace.jump(5)
        assert plain(shown.event_pane()).splitlines()[0] == "event 5 of 18"


def test_view_search_where_events_lack_the_attribute(repl):
    """`/` in :view as in docs/repl.md: events 1-9 have no region or are not MPI_Recv; the
    first enter of MPI_Recv is 10, then its exit 12."""
    view_keys(repl, '/ev["region"] == "MPI_Recv"' + ENTER)
    assert repl.trace.iterator == 10
    repl.session.use_language("lua")
    view_keys(repl, '/ev.region == "MPI_Recv"' + ENTER)
    assert repl.trace.iterator == 12
    repl.session.use_language("tcl")
    shown = view_keys(repl, '/$ev(region) eq "MPI_Recv"' + ENTER)
    assert repl.trace.iterator == 13 and shown.message == ""


def test_region_letters_stay_the_same_across_zoom_and_moves(repl):
    """Around 14 (60 us) the picture spans 48..72 us: main and loc 2's MPI_Recv. Zoomed
    out twice (half span 12 -> 48 us, so 12..108 us) MPI_Send appears at 20 and 30 us,
    left of every MPI_Recv: it gets the next letter, C; MPI_Recv stays B. Around 4
    (20 us, 10..30 us; 40 columns) :timeline shows main and MPI_Send with the same
    letters."""
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.output import DummyOutput

    from earl.repl.render import plain
    from earl.repl.view import LiveView

    def legend(lines):
        return next(line for line in lines if line.startswith("regions: "))

    repl.trace.jump(14)
    with create_app_session(output=DummyOutput()):
        shown = LiveView(repl.session)
        assert legend(plain(shown.timeline_pane()).splitlines()) == "regions: A main  B MPI_Recv"
        shown.zoom(2.0)
        shown.zoom(2.0)
        lines = plain(shown.timeline_pane()).splitlines()
        assert legend(lines) == "regions: A main  B MPI_Recv  C MPI_Send"
        rows = {line.split("|")[0].strip(): line.split("|")[1] for line in lines if "|" in line}
        assert "C" in rows["0"] and "B" not in rows["0"] and "B" in rows["2"]
    out, err = repl.lines(":jump 4", ":timeline 40")
    assert legend(out) == "regions: A main  C MPI_Send"


def test_view_follows_the_location_a_jump_lands_on(repl):
    """Following loc 0 from 4, a search lands on 10 (enter MPI_Recv on loc 1): the view
    follows loc 1, so Right goes to 11, loc 1's next event (not 16, loc 0's). From 14
    (loc 2), s goes to its send 8 on loc 0; Right then is 9."""
    from earl.repl.render import plain

    repl.trace.jump(4)
    shown = view_keys(repl, 'l/ev["region"] == "MPI_Recv"' + ENTER + RIGHT)
    assert repl.trace.iterator == 11 and shown.followed == 1
    assert "| following loc 1 " in plain(shown.status())
    repl.trace.jump(14)
    shown = view_keys(repl, "ls" + RIGHT)
    assert repl.trace.iterator == 9 and shown.followed == 0


@pytest.mark.parametrize("language, leave", [
    ("python", "exit()"), ("lua", "os.exit(0)"), ("tcl", "[exit]")])
def test_exit_in_a_search_is_refused_at_the_prompt_and_in_the_view(repl, language, leave):
    out, err = repl.lines(f":lang {language}", ":jump 3", f":find {leave}", ":next")
    assert err == ["exit is disabled in the REPL: use :quit (or Ctrl-D)"]
    assert brief_fields(out[-1])[0] == 4  # the search left the iterator at 3; :next ran
    shown = view_keys(repl, f"/{leave}" + ENTER + RIGHT)
    assert shown.message == "" and repl.trace.iterator == 5  # the view went on
    shown = view_keys(repl, f"/{leave}" + ENTER)
    assert shown.message == "exit is disabled in the REPL: use :quit (or Ctrl-D)"
