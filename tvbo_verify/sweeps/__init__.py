"""Sweeps: algorithm × environment × horizons × repetitions as data, a content-addressed run cache
shared by claim checks, figures and the report, and reproductions of the papers' figures
(docs/ARCHITECTURE.md §2: above bandits, below verify)."""

from .cache import RunCache, default_cache_dir
from .execute import run_specs, run_sweep
from .results import SweepResult, bootstrap_mean_ci, paired_difference
from .spec import Arm, RunSpec, Sweep

__all__ = ["Arm", "RunCache", "RunSpec", "Sweep", "SweepResult", "bootstrap_mean_ci",
           "default_cache_dir", "paired_difference", "run_specs", "run_sweep"]
