"""Claim checks of ``wgpucb`` (WGP-UCB), one module per topic of the paper.

* ``mercer`` — Theorem 1, Assumption 1 (the Mercer decomposition on a grid)
* ``weighted_regression`` — Remarks 1–2, Lemmas 9, 12, 13, App. C (weighted GP regression, feature forms)
* ``confidence`` — Theorems 2–3, Lemmas 10–11 (confidence bounds, by Monte Carlo)
* ``regret_orders`` — Lemmas 22–23 (the order analysis behind Corollary 5)
* ``information_gain`` — Remark 5, Theorem 7 (and the γ̄ statement of Theorem 6)
* ``universal_bounds`` — Theorem 6, Lemmas 24–25 (horizon-dependent gain bounds, with γ̌)
* ``eigendecay`` — Corollary 8 (exponential and polynomial eigendecay)
* ``quadrature`` — Lemma 14 and the QFF weights (quadrature Fourier features)
* ``variance_sums`` — Lemmas 15–19, 21 (standard deviations under the QFF approximation)
* ``algorithm`` — Algorithm 1 (the toolkit's WGP-UCB replayed)
* ``environments`` — the variation budget of the test environments
* ``regret_decomposition`` — Lemma 20, Theorem 4 (WGP-UCB runs against the regret decomposition and bound)
* ``regret_rate`` — Corollary 5 (the regret rate on rotations with B_T = T^ν, from sweeps)
* ``experiments`` — Figure 1, Appendix E Figures 2–3, the stock experiment (from the reproductions)
* ``grids``, ``parts`` — shared instances and the merging of several decisions into one evidence
"""
