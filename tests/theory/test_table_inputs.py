"""The calculators' tables refuse bad input with a message naming the argument as the function spells it."""

from __future__ import annotations

import pytest

from tvbo_verify.theory.gamma_table import gamma_table
from tvbo_verify.theory.lower_bound_tables import tvgpucb_genie_table, wsparq_lower_bound_table
from tvbo_verify.theory.regret_table import trivial_regret_bound
from tvbo_verify.theory.schedules import wgpucb_discount


@pytest.mark.parametrize("call, message", [
    (lambda: gamma_table("rbf", 100), r"^kernel must be one of \{se, matern\}, got rbf$"),
    (lambda: tvgpucb_genie_table(0.01, 100, samples=1), r"^samples must be 0 \(no genie\) or >= 2"),
    (lambda: wsparq_lower_bound_table(cells=4), r"^cells needs bump_gamma "),
    (lambda: trivial_regret_bound("nope", 100), r"^paper must be one of .*wsparq.*bolt.*, got nope$"),
    (lambda: trivial_regret_bound("sparq", 0), r"^horizon must be an integer >= 1, got 0$"),
    (lambda: wgpucb_discount(2, 1e-3), r"^the discount 1 - gamma_dot\^\(-1/4\) T\^\(-1/2\) = -2\.97635 is outside"),
])
def test_a_refused_input_is_named_as_the_function_spells_it(call, message):
    with pytest.raises(ValueError, match=message):
        call()
