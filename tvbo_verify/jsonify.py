"""The one JSON converter of the package (results.json, traces, calculators, run caches).

JSON has no non-finite numbers. Everywhere in tvbo_verify a non-finite float is written as the
string ``"nan"``, ``"inf"`` or ``"-inf"`` (never ``null``, which would lose the sign of an infinite
margin, and never the invalid tokens ``NaN``/``Infinity``); :func:`from_json_number` reads them back.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import math
from pathlib import Path
from typing import Any

import numpy as np

NON_FINITE = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}


def _float(v: float) -> float | str:
    if math.isfinite(v):
        return v
    if math.isnan(v):
        return "nan"
    return "inf" if v > 0 else "-inf"


def to_jsonable(value: Any) -> Any:
    """Plain JSON values from numpy and mpmath scalars, arrays, dataclasses, enums, paths and containers.

    Parameters
    ----------
    value : Any
        What to convert.

    Returns
    -------
    Any
        Dicts, lists, strings, numbers, booleans and None only.

    Examples
    --------
    >>> import numpy as np
    >>> to_jsonable({"x": np.arange(3), "v": np.float64(0.5)})
    {'x': [0, 1, 2], 'v': 0.5}
    """
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return to_jsonable(value.tolist())
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return _float(float(value))
    if isinstance(value, enum.Enum):
        return to_jsonable(value.value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Path):
        return str(value)
    if value is None or isinstance(value, str):
        return value
    try:  # mpmath numbers and other real-like scalars
        return _float(float(value))
    except (TypeError, ValueError):
        return str(value)


def dumps(value: Any, **kwargs: Any) -> str:
    """``json.dumps`` of :func:`to_jsonable` (strict: no ``NaN`` tokens), UTF-8 kept readable."""
    kwargs.setdefault("ensure_ascii", False)
    return json.dumps(to_jsonable(value), allow_nan=False, **kwargs)


def from_json_number(value: Any) -> Any:
    """Inverse of the non-finite encoding: ``"nan"``/``"inf"``/``"-inf"`` back to floats."""
    if isinstance(value, str) and value in NON_FINITE:
        return NON_FINITE[value]
    return value
