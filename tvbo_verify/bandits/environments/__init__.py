"""Seeded test-beds on finite grids with exact argmax and regret (see :mod:`.base` for the protocol)."""

from .analytic import SparqSynthetic, SwitchingBumps
from .base import Environment, GramKernel, ScaledKernel, psd_sqrt, unit_grid
from .gpsample import MarkovGP, SpatioTemporalGP, UncertaintyInjectionDrift, fractional_gaussian_noise
from .realdata import HourlyTemperature, MonthlyStocks
from .rkhs import (AbruptBudget, KernelExpansionEnv, RandomWalkExpansion, RotationBudget, WgpucbPaper,
                   WsparqSynthetic, scale_to_norm)

__all__ = [
    "AbruptBudget", "Environment", "GramKernel", "HourlyTemperature", "KernelExpansionEnv", "MarkovGP",
    "MonthlyStocks", "RandomWalkExpansion", "RotationBudget", "ScaledKernel", "SparqSynthetic", "SpatioTemporalGP", "SwitchingBumps",
    "UncertaintyInjectionDrift", "WgpucbPaper", "WsparqSynthetic", "fractional_gaussian_noise", "psd_sqrt",
    "scale_to_norm", "unit_grid",
]
