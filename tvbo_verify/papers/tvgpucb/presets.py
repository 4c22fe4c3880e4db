"""The experimental set-ups of ``tvgpucb`` as presets: environment, horizon, repetitions and each algorithm's
parameters and β rule, with the section each comes from (:class:`tvbo_verify.bandits.presets.Preset`; the
conventions shared by every compared method are those of :mod:`tvbo_verify.bandits.presets`). ``preset(id)``
and ``get(id, algorithm)`` look a preset up by id."""

from __future__ import annotations

from typing import Any

from tvbo_verify.bandits.presets import (
    PRACTICAL_BETA,
    PRACTICAL_BETA_SOURCE,
    REAL_DATA_BETA,
    REAL_DATA_BETA_SOURCE,
    Preset,
    Setting,
    fixed,
    get,
    ozone_preset,
    preset,
    register_preset,
)
from tvbo_verify.theory.schedules import block_lengths


def _tvgpucb_block(env: dict[str, Any], T: int) -> int:
    """R-GP-UCB's ``N = ⌈min{T, 12 ε^{-1/4}}⌉`` (SE) or ``⌈min{T, 24 ε^{-1/(4−c)}}⌉`` (Matérn) (Sec. 5.1)."""
    kernel = str(env.get("kernel", "se"))
    nu = {"matern12": 0.5, "matern32": 1.5, "matern52": 2.5}.get(kernel, 2.5)
    bl = block_lengths(float(env.get("epsilon", 0.01)), T, "se" if kernel == "se" else "matern", nu=nu,
                       d=int(env.get("d", 2)))
    return bl.r_gp_ucb_experiments


def _tv_matched(env: dict[str, Any], T: int) -> Setting:
    return Setting({"epsilon": float(env.get("epsilon", 0.01))}, PRACTICAL_BETA,
                   PRACTICAL_BETA_SOURCE + "; TV-GP-UCB uses the true epsilon (matched case)")


def _r_matched(env: dict[str, Any], T: int) -> Setting:
    return Setting({"block": _tvgpucb_block(env, T)}, PRACTICAL_BETA, PRACTICAL_BETA_SOURCE
                   + "; N = ceil(min(T, 12 eps^-1/4)) (SE) or ceil(min(T, 24 eps^-1/(4-c))) (Matern)")


_TVGPUCB_FIGURE_2 = Preset(
    id="tvgpucb:figure-2",
    paper="tvgpucb",
    section="§5.1, Figs. 2a-2d (READING.md §3.9)",
    title="Matched synthetic comparison on the Markov model (3)-(4)",
    environment="tvgpucb-markov",
    env_params={"epsilon": 0.01, "points_per_dim": 50, "d": 2, "kernel": "se", "lengthscale": 0.2, "noise_var": 0.01},
    horizon=200,
    repetitions=200,
    settings={"tv-gp-ucb": _tv_matched, "r-gp-ucb": _r_matched,
              "gp-ucb": fixed({}, PRACTICAL_BETA, PRACTICAL_BETA_SOURCE),
              "random": fixed({}, None, "uniform random arm (baseline of tvgpucb §5.2)")},
    notes="Figs. 2a-2b: eps in {0.001, 0.01, 0.03}, SE or Matern-5/2 (env kernel=matern52); Fig. 2c: true eps = "
          "0.01, T = 200, TV-GP-UCB with a misspecified epsilon; Fig. 2d: R-GP-UCB over N.",
    readings=("T of Figs. 2a-2b is not stated: 200 (the Fig. 2c horizon).",),
)


_TVGPUCB_TEMPERATURE = ozone_preset(
    "tvgpucb:temperature", "§5.2, Fig. 3a (READING.md §tvgpucb:real-data), on analogue data",
    "Track the maximum reading of a sensor field (ozone sites standing for the 46 temperature sensors)",
    "grand", "empirical",
    {
        "tv-gp-ucb": fixed({"epsilon": 0.03, "fit": "ml", "fit_on": "train", "fit_params": "epsilon"}, REAL_DATA_BETA,
                           REAL_DATA_BETA_SOURCE + "; epsilon by maximum likelihood on the training split (App. B; "
                                                   "the paper finds 0.03), empirical covariance as kernel"),
        "r-gp-ucb": fixed({"block": 15}, REAL_DATA_BETA,
                          REAL_DATA_BETA_SOURCE + "; N = 15 (cross-validated in the paper)"),
        "gp-ucb": fixed({}, REAL_DATA_BETA, REAL_DATA_BETA_SOURCE),
        "random": fixed({}, None, "tvgpucb §5.2: uniform random sensor"),
    },
    "The Intel Berkeley data are not shipped: 144 ozone sites (plyr/ozone), 24 training months give the "
    "empirical covariance, the 48 test months are played; noise 5% of the signal variance.",
    ("Analogue data: a sensor field whose maximum moves (13 distinct best sites, 60% of months change).",),
)

register_preset(_TVGPUCB_FIGURE_2, _TVGPUCB_TEMPERATURE)

__all__ = ["get", "preset"]
