"""Seeded test-beds on finite grids with exact argmax and regret (see :mod:`.base` for the protocol)."""

from .base import Environment, GramKernel, ScaledKernel, TrainingData, psd_sqrt, unit_grid
from .closedform import SparqFigure1, sparq_figure1_function
from .gpsample import MarkovGP, SpatioTemporalGP, UncertaintyInjectionDrift, fractional_gaussian_noise
from .realdata import CommodityReturns, HourlyTemperature, MonthlyStocks, OzoneGrid
from .rkhs import (
                   AbruptBudget,
                   KernelExpansionEnv,
                   RandomWalkExpansion,
                   RotationBudget,
                   WgpucbPaper,
                   WsparqSynthetic,
                   scale_to_norm,
)

__all__ = [
    "AbruptBudget", "CommodityReturns", "Environment", "GramKernel", "HourlyTemperature", "KernelExpansionEnv",
    "MarkovGP", "MonthlyStocks", "OzoneGrid", "RandomWalkExpansion", "RotationBudget", "ScaledKernel", "SparqFigure1",
    "SpatioTemporalGP", "TrainingData", "UncertaintyInjectionDrift", "WgpucbPaper", "WsparqSynthetic",
    "fractional_gaussian_noise", "psd_sqrt", "scale_to_norm", "sparq_figure1_function", "unit_grid",
]
