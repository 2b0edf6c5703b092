"""EARL: a programmable environment for analysing event traces of parallel programs.

    from earl import EventTrace
    e = EventTrace("run.alog")
    while e.next():
        ev = e.event()
"""
from earl import _core
from earl._core import EarlError
from earl.trace import EventTrace

# TEMPORARY while parts land: export what the extension has.
for _name in ("P2Statistic",):
    if hasattr(_core, _name):
        globals()[_name] = getattr(_core, _name)

__version__ = "0.1.0"
__all__ = ["EventTrace", "P2Statistic", "EarlError"]
