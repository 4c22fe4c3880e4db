"""Each policy against its written definition (tvbo_verify.bandits.definitions): the policies reproduce it, and a
policy bug (a catalog mutant applied at run time) makes the audit report the first round that differs."""

from __future__ import annotations

import numpy as np
import pytest

from tvbo_verify.bandits.beta import kirschner_krause, log_rule
from tvbo_verify.bandits.definitions import DEFINITIONS, audit, exact_posterior, injected_noise, log_det_ratio
from tvbo_verify.bandits.registry import make_env, make_policy
from tvbo_verify.mutants.apply import applied
from tvbo_verify.mutants.catalog import get_mutant
from tvbo_verify.sweeps import Arm, Sweep
from tvbo_verify.sweeps.audit import audit_methods, audit_summary

GRID_ENV = ("tvgpucb-markov", {"points_per_dim": 60, "d": 1})
ST_ENV = ("bolt-st", {})

#: one configuration per algorithm family, on an environment where its rule acts within 40 rounds
CASES = {
    "gp-ucb": ({}, log_rule(), GRID_ENV),
    "greedy": ({}, None, GRID_ENV),
    "r-gp-ucb": ({"block": 7}, log_rule(), GRID_ENV),
    "tv-gp-ucb": ({"epsilon": 0.05}, log_rule(), GRID_ENV),
    "et-gp-ucb": ({}, log_rule(), GRID_ENV),
    "sw-gp-ucb": ({"window": 8}, log_rule(), GRID_ENV),
    "wgp-ucb": ({"discount": 0.9}, None, GRID_ENV),
    "hetero-gp-ucb": ({"alpha": 1.0}, None, GRID_ENV),
    "sparq-gp-ucb": ({}, None, GRID_ENV),
    "w-sparq-gp-ucb": ({}, None, GRID_ENV),
    "fifo-gp-ucb": ({"size": 8}, None, ST_ENV),
    "bolt": ({}, None, ST_ENV),
    "w-dbo": ({}, None, ST_ENV),
}
UI_GP_UCB = ({"ui_alpha": 1.0}, kirschner_krause(B=1.0), GRID_ENV)


def _audit(name: str, case: tuple, rounds: int = 40):
    params, beta, (env, env_params) = case
    return audit(make_policy(name, params, beta), make_env(env, env_params), 100, rounds, np.random.default_rng(0))


def test_every_definition_has_a_case():
    assert set(CASES) == set(DEFINITIONS)


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_policy_reproduces_its_definition(name):
    result = _audit(name, CASES[name])
    assert result.audited and result.reproduces, result.text()
    # at least the rounds asked; an event-triggered method until its first resets (or the horizon)
    assert result.rounds == 40 or (name == "et-gp-ucb" and result.rounds > 40)


def test_gp_ucb_under_uncertainty_injection_reproduces_its_definition():
    assert _audit("gp-ucb", UI_GP_UCB).reproduces


@pytest.mark.parametrize("mutant, case", [
    ("swgpucb-window-off-by-one", "sw-gp-ucb"), ("swgpucb-drops-newest", "sw-gp-ucb"),
    ("hetero-ui-exponent-halved", "hetero-gp-ucb"), ("hetero-log-det-half", "hetero-gp-ucb"),
    ("wsparq-ui-exponent-halved", "w-sparq-gp-ucb"), ("wdbo-budget-not-consumed", "w-dbo"),
    ("wdbo-removes-most-relevant", "w-dbo"), ("fifo-size-off-by-one", "fifo-gp-ucb"),
    ("etgpucb-trigger-without-noise", "et-gp-ucb"), ("greedy-control-explores", "greedy"),
    ("greedy-control-default-width", "greedy"), ("tvgpucb-epsilon-squared", "tv-gp-ucb"),
    ("rgpucb-reset-off-by-one", "r-gp-ucb"), ("bolt-removes-most-relevant", "bolt"),
    ("gpucb-beta-frozen", "gp-ucb"),
])
def test_a_policy_bug_is_reported_at_its_first_divergence(mutant, case):
    with applied(get_mutant(mutant)):
        result = _audit(case, CASES[case])
    assert result.audited and not result.reproduces
    assert 1 <= result.first_divergence <= 40
    assert "does not implement its definition: first divergence at round" in result.text()


def test_the_injection_exponent_of_gp_ucb_is_audited():
    with applied(get_mutant("gpucb-ui-exponent-halved")):
        assert not _audit("gp-ucb", UI_GP_UCB).reproduces


def test_policies_without_a_model_are_reported_not_audited():
    result = audit(make_policy("random"), make_env(*GRID_ENV), 50, 10, np.random.default_rng(0))
    assert not result.audited and not result.reproduces and "keeps no model" in result.text()


def test_the_reference_posterior_and_noise_are_the_textbook_ones():
    rng = np.random.default_rng(1)
    X = rng.uniform(size=(5, 1))
    K = np.exp(-0.5 * (X - X.T) ** 2 / 0.04)
    y, noise = rng.normal(size=5), np.full(5, 0.1)
    mean, var = exact_posterior(K, K, np.ones(5), y, noise)
    full = K + np.diag(noise)
    np.testing.assert_allclose(mean, K @ np.linalg.solve(full, y), rtol=1e-10)
    np.testing.assert_allclose(var, 1.0 - np.einsum("ij,ij->j", K, np.linalg.solve(full, K)), atol=1e-12)
    assert log_det_ratio(K, noise) == pytest.approx(np.linalg.slogdet(full)[1] - np.sum(np.log(noise)))
    np.testing.assert_allclose(injected_noise(2.0, np.array([-1.0, 0.0, 4.0]), 0.5), [2.0, 2.0, 6.0])


def test_a_sweep_audits_each_distinct_method_once_and_names_the_unaudited():
    env, env_params = GRID_ENV
    arms = (Arm("SW", "sw-gp-ucb", {"window": 8}, log_rule()), Arm("random", "random"))
    sweeps = [Sweep("a", arms, env, (30,), 2, env_params), Sweep("b", arms, env, (40,), 2, env_params)]
    audits = audit_methods(sweeps, rounds=20)
    assert [(a.arm, a.sweep) for a in audits] == [("SW", "a"), ("random", "a")]
    assert audit_summary(audits).startswith("definition audit: 1/1 methods reproduce their definition")
    assert "random, keeps no model" in audit_summary(audits)


def test_claim_runs_of_a_method_that_differs_from_its_definition_are_refused(tmp_path):
    from tvbo_verify.sweeps.audit import DefinitionMismatch, run_audited_sweep
    from tvbo_verify.sweeps.cache import RunCache

    env, env_params = GRID_ENV
    sweep = Sweep("hetero", (Arm("GP-UCB (α = 1)", "hetero-gp-ucb", {"alpha": 1.0}),), env, (30,), 1, env_params)
    assert len(run_audited_sweep(sweep, cache=RunCache(tmp_path / "a")).runs("GP-UCB (α = 1)")) == 1
    with applied(get_mutant("hetero-ui-exponent-halved")), pytest.raises(DefinitionMismatch, match="first divergence"):
        run_audited_sweep(sweep, cache=RunCache(tmp_path / "b"))


def test_require_definition_refuses_a_gp_ucb_whose_injection_exponent_is_halved():
    from tvbo_verify.bandits.definitions import DefinitionMismatch, require_definition

    params, beta, (env, env_params) = UI_GP_UCB
    policy, environment = make_policy("gp-ucb", params, beta), make_env(env, env_params)
    assert require_definition(policy, environment, 60, 0, rounds=30).reproduces
    with applied(get_mutant("gpucb-ui-exponent-halved")), pytest.raises(DefinitionMismatch, match="gp-ucb"):
        require_definition(policy, environment, 60, 0, rounds=30)


def test_resampled_data_are_audited_on_the_posterior_width_and_the_beta():
    O1 = ({"alpha": 1.0, "generator": "O1"}, kirschner_krause(B=1.0), ("rkhs-random-walk", {"grid_points": 51}))
    result = _audit("hetero-gp-ucb", O1)
    assert result.audited and result.reproduces, result.text()
    with applied(get_mutant("hetero-ui-exponent-halved")):
        assert "posterior the policy ranks by differs" in _audit("hetero-gp-ucb", O1).reason
    with applied(get_mutant("hetero-log-det-half")):
        assert "the policy ranked with β_t" in _audit("hetero-gp-ucb", O1).reason


def test_the_audit_replays_an_event_triggered_method_to_its_first_resets(monkeypatch):
    """A bug that first acts at ET-GP-UCB's first reset (here round 101 of an abrupt scenario) passes an audit of
    the first 50 rounds; the audit replays until the method's first resets and sees it."""
    from tvbo_verify.bandits import definitions as D
    from tvbo_verify.bandits.registry import make_env, make_policy
    from tvbo_verify.mutants.apply import applied
    from tvbo_verify.mutants.catalog import get_mutant

    def audited(cap: int):
        monkeypatch.setattr(D, "MAX_AUDIT_ROUNDS", cap)
        policy = make_policy("et-gp-ucb", {})
        return D.audit(policy, make_env("wgpucb-abrupt", {"switches": 2}), 300, 50, np.random.default_rng(1))

    assert audited(400).reproduces  # the method itself reproduces its definition through its resets
    with applied(get_mutant("etgpucb-reset-drops-its-observation")):
        assert audited(50).reproduces  # too short: no reset within 50 rounds
        late = audited(400)
        assert not late.reproduces and late.first_divergence > 100


def test_the_audit_replays_two_blocks_of_a_restarting_method():
    from tvbo_verify.bandits.definitions import DEFINITIONS, audit_rounds
    from tvbo_verify.bandits.policy import Problem
    from tvbo_verify.bandits.registry import make_policy
    from tvbo_verify.kernels import SquaredExponential

    policy = make_policy("r-gp-ucb", {"block": 80})
    policy.reset(Problem(np.linspace(0, 1, 5)[:, None], SquaredExponential(1.0, 0.2), 0.01, horizon=1000),
                 np.random.default_rng(0), None)
    assert audit_rounds(DEFINITIONS["r-gp-ucb"](policy), 50, 1000) == 162
    assert audit_rounds(DEFINITIONS["r-gp-ucb"](policy), 50, 100) == 100


@pytest.mark.parametrize("name, params", [("sw-gp-ucb", {"window": "theory"}), ("r-gp-ucb", {"block": "theory"}),
                                          ("wgp-ucb", {"discount": "theory"})])
def test_a_memory_set_by_theory_is_derived_again_by_the_definition(monkeypatch, name, params):
    """The definition derives the order-wise window, block or discount itself (Corollary 5 written out): a slip
    in the policies' tuning (γ̇_T = log^d T instead of log^{d+1} T) no longer passes on both sides."""
    from tvbo_verify.bandits import tuning
    from tvbo_verify.bandits.definitions import order_wise_memory

    def audited():
        return audit(make_policy(name, params), make_env("wgpucb-abrupt", {}), 200, 20, np.random.default_rng(0))

    assert audited().reproduces
    assert order_wise_memory(200, 1, None, 1.0) == (pytest.approx(tuning.order_wise(200, 1).discount),
                                                    tuning.order_wise(200, 1).window)
    monkeypatch.setattr(tuning, "gamma_dot_prior", lambda horizon, d: np.log(horizon) ** d)
    broken = audited()
    assert not broken.reproduces and "set order-wise by theory" in broken.reason


@pytest.mark.parametrize("name, params, paper, algorithm", [
    ("sparq-gp-ucb", {"queries": "experiments"}, "sparq", "Algorithm 1 (expert answers and the recent observations"),
    ("sparq-gp-ucb", {"queries": "log", "keep_recent": False}, "wsparq", "Algorithm 1 (expert answers only"),
    ("w-sparq-gp-ucb", {"queries": "log"}, "wsparq", "Algorithm 2 (windows of eq. (32)"),
    ("sparq-gp-ucb", {"queries": "experiments", "keep_recent": False}, None, "sparq §4's count"),
    ("w-sparq-gp-ucb", {"queries": "experiments"}, None, "not Q_{t_j} of the window start"),
    ("wgp-ucb", {"discount": 0.9}, "wgpucb", "Algorithm 1"),
    ("r-gp-ucb", {"block": 7}, "tvgpucb", "Algorithm 1"),
])
def test_the_audit_names_the_paper_and_algorithm_it_replays(name, params, paper, algorithm):
    """SparQ-GP-UCB is two papers' algorithm: the sparq paper's Algorithm 1 (recent observations kept, ⌈6 log T⌉
    queries) and the wsparq paper's Algorithm 1 (expert answers only, Q_t a count of t); the audit says which one it
    replayed, and a mixture of the two is neither paper's."""
    beta = log_rule() if name == "r-gp-ucb" else None
    result = _audit(name, (params, beta, GRID_ENV), rounds=5)
    assert result.reproduces and result.paper == paper and algorithm in result.algorithm, result.text()
    assert result.to_dict()["paper"] == paper and result.to_dict()["algorithm"] == result.algorithm
    assert result.text().endswith(f"; replayed: {result.source}")
