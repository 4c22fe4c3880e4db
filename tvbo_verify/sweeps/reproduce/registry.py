"""Reproductions of the papers' figures and tables: declared as data, run on the run cache.

A :class:`Reproduction` names its paper, the set-up and the qualitative finding the paper reports
(in words), the sweeps it needs at each fidelity, how its finding is measured and how its figure is
drawn. :func:`run_reproduction` runs it and writes ``<id>.png``, ``<id>.svg`` and ``<id>.json`` (the
measured finding) into the output folder. Experiment claims are decided from the same measurement.

A reproduction may declare the constants its paper leaves open (:mod:`.constants`), the parts its finding
is decided by (``parts``) and the parameters that are each method's own (``own``, everything else is the
same for every compared method). :func:`measure` with ``sensitivity=True`` then also runs every
one-at-a-time setting of those constants and records where the finding holds; :func:`run_reproduction`
draws that record as ``<id>-sensitivity.png`` / ``.svg``. Parts declared ``sequential``
(:class:`~tvbo_verify.sweeps.reproduce.sequential.SequentialPart`) gather the repetitions their decision needs
at every setting (:func:`~tvbo_verify.sweeps.reproduce.sequential.settle`); the looks are recorded under
``sensitivity["sequential"]``.

The runs of repetition ``r`` use the root seed ``sweep.seed + seed`` (``seed`` of :func:`measure`), so the
run seed changes the runs, not only the bootstrap intervals.
"""

from __future__ import annotations

import time
import zlib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from ...execution import Executor
from ...fidelity import check_fidelity
from ...files import atomic_write, atomic_write_text, safe_name
from ...jsonify import dumps
from ...papers import import_paper_modules
from ...registry import Registry
from ..cache import RunCache
from ..execute import run_sweep
from ..results import SweepResult
from ..spec import Sweep
from .analysis import Finding
from .constants import (
    FreeConstant,
    Part,
    UnfairSetting,
    apply_setting,
    check_fair,
    remarks_record,
    sensitivity_figure,
    sensitivity_record,
    settings,
)
from .sequential import SequentialPart, settle
from .tuning import (
    TRAINING_SEED,
    TUNING_REPS,
    candidates,
    check_tuning,
    mean_final_regret,
    methods,
    tune,
    tuning_budgets,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure



def _load_reproductions(name: str | None) -> None:
    load_all()


_REGISTRY: Registry = Registry("reproduction id", load=_load_reproductions,
                               hint="see `tvbo-verify reproduce --list`")


@dataclass(frozen=True)
class Reproduction:
    """One figure or table of a paper, reproduced: its set-up and expected finding in words, the sweeps it needs,
    how its finding is measured and how its figure is drawn.

    Register it with :func:`register_reproduction`; ``tvbo-verify reproduce`` runs it, and experiment claims
    decide from it (:func:`experiment_evidence`, :func:`sensitivity_evidence`).

    Parameters
    ----------
    id : str
        Its id, conventionally ``"<paper>:<name>"``.
    paper : str
        The paper's id.
    title : str
        The figure or table it reproduces (e.g. ``"Figure 2"``).
    setup : str
        The set-up in words.
    expected : str
        The finding the paper reports, in words.
    sweeps : callable
        ``fidelity -> {name: Sweep}``: the sweeps at ``"quick"`` or ``"full"``.
    analyse : callable
        ``(results, rng) -> Finding``: the finding from the sweep results by name and a bootstrap generator.
    figure : callable
        ``(results, finding) -> matplotlib.figure.Figure``: its figure.
    claims : tuple of str, optional
        The ids of the claims decided from it.
    data_note : str, optional
        Where its data come from, when they are not the paper's.
    constants : tuple of FreeConstant, optional
        The constants its paper leaves open (then ``parts`` is required).
    parts : callable or None, optional
        ``finding -> [Part]``: the parts its finding is decided by at each setting of the constants.
    own : dict, optional
        By arm label, the parameters that are that method's own (everything else must be shared).
    sequential : tuple of SequentialPart, optional
        Parts measured with the repetitions their decision needs (requires ``constants``).

    Raises
    ------
    ValueError
        If it declares constants without parts, or sequential parts without constants.

    Examples
    --------
    >>> from tvbo_verify.authoring import Arm, Finding, Reproduction, Sweep
    >>> sweep = Sweep("doc", (Arm("GP-UCB", "gp-ucb"), Arm("random", "random")), "gp-sample",
    ...               horizons=(4, 8), reps=2, env_params={"points_per_dim": 5})
    >>> rep = Reproduction("doc:example", "doc", "a figure", setup="two arms", expected="GP-UCB below random",
    ...                    sweeps=lambda fidelity: {"main": sweep}, analyse=lambda results, rng: Finding("measured"),
    ...                    figure=lambda results, finding: None)
    >>> list(rep.plan("quick")), rep.runs("quick")
    (['main'], 8)
    """

    id: str
    paper: str
    title: str
    setup: str
    expected: str
    sweeps: Callable[[str], dict[str, Sweep]]
    analyse: Callable[[dict[str, SweepResult], np.random.Generator], Finding]
    figure: Callable[[dict[str, SweepResult], Finding], Any]
    claims: tuple[str, ...] = ()
    data_note: str = ""
    constants: tuple[FreeConstant, ...] = ()
    parts: Callable[[Finding], list[Part]] | None = None
    own: dict[str, tuple[str, ...]] = field(default_factory=dict)
    sequential: tuple[SequentialPart, ...] = ()
    tuned: tuple[FreeConstant, ...] = ()
    tuning_reps: dict[str, int] = field(default_factory=lambda: dict(TUNING_REPS))
    tuning_score: Callable[[SweepResult, str, str], float] = mean_final_regret
    remarks: Callable[[Finding], list[Part]] | None = None

    def __post_init__(self) -> None:
        if self.constants and self.parts is None:
            raise ValueError(f"reproduction {self.id} declares free constants but no parts to decide its finding by")
        if self.remarks is not None and not self.constants:
            raise ValueError(f"reproduction {self.id} declares remarks but no free constants (they are reported "
                             "where its sensitivity is measured)")
        if self.sequential and not self.constants:
            raise ValueError(f"reproduction {self.id} declares sequential parts but no free constants (they are "
                             "settled where its sensitivity is measured)")
        alone = [c.name for c in self.constants if c.own]
        if alone:
            raise UnfairSetting(f"reproduction {self.id} sweeps a method's own constant alone ({', '.join(alone)}): "
                                "a setting that retunes one method compares it with rivals that were not; declare "
                                "it in `tuned`, tuned with the same budget as every other method's on training "
                                "seeds")
        if self.tuned:
            if not self.own:
                raise ValueError(f"reproduction {self.id} tunes constants but declares no method's own keys (own)")
            for fidelity in TUNING_REPS:
                tuning_budgets(self.tuned, fidelity)
                if int(self.tuning_reps.get(fidelity, 0)) < 1:
                    raise ValueError(f"reproduction {self.id} needs tuning_reps >= 1 at {fidelity} fidelity")

    def plan(self, fidelity: str, constant: FreeConstant | None = None, value: Any = None) -> dict[str, Sweep]:
        """The sweeps at ``fidelity``, with ``constant`` set to ``value`` (default: the paper's setting); tuned
        constants at their paper's setting (:func:`measure` tunes them)."""
        check_fidelity(fidelity)
        return apply_setting(self.sweeps(fidelity), constant, value)

    def plans(self, fidelity: str) -> list[tuple[FreeConstant | None, Any, dict[str, Sweep]]]:
        """The paper's setting and every one-at-a-time setting of the free constants, with their sweeps; each
        setting must treat every compared method alike (:func:`~.constants.check_fair`, raising
        :class:`~.constants.UnfairSetting`) when the reproduction declares its methods' own keys."""
        base = self.plan(fidelity)
        out = [(None, None, base)] + [(c, v, apply_setting(base, c, v)) for c, v in settings(self.constants, fidelity)]
        if self.constants or self.tuned:
            for c, v, plan in out:
                check_fair(base, c, v, self.own, plan)
                if self.tuned:
                    check_tuning(plan, self.tuned, fidelity, self.own)
        return out

    def tuning_plans(self, plan: dict[str, Sweep], fidelity: str) -> dict[str, Sweep]:
        """The training sweeps of every candidate of every tuned method at one setting (before the run seed)."""
        out = {}
        for arms, constants in methods(self.tuned).items():
            for name, sweep in plan.items():
                labels = [a.label for a in sweep.arms if a.label in arms]
                if not labels:
                    continue
                for values in candidates(constants, fidelity):
                    full = sweep
                    for c, v in zip(constants, values):
                        full = c.apply(full, v)
                    out[f"{name} {labels} {values}"] = replace(
                        full, arms=tuple(a for a in full.arms if a.label in labels),
                        reps=int(self.tuning_reps[fidelity]), seed=full.seed + TRAINING_SEED)
        return out

    def runs(self, fidelity: str, *, sensitivity: bool = True) -> int:
        """Distinct runs at ``fidelity`` (with the settings of the free constants unless ``sensitivity=False``;
        the evaluation runs counted with the tuned constants at their paper's setting, the training runs of the
        tuning included)."""
        plans = self.plans(fidelity) if sensitivity else [(None, None, self.plan(fidelity))]
        training = [self.tuning_plans(plan, fidelity) for _, _, plan in plans] if self.tuned else []
        return len({spec.key for plan in [p for _, _, p in plans] + training for sw in plan.values()
                    for spec in sw.specs()})


@dataclass
class Outcome:
    """A finished reproduction: its finding, the sweep results and the files written."""

    reproduction: Reproduction
    fidelity: str
    finding: Finding
    results: dict[str, SweepResult]
    seconds: float
    files: dict[str, str] = field(default_factory=dict)
    sensitivity: dict[str, Any] | None = None
    tuning: dict[str, Any] = field(default_factory=dict)

    def record(self) -> dict[str, Any]:
        r = self.reproduction
        out = {"id": r.id, "paper": r.paper, "title": r.title, "fidelity": self.fidelity, "setup": r.setup,
               "expected": r.expected, "claims": list(r.claims), "data_note": r.data_note,
               "finding": self.finding.text, "json": self.finding.data,
               "runs": sum(len(res.traces) for res in self.results.values()), "seconds": self.seconds,
               **self.files}
        if self.sensitivity is not None:
            out["sensitivity"] = self.sensitivity
        if self.tuning:
            out["tuning"] = self.tuning
        return out

    def sensitivity_figure(self) -> Figure:
        """The sensitivity figure (:func:`~tvbo_verify.sweeps.reproduce.constants.sensitivity_figure`)."""
        if self.sensitivity is None:
            raise ValueError(f"reproduction {self.reproduction.id} was measured without its sensitivity")
        return sensitivity_figure(self.sensitivity, f"{self.reproduction.id} at {self.fidelity} fidelity")


def register(rep: Reproduction) -> Reproduction:
    """Register ``rep`` under its id; another reproduction under a registered id is refused."""
    return _REGISTRY.register(rep.id, rep)


def load_all() -> None:
    """Import the reproduction modules every registered paper names
    (:attr:`tvbo_verify.papers.Paper.reproductions`), so that their reproductions register."""
    import_paper_modules("reproductions")


def reproductions(paper: str | None = None) -> list[Reproduction]:
    load_all()
    return [r for r in _REGISTRY.values() if paper is None or r.paper == paper]


def get_reproduction(rep_id: str) -> Reproduction:
    """The registered reproduction ``rep_id`` (the reproduction modules of the registered papers are imported
    first when the id is unknown).

    Parameters
    ----------
    rep_id : str
        Its id.

    Returns
    -------
    Reproduction
        The reproduction.

    Raises
    ------
    ValueError
        If no reproduction has that id; the message names the closest ids.

    Examples
    --------
    >>> import uuid
    >>> from tvbo_verify.authoring import Finding, Reproduction, get_reproduction
    >>> from tvbo_verify.sweeps.reproduce import register
    >>> rep = register(Reproduction(f"doc:example-{uuid.uuid4().hex[:8]}", "doc", "a figure", setup="", expected="",
    ...                             sweeps=dict, analyse=lambda results, rng: Finding(""), figure=lambda r, f: None))
    >>> get_reproduction(rep.id) is rep
    True
    >>> get_reproduction("doc:no-such-figure")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: ...
    """
    return _REGISTRY.lookup(rep_id)


def file_stem(rep_id: str) -> str:
    """The file stem of a reproduction's outputs."""
    return safe_name(rep_id)


def rng_for(rep_id: str, seed: int = 0) -> np.random.Generator:
    """The bootstrap generator of a reproduction (stable across processes)."""
    return np.random.default_rng([zlib.crc32(rep_id.encode()), int(seed)])


def seeded(plan: dict[str, Sweep], seed: int) -> dict[str, Sweep]:
    """The sweeps of ``plan`` with their root seeds offset by the run ``seed`` (the sweeps :func:`measure` runs)."""
    return {name: replace(sw, seed=sw.seed + int(seed)) for name, sw in plan.items()}


def measure(rep: Reproduction, *, cache: RunCache, fidelity: str = "quick", executor: Executor | str = "serial",
            seed: int = 0, progress: bool | None = None, sensitivity: bool = False) -> Outcome:
    """Run the sweeps of ``rep`` on the run cache ``cache`` and measure its finding; no files written.

    ``seed`` offsets the root seed of every sweep and seeds the bootstrap. ``sensitivity=True`` also runs
    every one-at-a-time setting of the reproduction's free constants and records the finding's margin at
    each (:func:`~tvbo_verify.sweeps.reproduce.constants.sensitivity_record`)."""
    start = time.perf_counter()
    seed = int(seed)
    if seed < 0:
        raise ValueError(f"seed must be >= 0, got {seed}")

    ran: set[str] = set()  # the keys of every run measured (evaluation, training and sequential looks)

    def run(plan: dict[str, Sweep]) -> dict[str, SweepResult]:
        plan = seeded(plan, seed)
        ran.update(spec.key for sw in plan.values() for spec in sw.specs())
        return {name: run_sweep(sw, executor=executor, cache=cache, progress=progress) for name, sw in plan.items()}

    def train(plan: dict[str, Sweep]) -> dict[str, SweepResult]:
        return run(seeded(plan, TRAINING_SEED))

    tunings: dict[str, Any] = {}

    def tuned(plan: dict[str, Sweep], where: str) -> dict[str, Sweep]:
        """The plan with every method's own constants tuned on the training seeds (docs/ARCHITECTURE.md §10)."""
        if not rep.tuned:
            return plan
        plan, record = tune(plan, rep.tuned, fidelity, int(rep.tuning_reps[fidelity]), rep.own, train,
                            rep.tuning_score)
        tunings[where] = record
        return plan

    plans = rep.plans(fidelity) if sensitivity and rep.constants else [(None, None, rep.plan(fidelity))]
    if not (sensitivity and rep.constants) and (rep.constants or rep.tuned):
        rep.plans(fidelity)  # the fairness of every setting is checked whether or not the settings are run
    paper_plan = tuned(plans[0][2], "the paper's setting")
    results = run(paper_plan)
    finding = rep.analyse(results, rng_for(rep.id, seed))
    outcome = Outcome(rep, fidelity, finding, results, 0.0)
    if sensitivity and rep.constants:
        assert rep.parts is not None
        findings, resolved, looks = {}, {}, {}

        def settled(plan: dict[str, Sweep], parts: list[Part], where: str) -> list[Part]:
            parts, records = settle(parts, rep.sequential, plan, fidelity, run, lambda: rng_for(rep.id, seed))
            for name, record in records.items():
                looks.setdefault(name, {})[where] = record
            return parts

        for c in rep.constants:
            if c.describe is not None:
                resolved[(c.name, c.paper)] = c.describe(results)
        paper_parts = settled(paper_plan, rep.parts(finding), "the paper's setting")
        remarks = {} if rep.remarks is None else {"the paper's setting": rep.remarks(finding)}
        for c, v, plan in plans[1:]:
            plan = tuned(plan, c.text(v))
            res = run(plan)
            at = rep.analyse(res, rng_for(rep.id, seed))
            findings[(c.name, v)] = settled(plan, rep.parts(at), c.text(v))
            if rep.remarks is not None:
                remarks[c.text(v)] = rep.remarks(at)
            if c.describe is not None:
                resolved[(c.name, v)] = c.describe(res)
        outcome.sensitivity = sensitivity_record(rep.constants, fidelity, paper_parts, findings, resolved, len(ran))
        if looks:
            outcome.sensitivity["sequential"] = looks
        if tunings:
            outcome.sensitivity["tuning"] = tunings
        if remarks:
            outcome.sensitivity["remarks"] = remarks_record(remarks)
    outcome.tuning = tunings
    outcome.seconds = time.perf_counter() - start
    return outcome


def run_reproduction(rep: Reproduction | str, out: str | Path, *, cache: RunCache, fidelity: str = "quick",
                     executor: Executor | str = "serial", seed: int = 0, progress: bool | None = None,
                     measured: Outcome | None = None) -> Outcome:
    """Measure ``rep`` and write its figure (PNG and SVG) and finding (JSON) into ``out``; ``measured``: its
    outcome already measured at ``fidelity`` and ``seed`` (drawn instead of measured again)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rep = get_reproduction(rep) if isinstance(rep, str) else rep
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    if measured is not None and (measured.reproduction.id, measured.fidelity) != (rep.id, fidelity):
        raise ValueError(f"measured must be an outcome of {rep.id} at fidelity {fidelity}, got "
                         f"{measured.reproduction.id} at {measured.fidelity}")
    if measured is None or (rep.constants and measured.sensitivity is None):  # its sensitivity figure needs them
        measured = measure(rep, fidelity=fidelity, executor=executor, cache=cache, seed=seed, progress=progress,
                           sensitivity=bool(rep.constants))
    outcome = measured
    stem = file_stem(rep.id)
    figures = [("", rep.figure(outcome.results, outcome.finding))]
    if outcome.sensitivity is not None:
        figures.append(("sensitivity", outcome.sensitivity_figure()))
    for suffix, fig in figures:
        for ext in ("png", "svg"):
            path = out / f"{stem}{'-' + suffix if suffix else ''}.{ext}"
            atomic_write(path, lambda fh, ext=ext, fig=fig: fig.savefig(fh, format=ext, dpi=130, bbox_inches="tight"))
            outcome.files[f"{suffix}_{ext}" if suffix else ext] = path.name
        plt.close(fig)
    atomic_write_text(out / f"{stem}.json", dumps(outcome.record(), indent=1) + "\n")
    outcome.files["json"] = f"{stem}.json"
    return outcome
