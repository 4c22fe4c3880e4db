"""The verification report: ``results.json`` (machine-readable, written atomically claim by claim, each
record sealed by a digest) and ``index.html``, which opens with what the papers get wrong (inline CSS,
formulas as inline SVG, figures as files beside it loaded lazily, no network request: one folder that
works offline).

The report folder holds ``results.json``, ``index.html``, ``figures/`` (one SVG per claim figure),
``counterexamples/`` (what ``tvbo-verify replay`` reads) and, when the figure reproductions wrote
them, ``reproductions/*.json`` (embedded per paper; see :mod:`tvbo_verify.report.reproductions`).
"""

from .reproductions import load_reproductions
from .results import SCHEMA, load_results, write_atomic
from .runner import ReportOutcome, run_report

__all__ = ["SCHEMA", "ReportOutcome", "load_reproductions", "load_results", "run_report", "write_atomic"]
