"""Mutants of the core numerics: kernels, GP posteriors, information gain, confidence widths β_t, DPP
sampling and divergences (docs/ARCHITECTURE.md §2, core numerics)."""

from __future__ import annotations

import functools
from typing import Any, Callable

from ..mutant import Mutant, Rewrite, Wrap


def halved(original: Callable[..., Any]) -> Callable[..., Any]:
    """The original function with its result halved."""
    @functools.wraps(original)
    def mutated(*args: Any, **kwargs: Any) -> Any:
        return 0.5 * original(*args, **kwargs)

    return mutated


KERNELS = (
    Mutant("kernel-lengthscale-squared", "tvbo_verify.kernels:StationaryKernel._scaled", "kernels",
           "inputs are divided by l² instead of l before the radial profile (every stationary kernel)",
           Rewrite("return pts / self.lengthscale", "return pts / self.lengthscale**2")),
    Mutant("matern52-quadratic-term", "tvbo_verify.kernels:Matern.rho", "kernels",
           "the Matérn-5/2 profile uses r²/3 instead of 5r²/3 for its quadratic term",
           Rewrite("s * s / 3.0", "r * r / 3.0")),
    Mutant("matern32-sqrt3-dropped", "tvbo_verify.kernels:Matern.rho", "kernels",
           "the Matérn-3/2 profile uses r instead of √3 r", Rewrite("s = np.sqrt(3.0) * r", "s = r")),
    Mutant("matern12-rate-doubled", "tvbo_verify.kernels:Matern.rho", "kernels",
           "the Matérn-1/2 profile exp(−2r) instead of exp(−r)", Rewrite("return np.exp(-r)", "return np.exp(-2 * r)")),
    Mutant("finite-domain-beta-pi-squared-dropped", "tvbo_verify.confidence:beta_finite_domain", "confidence",
           "the finite-domain width 2 log(|D| π t²/(6δ)) drops a factor π",
           Rewrite("n * math.pi**2 * t * t", "n * math.pi * t * t")),
    Mutant("forgetting-kernel-full-lag", "tvbo_verify.kernels:ForgettingKernel.of_lag", "kernels",
           "the TV-GP-UCB temporal correlation is (1-ε)^|t-t'| instead of (1-ε)^{|t-t'|/2}",
           Rewrite("np.exp(0.5 * lag * np.log1p(-self.epsilon))", "np.exp(lag * np.log1p(-self.epsilon))")),
    Mutant("spatiotemporal-cross-time-dropped", "tvbo_verify.kernels:SpatioTemporalKernel.__call__", "kernels",
           "the cross-covariance k((x,t),(x',t')) between two different input sets drops the temporal factor",
           Rewrite("self.spatial(xs, ys) * self.temporal(xt, yt)", "self.spatial(xs, ys)")),
)

GP = (
    Mutant("gp-noise-std-for-variance", "tvbo_verify.gp:posterior_from_gram", "gp",
           "the exact posterior adds the noise standard deviation σ instead of the variance σ² to K",
           Rewrite("K + np.diag(noise_var)", "K + np.diag(np.sqrt(noise_var))")),
    Mutant("posterior-variance-assumes-unit-prior", "tvbo_verify.gp:posterior_from_gram", "gp",
           "the posterior variance subtracts from 1 instead of the test points' prior variance k(x, x)",
           Rewrite("np.maximum(prior_var_star - np.einsum", "np.maximum(1.0 - np.einsum")),
    Mutant("incremental-forgetting-mean-kept", "tvbo_verify.gp:IncrementalPosterior.append", "gp",
           "the incremental TV posterior ages k̃(grid) by √(1-ε) each round but not the running mean",
           Rewrite("self._mean *= self._rho", "self._mean *= 1.0")),
    Mutant("incremental-remove-variance-kept", "tvbo_verify.gp:IncrementalPosterior.remove", "gp",
           "deleting an observation does not give back the variance it explained",
           Rewrite("explained = (self.prior_var - self._var) - a_extra * a_extra",
                   "explained = (self.prior_var - self._var)")),
)

INFORMATION = (
    Mutant("information-gain-half-dropped", "tvbo_verify.information:information_gain_from_gram", "information",
           "the information gain is log det(I + Σ⁻¹K) without the ½ of the Srinivas convention",
           Rewrite("return 0.5 * _logdet_identity_plus_scaled(", "return _logdet_identity_plus_scaled(")),
    Mutant("log-det-ratio-halved", "tvbo_verify.information:log_det_ratio_from_gram", "information",
           "the wsparq/sparq log-det ratio gets the ½ of the other convention",
           Wrap(halved)),
    Mutant("weighted-gain-single-discount", "tvbo_verify.information:weighted_gain_hadamard_bound", "information",
           "the Hadamard bound on the double-weighted gain uses γ^j instead of γ^{2j}",
           Rewrite("np.log1p(kbar * s * s / lam)", "np.log1p(kbar * s / lam)")),
)

CONFIDENCE = (
    Mutant("order-wise-gamma-dot-exponent", "tvbo_verify.bandits.tuning:gamma_dot_prior", "confidence",
           "the order-wise memory takes γ̇_T = log^d T instead of log^{d+1} T (wgpucb Remark 5)",
           Rewrite('** (check_int("d", d, 1) + 1)', '** check_int("d", d, 1)')),
    Mutant("tv-beta-halved", "tvbo_verify.confidence:_tv_beta", "confidence",
           "β_t of R-GP-UCB / TV-GP-UCB (eqs. (16), (19), (34)) halved: both factors 2 dropped",
           Rewrite("return 2.0 * math.log(head) + 2.0 * d * math.log(tau)",
                   "return math.log(head) + d * math.log(tau)")),
    Mutant("finite-domain-beta-halved", "tvbo_verify.confidence:beta_finite_domain", "confidence",
           "the finite-domain β_t = 2 log(|D|π²t²/6δ) is halved",
           Wrap(halved)),
    Mutant("ucb-beta-not-square-rooted", "tvbo_verify.confidence:ucb_multiplier", "confidence",
           "under the μ + √β σ convention the UCB multiplies σ by β instead of √β",
           Rewrite("out = np.sqrt(arr)", "out = arr")),
    Mutant("kk-beta-information-dropped", "tvbo_verify.confidence:_kk_beta", "confidence",
           "the Kirschner–Krause width drops its log-det (information) term",
           Rewrite("math.sqrt(2.0 * math.log(2.0 / delta) + log_det_ratio)", "math.sqrt(2.0 * math.log(2.0 / delta))")),
    Mutant("wgpucb-beta-gain-halved", "tvbo_verify.confidence:beta_wgpucb", "confidence",
           "the WGP-UCB width uses γ̄_t instead of 2γ̄_t under the root",
           Rewrite("+ 2.0 * ig)", "+ ig)")),
)

DPP = (
    Mutant("dpp-eigenvector-index-reversed", "tvbo_verify.dpp:_exact_one", "dpp",
           "the spectral k-DPP sampler keeps eigenvector n-m when it decides to keep eigenvector m-1",
           Rewrite("chosen.append(m - 1)", "chosen.append(n - m)")),
    Mutant("dpp-greedy-residual-not-squared", "tvbo_verify.dpp:_greedy", "dpp",
           "the greedy (pivoted Cholesky) start subtracts the new column instead of its square from the residuals",
           Rewrite("resid = resid - col * col", "resid = resid - col")),
)

DIVERGENCES = (
    Mutant("kl-log-det-missing", "tvbo_verify.divergences:gaussian_kl", "divergences",
           "the Gaussian KL divergence loses its log|S1| - log|S0| term",
           Rewrite(" + F1.logdet() - F0.logdet())", ")")),
    Mutant("w2-variances-for-deviations", "tvbo_verify.divergences:w2_squared_pointwise", "divergences",
           "W₂² between Gaussians uses (σ₁² - σ₂²)² instead of (σ₁ - σ₂)²",
           Rewrite("(np.sqrt(v1) - np.sqrt(v2)) ** 2", "(v1 - v2) ** 2")),
    Mutant("removal-w2-mean-shift-dropped", "tvbo_verify.divergences:removal_w2", "divergences",
           "the relevance W₂(GP_D, GP_D∖i) of BOLT/W-DBO ignores the shift of the posterior mean",
           Rewrite("per_point = dmu2 + (sd_minus", "per_point = 0.0 * dmu2 + (sd_minus")),
)

MUTANTS = KERNELS + GP + INFORMATION + CONFIDENCE + DPP + DIVERGENCES
