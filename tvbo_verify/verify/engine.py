"""Running claim checks: the context handed to a check, timing, error capture, replay.

Run resources (the executor of repetitions, the run cache, the reproductions already measured) reach a
check through its :class:`Context` only, never through environment variables: ``run_claim(...,
cache=RunCache(None))`` reads and writes no run anywhere.
"""

from __future__ import annotations

import time
import traceback
import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..blas import single_threaded_blas
from ..budget import ClaimOverBudget, cpu_budget
from ..execution import Executor
from ..fidelity import check_fidelity
from ..jsonify import to_jsonable
from .claimlist import claim_row
from .comparison import CircularBoundError, Fixed
from .evidence import Evidence, Verdict
from .registry import ReplayResult, get
from .stats import DEFAULT_POLICY, TolerancePolicy

if TYPE_CHECKING:
    from ..sweeps.cache import RunCache
    from ..sweeps.reproduce import Outcome

#: reproductions measured for a report, by (reproduction id, fidelity, run seed)
Measured = dict[tuple[str, str, int], "Outcome"]



def default_cache() -> "RunCache":
    """The run cache at its default location (:func:`tvbo_verify.sweeps.cache.default_cache_dir`)."""
    from ..sweeps.cache import RunCache

    return RunCache()


def claim_seed(claim_id: str, run_seed: int) -> list[int]:
    """Stable seed entropy for a claim: CRC-32 of the id (not Python's salted ``hash``) and the run seed."""
    return [zlib.crc32(claim_id.encode("utf-8")), int(run_seed)]


@dataclass
class Context:
    """What a check receives: the fidelity, a generator seeded from the claim id, the executor, the float
    tolerance, the run cache and the reproductions measured so far.

    Build one only to try a builder by hand; :func:`run_claim`, ``tvbo-verify report`` and ``pytest`` build
    the context of every check.

    Parameters
    ----------
    claim_id : str
        The claim checked; with ``seed`` it seeds :attr:`rng`, :meth:`spawn` and :meth:`seeds`.
    fidelity : str
        ``"quick"`` or ``"full"`` (:data:`~tvbo_verify.authoring.FIDELITIES`); :meth:`pick` chooses sizes by it.
    seed : int
        The run seed (``--claim-seed``); a verdict must not move with it.
    executor : Executor
        Runs the check's repetitions (:meth:`map`) and sweeps (``executor=ctx.executor``).
    tolerance : TolerancePolicy
        The float tolerance of comparisons and the precision of the mpmath referee.
    cache : RunCache
        The run cache every sweep of the check reads and writes (``cache=ctx.cache``); ``RunCache(None)``
        keeps nothing.
    measured : Measured or None
        Reproductions measured so far, shared by the claims of one report (None: none kept).

    Examples
    --------
    >>> from tvbo_verify.authoring import Context, RunCache
    >>> ctx = Context("doc:example", fidelity="full", cache=RunCache(None))
    >>> ctx.pick(10, 1000)
    1000
    >>> a, b = ctx.spawn(2)
    >>> float(a.random()) != float(b.random())
    True
    >>> Context("doc:example", cache=RunCache(None)).rng.random() == Context(
    ...     "doc:example", cache=RunCache(None)).rng.random()  # the same claim, the same stream
    True
    """

    claim_id: str
    fidelity: str = "quick"
    seed: int = 0
    executor: Executor = field(default_factory=Executor)
    tolerance: TolerancePolicy = DEFAULT_POLICY
    cache: "RunCache" = field(default_factory=default_cache)
    measured: Measured | None = None

    def __post_init__(self) -> None:
        check_fidelity(self.fidelity)
        self.seed_sequence = np.random.SeedSequence(claim_seed(self.claim_id, self.seed))
        self._rng = np.random.default_rng(self.seed_sequence.spawn(1)[0])
        self._drawn: str | None = None  # what first handed out randomness or ran repetitions (None: nothing yet)

    @property
    def rng(self) -> np.random.Generator:
        """The claim's generator, seeded from the claim id and the run seed (reading it starts the measurement, see
        :meth:`fix`)."""
        self._started("ctx.rng")
        return self._rng

    def _started(self, what: str) -> None:
        if self._drawn is None:
            self._drawn = what

    def fix(self, **constants: Any) -> Fixed:
        """The constants of the statement a check compares its measurement with (η, δ, a level), fixed before
        the measurement: allowed only before the check has read :attr:`rng`, asked for :meth:`seeds` or
        :meth:`spawn`, or run :meth:`map`. A constant set from what was drawn (η set to an observed mean, a
        constant fitted to the same data) would make the bound read the measurement it is compared with, which
        cannot fail: :class:`~tvbo_verify.verify.comparison.CircularBoundError`. ``Trials.against`` and
        ``Property.against`` build their bounds from the returned :class:`~tvbo_verify.verify.comparison.Fixed`
        only (docs/ARCHITECTURE.md §6)."""
        if self._drawn is not None:
            raise CircularBoundError(
                f"{self.claim_id}: ctx.fix({', '.join(constants)}) after {self._drawn} started the measurement: the "
                "constants of a bound are fixed from the statement before anything is drawn, never from what was "
                "measured (docs/ARCHITECTURE.md §6)")
        return Fixed(constants, claim_id=self.claim_id)

    @property
    def quick(self) -> bool:
        return self.fidelity == "quick"

    @property
    def kind(self) -> str:
        """The claim's kind, from its paper's claim list in the paper registry."""
        return claim_row(self.claim_id).kind

    def pick(self, quick: Any, full: Any) -> Any:
        """``quick`` at quick fidelity, ``full`` otherwise.

        Parameters
        ----------
        quick, full : Any
            The values (sizes, repetitions, horizons) at each fidelity.

        Returns
        -------
        Any
            ``quick`` or ``full``.
        """
        return quick if self.quick else full

    def spawn(self, n: int) -> list[np.random.Generator]:
        """Independent generators for ``n`` repetitions, the same under every executor.

        Parameters
        ----------
        n : int
            The number of repetitions.

        Returns
        -------
        list of numpy.random.Generator
            One generator per repetition, spawned from the claim's seed sequence.
        """
        self._started("ctx.spawn")
        return [np.random.default_rng(s) for s in self.seed_sequence.spawn(n)]

    def seeds(self, n: int) -> list[np.random.SeedSequence]:
        """Independent seed sequences for ``n`` repetitions, to send to :meth:`map` (they are picklable).

        Parameters
        ----------
        n : int
            The number of repetitions.

        Returns
        -------
        list of numpy.random.SeedSequence
            One seed sequence per repetition.
        """
        self._started("ctx.seeds")
        return self.seed_sequence.spawn(n)

    def map(self, fn: Any, items: Any) -> list[Any]:
        """``[fn(item) for item in items]`` on the context's executor, in the order of ``items``.

        Parameters
        ----------
        fn : Callable
            A module-level (picklable) function.
        items : Iterable
            Its arguments, e.g. :meth:`seeds`.

        Returns
        -------
        list
            The results, in order.
        """
        self._started("ctx.map")
        return self.executor.map(fn, items)


def run_claim(
    claim_id: str,
    *,
    fidelity: str = "quick",
    seed: int = 0,
    executor: Executor | None = None,
    tolerance: TolerancePolicy = DEFAULT_POLICY,
    cache: "RunCache | None" = None,
    measured: Measured | None = None,
    cpu_budget_s: float | None = None,
) -> Evidence | None:
    """Run the check of a claim as ``tvbo-verify report`` and ``pytest`` do.

    A check that raises gives the verdict ``ERROR`` with the exception; a check past its CPU budget is
    stopped and gives ``ERROR``.

    Parameters
    ----------
    claim_id : str
        A claim of a registered paper.
    fidelity : str
        ``"quick"`` or ``"full"``.
    seed : int
        The run seed.
    executor : Executor or None
        Runs the check's repetitions; None: a serial executor, closed afterwards.
    tolerance : TolerancePolicy
        The float tolerance of comparisons.
    cache : RunCache or None
        The run cache; None: the cache at its default location (``RunCache(None)`` keeps nothing).
    measured : Measured or None
        The reproductions measured so far (:func:`reproduction_outcome`); None: none kept.
    cpu_budget_s : float or None
        The CPU seconds the check may use; None: no bound.

    Returns
    -------
    Evidence or None
        The evidence, or None when the claim has no check yet.

    Raises
    ------
    ValueError
        When ``claim_id`` is in no registered paper's claim list.

    Examples
    --------
    >>> from tvbo_verify.authoring import RunCache, run_claim
    >>> run_claim("doc:no-such-claim", cache=RunCache(None))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: ...'doc:no-such-claim'...

    The walk-through of :mod:`tvbo_verify.authoring` runs a claim of its own.
    """
    claim_row(claim_id)
    spec = get(claim_id)
    if spec is None:
        return None
    own = executor is None
    executor = executor or Executor()
    t0 = time.perf_counter()
    try:
        ctx = Context(claim_id, fidelity, seed, executor, tolerance, cache if cache is not None else default_cache(),
                      measured)
        with single_threaded_blas(), cpu_budget(cpu_budget_s):
            ev = spec.func(ctx)
        if not isinstance(ev, Evidence):
            raise TypeError(f"check of {claim_id} returned {type(ev).__name__}, not Evidence")
    except ClaimOverBudget as exc:  # an error, never a verdict
        ev = Evidence(Verdict.ERROR, f"the check {exc} at {fidelity} fidelity and was stopped "
                                     "(tvbo-verify report --claim-budget SECONDS sets the budget; 0: none)")
    except Exception as exc:  # a failing check is a result for that claim, not a crash of the run
        ev = Evidence(
            Verdict.ERROR,
            f"check raised {type(exc).__name__}: {exc}",
            stats={"traceback": traceback.format_exc(limit=8)},
        )
    finally:
        if own:
            executor.close()
    ev.seed = int(seed)
    ev.runtime_s = time.perf_counter() - t0
    if not ev.method:
        ev.method = spec.method
    return ev


def replay(claim_id: str, counterexample: dict[str, Any], *, executor: Executor | None = None,
           cache: "RunCache | None" = None) -> ReplayResult:
    """Re-evaluate a stored counterexample of ``claim_id`` (the ``counterexample`` of its results entry).

    An exact counterexample names its statement and instance: both sides are re-evaluated in float64
    and in mpmath. Any other kind carries a rerun record (fidelity and seed): the check is run again
    and must reproduce the violation and its statistic.
    """
    claim_row(claim_id)
    if not isinstance(counterexample, dict):
        raise ValueError("counterexample must be a JSON object")
    stored = counterexample.get("claim")
    if stored is not None and stored != claim_id:
        raise ValueError(f"counterexample belongs to {stored}, not {claim_id}")
    if get(claim_id) is None:
        raise ValueError(f"claim {claim_id} is not implemented, nothing to replay")
    if "statement" in counterexample:
        from .statement import lookup_statement

        statement = lookup_statement(str(counterexample["statement"]))
        instance = counterexample.get("instance")
        if not isinstance(instance, dict) or not instance:
            raise ValueError(f"the counterexample of {claim_id} names the statement {statement.name!r} but no "
                             "instance (the values of its variables) to evaluate it at")
        try:
            return statement.replay(instance)
        except KeyError as exc:
            raise ValueError(f"the instance of the counterexample of {claim_id} lacks the variable {exc.args[0]!r} "
                             f"of the statement {statement.name!r}") from None
    rerun = counterexample.get("rerun")
    if not isinstance(rerun, dict):
        raise ValueError(f"the counterexample of {claim_id} has neither a statement nor a rerun record")
    ev = run_claim(claim_id, fidelity=rerun.get("fidelity", "quick"), seed=int(rerun.get("seed", 0)),
                   executor=executor, cache=cache)
    assert ev is not None
    want = counterexample.get("statistic", {})
    got = (ev.counterexample or {}).get("statistic", {})
    same = to_jsonable(want) == to_jsonable(got)
    violated = ev.verdict is Verdict.VIOLATED and same
    detail = (f"rerun at fidelity {rerun.get('fidelity')} and seed {rerun.get('seed')}: {ev.verdict.value}; "
              f"statistic {'reproduced' if same else f'{got} instead of {want}'} — {ev.summary}")
    return ReplayResult(None, None, ev.margin, None, violated, detail)
