"""The mutation harness finds the claims of a plugin paper through the paper registry: a check of another
package that reaches the mutated code is a candidate like the checks of the built-in papers."""

from __future__ import annotations

from tvbo_verify.mutants.analysis import selected_claims
from tvbo_verify.mutants.catalog import get_mutant
from tvbo_verify.mutants.symbols import candidate_claims

from .demo import PAPER_ID

RATE_CLAIM, EXACT_CLAIM = f"{PAPER_ID}:fixed-arm-rate", f"{PAPER_ID}:square"


def test_a_plugin_papers_claims_are_candidates_linked_by_the_code_they_use(demo_paper):
    claims = selected_claims(papers=[PAPER_ID])
    assert claims[RATE_CLAIM] == ("demo_plugin.checks", "fixed_arm_rate")
    found = candidate_claims(get_mutant("regret-from-noisy-observation").target, claims)
    # the rate check runs a sweep: the symbol graph links it through the authoring API to the runner ...
    assert found[RATE_CLAIM][0] == 0
    # ... while the exact check only shares its module's imports with it
    assert found[EXACT_CLAIM][0] == 1
