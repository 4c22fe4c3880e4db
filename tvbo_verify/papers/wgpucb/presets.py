"""The experimental set-ups of ``wgpucb`` as presets: environment, horizon, repetitions and each algorithm's
parameters and β rule, with the section each comes from (:class:`tvbo_verify.bandits.presets.Preset`; the
conventions shared by every compared method are those of :mod:`tvbo_verify.bandits.presets`). ``preset(id)``
and ``get(id, algorithm)`` look a preset up by id."""

from __future__ import annotations

import math
from typing import Any

from tvbo_verify.bandits.beta import BetaRule, kirschner_krause
from tvbo_verify.bandits.presets import (
    ORDER_WISE,
    Preset,
    Setting,
    SettingFn,
    fixed,
    get,
    order_wise_baselines,
    preset,
    register_preset,
)


def _wgpucb_settings() -> dict[str, SettingFn]:
    beta = kirschner_krause(B="env", delta=0.1)
    src = ("wgpucb Sec. 7 / App. E (READING.md §wgpucb:stock-data); confidence width "
           "B + sqrt(2 log(1/delta) + log det) (IGP-UCB type) with the exact B")
    return {"gp-ucb": fixed({}, beta, src + " (IGP-UCB, App. E)"), **order_wise_baselines(beta, {})}


#: the λ of every GP model in the wgpucb synthetic figures (module docstring, "Fair comparisons")
WGPUCB_LAM = 1.0


def _wgpucb_synthetic_settings(lam: float = WGPUCB_LAM) -> dict[str, SettingFn]:
    """The four methods of the synthetic figures with one λ: WGP-UCB's own, the others' posterior noise and the
    ``R/√λ`` of their width ``B + (R/√λ)√(2 log(2/δ) + log det(I + K/λ))`` (R = the noise's standard deviation)."""
    src = ("wgpucb Sec. 7 / App. E (READING.md §wgpucb:figure-1); confidence width "
           "B + (R/sqrt(lambda)) sqrt(2 log(2/delta) + log det) (IGP-UCB type, "
           f"wgpucb Theorem 2 with unit weights) with the exact B, lambda = {lam:g}")

    def width(env: dict[str, Any]) -> BetaRule:
        return kirschner_krause(B="env", delta=0.1, R=math.sqrt(float(env["noise_var"])), lam=lam)

    def igp(env: dict[str, Any], T: int) -> Setting:
        return Setting({"lam": lam}, width(env), src + " (IGP-UCB, App. E)")

    def restart(env: dict[str, Any], T: int) -> Setting:
        return Setting({"block": "theory", "memory_scale": 1.0, "lam": lam}, width(env), ORDER_WISE + "; " + src)

    def window(env: dict[str, Any], T: int) -> Setting:
        return Setting({"window": "theory", "memory_scale": 1.0, "lam": lam}, width(env), ORDER_WISE + "; " + src)

    wgp = {"discount": "theory", "memory_scale": 1.0, "B": "env", "lam": lam, "delta": 0.1}
    return {"gp-ucb": igp, "r-gp-ucb": restart, "sw-gp-ucb": window,
            "wgp-ucb": fixed(wgp, None, ORDER_WISE + f"; beta of Algorithm 1 step 1 (Hadamard bound), lambda = "
                                                      f"{lam:g}, delta = 0.1")}


def _wgpucb_preset(id_: str, section: str, scenario: str, M: int, reps: int, title: str) -> Preset:
    return Preset(id=id_, paper="wgpucb", section=section, title=title, environment="wgpucb-paper",
                  env_params={"scenario": scenario, "M": M, "grid_points": 100, "lengthscale": 0.2, "noise_var": 0.01},
                  horizon=500, repetitions=reps, settings=_wgpucb_synthetic_settings(),
                  readings=("Noise N(0, 0.1^2), delta = 0.1, B = exact max_t ||f_t|| (READING.md §wgpucb:figure-1); "
                            "lambda = 1 for every method (IGP-UCB's 1 + eta, Remark 2), R = 0.1.",
                            "gamma-dot_T = log^(d+1) T in Corollary 5 (a-priori SE order).",
                            "T of the slow scenarios is not stated: 500."))


_WGPUCB = [
    _wgpucb_preset("wgpucb:figure-1a", "Sec. 7, Fig. 1(a) (READING.md §wgpucb:figure-1)", "abrupt", 20, 10,
                   "Abrupt switches at rounds 100 and 200"),
    _wgpucb_preset("wgpucb:figure-1b", "Sec. 7, Fig. 1(b) (READING.md §wgpucb:figure-1)", "slow", 20, 10,
                   "Slow linear drift f_4 -> f_5"),
    _wgpucb_preset("wgpucb:appendix-e-abrupt", "App. E, Fig. 2", "abrupt", 100, 100, "Abrupt switches, M = 100"),
    _wgpucb_preset("wgpucb:appendix-e-slow", "App. E, Fig. 3", "slow3", 100, 100,
                   "Piecewise-linear path through three functions, M = 100"),
]

_WGPUCB_STOCK = Preset(
    id="wgpucb:stock-data",
    paper="wgpucb",
    section="Sec. 7, Fig. 1(c) / Fig. 4, on analogue data (READING.md §wgpucb:stock-data)",
    title="Assets whose best performer changes (10 commodity return series standing for 29 stocks)",
    environment="commodities",
    env_params={"noise_fraction": 0.05},
    horizon=453,
    repetitions=20,
    settings=_wgpucb_settings(),
    notes="Kernel = empirical covariance of the returns over the training months (40%), as the paper's 29x29 "
          "covariance of the stock prices.",
    readings=("Reward = monthly return (the paper's close vs close-open is ambiguous, READING.md §wgpucb:stock-data).",
              "B of real data: the environment's estimate from the training split."),
)

register_preset(*_WGPUCB, _WGPUCB_STOCK)

__all__ = ["get", "preset"]
