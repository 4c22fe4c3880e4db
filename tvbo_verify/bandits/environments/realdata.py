"""Real-data environments built from the CSV files shipped by ``vega_datasets`` (optional extra ``data``).

The files are located with :func:`importlib.util.find_spec` and parsed with :mod:`csv`; neither
``vega_datasets`` nor pandas is imported and no network access happens.

* :class:`HourlyTemperature` (``seattle-temps``, ``sf-temps``): arm = hour of day (24 arms), round =
  day. As in ``tvgpucb`` §7.2, the kernel is the empirical covariance (``np.cov``, centred per arm) of
  the arms over a training split of the days; rounds are the remaining days. ``f_t`` is the day's
  temperature minus the training grand mean (``centre="grand"``, a constant shift: argmax and regret
  are those of the raw readings; the hottest hour barely moves, so the task is easy) or minus each
  hour's training mean (``centre="arm"``: track the most anomalously warm hour, a harder task).
* :class:`MonthlyStocks` (``stocks``): a small analogue of the ``wgpucb`` stock experiment — arms =
  symbols with a complete history, reward = monthly return in percent, kernel = empirical covariance
  of the returns over the training months.

Noise: ``noise_fraction`` (default 5%, ``tvgpucb`` §7.2) of the mean signal variance of the kernel.
"""

from __future__ import annotations

import csv
import datetime as _dt
import importlib.util
import os
from typing import Any

import numpy as np

from ...validation import check_choice, check_open_interval, check_positive
from .base import Environment, GramKernel


def vega_data_path(filename: str) -> str:
    """Path of a CSV shipped by ``vega_datasets`` (found without importing the package)."""
    spec = importlib.util.find_spec("vega_datasets")
    if spec is None or not spec.submodule_search_locations:
        raise ValueError("the real-data environments need the optional extra 'data' (pip install vega_datasets)")
    path = os.path.join(list(spec.submodule_search_locations)[0], "_data", filename)
    if not os.path.exists(path):
        raise ValueError(f"vega_datasets does not ship {filename!r}")
    return path


def hourly_matrix(dataset: str) -> np.ndarray:
    """Days × 24 matrix of hourly temperatures; a missing hour is filled by linear interpolation in time."""
    path = vega_data_path(f"{dataset}.csv")
    stamps: list[_dt.datetime] = []
    temps: list[float] = []
    with open(path, newline="") as fh:
        for row in csv.DictReader(fh):
            text = row["date"].strip()
            fmt = "%Y/%m/%d %H:%M:%S" if text.count(":") == 2 else "%Y/%m/%d %H:%M"
            stamps.append(_dt.datetime.strptime(text, fmt))
            temps.append(float(row["temp"]))
    start = min(stamps).replace(hour=0, minute=0, second=0)
    hours = np.array([int((s - start).total_seconds() // 3600) for s in stamps])
    n_days = int(hours.max() // 24 + 1)
    full = np.arange(n_days * 24)
    order = np.argsort(hours)
    values = np.interp(full, hours[order], np.asarray(temps)[order])
    return values.reshape(n_days, 24)


def monthly_returns(symbols: tuple[str, ...] | None = None) -> tuple[list[str], np.ndarray]:
    """Symbols and months × symbols matrix of monthly returns (percent) over the common history."""
    path = vega_data_path("stocks.csv")
    series: dict[str, dict[_dt.date, float]] = {}
    with open(path, newline="") as fh:
        for row in csv.DictReader(fh):
            date = _dt.datetime.strptime(row["date"].strip(), "%b %d %Y").date()
            series.setdefault(row["symbol"], {})[date] = float(row["price"])
    if symbols is None:
        longest = max(len(s) for s in series.values())
        names = sorted(k for k, s in series.items() if len(s) == longest)
    else:
        names = [check_choice("symbol", s, tuple(sorted(series))) for s in symbols]
    dates = sorted(set.intersection(*(set(series[s]) for s in names)))
    prices = np.array([[series[s][d] for s in names] for d in dates])
    return names, 100.0 * (prices[1:] / prices[:-1] - 1.0)


class _TableEnv(Environment):
    """Rows of a rounds × arms table as ``f_1, f_2, ...`` with an empirical-covariance kernel."""

    def __init__(self, table: np.ndarray, train_fraction: float, noise_fraction: float, centre: str = "grand") -> None:
        super().__init__()
        self.centre = check_choice("centre", centre, ("grand", "arm"))
        self.train_fraction = check_open_interval("train_fraction", train_fraction, 0.0, 1.0)
        self.noise_fraction = check_positive("noise_fraction", noise_fraction)
        n_train = max(2, int(round(train_fraction * table.shape[0])))
        if n_train >= table.shape[0]:
            raise ValueError(f"train_fraction={train_fraction!r} leaves no test rounds")
        train, test = table[:n_train], table[n_train:]
        self.kernel = GramKernel(np.cov(train, rowvar=False))
        offset = train.mean() if centre == "grand" else train.mean(axis=0)
        self.offset = float(np.mean(offset))
        self.table = test - offset
        self.grid = np.arange(table.shape[1], dtype=float)[:, None]
        self.noise_var = self.noise_fraction * float(np.mean(np.diag(self.kernel.C)))
        self.max_rounds = test.shape[0]

    def _draw(self, rng: np.random.Generator) -> None:
        if self.horizon > self.max_rounds:
            raise ValueError(f"T must be <= {self.max_rounds} (test rounds of {self.name}), got {self.horizon}")

    def _values(self) -> np.ndarray:
        return self.table[self.step - 1]

    def _params(self) -> dict[str, Any]:
        return {"train_fraction": self.train_fraction, "noise_fraction": self.noise_fraction, "centre": self.centre,
                "max_rounds": int(self.max_rounds), "offset": self.offset}


class HourlyTemperature(_TableEnv):
    """Arm = hour of day, round = day (``seattle-temps`` or ``sf-temps``; 365 days of 2010)."""

    paper = "tvgpucb"

    def __init__(self, *, dataset: str = "seattle-temps", train_fraction: float = 0.3,
                 noise_fraction: float = 0.05, centre: str = "grand") -> None:
        self.dataset = check_choice("dataset", dataset, ("seattle-temps", "sf-temps"))
        self.name = dataset
        super().__init__(hourly_matrix(dataset), train_fraction, noise_fraction, centre)

    def _params(self) -> dict[str, Any]:
        return {"dataset": self.dataset, **super()._params()}


class MonthlyStocks(_TableEnv):
    """Arm = stock symbol, round = month, reward = monthly return in percent (``wgpucb`` §4 analogue)."""

    name = "stocks"
    paper = "wgpucb"

    def __init__(self, *, train_fraction: float = 0.4, noise_fraction: float = 0.05,
                 symbols: tuple[str, ...] | None = None, centre: str = "grand") -> None:
        self.symbols, table = monthly_returns(symbols)
        super().__init__(table, train_fraction, noise_fraction, centre)

    def _params(self) -> dict[str, Any]:
        return {"symbols": list(self.symbols), **super()._params()}
