"""Parameters "set order-wise by theory" (``wgpucb`` §4): discount, sliding window and restart period.

``wgpucb`` Corollary 5 chooses the discount ``γ = 1 − γ̇_T^{-1/4} B_T^{1/2} T^{-1/2}`` (known ``B_T``) or
``γ = 1 − γ̇_T^{-1/4} T^{-1/2}`` (unknown), i.e. an effective memory ``1/(1 − γ) = γ̇_T^{1/4} B_T^{-1/2} T^{1/2}``;
Zhou & Shroff (2021), whose restart period ``H`` and window ``W`` the ``wgpucb`` experiments set the same
way, choose ``H = W = ⌈γ_T^{1/4} B_T^{-1/2} T^{1/2}⌉`` (reading: the same order as the memory). ``γ̇_T`` is
circular in Corollary 5 (papers/wgpucb/READING.md §3.11); the a-priori bound ``log^{d+1} T`` of the SE kernel
(Remark 5; the catalog's rate check) is used instead.

The environment's exact ``B_T`` is used where it knows it (``problem.extra["variation_budget"]``), the
unknown-``B_T`` choice otherwise. A budget so large that ``γ ≤ 1/2`` (memory < 2 rounds) is clipped to
``γ = 1/2`` and reported as clipped.

"Order-wise" fixes the memory only up to a constant factor, which no paper gives. ``scale`` is that factor:
the memory ``1/(1 − γ)``, the window and the restart period are ``scale`` times the order-wise values
(``γ = 1 − (1 − γ₁)/scale`` for the discount ``γ₁`` of Corollary 5), so that one constant, swept alike for
every method, moves the discount, the window and the restart period together.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..theory.schedules import wgpucb_discount
from ..validation import check_int, check_nonnegative, check_positive

if TYPE_CHECKING:
    from .policy import Problem

__all__ = [
    "gamma_dot_prior", "OrderWise", "order_wise", "order_wise_for",
]


def gamma_dot_prior(horizon: int, d: int) -> float:
    """``log^{d+1} T``: the a-priori order of ``γ̇_T`` for the SE kernel (``wgpucb`` Remark 5)."""
    horizon = check_int("horizon", horizon, 2)
    return math.log(horizon) ** (check_int("d", d, 1) + 1)


@dataclass(frozen=True)
class OrderWise:
    """Discount ``γ``, effective memory ``1/(1−γ)`` and the matching window / restart period (rounds)."""

    horizon: int
    gamma_dot: float
    variation_budget: float | None
    discount: float
    memory: float
    window: int
    clipped: bool
    scale: float = 1.0

    def to_dict(self) -> dict:
        return {"horizon": self.horizon, "gamma_dot": self.gamma_dot, "variation_budget": self.variation_budget,
                "discount": self.discount, "memory": self.memory if math.isfinite(self.memory) else None,
                "window": self.window, "clipped": self.clipped, "scale": self.scale}


def order_wise(horizon: int, d: int, variation_budget: float | None = None, scale: float = 1.0) -> OrderWise:
    """``wgpucb`` Corollary 5 discount (known ``B_T`` if given, else unknown) and the window of the same order,
    the memory multiplied by ``scale`` (the constant "order-wise" leaves open; module docstring).

    ``B_T = 0`` (a static objective) gives ``γ = 1`` and a window of ``T`` rounds (nothing to forget).
    """
    horizon = check_int("horizon", horizon, 2)
    scale = check_positive("memory scale", scale)
    gd = gamma_dot_prior(horizon, d)
    if variation_budget is not None and check_nonnegative("variation_budget", variation_budget) == 0.0:
        return OrderWise(horizon, gd, 0.0, 1.0, math.inf, horizon, False, scale)
    clipped = False
    try:
        discount = wgpucb_discount(horizon, gd, variation_budget).discount
    except ValueError:
        discount, clipped = 0.5, True
    if scale != 1.0:
        discount = 1.0 - (1.0 - discount) / scale
    if discount < 0.5:
        discount, clipped = 0.5, True
    memory = 1.0 / (1.0 - discount)
    window = int(min(horizon, max(1, math.ceil(memory))))
    return OrderWise(horizon, gd, variation_budget, discount, memory, window, clipped, scale)


def order_wise_for(problem: "Problem", scale: float = 1.0) -> OrderWise:
    """:func:`order_wise` for a run: its horizon, dimension and the environment's exact ``B_T`` when known."""
    return order_wise(max(problem.horizon, 2), problem.d, problem.extra.get("variation_budget"), scale)
