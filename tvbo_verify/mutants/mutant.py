"""A mutant: one named, plausible bug, described as a patch applied at run time (never to a file).

Two kinds of patch (:mod:`tvbo_verify.mutants.apply` applies both):

* :class:`Rewrite` — the source of the target function is read (:func:`inspect.getsource`), one
  exact fragment of it is replaced, and the edited function is compiled in the target module's
  namespace and bound in place of the original. A fragment that no longer occurs exactly ``count``
  times makes the mutant fail to apply (reported "not applied"), so the catalog cannot rot silently
  when the code changes.
* :class:`Wrap` — ``factory(original)`` returns the replacement (e.g. a function that halves the
  original's result).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ..validation import check_choice

#: Where a mutant lives (docs/ARCHITECTURE.md §2, split by topic for the kill matrix).
LAYERS: tuple[str, ...] = ("kernels", "gp", "information", "confidence", "schedules", "dpp", "divergences", "nstar",
                           "policy", "environment", "runner")


@dataclass(frozen=True)
class Rewrite:
    """Replace ``old`` by ``new`` in the source of the target (``old`` must occur exactly ``count`` times)."""

    old: str
    new: str
    count: int = 1

    def describe(self) -> str:
        return f"source: {self.old!r} -> {self.new!r}"


@dataclass(frozen=True)
class Wrap:
    """``factory(original) -> replacement``; ``factory`` is a module-level function of the catalog."""

    factory: Callable[[Any], Any]

    def describe(self) -> str:
        return f"wrapped by {self.factory.__name__}"


@dataclass(frozen=True)
class Mutant:
    """A named bug: ``target`` is ``"module:qualname"`` (e.g. ``tvbo_verify.gp:IncrementalPosterior.append``).

    ``policy`` names the algorithm family (``tvbo-verify run-list``) a policy mutant breaks;
    ``equivalent`` holds the written argument that the mutant is harmless for every statement
    (empty for an ordinary mutant), which a unit test then demonstrates.
    """

    name: str
    target: str
    layer: str
    description: str
    patch: Rewrite | Wrap
    policy: str | None = None
    equivalent: str = ""

    def __post_init__(self) -> None:
        check_choice("layer", self.layer, LAYERS)
        module, sep, qualname = self.target.partition(":")
        if not sep or not module.startswith("tvbo_verify") or not qualname:
            raise ValueError(f"target must look like 'tvbo_verify.module:qualname', got {self.target!r}")
        if (self.layer == "policy") != (self.policy is not None):
            raise ValueError(f"mutant {self.name}: policy must be given exactly for the policy layer")

    @property
    def module(self) -> str:
        return self.target.partition(":")[0]

    @property
    def qualname(self) -> str:
        return self.target.partition(":")[2]

    @property
    def is_equivalent(self) -> bool:
        return bool(self.equivalent)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "target": self.target, "layer": self.layer, "policy": self.policy,
                "description": self.description, "patch": self.patch.describe(),
                "equivalent": self.equivalent or None}
