"""A picklable response-time model ``R(n)`` for the BOLT environment and policy (``bolt`` Definition 3.5).

:class:`tvbo_verify.theory.response.ResponseModel` holds a lambdified sympy function, which cannot be
pickled for process or Dask executors. :class:`Response` keeps the expression text and rebuilds the
model lazily in each process.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from ..theory.response import ResponseModel

__all__ = [
    "Response",
]


class Response:
    """``R(n)`` from an expression in ``n`` (e.g. ``"0.5 + 1e-4*n**3"``) or a :class:`ResponseModel`."""

    def __init__(self, spec: "str | ResponseModel | Response") -> None:
        if isinstance(spec, Response):
            spec = spec.text
        if isinstance(spec, ResponseModel):
            self.text = sp.sstr(spec.expr)
        elif isinstance(spec, str):
            self.text = spec
        else:
            raise ValueError(f"response must be an expression in n or a ResponseModel, got {type(spec).__name__}")
        self._model: ResponseModel | None = None
        _ = self.model  # parse now so that a bad expression fails early

    @property
    def model(self) -> ResponseModel:
        if self._model is None:
            self._model = ResponseModel.from_expression(self.text)
        return self._model

    def __call__(self, n: int) -> float:
        return float(self.model(float(n)))

    def __getstate__(self) -> dict[str, Any]:
        return {"text": self.text, "_model": None}

    def __repr__(self) -> str:
        return f"R(n) = {self.text}"
