"""Bandit layer: environments, policies (one module per algorithm family), expert oracle, runner.

* :mod:`.environments` — seeded test-beds on finite grids (exact argmax and regret);
* :mod:`.policy` — the policy protocol; :mod:`.beta` — β_t rules with their UCB convention
  (the papers' own and IGP-UCB's, :func:`.beta.igpucb_theory`);
* :mod:`.gpucb` (GP-UCB, R-GP-UCB, TV-GP-UCB), :mod:`.etgpucb` (ET-GP-UCB), :mod:`.window` (SW-GP-UCB, WGP-UCB),
  :mod:`.sparq` (SparQ-GP-UCB, W-SparQ-GP-UCB), :mod:`.wdbo` (W-DBO, BOLT, FIFO GP-UCB);
* :mod:`.expert` — the expert oracle; :mod:`.runner` — ``run`` / ``run_many``;
* executors come from :mod:`tvbo_verify.execution`; :mod:`.traces` — :class:`Trace` and its atomic
  ``.npz`` + JSON files;
* :mod:`.hyperfit` — maximum-likelihood hyperparameters (``fit="ml"`` on every GP policy);
* :mod:`.tuning` — windows, restart periods and discounts "set order-wise by theory" (``wgpucb`` §4);
* :mod:`.presets` — each paper's experiment: environment, horizon, and per-algorithm parameters and β;
* :mod:`.registry` — names of algorithms and environments for the command line.
"""

from ..execution import DaskExecutor, ProcessExecutor, SerialExecutor, get_executor
from .beta import (
    BetaRule,
    bolt_theory,
    constant,
    finite_domain,
    igpucb_theory,
    kirschner_krause,
    log_rule,
    parse_beta,
    tvgpucb_theory,
    wdbo_practical,
    wgpucb_theory,
)
from .expert import BudgetExceeded, ExpertOracle
from .gpucb import GPUCB, RGPUCB, TVGPUCB
from .policy import Policy, Problem, RandomPolicy, ucb_argmax
from .runner import make_jobs, run, run_many
from .sparq import SparQGPUCB, WSparQGPUCB
from .traces import Trace, finished_reps, load_trace, save_trace
from .wdbo import BOLT, FIFOGPUCB, WDBO
from .window import SWGPUCB, WGPUCB

__all__ = [
    "BOLT", "WDBO", "BetaRule", "BudgetExceeded", "DaskExecutor", "ExpertOracle", "FIFOGPUCB", "GPUCB", "Policy",
    "ProcessExecutor", "Problem", "RGPUCB", "RandomPolicy", "SWGPUCB", "SerialExecutor", "SparQGPUCB",
    "WSparQGPUCB", "TVGPUCB", "Trace", "WGPUCB", "bolt_theory", "constant", "finite_domain", "finished_reps",
    "get_executor", "igpucb_theory",
    "kirschner_krause", "load_trace", "log_rule", "make_jobs", "parse_beta", "run", "run_many", "save_trace",
    "tvgpucb_theory", "ucb_argmax", "wdbo_practical", "wgpucb_theory",
]
