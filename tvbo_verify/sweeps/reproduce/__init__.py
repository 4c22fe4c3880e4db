"""``tvbo-verify reproduce``: the figures and tables of every registered paper, reproduced from cached runs.

The reproduction modules a paper's record names (:attr:`tvbo_verify.papers.Paper.reproductions`) register its
:class:`Reproduction` objects; :func:`run_reproduction` writes the figure and the measured finding.
"""

from .analysis import Finding, compare, final_table, ordering, within_run_slope
from .figures import Overlay, panel_figure, regret_axes, regret_figure
from .registry import (
    Outcome,
    Reproduction,
    file_stem,
    get_reproduction,
    measure,
    register,
    reproductions,
    run_reproduction,
)

__all__ = ["Finding", "Outcome", "Overlay", "Reproduction", "compare", "file_stem", "final_table",
           "get_reproduction", "measure", "ordering", "panel_figure", "regret_axes", "regret_figure", "register",
           "reproductions", "run_reproduction", "within_run_slope"]
