"""The verification report: ``results.json`` (machine-readable, written atomically claim by claim, each
record sealed by a digest) and its pages: ``index.html``, which opens with what the papers get wrong,
and one page per paper (``<paper>.html``) with each claim in detail. CSS is inline, formulas are inline
SVG, figures are files beside the pages loaded lazily, and nothing is requested from the network: the
folder works offline.

The report folder holds ``results.json``, the pages, ``figures/`` (one SVG per claim figure),
``counterexamples/`` (what ``tvbo-verify replay`` reads) and, when the figure reproductions wrote
them, ``reproductions/`` (a record, SVG and PNG per reproduced figure; see
:mod:`tvbo_verify.report.reproductions`).
"""

from .reproductions import load_reproductions
from .results import SCHEMA, load_results, write_atomic
from .runner import ReportOutcome, run_report

__all__ = ["SCHEMA", "ReportOutcome", "load_reproductions", "load_results", "run_report", "write_atomic"]
