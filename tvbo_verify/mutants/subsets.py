"""Named short runs of the harness: a few mutants, each tried only on the cheap claims named for it.

``tvbo-verify mutants --subset ci`` runs :data:`SUBSETS["ci"] <SUBSETS>`: one mutant per layer that a
claim of a few seconds kills, and policy mutants that claims decided from runs kill (a policy mutant
killed by a structural claim goes on to the run-based claim named for it, as in the whole run), so that
every part of the harness (application, worker processes, fresh run caches, the profile of each
claim, the pass rule, the kill decision) runs in continuous integration within minutes. The named
claims only restrict the candidates: a named claim still runs only when its unmutated verdict is
accepted and it executes the mutated function, and the mutant is killed only when its verdict under
the mutant is not accepted — a subset cannot make a kill that the whole run would not make.
"""

from __future__ import annotations

from typing import Mapping

from ..validation import check_choice

#: subset name -> {mutant name: the claims that may kill it}
SUBSETS: Mapping[str, Mapping[str, tuple[str, ...]]] = {
    "ci": {
        "kernel-lengthscale-squared": ("wsparq:assumption-1",),
        "information-gain-half-dropped": ("tvgpucb:eq-26",),
        "kl-log-det-missing": ("sparq:eq-51",),
        "window-length-off-by-one": ("wsparq:algorithm-2",),
        "tvgpucb-forgetting-dropped": ("tvgpucb:algorithm-2", "tvgpucb:eq-29"),
        "greedy-ucb": ("sparq:algorithm-1", "sparq:sparse-variance-ratio"),
        "bolt-cap-ignored": ("bolt:figure-2",),
    },
}


def subset(name: str) -> Mapping[str, tuple[str, ...]]:
    """The subset ``name`` (``ValueError`` naming the known subsets otherwise)."""
    return SUBSETS[check_choice("subset", name, tuple(SUBSETS))]
