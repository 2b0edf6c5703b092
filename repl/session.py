"""The REPL's session: one trace, its iterator, and the moves a person makes on it.

The iterator is the trace's own (EARL 2.0's), shared by Python, Lua and Tcl: whatever
moves it, in any language, moves it for all. The session adds what a person walking a
trace needs beyond the iterator: a way back from jumps, named marks, the first event at
or after a time (a binary search over positions, so it never scans), and the languages,
started when first used, in each of which `e` is the trace and `ev` the event at the
iterator.
"""
from earl import EarlError

from earl.repl import languages
from earl.repl.suggest import did_you_mean


class CommandError(EarlError):
    """Something the user asked for that cannot be done; shown as one line."""


class Session:
    def __init__(self, trace, language="python"):
        self.trace = trace
        self.size = len(trace)
        self.marks = {}
        self._back = []           # positions to return to, most recent last
        self._evaluators = {}     # language name -> evaluator, started when first used
        self._synced = {}         # language name -> iterator position its `ev` shows
        self.language = None
        self.searched_to = 0      # the last position the last search examined
        self._attributes = None   # attribute names seen, for completion
        self.region_letters = {}  # region -> its letter in timelines, for the whole session
        self.use_language(language)

    # ------------------------------------------------------------------ where we are
    @property
    def closed(self):
        """The trace was closed by code (e.close(), e:close(), e close): the session goes
        on, and what reads the trace says it is closed."""
        return self.trace.closed

    @property
    def position(self):
        return 0 if self.closed else self.trace.iterator

    def current(self):
        """The event at the iterator, or None at position 0."""
        return self.trace.event() if self.trace.iterator else None

    def check_position(self, pos, what="position"):
        if not 1 <= pos <= self.size:
            raise CommandError(f"{what} {pos} is not an event: the trace has events 1..{self.size}"
                               if self.size else f"{what} {pos}: the trace has no events")
        return pos

    def check_location(self, loc):
        if not 0 <= loc < self.trace.nrlocs():
            raise CommandError(f"location {loc} does not exist: the trace has locations "
                               f"0..{self.trace.nrlocs() - 1}")
        return loc

    # ------------------------------------------------------------------ moves
    def step(self, count):
        """Moves `count` events forward (negative: back), stopping at the first or last
        event; returns the new position. Moving nowhere is an error that says why."""
        here = self.position
        if count >= 0:
            if here >= self.size:
                raise CommandError(f"at the last event ({self.size}): nothing follows"
                                   if self.size else "the trace has no events")
            target = min(here + count, self.size)
        else:
            if here <= 1:
                raise CommandError("at the first event: nothing precedes it" if here
                                   else "at the start (position 0): nothing precedes it")
            target = max(here + count, 1)
        self._move(target)
        return target

    def jump(self, pos, remember=True):
        """Moves to event `pos`; `remember` keeps the position left for `back`."""
        self.check_position(pos)
        if remember and self.position != pos:
            self._back.append(self.position)
        self._move(pos)
        return pos

    def first_at_or_after(self, seconds):
        """The position of the first event at or after `seconds` (events are in time
        order, so a binary search: about log2(m) random accesses, never a scan)."""
        if self.size == 0:
            raise CommandError("the trace has no events")
        low, high = 1, self.size
        if self.trace.event(high)["time"] < seconds:
            last = self.trace.event(high)["time"]
            raise CommandError(f"no event at or after {seconds:g} s: the last is at {last:.9f} s")
        while low < high:
            middle = (low + high) // 2
            if self.trace.event(middle)["time"] < seconds:
                low = middle + 1
            else:
                high = middle
        return low

    def follow(self, attribute):
        """Jumps to the event the current event's pointer `attribute` names."""
        event = self.current()
        if event is None:
            raise CommandError(f"no event at the iterator (position 0): there is no {attribute}")
        if attribute not in event:
            article = "an" if event["type"][:1] in "aeiou" else "a"
            raise CommandError(f"event {event['pos']} is {article} {event['type']}: it has no {attribute}")
        target = event[attribute]
        if not target:
            raise CommandError(f"event {event['pos']} has {attribute} 0: it points nowhere")
        return self.jump(target)

    def back(self):
        if not self._back:
            raise CommandError("no jump to return from")
        target = self._back.pop()
        if target == 0:
            self.trace.reset()
            self.sync(force=True)
            return 0
        self._move(target)
        return target

    def mark(self, name):
        if not self.position:
            raise CommandError("no event at the iterator (position 0) to mark")
        self.marks[name] = self.position
        return self.position

    def goto(self, name):
        if name not in self.marks:
            known = ", ".join(sorted(self.marks)) or "none yet"
            hint = did_you_mean(name, self.marks)
            raise CommandError(f"no mark named '{name}'{hint or f' (marks: {known})'}")
        return self.jump(self.marks[name])

    def attribute_names(self):
        """The attribute names of the trace's events, for completion: those of the
        events near the start (one of each type, read once) and of the current event."""
        if self._attributes is None:
            names = {}
            for pos in range(1, min(self.size, 2000) + 1):
                names.update(dict.fromkeys(self.trace.attributes(pos)))
            self._attributes = list(names)
        current = self.trace.attributes() if self.position else []
        return self._attributes + [name for name in current if name not in self._attributes]

    def _move(self, pos):
        if self.trace.jump(pos) != pos:
            raise CommandError(f"cannot move to {pos}")
        self.sync(force=True)

    # ------------------------------------------------------------------ languages
    def evaluator(self, name=None):
        """The evaluator of language `name` (default: the current one), started on first
        use with `e` shared into it."""
        name = name or self.language
        if name not in self._evaluators:
            self._evaluators[name] = languages.start(name, self.trace)
            self._synced.pop(name, None)
            self.sync()
        return self._evaluators[name]

    def use_language(self, name):
        if name not in languages.NAMES:
            hint = did_you_mean(name, languages.NAMES) or f" (choose from {', '.join(languages.NAMES)})"
            raise CommandError(f"unknown language '{name}'{hint}")
        self.evaluator(name)
        self.language = name

    def sync(self, force=False):
        """Sets `ev` in every started language to the event at the iterator, where the
        iterator moved since that language last saw it (or always with `force`)."""
        if self.closed:
            return
        here = self.position
        event = None
        for name, evaluator in self._evaluators.items():
            if force or self._synced.get(name) != here:
                if event is None and here:
                    event = self.trace.event()
                evaluator.set_event(event)
                self._synced[name] = here

    # ------------------------------------------------------------------ search
    def search(self, expression, forward=True):
        """A generator for `:find` / `:rfind`: runs the current language's search over
        chunks of positions after (before) the iterator, yielding the fraction done after
        each chunk, and returns the position where `expression` over `ev` holds (0: none).
        The iterator stays where it was until an event is found; closing the generator
        (or Ctrl-C) leaves it there. `self.searched_to` is the last position examined."""
        evaluator = self.evaluator()
        return self._search(evaluator.searcher(expression), evaluator.last_searched, forward)

    def search_location(self, loc, forward=True):
        """As `search`, for the next (previous) event on location `loc`."""
        self.check_location(loc)
        event, seen = self.trace.event, [self.position]

        def search(first, last, step):
            for pos in range(first, last + step, step):
                seen[0] = pos
                if event(pos)["loc"] == loc:
                    return pos
            return 0

        return self._search(search, lambda: seen[0], forward, remember=False)

    def _search(self, search, last_searched, forward, remember=True, chunk=4096):
        here = self.position
        first, last, step = (here + 1, self.size, 1) if forward else (here - 1, 1, -1)
        if self.size == 0:
            raise CommandError("the trace has no events")
        if (last - first) * step < 0:
            raise CommandError("at the last event: nothing follows" if forward
                               else "at the first event: nothing precedes it")
        total = abs(last - first) + 1
        self.searched_to = here
        found, pos = 0, first
        try:
            while not found and (pos - last) * step <= 0:
                end = min(pos + chunk - 1, last) if forward else max(pos - chunk + 1, last)
                try:
                    found = search(pos, end, step)
                finally:
                    self.searched_to = last_searched()
                if not found:
                    yield (abs(end - first) + 1) / total
                pos = end + step
        finally:
            if self.position != here:  # the expression itself moved the iterator
                self.trace.jump(here) if here else self.trace.reset()
            self.sync(force=True)    # the search showed each event to the language as ev
        if found:
            self.jump(found, remember)
        return found

    def find(self, expression, forward=True, progress=None):
        """Runs `search` to its end; `progress(fraction)` hears of each chunk."""
        return self.finish(self.search(expression, forward), progress)

    @staticmethod
    def finish(steps, progress=None):
        """Runs a search generator to its end; returns the position found (0: none)."""
        while True:
            try:
                fraction = next(steps)
            except StopIteration as done:
                return done.value
            if progress is not None:
                progress(fraction)
