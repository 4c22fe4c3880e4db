"""The public authoring API of paper plugins: its names are a deliberate list, the essential ones are each
shown in the module's doctest walk-through, and the walk-through runs."""

from __future__ import annotations

import re
import subprocess
import sys

import tvbo_verify.authoring as authoring

#: the names a paper plugin may rely on; adding or removing one is a change of the public API
ESSENTIALS = {
    "Paper", "register_paper",
    "claim", "Context", "Evidence", "Verdict", "run_claim",
    "Statement", "Comparison", "exact_evidence",
    "RateMeasurement", "rate_evidence",
    "Trials", "probabilistic_evidence",
    "Property", "properties_evidence", "ingredient_evidence",
    "Arm", "Sweep", "run_sweep", "RunCache",
    "Policy", "Problem", "BetaRule", "constant_beta", "register_policy", "make_policy",
    "Environment", "GramKernel", "register_environment", "make_env",
    "Reproduction", "Finding", "register_reproduction",
}
ADVANCED = {
    "Params", "Power", "Control", "combine", "affine_score", "anytime_trials", "comparison_control",
    "ratio_bound_power",
    "ordering_property", "tracking_text", "rate_horizons", "sequential_rate_evidence", "claim_power",
    "rate_power", "rate_resolution", "decide_rate", "loglog_slope", "bootstrap_slope_ci", "polylog_allowance",
    "run_audited_sweep", "PlayedRun", "play_recorded", "play_audited", "audit_played_runs",
    "RunAuditFailure",
    "SweepResult", "bootstrap_mean_ci", "single_threaded_blas", "to_jsonable", "FIDELITIES",
    "pick",
    "experiment_evidence", "sensitivity_evidence", "reproduction_outcome", "on_analogue_data", "unshipped_data",
    "get_reproduction", "FreeConstant", "UnfairSetting", "MEMORY_SCALES", "memory_constant", "set_param", "set_bound",
    "set_env_param", "set_noise_variance", "set_width_constant", "Part", "ordering_part", "ratio_part",
    "slope_part", "all_of", "any_of", "SequentialPart", "compare", "final_table", "ordering", "within_run_slope",
    "FIGURE_WIDTH", "Overlay", "one_line", "panel_figure", "regret_axes", "regret_figure",
    "BoundCurve", "Horizon", "non_vacuity_horizon", "earliest_horizon", "horizon_figure", "cost_to_reach",
    "horizon_record",
    "SampleRange", "sample_range", "searched_instance_evidence", "with_horizon",
}
API = ESSENTIALS | ADVANCED


def test_all_is_exactly_the_authoring_api_and_every_name_is_documented():
    assert set(authoring.__all__) == API and len(authoring.__all__) == len(API)
    for name in authoring.__all__:
        obj = getattr(authoring, name)
        if callable(obj):
            assert (obj.__doc__ or "").strip(), f"{name} has no docstring"


def test_every_name_appears_in_an_example_of_the_walk_through():
    examples = "\n".join(line for line in authoring.__doc__.splitlines()
                         if line.lstrip().startswith((">>>", "...")))
    missing = sorted(n for n in ESSENTIALS if not re.search(rf"\b{re.escape(n)}\b", examples))
    assert not missing, f"not used in any doctest example: {missing}"


def test_the_doctests_of_the_authoring_api_and_of_the_paper_registry_pass():
    code = ("import doctest, tvbo_verify.authoring as a, tvbo_verify.papers as p\n"
            "r = [doctest.testmod(m, optionflags=doctest.ELLIPSIS) for m in (a, p)]\n"
            "print(sum(x.failed for x in r), sum(x.attempted for x in r))\n")
    # a fresh process: the walk-through registers a paper, a policy and an environment of its own
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    failed, attempted = map(int, done.stdout.split()[-2:])
    assert failed == 0 and attempted >= 50, done.stdout[-4000:]
