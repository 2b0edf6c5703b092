"""EARL: a programmable environment for analysing event traces of parallel programs.

    from earl import EventTrace
    e = EventTrace("run.alog")
    while e.next():
        ev = e.event()
"""
from earl._core import EarlError, P2Statistic
from earl.described import add_shipped_folder
from earl.trace import EventTrace
from earl.analysis import analyze
from earl.analysis.compare import compare
from earl.merging import merge
from earl.validation import check
from earl.statistics import stats
from earl.tables import read_pandas
from earl import experiment

__version__ = "0.1.0"
add_shipped_folder()  # format="described:alog" finds the shipped descriptions
__all__ = ["EventTrace", "P2Statistic", "EarlError", "analyze", "check", "compare", "merge",
           "experiment", "read_pandas", "stats"]
