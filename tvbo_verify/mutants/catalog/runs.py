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
)

RUNNER = (
    Mutant("regret-from-noisy-observation", "tvbo_verify.bandits.runner:_run", "runner",
           "the runner's instantaneous regret is max f_t - y_t (the noisy observation) instead of max f_t - f_t(x_t)",
           Rewrite('out["regret"][t - 1] = float(np.max(f) - f[i])', 'out["regret"][t - 1] = float(np.max(f) - y)')),
    Mutant("regret-stored-one-round-early", "tvbo_verify.bandits.runner:_run", "runner",
           "the regret of round t is stored in slot t-1 (round 1's lands in the last slot)",
           Rewrite('out["regret"][t - 1] = float(np.max(f) - f[i])', 'out["regret"][t - 2] = float(np.max(f) - f[i])')),
)

MUTANTS = ENVIRONMENTS + RUNNER
