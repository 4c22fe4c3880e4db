"""Seeded test-beds on finite grids with exact argmax and regret (see :mod:`.base` for the protocol)."""

from .analytic import SparqSynthetic, SwitchingBumps
from .base import Environment, GramKernel, ScaledKernel, TrainingData, psd_sqrt, unit_grid
from .gpsample import (
    MarkovGP,
    SpatioTemporalGP,
    StationaryGPSample,
    UncertaintyInjectionDrift,
    fractional_gaussian_noise,
)
from .noise_models import BumpHorizonNoise, IndexNoise
from .realdata import CommodityReturns, HourlyTemperature, MonthlyStocks, OzoneGrid
from .rkhs import (
                   AbruptBudget,
                   KernelExpansionEnv,
                   PeakWalk,
                   RandomWalkExpansion,
                   RotationBudget,
                   WgpucbPaper,
                   WsparqSynthetic,
                   scale_to_norm,
)

__all__ = [
    "AbruptBudget", "BumpHorizonNoise", "CommodityReturns", "Environment", "GramKernel", "HourlyTemperature",
    "IndexNoise", "KernelExpansionEnv",
    "MarkovGP", "MonthlyStocks", "OzoneGrid", "PeakWalk", "RandomWalkExpansion", "RotationBudget", "ScaledKernel",
    "SparqSynthetic",
    "SpatioTemporalGP", "StationaryGPSample", "SwitchingBumps", "TrainingData", "UncertaintyInjectionDrift",
    "WgpucbPaper", "WsparqSynthetic",
    "fractional_gaussian_noise", "psd_sqrt", "scale_to_norm", "unit_grid",
]
