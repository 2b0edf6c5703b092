"""The REPL in a real terminal: `earl repl` runs under tmux, keys are typed as a user types
them (tmux send-keys) and the screen is read back (tmux capture-pane), including the
full-screen `:view`. Skipped only where tmux is missing."""
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from repl_driver import small_trace

TMUX = shutil.which("tmux")
EARL = str(Path(sys.executable).with_name("earl"))
WAIT = 60  # seconds before a screen that never shows what is expected fails the test

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")


class Terminal:
    def __init__(self, directory, command):
        self.socket = str(directory / "tmux.sock")
        self.tmux("new-session", "-d", "-x", "110", "-y", "40", "-s", "repl",
                  "env", f"XDG_DATA_HOME={directory / 'data'}", "TERM=xterm-256color", *command)

    def tmux(self, *args):
        return subprocess.run([TMUX, "-S", self.socket, *args], capture_output=True, text=True,
                              timeout=30)

    def keys(self, *keys):
        self.tmux("send-keys", "-t", "repl", *keys)

    def type(self, text):
        self.tmux("send-keys", "-t", "repl", "-l", text)

    def screen(self):
        return self.tmux("capture-pane", "-p", "-t", "repl").stdout

    def wait_for(self, *texts):
        """The screen once it shows every one of `texts` (a hang guard, not a timing test)."""
        deadline = time.monotonic() + WAIT
        while True:
            screen = self.screen()
            if all(text in screen for text in texts):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"the screen never showed {texts}:\n{screen}")
            time.sleep(0.1)

    def running(self):
        return self.tmux("has-session", "-t", "repl").returncode == 0

    def close(self):
        self.tmux("kill-server")


@pytest.fixture
def terminal(tmp_path):
    opened = []

    def open_terminal(*args):
        opened.append(Terminal(tmp_path, [EARL, "repl", *args]))
        return opened[-1]

    yield open_terminal
    for each in opened:
        each.close()


def test_a_user_walks_a_trace_in_a_terminal(terminal, tmp_path):
    term = terminal(small_trace(tmp_path))
    screen = term.wait_for("events:    18", "Type :help", "python 0>")
    assert "rank two" in screen

    term.type(":jump 13")
    term.keys("Enter")
    # the toolbar at the bottom: position / total, time, location, type, region, language
    # (drawn after the prompt: a busy machine captures the screen in between)
    toolbar = " 13 / 18 | 0.000050000 s | loc 2 rank two | enter | MPI_Recv | python"
    screen = term.wait_for("python 13>", toolbar)
    assert "13  0.000050000  loc 2   enter  MPI_Recv" in screen
    assert toolbar in screen.splitlines()[-1]

    term.type(":whe")          # completion of a command name
    term.keys("Tab")
    term.wait_for("python 13> :where")
    term.keys("Enter")
    term.wait_for("* loc 2  main > MPI_Recv", "1 message in flight")

    term.type(":lang lua")
    term.keys("Enter")
    term.type("for i = 1, 2 do")  # a block over several lines
    term.keys("Enter")
    term.type("print(i * 7)")
    term.keys("Enter")
    term.type("end")
    term.keys("Enter")
    screen = term.wait_for("\n7\n14\n")
    term.type("e:next()")       # moving in Lua moves the one iterator
    term.keys("Enter")
    term.wait_for("lua 14>")

    term.type(":view")
    term.keys("Enter")
    # the event pane and the stacks pane
    screen = term.wait_for("event 14 of 18", "regions: A main", "sendptr", "* loc 2  main > MPI_Recv")
    assert "time " in screen and "message" in screen
    term.keys("Right")
    term.wait_for("event 15 of 18")
    term.keys("Left")
    term.keys("Left")
    term.wait_for("event 13 of 18")
    term.keys("Right")
    term.keys("s")                               # to the send of receive 14
    term.wait_for("event 8 of 18", "dest      2")
    term.keys("b")
    term.wait_for("event 14 of 18")
    term.keys("Escape")
    term.wait_for("lua 14>")

    term.type(":ju")            # suggested from history: the rest of `:jump 13`, shown
    term.wait_for("lua 14> :jump 13")
    term.keys("Right")         # and taken
    term.keys("Enter")
    term.wait_for("lua 13>")

    term.type(":quit")
    term.keys("Enter")
    deadline = time.monotonic() + WAIT
    while term.running() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not term.running()
    history = (tmp_path / "data" / "earl" / "repl_history").read_text()
    assert "+:jump 13" in history and "+:where" in history


def wait_until_ended(term):
    deadline = time.monotonic() + WAIT
    while term.running() and time.monotonic() < deadline:
        time.sleep(0.1)
    return not term.running()


def test_tcl_exit_does_not_end_the_session_in_a_terminal(terminal, tmp_path):
    """At event 6 (exit MPI_Send) `$ev(type)` shows "exit" instead of running Tcl's exit;
    the session goes on until :quit."""
    term = terminal("--lang", "tcl", small_trace(tmp_path))
    term.wait_for("Type :help", "tcl 0>")
    term.type(":jump 6")
    term.keys("Enter")
    term.wait_for("tcl 6>")
    term.type("$ev(type)")
    term.keys("Enter")
    screen = term.wait_for("tcl 6> $ev(type)\nexit\n")
    term.type("$ev(region)")
    term.keys("Enter")
    term.wait_for("tcl 6> $ev(region)\nMPI_Send\n")
    assert term.running()
    term.type("exit 3")  # code that exits ends the session (with its status)
    term.keys("Enter")
    assert wait_until_ended(term)


def test_view_letters_stay_and_a_search_moves_what_is_followed(terminal, tmp_path):
    """110 columns: the timeline is 106 wide. Around 14 (60 us) it spans 48..72 us (main,
    loc 2's MPI_Recv); zoomed out twice, 12..108 us, MPI_Send appears and gets C while
    MPI_Recv keeps B. A new view around 4 (10..30 us) shows main and MPI_Send: C still.
    Following loc 0 there, docs/repl.md's kind of search (events 5 and 8 are sends, with
    no region) lands on 10 (loc 1), and the status bar says loc 1 is followed."""
    term = terminal(small_trace(tmp_path))
    term.wait_for("python 0>")
    term.type(":jump 14")
    term.keys("Enter")
    term.type(":view")
    term.keys("Enter")
    term.wait_for("event 14 of 18", "regions: A main  B MPI_Recv\n")
    term.keys("-")
    term.keys("-")
    term.wait_for("regions: A main  B MPI_Recv  C MPI_Send")
    term.keys("Escape")
    term.wait_for("python 14>")
    term.type(":jump 4")
    term.keys("Enter")
    term.type(":view")
    term.keys("Enter")
    term.wait_for("event 4 of 18", "regions: A main  C MPI_Send\n")
    term.keys("l")
    term.wait_for("following loc 0")
    term.keys("/")
    term.wait_for("find (python):")
    term.type('ev["region"] == "MPI_Recv"')
    term.keys("Enter")
    screen = term.wait_for("event 10 of 18", "following loc 1")
    assert "KeyError" not in screen and "following loc 0" not in screen
    term.keys("Right")
    term.wait_for("event 11 of 18")
    term.keys("Escape")
    term.wait_for("python 11>")
