"""Automatic wait-state analysis: where time is lost, why, on which call path and location.

    import earl
    report = earl.analyze("run.otf2")          # the native engine (cpp/analysis)
    report.total("mpi_latesender")             # seconds
    report.by_location("mpi_latesender")       # {loc: seconds}
    report.by_callpath("mpi_latesender")       # {"main/step/exchange/MPI_Recv": seconds}
    report.to_pandas()                         # one row per (metric, call path, location)
    report.write_cube("run.cubex")             # for the Cube GUI
    report.write_html("run.html")              # one self-contained page
    report.to_json()                           # `earl analyze --json`; Report.from_json reads it

What an engine returns and every view reads is declared once, in report_schema.py.

Patterns and metric ids follow Scalasca 2.6 (docs/analysis.md).
"""
from earl.analysis.report import Report, analyze, metrics

__all__ = ["Report", "analyze", "metrics"]
