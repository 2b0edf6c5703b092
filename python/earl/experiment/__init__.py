"""Measurement series (SIMPLE's ADMIN and the experiment loop of EARL 1998): run a traced
command over a grid of parameters, keep every run's trace and metadata in a project /
experiment / measurement folder hierarchy, analyse each, and compare them.

    from earl import experiment
    experiment.run("projects", "solver", "scaling", {"procs": ["2", "4", "8"]},
                   ["earl", "gen", "{trace}", "-n", "{procs}"], reason="strong scaling")
    table = experiment.table("projects", "solver/scaling")     # rows of wait-state totals
    print(experiment.text(table, percent=True))               # wait states in % of time
    experiment.plot(table, "scaling.png", by="procs")

The layout and metadata are described in layout.py (docs/experiments.md).
"""
from earl.experiment.layout import list_tree
from earl.experiment.runner import run
from earl.experiment.table import plot, table, text

__all__ = ["run", "list_tree", "table", "text", "plot"]
