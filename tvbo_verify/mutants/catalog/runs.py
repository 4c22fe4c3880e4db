"""Mutants of what every run shares: the environments and the runner's regret accounting."""

from __future__ import annotations

from ..mutant import Mutant, Rewrite

ENVIRONMENTS = (
    Mutant("markov-gp-innovation-not-sqrt", "tvbo_verify.bandits.environments.gpsample:MarkovGP.advance",
           "environment", "the Markov GP of tvgpucb eq. (4) adds ε·g instead of √ε·g (f_t is no longer stationary)",
           Rewrite("np.sqrt(self.epsilon) * self._sample_g()", "self.epsilon * self._sample_g()")),
    Mutant("ui-drift-variance-not-sqrt",
           "tvbo_verify.bandits.environments.gpsample:UncertaintyInjectionDrift._draw", "environment",
           "the uncertainty-injection drift scales the increments by drift_var instead of √drift_var",
           Rewrite("np.sqrt(self.drift_var) * (S @ W).T", "self.drift_var * (S @ W).T")),
    Mutant("observation-noise-variance-as-std", "tvbo_verify.bandits.environments.base:Environment.observe",
           "environment",
           "observations get noise σ²·z instead of σ·z (the noise variance used as a standard deviation)",
           Rewrite("np.sqrt(self.noise_var) * rng.standard_normal()", "self.noise_var * rng.standard_normal()")),
    Mutant("markov-gp-wrong-decay", "tvbo_verify.bandits.environments.gpsample:MarkovGP.advance", "environment",
           "the Markov GP of tvgpucb eq. (4) decays by (1 − ε) instead of √(1 − ε) (f_t is no longer stationary)",
           Rewrite("np.sqrt(1.0 - self.epsilon) * self._f", "(1.0 - self.epsilon) * self._f")),
    Mutant("markov-gp-frozen", "tvbo_verify.bandits.environments.gpsample:MarkovGP.advance", "environment",
           "the Markov GP draws its innovation but never applies it: the objective stays f_1",
           Rewrite("self._f = np.sqrt(1.0 - self.epsilon) * self._f + np.sqrt(self.epsilon) * self._sample_g()",
                   "self._sample_g()")),
    Mutant("ui-drift-white-increments", "tvbo_verify.bandits.environments.gpsample:UncertaintyInjectionDrift._draw",
           "environment", "the uncertainty-injection drift uses Brownian increments whatever alpha (Var ∝ g, not g^α)",
           Rewrite("fractional_gaussian_noise(rng, self.horizon, self.alpha, G)",
                   "rng.standard_normal((G, self.horizon))")),
    Mutant("wsparq-synthetic-phase-off-by-one", "tvbo_verify.bandits.environments.rkhs:WsparqSynthetic._u",
           "environment", "u_i(t) = sin(0.3 t + i) indexed from i = 0 instead of 1",
           Rewrite("np.arange(1, self.n_centres + 1)", "np.arange(self.n_centres)")),
    Mutant("random-walk-euclidean-normalisation", "tvbo_verify.bandits.environments.rkhs:RandomWalkExpansion._draw",
           "environment", "the random-walk coefficients are normalised in the Euclidean norm, not the RKHS norm",
           Rewrite("scale_to_norm(w, self._KZ, self.B)", "self.B * w / np.linalg.norm(w)")),
    Mutant("rotation-angle-halved", "tvbo_verify.bandits.environments.rkhs:RotationBudget._draw", "environment",
           "the rotation's angle per round is arcsin(ratio), not 2 arcsin(ratio): half the declared budget",
           Rewrite("self.omega = 2.0 * np.arcsin(ratio)", "self.omega = np.arcsin(ratio)")),
    Mutant("bolt-clock-dataset-off-by-one", "tvbo_verify.bandits.environments.gpsample:SpatioTemporalGP.advance",
           "environment", "the clock advances by R(n + 1) instead of R(n) (the dataset counted with the next point)",
           Rewrite("self.response_time(int(dataset_size))", "self.response_time(int(dataset_size) + 1)")),
)

RUNNER = (
    Mutant("regret-from-noisy-observation", "tvbo_verify.bandits.runner:_run", "runner",
           "the runner's instantaneous regret is max f_t - y_t (the noisy observation) instead of max f_t - f_t(x_t)",
           Rewrite('out["regret"][t - 1] = float(np.max(f) - f[i])', 'out["regret"][t - 1] = float(np.max(f) - y)')),
    Mutant("regret-stored-one-round-early", "tvbo_verify.bandits.runner:_run", "runner",
           "the regret of round t is stored in slot t-1 (round 1's lands in the last slot)",
           Rewrite('out["regret"][t - 1] = float(np.max(f) - f[i])', 'out["regret"][t - 2] = float(np.max(f) - f[i])')),
    Mutant("trivial-bound-is-the-regret", "tvbo_verify.bandits.runner:_run", "runner",
           "the per-round trivial bound max f_t − min f_t is recorded as the round's regret max f_t − f_t(x_t)",
           Rewrite('out["max_regret"][t - 1] = float(np.max(f) - np.min(f))',
                   'out["max_regret"][t - 1] = float(np.max(f) - f[i])')),
    Mutant("cumulative-excludes-current-round", "tvbo_verify.bandits.runner:_run", "runner",
           "R_t is recorded without round t's regret (the running sum shifted by one)",
           Rewrite('np.cumsum(out["regret"])', 'np.cumsum(out["regret"]) - out["regret"]')),
    Mutant("played-point-recorded-one-round-late", "tvbo_verify.bandits.runner:_run", "runner",
           "x_t is recorded as the point played in the previous round",
           Rewrite("env.grid[index].copy()", "env.grid[np.roll(index, 1)].copy()")),
)

MUTANTS = ENVIRONMENTS + RUNNER
