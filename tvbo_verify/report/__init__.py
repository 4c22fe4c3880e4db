"""The verification report: ``results.json`` (machine-readable, written atomically claim by claim)
and one self-contained ``index.html`` (inline CSS, figures as inline SVG, no network request)."""

from .results import SCHEMA, load_results, write_atomic
from .runner import ReportOutcome, run_report

__all__ = ["SCHEMA", "ReportOutcome", "load_results", "run_report", "write_atomic"]
