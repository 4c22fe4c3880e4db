"""Each paper's own experimental set-up as named presets: environment, horizon, repetitions, and for every
algorithm its parameters and β rule, each documented with the section it comes from.

Use::

    from tvbo_verify.bandits import presets
    from tvbo_verify.bandits.registry import make_env, make_policy

    p = presets.preset("tvgpucb:figure-2")
    env_name, env_params = p.env(epsilon=0.03)               # the paper's environment, overridable
    params, beta = presets.get("tvgpucb:figure-2", "r-gp-ucb", env_params=env_params, horizon=300)
    policy = make_policy("r-gp-ucb", params, beta)             # beta None: the policy's own documented rule

``get`` returns plain ``key=value`` parameters (the model options of
:func:`~tvbo_verify.bandits.registry.model_options` included) and a :class:`~tvbo_verify.bandits.beta.BetaRule`
— ``None`` only where the algorithm builds its rule from its own parameters (WGP-UCB's Algorithm 1 step 1
with the discount it chooses at reset). Values the papers leave open are filled by a stated reading;
quantities the environment knows are taken from it at reset rather than fixed here: ``B="env"`` (RKHS
bound), ``discount|window|block="theory"`` (order-wise by ``wgpucb`` Corollary 5 with the environment's
exact ``B_T``, :mod:`tvbo_verify.bandits.tuning`).

Fair comparisons: one convention per figure
-------------------------------------------
Within one figure every compared GP policy uses

* **one noise variance λ** for its posterior ``K + λI``: WGP-UCB's own regulariser ``lam`` (``wgpucb``
  eqs. (2)–(3), ``λ_t = λ w_t``) and, for every other GP policy, the ``lam`` model option in place of the
  environment's σ² (:data:`~tvbo_verify.bandits.registry.MODEL_NOISE`); a confidence width that depends on
  λ takes the same λ (the ``kk`` rule with ``R`` and ``lam`` multiplies its root by ``R/√λ``, as WGP-UCB's β
  of Algorithm 1 does). The value:

  - ``wgpucb`` synthetic figures (``wgpucb:figure-1a/1b``, ``wgpucb:appendix-e-*``): **λ = 1** for all four
    methods — the ``λ = 1 + η`` of IGP-UCB (Chowdhury & Gopalan 2017, the paper's [14]), Remark 2 ("w ≡ 1 and
    λ = 1 give IGP-UCB-like behaviour") and the default of papers/wgpucb/READING.md §wgpucb:figure-1; ``R = σ =
    0.1``. The paper states no λ: it is a free constant of those figures, swept over ``[σ², 1]`` by
    :mod:`tvbo_verify.papers.wgpucb.reproductions`.
  - ``sparq:figure-1``: **λ = σ² = 0.01**, the noise variance the paper states (§4.1), which SparQ-GP-UCB's
    posterior uses (Algorithm 1); the noise is not fitted.
  - ``wsparq:figure-2``: **λ = σ² = 0.01**, the reading's noise variance (σ not given, papers/wsparq/READING.md §2.8),
    for all seven methods, WGP-UCB's own λ included; σ² is a free constant of the figure, swept with every
    model's λ by :mod:`tvbo_verify.papers.wsparq.reproductions`.
  - ``tvgpucb`` figures (``tvgpucb:figure-2``, ``tvgpucb:temperature``): **λ = the environment's σ²** for every
    method (no ``lam`` option): the posteriors (5)–(8) of R-GP-UCB, TV-GP-UCB and GP-UCB are written with the
    model's σ², the synthetic runs are the "matched" case with known hyperparameters (§4, §5.1: σ² = 0.01), the
    real-data runs state σ² as 5% of the signal variance (§5.2); every arm also shares the kernel (the model's,
    or the empirical covariance of the training data) and the β rule of its data set (§5.1, §5.2).

* **one RKHS bound B** and **one δ** for every width that takes them (``wgpucb``: the environment's exact
  ``max_t ‖f_t‖_k``, δ = 0.1; ``sparq``: the surrogate B = 5, δ = 0.05 of §4.1; ``wsparq:figure-2``: the exact
  ``max_t ‖f_t‖_k``, δ = 0.05);
* **hyperparameters fitted alike**: the same method (maximum likelihood), on the same data, of the same
  parameters (kernel variance and lengthscale; TV-GP-UCB also its own temporal ε, as its authors fit it,
  ``tvgpucb`` App. B);
* the same width scale and bound scale (model options ``beta_scale``, ``bound_scale``; 1 by default).

What differs between the arms of a figure is what the paper says differs: each method's own rule (its
discount, window or restart period and their memory scale, SparQ's queries, TV-GP-UCB's ε, the β rule a
paper gives per method). :mod:`tvbo_verify.sweeps.reproduce` declares those keys per figure and a test
checks that nothing else differs. The other presets (``wsparq:real-data``, ``sparq:figure-2``, ``wgpucb:stock-data``,
``bolt:*``) keep their earlier settings (WGP-UCB with λ = 1 against the others' σ²): their figures are
decided on analogue data or by other claims.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..registry import Registry
from ..validation import check_choice, check_int
from .beta import BetaRule, log_rule

__all__ = [
    "Setting", "SettingFn", "Preset", "fixed", "ORDER_WISE", "order_wise_baselines", "PRACTICAL_BETA",
    "PRACTICAL_BETA_SOURCE", "REAL_DATA_BETA", "REAL_DATA_BETA_SOURCE", "ozone_preset", "register_preset", "names",
    "preset", "get",
]


@dataclass(frozen=True)
class Setting:
    """One algorithm's parameters and β rule in a preset, with where they come from."""

    params: dict[str, Any]
    beta: BetaRule | None
    source: str


SettingFn = Callable[[dict[str, Any], int], Setting]


@dataclass(frozen=True)
class Preset:
    """A paper's experiment: its environment, horizon, repetitions and per-algorithm settings."""

    id: str
    paper: str
    section: str
    title: str
    environment: str
    env_params: dict[str, Any]
    horizon: int
    repetitions: int
    settings: dict[str, SettingFn]
    notes: str = ""
    readings: tuple[str, ...] = field(default_factory=tuple)

    @property
    def algorithms(self) -> tuple[str, ...]:
        return tuple(self.settings)

    def env(self, **overrides: Any) -> tuple[str, dict[str, Any]]:
        """``(environment name, parameters)``: the preset's, updated with ``overrides``."""
        return self.environment, {**self.env_params, **overrides}

    def setting(self, algorithm: str, env_params: dict[str, Any] | None = None, horizon: int | None = None) -> Setting:
        check_choice(f"algorithm of preset {self.id}", algorithm, self.algorithms)
        params = {**self.env_params, **(env_params or {})}
        T = self.horizon if horizon is None else check_int("horizon", horizon, 1)
        return self.settings[algorithm](params, T)

    def to_dict(self) -> dict[str, Any]:
        """JSON description (for listings): everything but the setting functions, plus each algorithm's
        default parameters, β rule and source."""
        algos = {}
        for name in self.algorithms:
            s = self.setting(name)
            algos[name] = {"params": s.params, "beta": None if s.beta is None else s.beta.to_dict(), "source": s.source}
        return {"id": self.id, "paper": self.paper, "section": self.section, "title": self.title,
                "environment": self.environment, "env_params": dict(self.env_params), "horizon": self.horizon,
                "repetitions": self.repetitions, "algorithms": algos, "notes": self.notes,
                "readings": list(self.readings)}


# --------------------------------------------------------------------------------------------------
# Building blocks
# --------------------------------------------------------------------------------------------------


def fixed(params: dict[str, Any], beta: BetaRule | None, source: str) -> SettingFn:
    """A setting that depends on neither the environment nor the horizon: ``params``, ``beta`` and their
    ``source``."""
    return lambda env, T: Setting(dict(params), beta, source)






ORDER_WISE = "wgpucb §4: set order-wise by theory (Corollary 5 / Zhou & Shroff Remark 1) with the environment's B_T"


def order_wise_baselines(beta: BetaRule | None, fit: dict[str, Any], B: float | str = "env", *, lam: float = 1.0,
                          delta: float = 0.1, scaled: bool = False) -> dict[str, SettingFn]:
    """R-, SW- and W-GP-UCB with windows, blocks and discount "set order-wise by theory" (``wgpucb`` §4).

    ``fit`` (fitting options and the shared ``lam`` model option) applies to all three; WGP-UCB takes ``lam``
    and ``delta`` as its own λ and δ. ``scaled`` declares the memory scale of the order-wise rule (1)."""
    scale = {"memory_scale": 1.0} if scaled else {}
    wgp: dict[str, Any] = {"discount": "theory", **scale, "B": B, "lam": lam, "delta": delta}
    if "fit" in fit:
        wgp.update({k: v for k, v in fit.items() if k not in ("fit_params", "lam")}, fit_params="variance,lengthscale")
    defaults = " (defaults of papers/wgpucb/READING.md §wgpucb:figure-1)" if (lam, delta) == (1.0, 0.1) else ""
    return {
        "r-gp-ucb": fixed({"block": "theory", **scale, **fit}, beta, ORDER_WISE),
        "sw-gp-ucb": fixed({"window": "theory", **scale, **fit}, beta, ORDER_WISE),
        "wgp-ucb": fixed(wgp, None, ORDER_WISE + f"; beta of Algorithm 1 step 1 (Hadamard bound), lambda = {lam:g}, "
                                              f"delta = {delta:g}{defaults}"),
    }


#: β_t = 0.8 log(4t): the practical width of R-/TV-GP-UCB in ``tvgpucb`` §5.1 (all synthetic runs), also the width
#: other papers give their GP-UCB baselines
PRACTICAL_BETA = log_rule(0.8, 4.0)
PRACTICAL_BETA_SOURCE = "tvgpucb §5.1: beta_t = 0.8 log(4t) in all synthetic runs"
#: β_t = 0.8 log(0.4 t), clipped at 0 for t ≤ 2: the width of ``tvgpucb`` §5.2 on temperature data
REAL_DATA_BETA = log_rule(0.8, 0.4)
REAL_DATA_BETA_SOURCE = ("tvgpucb §5.2 temperature data: beta_t = 0.8 log(0.4 t), clipped at 0 for t <= 2 "
                         "(papers/tvgpucb/READING.md §3.2; §5.7)")


def ozone_preset(id_: str, section: str, title: str, centre: str, kernel: str, settings: dict[str, SettingFn],
                  notes: str, readings: tuple[str, ...]) -> Preset:
    """A real-data experiment played on the ``ozone-grid`` analogue (48 test months, 20 noise repetitions)."""
    return Preset(id=id_, paper=id_.split(":")[0], section=section, title=title, environment="ozone-grid",
                  env_params={"centre": centre, "kernel": kernel, "noise_fraction": 0.05}, horizon=48,
                  repetitions=20, settings=settings, notes=notes, readings=readings)


# --------------------------------------------------------------------------------------------------
# The registry: each paper registers its presets when its presets module is imported
# --------------------------------------------------------------------------------------------------

def _load(preset_id: str | None) -> None:
    """Import the reproduction modules of the paper of ``preset_id`` (of every registered paper when None): they
    import the paper's presets, which register themselves."""
    from ..papers import import_paper_modules, paper_ids

    paper = preset_id.split(":")[0] if isinstance(preset_id, str) and ":" in preset_id else None
    import_paper_modules("reproductions", [paper] if paper in paper_ids() else None)


_PRESETS: Registry = Registry("preset", load=_load, same=lambda a, b: a is b)


def register_preset(*presets: Preset) -> None:
    """Make ``presets`` known by id (a paper's presets module calls it at import); the same record again is
    harmless, another record under a registered id is refused."""
    for item in presets:
        if not isinstance(item, Preset):
            raise ValueError(f"preset must be a Preset, got {type(item).__name__}")
        _PRESETS.register(item.id, item)


def names(paper: str | None = None) -> list[str]:
    """Preset ids, optionally of one paper."""
    _PRESETS.load(None if paper is None else f"{paper}:")
    return [k for k, p in _PRESETS.items() if paper is None or p.paper == paper]


def preset(preset_id: str) -> Preset:
    """The preset ``preset_id`` (unknown ids raise ``ValueError`` listing the choices)."""
    return _PRESETS.lookup(preset_id)


def get(preset_id: str, algorithm: str, *, env_params: dict[str, Any] | None = None,
        horizon: int | None = None) -> tuple[dict[str, Any], BetaRule | None]:
    """``(params, beta)`` of ``algorithm`` in preset ``preset_id`` for ``make_policy(algorithm, params, beta)``.

    ``env_params`` overrides the preset's environment parameters where a setting depends on them (e.g.
    ``epsilon`` for R-GP-UCB's block in ``tvgpucb:figure-2``); ``horizon`` overrides the preset's ``T``.
    """
    s = preset(preset_id).setting(algorithm, env_params, horizon)
    return dict(s.params), s.beta
