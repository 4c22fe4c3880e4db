"""Reproductions of ``bolt`` (Bardou & Thiran, ICML): Figures 1–2, the runs behind Corollary 3.7 and
Theorem 3.8, and Tables 1–3, on the continuous-time environment ``bolt-st``.

``bolt-st`` is a sample of ``GP(0, λ k_S k_T)`` (Matérn-5/2 ``k_S``, ``l_S = 0.2``, on a grid of [0, 1]^d)
whose simulated clock advances by ``R(|D|)`` after each iteration (Definition 3.5), so a run is reproducible
and its time axis is the paper's: BOLT and its competitors are compared on the regret they make within a
budget of simulated seconds (the paper's protocol runs 600 s of wall-clock time per benchmark).

=========================  ==================================================================================
reproduction               what is run or computed
=========================  ==================================================================================
``bolt:figure-1``          ε_c of (4)–(5) against 1/c for five k_T (the paper's instance), and the per-step
                           regret floor of a sliding-window GP-UCB measured at three sampling frequencies
``bolt:figure-2``          n* of (9) against l_T for five k_T and for R growing like n, n², n³ or constant;
                           BOLT's cap in runs; FIFO windows of n*/4, n* and 4n* compared
                           (READING.md §bolt:figure-2)
``bolt:linear-regret``     R_T on a ladder of horizons for BOLT, W-DBO, FIFO GP-UCB and GP-UCB (Cor. 3.7)
``bolt:upper-bound``       FIFO GP-UCB and BOLT with the β of (63) against (7) and (62) (Thm 3.8, Lemma D.1)
``bolt:table-1``           BOLT's row of Table 1 (linear lower and upper bound) from the two sweeps above
``bolt:table-3``           Table 3 scaled down on ``bolt-st`` analogues (preset ``bolt:table-3``), with Table 2:
                           the eight synthetic benchmarks' signal variances against its noise variances
=========================  ==================================================================================

Every run of BOLT records ``n*`` and its measured response times in the trace (``meta["policy"]``).
Modules: ``common`` (the set-up, time budgets, comparisons, runs replayed on their environment), ``figures``
(Figures 1–2), ``regret`` (upper bound, linear regret, Table 1), ``tables`` (Tables 2–3).
"""

from __future__ import annotations

from .common import (
    BOLT_ST,
    DELTA,
    LIPSCHITZ,
    N_STAR,
    RESPONSE,
    budget_regret,
    certified_n_star,
    chosen_sigma,
    compare_values,
    horizon_for,
    make_bolt_env,
    trend,
)
from .figures import FIFO_FLOOR, WINDOW_BOLT
from .regret import (
    BOLT_NSTAR,
    FIFO_NSTAR,
    FIFO_WIDE,
    FLOOR_SLOPE_SDS,
    FLOOR_SPATIAL_LENGTHSCALES,
    LINEAR_ARMS,
    LINEAR_N_STAR,
    RANDOM,
    STATIC,
    STATIC_CONTROL,
    TABLE1_ROWS,
    chosen_widths,
    floor_env,
    floor_key,
    floor_lipschitz,
    floor_of,
    floor_of_corrected,
    late_regret,
    linear_ladder,
    prefix_values,
    theorem_3_8_bound,
)
from .tables import TABLE2, TABLE3_BENCHMARKS, table_2_figure

__all__ = ["BOLT_NSTAR", "BOLT_ST", "DELTA", "FIFO_FLOOR", "FIFO_NSTAR", "FIFO_WIDE", "FLOOR_SLOPE_SDS",
           "FLOOR_SPATIAL_LENGTHSCALES", "LINEAR_ARMS", "LINEAR_N_STAR", "LIPSCHITZ", "N_STAR", "RANDOM", "RESPONSE",
           "STATIC", "STATIC_CONTROL", "TABLE1_ROWS", "TABLE2", "TABLE3_BENCHMARKS", "WINDOW_BOLT", "budget_regret",
           "certified_n_star", "chosen_sigma", "chosen_widths", "compare_values", "floor_env", "floor_key",
           "floor_lipschitz", "floor_of", "floor_of_corrected", "horizon_for", "late_regret", "linear_ladder",
           "make_bolt_env", "prefix_values", "table_2_figure", "theorem_3_8_bound", "trend"]
