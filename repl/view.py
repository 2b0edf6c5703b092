"""`:view`: a full-screen live view of the trace (PARvis' navigation, seed 003): on top
the timeline of the locations around the current time, below the current event with
its pointers and every location's stack, and a status bar. Every pane is drawn from the
iterator on each key, through random access around it (never a scan), so a large trace
stays as quick as a small one; searches run in chunks between key presses and can be
stopped.

Keys: Right/Down/n next event, Left/Up/p previous (of the followed location only, after
`l`), PgDn/PgUp move by half the timeline's span in time, +/- zoom, l follow the current
event's location (again: stop; s, u, b or a search landing on another location's event
follow that one), s the send of a receive, u enterptr, b back, / search with an
expression in the current language, Ctrl-C stop a search, Esc or q return. A region keeps
its letter for the whole session (Session.region_letters), however the view zooms or
moves.
"""
import asyncio
import time

from prompt_toolkit.application import Application, get_app
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.layout import (ConditionalContainer, FormattedTextControl, HSplit, Layout,
                                   VSplit, Window)
from prompt_toolkit.layout.controls import BufferControl
from prompt_toolkit.layout.processors import BeforeInput

from earl import EarlError
from earl.repl import render, timeline
from earl.repl.render import STYLE, Text
from earl.repl.shell import EXIT_REFUSED
from earl.repl.toolbar import toolbar

LOWER_PANES = 13   # lines kept for the event and the stacks
TIMELINE_EXTRA = 6  # the timeline's lines besides its rows (time axis, markers, legend)
MESSAGES_SHOWN = 3  # messages in flight listed under the timeline
SEARCH_AT_ONCE = 0.2  # seconds a search may hold the keys before it goes on in the background


class LiveView:
    def __init__(self, session):
        self.session = session
        self.followed = None     # the location the arrows step through, or None for all
        self.half_span = None    # the timeline's half span in seconds (None: automatic)
        self.message = ""
        self.task = None         # the search running, if any
        self.query = Buffer(multiline=False, accept_handler=self._accept_query)
        self.asking = False      # the search line is open

    # ------------------------------------------------------------------ panes
    def _size(self):
        return get_app().output.get_size()

    def _timeline_rows(self):
        rows = max(3, self._size().rows - LOWER_PANES - TIMELINE_EXTRA - MESSAGES_SHOWN - 3)
        return min(self.session.trace.nrlocs(), rows)

    def _locations(self, count):
        """`count` locations (all if there are no more): those around the followed (or
        current) event's location."""
        trace = self.session.trace
        total = trace.nrlocs()
        if count >= total:
            return range(total)
        centre = self.followed
        if centre is None:
            centre = trace.event()["loc"] if trace.iterator else 0
        first = min(max(0, centre - count // 2), total - count)
        return range(first, first + count)

    def timeline_pane(self):
        width = max(10, self._size().columns - len(str(self.session.trace.nrlocs())) - 3)
        try:
            return list(timeline.picture(self.session.trace, width,
                                         self._locations(self._timeline_rows()),
                                         self.half_span, MESSAGES_SHOWN,
                                         self.session.region_letters))
        except EarlError as error:
            return [("class:error", str(error))]

    def event_pane(self):
        trace = self.session.trace
        if not trace.iterator:
            return [("class:dim", "at the start (position 0): Right steps to the first event")]
        return list(render.event_view(trace, trace.iterator))

    def stack_pane(self):
        rows = max(1, self._size().rows - self._timeline_height() - 5)
        return list(render.where_view(self.session.trace, self._locations(rows)))

    def _timeline_height(self):
        return self._timeline_rows() + TIMELINE_EXTRA + MESSAGES_SHOWN + 1

    def status(self):
        text = Text().extend(toolbar(self.session))
        if self.followed is not None:
            text.add(f"| following loc {self.followed} ", "toolbar")
        text.add(f"| {self.message} " if self.message else
                 "| <- -> step  PgUp/PgDn time  l s u b  / find  Esc ", "toolbar")
        return list(text)

    # ------------------------------------------------------------------ moves
    def _do(self, move):
        self.message = ""
        try:
            move()
        except EarlError as error:
            self.message = str(error)

    def _jumped(self, move):
        """A jump to an event (s, u, b, a search found one): while following a location,
        follow the one of the event landed on, so the status bar says what the arrows do."""
        self._do(move)
        self._refollow()

    def _refollow(self):
        trace = self.session.trace
        if self.followed is not None and trace.iterator:
            self.followed = trace.event()["loc"]

    def step(self, forward):
        if self.followed is None:
            self._do(lambda: self.session.step(1 if forward else -1))
        else:
            self._search(self.session.search_location(self.followed, forward),
                         f"next event on loc {self.followed}")

    def move_in_time(self, forward):
        session, trace = self.session, self.session.trace
        if not trace.iterator:
            return self.step(True)
        here = trace.event()["time"]
        span = self.half_span
        if span is None:
            start, end, _ = timeline.window(trace, trace.iterator, 80)
            span = (end - start) / 2 or 1e-6

        def move():
            if forward:
                session.jump(session.first_at_or_after(here + span), remember=False)
            else:
                target = here - span
                first = trace.event(1)["time"]
                session.jump(1 if target <= first else session.first_at_or_after(target),
                             remember=False)
        self._do(move)

    def zoom(self, factor):
        trace = self.session.trace
        if self.half_span is None and trace.iterator:
            start, end, _ = timeline.window(trace, trace.iterator, 80)
            self.half_span = (end - start) / 2 or 1e-6
        if self.half_span is not None:
            self.half_span *= factor

    def follow(self):
        trace = self.session.trace
        if self.followed is not None:
            self.followed = None
        elif trace.iterator:
            self.followed = trace.event()["loc"]

    # ------------------------------------------------------------------ searches
    def _accept_query(self, buffer):
        self.asking = False
        expression = buffer.text.strip()
        get_app().layout.focus_last()
        if expression:
            try:
                steps = self.session.search(expression, True)
            except EarlError as error:
                self.message = str(error)
                return False
            self._search(steps, f"find {expression}")
        return False

    def _search(self, steps, what):
        """Runs a search at once for up to SEARCH_AT_ONCE seconds (most end by then); a
        longer one goes on between key presses, its progress in the status bar."""
        if self.task is not None:
            self.message = "a search is running (Ctrl-C stops it)"
            return
        hurry = time.monotonic() + SEARCH_AT_ONCE
        while self._advance(steps, what):
            if time.monotonic() > hurry:
                self.task = get_app().create_background_task(self._run(steps, what))
                return

    def _advance(self, steps, what):
        """One chunk; True while the search goes on."""
        try:
            fraction = next(steps)
        except StopIteration as done:
            self.message = "" if done.value else f"{what}: none found"
            if done.value:
                self._refollow()
            return False
        except EarlError as error:
            self.message = str(error)
            return False
        except SystemExit:  # exit() in the expression: only :quit ends the session
            self.message = EXIT_REFUSED
            return False
        self.message = f"{what}: {fraction:.0%} (Ctrl-C stops)"
        return True

    async def _run(self, steps, what):
        try:
            while self._advance(steps, what):
                get_app().invalidate()
                await asyncio.sleep(0)
        except asyncio.CancelledError:
            steps.close()  # the iterator stays where it was
            self.message = f"{what}: stopped at event {self.session.searched_to}"
        finally:
            self.task = None
            get_app().invalidate()

    def stop_search(self):
        if self.task is not None:
            self.task.cancel()

    # ------------------------------------------------------------------ the application
    def application(self, input=None, output=None):
        keys = KeyBindings()
        browsing = Condition(lambda: not self.asking)

        def bind(*names, action):
            for name in names:
                keys.add(name, filter=browsing)(lambda event: action())

        bind("right", "down", "n", action=lambda: self.step(True))
        bind("left", "up", "p", action=lambda: self.step(False))
        bind("pagedown", action=lambda: self.move_in_time(True))
        bind("pageup", action=lambda: self.move_in_time(False))
        bind("+", action=lambda: self.zoom(0.5))
        bind("-", action=lambda: self.zoom(2.0))
        bind("l", action=self.follow)
        bind("s", action=lambda: self._jumped(lambda: self.session.follow("sendptr")))
        bind("u", action=lambda: self._jumped(lambda: self.session.follow("enterptr")))
        bind("b", action=lambda: self._jumped(self.session.back))
        bind("c-c", action=self.stop_search)

        @keys.add("/", filter=browsing)
        def _ask(event):
            self.asking = True
            self.query.reset()
            event.app.layout.focus(self.query)

        @keys.add("escape", eager=True)
        @keys.add("q", filter=browsing)
        def _leave(event):
            if self.asking:
                self.asking = False
                event.app.layout.focus_last()
                return
            self.stop_search()
            event.app.exit()

        language = self.session.language
        query_line = ConditionalContainer(
            Window(BufferControl(self.query, input_processors=[BeforeInput(f"find ({language}): ")]),
                   height=1),
            filter=Condition(lambda: self.asking))
        lower = VSplit([Window(FormattedTextControl(self.event_pane), wrap_lines=False),
                        Window(width=1, char="|", style="class:dim"),
                        Window(FormattedTextControl(self.stack_pane), wrap_lines=False)])
        root = HSplit([
            Window(FormattedTextControl(self.timeline_pane), wrap_lines=False,
                   height=self._timeline_height),
            Window(height=1, char="-", style="class:dim"),
            lower,
            query_line,
            Window(FormattedTextControl(self.status), height=1, style="class:status"),
        ])
        return Application(layout=Layout(root), key_bindings=keys, full_screen=True,
                           style=STYLE, input=input, output=output)


def run(session, input=None, output=None):
    """Shows the live view until Esc; the iterator stays where the view left it."""
    view = LiveView(session)
    view.application(input, output).run()
    session.sync(force=True)
    return view
