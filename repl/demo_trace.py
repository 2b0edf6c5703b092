"""The trace `earl repl` opens without one: a small run of EARL's own generator (four
processes with late senders, messages out of order and imbalance before collectives),
written on the fly into a temporary directory that is removed afterwards."""
import contextlib
import os
import tempfile

from earl import _core
from earl.generate import generate

OPTIONS = dict(locations=4, events=3000, seed=1, late_sender_rate=0.3, out_of_order_rate=0.2)


@contextlib.contextmanager
def demo_trace():
    """Yields the path of a freshly generated demo trace (OTF2 where this build writes it,
    else ALOG)."""
    fmt = "otf2" if "otf2" in _core.generator_formats() else "alog"
    with tempfile.TemporaryDirectory(prefix="earl-repl-demo-") as directory:
        path = os.path.join(directory, f"demo.{fmt}")
        generate(path, format=fmt, **OPTIONS)
        yield path
