"""Mutants of the bandit policies, at least two per algorithm family of ``tvbo-verify run-list``.

The negative controls that never learn (``random``, ``fixed-arm``) have none: what they do (choose an
arm without looking at the data) has no rule a bug could bend towards a working method short of
replacing them. The ``greedy`` control has two: a control that quietly explores would no longer fail,
and the claims that rely on it would lose their power.
"""

from __future__ import annotations

from ..mutant import Mutant, Rewrite

GP_UCB = (
    Mutant("greedy-ucb", "tvbo_verify.bandits.policy:ucb_argmax", "policy",
           "the UCB rule drops exploration: argmax μ + 0·width (every GP policy)",
           Rewrite("mean + multiplier * np.sqrt(", "mean + 0 * multiplier * np.sqrt("), policy="gp-ucb"),
    Mutant("ucb-on-variance", "tvbo_verify.bandits.policy:ucb_argmax", "policy",
           "the UCB adds the multiplier times σ² instead of σ (every GP policy)",
           Rewrite("np.sqrt(np.maximum(var, 0.0))", "np.maximum(var, 0.0)"), policy="gp-ucb"),
    Mutant("gpucb-beta-frozen", "tvbo_verify.bandits.gpucb:_GridUCB.select", "policy",
           "the grid UCB policies evaluate β_1 at every round instead of β_t",
           Rewrite("return self._ucb(step,", "return self._ucb(1,"), policy="gp-ucb"),
    Mutant("gpucb-ui-exponent-halved", "tvbo_verify.bandits.gpucb:GPUCB._noise_levels", "policy",
           "GP-UCB under uncertainty injection inflates the noise by age^{α/2} instead of age^α",
           Rewrite("np.power(np.maximum(age, 0.0), self.ui_alpha)",
                   "np.power(np.maximum(age, 0.0), self.ui_alpha / 2)"),
           policy="gp-ucb"),
)

HETERO = (
    Mutant("hetero-ui-exponent-halved", "tvbo_verify.bandits.hetero:noise_variances", "policy",
           "the heteroscedastic GP-UCB's age schedule inflates the noise by age^{α/2} instead of age^α",
           Rewrite("age = (t + target_offset) - s\n        return noise_var * (1.0 + np.where(age > 0, "
                   "np.power(np.maximum(age, 0.0), alpha), 0.0))",
                   "age = (t + target_offset) - s\n        return noise_var * (1.0 + np.where(age > 0, "
                   "np.power(np.maximum(age, 0.0), alpha / 2), 0.0))"),
           policy="hetero-gp-ucb"),
    Mutant("hetero-log-det-half", "tvbo_verify.bandits.hetero:merged_posterior", "policy",
           "the merged posterior's log det B from its Cholesky factor misses the factor 2 (β too small)",
           Rewrite("float(2.0 * np.sum(np.log(np.diag(L))))", "float(np.sum(np.log(np.diag(L))))"),
           policy="hetero-gp-ucb"),
)

R_GP_UCB = (
    Mutant("rgpucb-reset-off-by-one", "tvbo_verify.bandits.gpucb:RGPUCB.select", "policy",
           "R-GP-UCB restarts when t mod N = 0 instead of (t - 1) mod N = 0",
           Rewrite("if (step - 1) % self.block == 0:", "if step % self.block == 0 or step == 1:"),
           policy="r-gp-ucb"),
    Mutant("rgpucb-never-restarts", "tvbo_verify.bandits.gpucb:RGPUCB.select", "policy",
           "R-GP-UCB starts from the prior once and never restarts (GP-UCB)",
           Rewrite("if (step - 1) % self.block == 0:", "if step == 1:"), policy="r-gp-ucb"),
)

TV_GP_UCB = (
    Mutant("tvgpucb-forgetting-dropped", "tvbo_verify.bandits.gpucb:TVGPUCB._reset", "policy",
           "TV-GP-UCB drops its forgetting factor (it becomes GP-UCB)",
           Rewrite("self.epsilon = self.forgetting = self._epsilon0",
                   "self.epsilon, self.forgetting = self._epsilon0, None"),
           policy="tv-gp-ucb"),
    Mutant("tvgpucb-epsilon-squared", "tvbo_verify.bandits.gpucb:TVGPUCB._reset", "policy",
           "TV-GP-UCB forgets with ε² (ε read as a standard deviation) instead of ε",
           Rewrite("self.epsilon = self.forgetting = self._epsilon0",
                   "self.epsilon = self.forgetting = self._epsilon0**2"),
           policy="tv-gp-ucb"),
)

SW_GP_UCB = (
    Mutant("swgpucb-window-off-by-one", "tvbo_verify.bandits.window:SWGPUCB._after_append", "policy",
           "SW-GP-UCB keeps W + 1 observations instead of W",
           Rewrite("while self.post.n > self.window:", "while self.post.n > self.window + 1:"), policy="sw-gp-ucb"),
    Mutant("swgpucb-drops-newest", "tvbo_verify.bandits.window:SWGPUCB._after_append", "policy",
           "SW-GP-UCB drops the newest observation instead of the oldest when the window is full",
           Rewrite("self.post.remove(0)", "self.post.remove(self.post.n - 1)"), policy="sw-gp-ucb"),
)

WGP_UCB = (
    Mutant("wgpucb-weights-squared", "tvbo_verify.bandits.window:WeightedArmPosterior.compute", "policy",
           "WGP-UCB weights observation s by γ^{2(t-s)} instead of γ^{t-s}",
           Rewrite("np.power(self.discount, np.arange(m - 1, -1, -1, dtype=float))",
                   "np.power(self.discount, 2.0 * np.arange(m - 1, -1, -1, dtype=float))"), policy="wgp-ucb"),
    Mutant("wgpucb-weights-reversed", "tvbo_verify.bandits.window:WeightedArmPosterior.compute", "policy",
           "WGP-UCB gives the largest weight to the oldest observation (ages counted from the wrong end)",
           Rewrite("np.arange(m - 1, -1, -1, dtype=float)", "np.arange(m, dtype=float)"), policy="wgp-ucb"),
)

SPARQ = (
    Mutant("sparq-recent-noise-not-inflated", "tvbo_verify.bandits.sparq:SparQGPUCB.observe", "policy",
           "SparQ-GP-UCB keeps recent observations with noise σ² instead of σ²((t-i)² + 1)",
           Rewrite("rec_noise = s2 * ((t - kept).astype(float) ** 2 + 1.0)", "rec_noise = s2 * np.ones(kept.size)"),
           policy="sparq-gp-ucb"),
    Mutant("sparq-expert-answers-unused", "tvbo_verify.bandits.sparq:SparQGPUCB.observe", "policy",
           "SparQ-GP-UCB asks the expert but leaves the answers out of the regression set",
           Rewrite("ex_idx, ex_y = self._ask_expert(t)", "ex_idx, ex_y = (a[:0] for a in self._ask_expert(t))"),
           policy="sparq-gp-ucb"),
)

W_SPARQ = (
    Mutant("wsparq-ui-exponent-halved", "tvbo_verify.bandits.sparq:WSparQGPUCB.observe", "policy",
           "W-SparQ-GP-UCB inflates the noise by age^{α/2} instead of age^α (drift-noise exponent halved)",
           Rewrite("np.power(np.maximum(age, 0.0), self.alpha)", "np.power(np.maximum(age, 0.0), self.alpha / 2)"),
           policy="w-sparq-gp-ucb"),
    Mutant("wsparq-window-start-off-by-one", "tvbo_verify.bandits.sparq:WSparQGPUCB.observe", "policy",
           "W-SparQ-GP-UCB queries the expert one round after each window start",
           Rewrite("if t in self._starts:", "if t - 1 in self._starts:"), policy="w-sparq-gp-ucb"),
)

BOLT = (
    Mutant("bolt-removes-most-relevant", "tvbo_verify.bandits.wdbo:BOLT.observe", "policy",
           "BOLT deletes the observation of largest W₂ relevance instead of the smallest",
           Rewrite("self._remove(int(np.argmin(self.relevance(time))))",
                   "self._remove(int(np.argmax(self.relevance(time))))"),
           policy="bolt"),
    Mutant("bolt-cap-ignored", "tvbo_verify.bandits.wdbo:BOLT.observe", "policy",
           "BOLT compares the dataset size with n_cap instead of n*, so it never deletes",
           Rewrite("while self.dataset_size > self.n_star:", "while self.dataset_size > self.n_cap:"), policy="bolt"),
)

W_DBO = (
    Mutant("wdbo-budget-not-consumed", "tvbo_verify.bandits.wdbo:WDBO.observe", "policy",
           "W-DBO removes observations without spending their relevance from the budget",
           Rewrite("self.budget -= relative", "self.budget -= 0.0"), policy="w-dbo"),
    Mutant("wdbo-removes-most-relevant", "tvbo_verify.bandits.wdbo:WDBO.observe", "policy",
           "W-DBO considers the observation of largest W₂ relevance for removal",
           Rewrite("i = int(np.argmin(w2))", "i = int(np.argmax(w2))"), policy="w-dbo"),
)

FIFO = (
    Mutant("fifo-drops-newest", "tvbo_verify.bandits.wdbo:FIFOGPUCB.observe", "policy",
           "FIFO-GP-UCB drops the newest observation instead of the oldest",
           Rewrite("self._remove(0)", "self._remove(self.dataset_size - 1)"), policy="fifo-gp-ucb"),
    Mutant("fifo-size-off-by-one", "tvbo_verify.bandits.wdbo:FIFOGPUCB.observe", "policy",
           "FIFO-GP-UCB keeps size + 1 observations",
           Rewrite("while self.dataset_size > self.size:", "while self.dataset_size > self.size + 1:"),
           policy="fifo-gp-ucb"),
)

ET_GP_UCB = (
    Mutant("etgpucb-trigger-on-beta", "tvbo_verify.bandits.etgpucb:trigger_threshold", "policy",
           "ET-GP-UCB's event trigger tolerates β_t (σ_D + σ_n) instead of β_t^{1/2} (σ_D + σ_n): resets too late",
           Rewrite("math.sqrt(trigger_beta(t, delta))", "trigger_beta(t, delta)"), policy="et-gp-ucb"),
    Mutant("etgpucb-trigger-without-noise", "tvbo_verify.bandits.etgpucb:trigger_threshold", "policy",
           "ET-GP-UCB's event trigger leaves the noise σ_n out of the bound: it fires on noise alone",
           Rewrite("(float(sd) + math.sqrt(float(noise_var)))", "float(sd)"), policy="et-gp-ucb"),
    # first acts at the first reset, beyond a short audit: the definition audit must replay the first resets
    Mutant("etgpucb-reset-drops-its-observation", "tvbo_verify.bandits.etgpucb:ETGPUCB.observe", "policy",
           "a reset of ET-GP-UCB drops the observation that triggered it (the new data set starts one round late)",
           Rewrite("self.resets.append(int(step))\n    super().observe(step, time, index, y)",
                   "self.resets.append(int(step))\n        return\n    super().observe(step, time, index, y)"),
           policy="et-gp-ucb"),
)

GREEDY = (
    Mutant("greedy-control-explores", "tvbo_verify.bandits.gpucb:GreedyGP.__init__", "policy",
           "the greedy control is built with the constant width β = 2 instead of 0 (it becomes a GP-UCB)",
           Rewrite("super().__init__(constant(0.0))", "super().__init__(constant(2.0))"), policy="greedy"),
    Mutant("greedy-control-default-width", "tvbo_verify.bandits.gpucb:GreedyGP.__init__", "policy",
           "the greedy control passes its (absent) width on, so it runs GP-UCB's default β rule",
           Rewrite("super().__init__(constant(0.0))", "super().__init__(beta)"), policy="greedy"),
)

MUTANTS = (GP_UCB + HETERO + R_GP_UCB + TV_GP_UCB + SW_GP_UCB + WGP_UCB + SPARQ + W_SPARQ + BOLT + W_DBO + FIFO
           + ET_GP_UCB + GREEDY)
