"""Progress display for long scans: a rich bar on a terminal, silence elsewhere."""
import sys
import time


class ProgressBar:
    """A callable taking the fraction done (0..1); shows a bar after `delay` seconds.

    The C++ core calls it every few ten thousand events; a scan that ends quickly never
    shows anything, and nothing is drawn when stderr is not a terminal.
    """

    def __init__(self, description, delay=0.5, stream=None):
        self.description = description
        self.delay = delay
        self.stream = stream if stream is not None else sys.stderr
        self.started = time.monotonic()
        self._progress = None
        self._task = None

    def enabled(self):
        return hasattr(self.stream, "isatty") and self.stream.isatty()

    def __call__(self, fraction):
        if self._progress is None:
            if not self.enabled() or time.monotonic() - self.started < self.delay:
                return
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

            self._progress = Progress(
                TextColumn("{task.description}"), BarColumn(),
                TextColumn("{task.percentage:>3.0f}%"), TimeRemainingColumn(),
                console=Console(file=self.stream), transient=True)
            self._progress.start()
            self._task = self._progress.add_task(self.description, total=1.0)
        self._progress.update(self._task, completed=fraction)

    def close(self):
        if self._progress is not None:
            self._progress.stop()
            self._progress = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
