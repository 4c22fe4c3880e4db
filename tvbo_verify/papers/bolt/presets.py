"""The experimental set-ups of ``bolt`` as presets: environment, horizon, repetitions and each algorithm's
parameters and β rule, with the section each comes from (:class:`tvbo_verify.bandits.presets.Preset`; the
conventions shared by every compared method are those of :mod:`tvbo_verify.bandits.presets`). ``preset(id)``
and ``get(id, algorithm)`` look a preset up by id."""

from __future__ import annotations

from tvbo_verify.bandits.beta import wdbo_practical
from tvbo_verify.bandits.presets import Preset, fixed, get, preset, register_preset

_BOLT_SRC = "bolt Sec. 5.1: one shared GP-UCB routine for all algorithms; beta = 0.2 d log(2n) of public W-DBO code"
_BOLT_TABLE_3 = Preset(
    id="bolt:table-3",
    paper="bolt",
    section="Sec. 5.1-5.2, Table 3 (READING.md §bolt:table-3), on a GP sample with a simulated clock",
    title="Spatio-temporal GP-UCB variants under response times growing with the dataset",
    environment="bolt-st",
    env_params={"d": 2, "points_per_dim": 15, "temporal": "matern32", "noise_var": None},
    horizon=200,
    repetitions=10,
    settings={**{name: fixed({}, wdbo_practical(), _BOLT_SRC) for name in ("bolt", "w-dbo", "gp-ucb", "r-gp-ucb",
                                                                             "tv-gp-ucb")},
              "et-gp-ucb": fixed({"delta": 0.1}, wdbo_practical(),
                                  _BOLT_SRC + "; ET-GP-UCB (Brunzema et al., TMLR 2025), trigger delta = 0.1 "
                                              "(not given)")},
    notes="The ten benchmarks and their wall-clock protocol are not reproducible here: a Matern-5/2 x Matern-3/2 GP "
          "sample stands for them; noise 1% of the signal variance; response time 0.5 + 2e-4 n^3 s.",
    readings=("R-GP-UCB block and TV-GP-UCB epsilon are not given: the toolkit defaults (50, 0.01).",
              "ET-GP-UCB's trigger probability delta is not given: 0.1.",
              "No warm-up of 15 random queries."),
)

register_preset(_BOLT_TABLE_3)

__all__ = ["get", "preset"]
