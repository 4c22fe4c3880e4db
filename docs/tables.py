"""The reference tables of the built documentation, generated from the registries so that they cannot drift.

* β rules: every kind of :data:`tvbo_verify.bandits.beta.KINDS`, from :data:`tvbo_verify.bandits.beta.RULES`
  (formula, parameters, convention, reference, constructor);
* algorithms: every built-in name of :data:`tvbo_verify.bandits.registry.ALGORITHMS`, with its parameters and
  defaults (its signature) and the default β rule of its runs;
* environments: every built-in name of :data:`tvbo_verify.bandits.registry.ENVIRONMENTS`, with its parameters
  and defaults and its reference (:data:`ENVIRONMENT_REFERENCES`).

``docs/conf.py`` writes them to ``docs/_generated/`` at every build; ``tests/test_api_docs.py`` fails when a
registered kind, algorithm or environment lacks its entry here or in :data:`~tvbo_verify.bandits.beta.RULES`.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any, Callable

#: where each built-in environment is read: the section of the reading that defines it (or what it is)
ENVIRONMENT_REFERENCES: dict[str, str] = {
    "wsparq-synthetic": "papers/wsparq/READING.md §3.13 (the synthetic function of the paper's §4.1)",
    "sparq-synthetic": "papers/sparq/READING.md §3.8 (the synthetic function of the paper's §4)",
    "sparq-two-bumps": "papers/sparq/READING.md §3.8 (two switching bumps; the counterexample of §5.1)",
    "sparq-peak-walk": "papers/sparq/READING.md §sparq:eq-27 (an objective admissible for Theorem 3.1: a kernel "
                       "peak of RKHS norm below B with a zero-mean drift inside the injection model (10))",
    "rkhs-random-walk": "papers/wsparq/READING.md §3.13 (instance I2, a random walk)",
    "ui-drift": "papers/wsparq/READING.md §3.4 (drift of Assumption 2, generator O2)",
    "index-noise": "papers/wsparq/READING.md §3.13 (a static function, noise growing with the index; Remark 2.5)",
    "bump-horizon": "papers/wsparq/READING.md §3.12 (model (35) of the query lower bounds)",
    "tvgpucb-markov": "papers/tvgpucb/READING.md §2.3 and §3.10 (the Markov model, eqs. (3)–(4))",
    "wgpucb-rotation": "papers/wgpucb/READING.md §3.9 (rotation with an exact variation budget)",
    "wgpucb-abrupt": "papers/wgpucb/READING.md §3.9 (abrupt switches with an exact variation budget)",
    "wgpucb-paper": "papers/wgpucb/READING.md §3.9 (the synthetic scenarios of §4 and Appendix E)",
    "gp-sample": "one draw of a stationary GP, fixed in time (a standard instance of GP-UCB's analysis; "
                 "its RKHS norm on the grid is exposed)",
    "bolt-st": "papers/bolt/READING.md §3.2 (the spatio-temporal GP sample of every BOLT run)",
    "seattle-temps": "no paper: hourly temperatures (data extra), kept for compatibility; its best arm barely moves",
    "sf-temps": "no paper: hourly temperatures (data extra), kept for compatibility; its best arm barely moves",
    "stocks": "papers/wgpucb/READING.md §wgpucb:stock-data (an analogue of the stock experiment; data extra)",
    "ozone-grid": "papers/sparq/READING.md §sparq:figure-2 and papers/tvgpucb/READING.md §tvgpucb:real-data "
                  "(an analogue of the sensor data; data extra)",
    "commodities": "papers/wgpucb/READING.md §wgpucb:stock-data (an analogue of the stock experiment; data extra)",
}

#: what a parameter of a built-in algorithm or environment means where its name and default do not say it
PARAMETER_NOTES: dict[str, str] = {
    "fixed-arm": "``arm``: an integer grid index in ``[0, G − 1]`` (the same arm in every run; a larger index is "
                 "refused at reset), or ``'random'``: an arm drawn uniformly at the start of each run.",
    "gp-sample": "``jitter``: the nugget relative to the signal variance. The draw is made in the grid's kernel "
                 "matrix with a nugget, ``K + εI`` with ``ε = jitter · signal_variance`` (more only if that "
                 "factorisation fails; ``env.nugget`` is the ε used), so ``f ~ N(0, K + εI)`` and "
                 "``extra['rkhs_bound']`` is ``√(fᵀ(K + εI)⁻¹f)``, exact for that matrix; the learner is told "
                 "the kernel itself. ``kernel``: one of :data:`tvbo_verify.kernels.KERNEL_NAMES`.",
}

#: the environment on which the default β of a run is shown when a policy replaces its rule at reset
REFERENCE_RUN = ("wgpucb-paper", {"grid_points": 5})


def _signature(factory: Callable[..., Any]) -> inspect.Signature:
    return inspect.signature(factory)


def _parameters(factory: Callable[..., Any], skip: tuple[str, ...] = ("beta",)) -> str:
    items = []
    for p in _signature(factory).parameters.values():
        if p.name in skip or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        annotation = "" if p.annotation is p.empty else f": {p.annotation}"
        default = "" if p.default is p.empty else f" = {p.default!r}"
        items.append(f"``{p.name}{annotation}{default}``")
    return ", ".join(items) or "none"


def _summary(obj: Any) -> str:
    doc = inspect.getdoc(obj) or ""
    first = doc.split("\n\n")[0].replace("\n", " ").strip()
    return first


def _rule(d: dict[str, Any]) -> str:
    params = ", ".join(f"{k}={v!r}" for k, v in d.items() if k not in ("kind", "convention"))
    return f"``{d['kind']}`` ({params or 'no parameters'}; ``{d['convention']}``)"


def _table(headers: list[str], rows: list[list[str]], widths: str) -> str:
    out = [".. list-table::", "   :header-rows: 1", f"   :widths: {widths}", ""]
    for row in [headers, *rows]:
        for i, cell in enumerate(row):
            out.append(f"   {'*' if i == 0 else ' '} - {cell}")
    return "\n".join(out) + "\n"


def beta_rules_rst() -> str:
    """The table of β rules: one row per kind of :data:`~tvbo_verify.bandits.beta.KINDS`."""
    from tvbo_verify.bandits.beta import KINDS, RULES

    rows = []
    for kind in KINDS:
        info = RULES[kind]
        required = "; ".join(f"``{k}``: {v}" for k, v in info.required.items()) or "none"
        optional = "; ".join(f"``{k}``: {v}" for k, v in info.optional.items()) or "none"
        rows.append([f"``{kind}``", f"``{info.formula}``", required, optional, f"``{info.convention}``", info.reference,
                     _constructor(info.constructor)])
    return _table(["kind", "β_t", "required parameters", "optional parameters", "convention", "reference",
                   "built by"], rows, "8 14 22 20 8 18 10")


def _constructor(name: str) -> str:
    if name == "constant":  # exported by the authoring API under its own name
        return ":func:`~tvbo_verify.authoring.constant_beta`"
    return f":func:`~tvbo_verify.bandits.beta.{name}`"


def default_beta(name: str) -> str:
    """The default β rule of algorithm ``name``: its rule when built without one and, when a run replaces it at
    reset, the rule of a two-round run on :data:`REFERENCE_RUN`."""
    import numpy as np

    from tvbo_verify.bandits.registry import make_env, make_policy
    from tvbo_verify.bandits.runner import run

    policy = make_policy(name)
    built = policy.beta.to_dict()
    text = _rule(built)
    try:
        trace = run(policy, make_env(*REFERENCE_RUN), 2, np.random.default_rng(0))
    except ValueError:  # needs an environment of its own (e.g. a response time): the rule it was built with
        return text
    used = trace.meta.get("policy", {}).get("beta")
    if used and used.get("kind") != built["kind"]:
        text += (f"; replaced at reset by {_rule(used)} on ``{REFERENCE_RUN[0]}`` with "
                 f"{', '.join(f'{k}={v!r}' for k, v in REFERENCE_RUN[1].items())}")
    return text


def algorithms_rst() -> str:
    """The table of built-in algorithms: parameters with defaults, the default β rule, what it is."""
    from tvbo_verify.bandits.registry import ALGORITHMS, MODEL_PARAMS

    rows = [[f"``{name}``", f":class:`~{factory.__module__}.{factory.__qualname__}`", _parameters(factory),
             default_beta(name), _with_note(name, _summary(factory))]
            for name, factory in _builtin(ALGORITHMS).items()]
    note = ("Every GP policy also takes the model options " + ", ".join(f"``{p}``" for p in MODEL_PARAMS)
            + " and ``lam`` (:func:`~tvbo_verify.bandits.registry.model_options`). A ``beta`` given to "
            ":func:`~tvbo_verify.authoring.make_policy` or an :class:`~tvbo_verify.authoring.Arm` replaces the "
            "default.\n\n")
    return note + _table(["name", "class", "parameters (defaults)", "default β", "what it is"], rows,
                         "10 12 22 26 30")


def environments_rst() -> str:
    """The table of built-in environments: parameters with defaults, what it is, its reference."""
    from tvbo_verify.bandits.registry import ENVIRONMENTS

    rows = []
    for name, factory in _builtin(ENVIRONMENTS).items():
        built = _built_class(factory)
        rows.append([f"``{name}``", f":class:`~{built.__module__}.{built.__qualname__}`", _parameters(factory),
                     _with_note(name, _summary(built)), ENVIRONMENT_REFERENCES[name]])
    return _table(["name", "class", "parameters (defaults)", "what it is", "reference"], rows, "10 12 28 30 20")


def _with_note(name: str, summary: str) -> str:
    note = PARAMETER_NOTES.get(name)
    return summary if note is None else f"{summary} {note}"


def _built_class(factory: Callable[..., Any]) -> type:
    if inspect.isclass(factory):
        return factory
    from tvbo_verify.bandits import environments

    names = factory.__code__.co_names
    return next(getattr(environments, n) for n in names if inspect.isclass(getattr(environments, n, None)))


def _builtin(registry: dict[str, Any]) -> dict[str, Any]:
    """The names the package itself registers (a plugin's, registered at run time, are not its to document)."""
    return {n: f for n, f in registry.items() if (f.__module__ or "").startswith("tvbo_verify.")}


def write(folder: Path) -> list[Path]:
    """Write the three tables into ``folder`` (created); returns the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for stem, make in (("beta_rules", beta_rules_rst), ("algorithms", algorithms_rst),
                       ("environments", environments_rst)):
        path = folder / f"{stem}.rst"
        text = make()
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
        out.append(path)
    return out
