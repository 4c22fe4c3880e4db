"""Mutants of the theory layer: window and query schedules, block lengths and discounts, and ``n*`` from
response times (``bolt`` eq. (9))."""

from __future__ import annotations

from ..mutant import Mutant, Rewrite

SCHEDULES = (
    Mutant("window-length-off-by-one", "tvbo_verify.theory.schedules:window_step", "schedules",
           "W-SparQ windows of eq. (32) are one round longer than ⌊t^{α̃/α}⌋ + 1",
           Rewrite("return k + 1", "return k + 2")),
    Mutant("sparq-discard-plus-one-dropped", "tvbo_verify.theory.schedules:sparq_kept_ages", "schedules",
           "the SparQ discard rule keeps ages with σ²a² ≤ g(t) instead of σ²(a² + 1) ≤ g(t)",
           Rewrite("ages.astype(float) ** 2 + 1.0 <= g_over_s2", "ages.astype(float) ** 2 <= g_over_s2")),
    Mutant("block-length-exponents-swapped", "tvbo_verify.theory.schedules:block_lengths", "schedules",
           "the SE block lengths of tvgpucb Corollary 4.1 swap ε^{-1/4} (R-GP-UCB) and ε^{-1/3} (TV analysis)",
           Rewrite("1.0 / 4.0, 1.0 / 3.0, 12.0", "1.0 / 3.0, 1.0 / 4.0, 12.0")),
    Mutant("wgpucb-discount-horizon-exponent", "tvbo_verify.theory.schedules:wgpucb_discount", "schedules",
           "the unknown-budget discount of wgpucb Corollary 5 uses T^{-1/4} instead of T^{-1/2}",
           Rewrite("x = gamma_dot**-0.25 * horizon**-0.5\n", "x = gamma_dot**-0.25 * horizon**-0.25\n")),
)

NSTAR = (
    Mutant("nstar-off-by-one", "tvbo_verify.theory.response:n_star", "nstar",
           "n* is reported one larger than the argmax of ||u_n||² (array index read as a size)",
           Rewrite("best_n = int(np.argmax(logs))", "best_n = int(np.argmax(logs)) + 1")),
    Mutant("u2-kernel-not-squared", "tvbo_verify.theory.response:log_u2", "nstar",
           "||u_n||² sums k_T(i R(n)) instead of k_T²(i R(n)) (direct sums)",
           Rewrite("log_sum_exp(2.0 * _log_kernel(", "log_sum_exp(1.0 * _log_kernel(")),
)

MUTANTS = SCHEDULES + NSTAR
