"""The API reference a plugin author reads is complete and true.

* Every name ``tvbo_verify.authoring`` exports has a numpydoc docstring (Parameters, Returns where it returns
  something, Examples) whose examples run here, under README's test command, and appears on the API page of
  the built documentation (``docs/api/authoring.rst``; built by ``.ci/run`` with Sphinx, warnings as errors).
* Every β rule kind, built-in algorithm and built-in environment is in the tables that ``docs/tables.py``
  generates from the registries: a kind added to ``tvbo_verify.bandits.beta.KINDS`` without its entry in
  ``RULES``, or an environment registered without its reference in ``docs/tables.py``, fails here.
"""

from __future__ import annotations

import doctest
import importlib.util
import inspect
import re
from pathlib import Path

import pytest

import tvbo_verify.authoring as authoring
from tvbo_verify.bandits import beta as beta_rules
from tvbo_verify.bandits.registry import ALGORITHMS, ENVIRONMENTS

DOCS = Path(__file__).resolve().parents[1] / "docs"
#: exported names that are values, not callables: documented on the API page itself
DATA = {"FIDELITIES", "MEMORY_SCALES", "FIGURE_WIDTH", "Params"}
#: exported names whose docstrings are still being brought to the numpydoc form (Parameters, Returns, Examples):
#: the list only shrinks; a name documented in full must leave it (a test below says so)
NOT_YET_NUMPYDOC = {
    "BoundCurve", "FreeConstant", "Horizon", "Overlay", "Part", "Reproduction", "SequentialPart",
    "affine_score", "all_of", "any_of", "bootstrap_slope_ci", "claim_power", "combine", "compare",
    "comparison_control", "cost_to_reach", "decide_rate", "earliest_horizon", "experiment_evidence",
    "final_table", "get_reproduction", "horizon_figure", "loglog_slope", "memory_constant",
    "non_vacuity_horizon", "on_analogue_data", "one_line", "ordering", "ordering_part", "ordering_property",
    "panel_figure", "polylog_allowance", "rate_horizons", "rate_power", "rate_resolution", "ratio_bound_power",
    "ratio_part", "regret_axes", "regret_figure", "reproduction_outcome", "sensitivity_evidence",
    "sequential_rate_evidence", "set_bound", "set_env_param", "set_noise_variance", "set_param",
    "set_width_constant", "single_threaded_blas", "slope_part", "tracking_text", "unshipped_data",
    "within_run_slope"
}


def _tables():
    spec = importlib.util.spec_from_file_location("docs_tables", DOCS / "tables.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _builtin(registry):
    return {n for n, f in registry.items() if (f.__module__ or "").startswith("tvbo_verify.")}


# ------------------------------------------------------------------------------------------- the tables


def test_every_beta_rule_kind_has_its_parameters_and_reference():
    assert list(beta_rules.RULES) == list(beta_rules.KINDS), "RULES must list every kind of KINDS, in order"
    for kind, info in beta_rules.RULES.items():
        assert info.formula and info.convention in ("sqrt", "multiplies_sigma", "as given"), kind
        # a rule of a paper of this package cites its reading; one of another paper names the paper and its year
        assert kind == "constant" or re.search(r"READING\.md §|\(\d{4}\)", info.reference), f"{kind}: cite it"
        assert callable(getattr(beta_rules, info.constructor)), f"{kind}: no function {info.constructor}"
        assert set(info.together) <= set(info.optional), kind


def test_every_constructor_builds_the_kind_it_is_listed_for():
    built = {"constant": beta_rules.constant(1.0), "log": beta_rules.log_rule(),
             "finite-domain": beta_rules.finite_domain(), "tvgpucb": beta_rules.tvgpucb_theory(),
             "rgpucb": beta_rules.tvgpucb_theory(reset=True), "kk": beta_rules.kirschner_krause(B=1.0),
             "wgpucb": beta_rules.wgpucb_theory(B=1.0, R=1.0, lam=1.0, discount=0.9),
             "wdbo": beta_rules.wdbo_practical(), "bolt": beta_rules.bolt_theory(L=1.0),
             "igp-ucb": beta_rules.igpucb_theory(B=1.0, R=0.1)}
    assert set(built) == set(beta_rules.KINDS)
    for kind, rule in built.items():
        assert rule.kind == kind and beta_rules.RULES[kind].constructor in (
            "constant", "log_rule", "finite_domain", "tvgpucb_theory", "kirschner_krause", "wgpucb_theory",
            "wdbo_practical", "bolt_theory", "igpucb_theory")
        assert set(rule.params) <= set(beta_rules.RULES[kind].names)


def test_every_builtin_environment_has_a_reference():
    references = _tables().ENVIRONMENT_REFERENCES
    missing = sorted(_builtin(ENVIRONMENTS) - set(references))
    stale = sorted(set(references) - _builtin(ENVIRONMENTS))
    assert not missing, f"environments without a reference in docs/tables.py: {missing}"
    assert not stale, f"references of environments that are not registered: {stale}"


def test_the_generated_tables_list_every_kind_algorithm_and_environment():
    tables = _tables()
    rules, algorithms, environments = tables.beta_rules_rst(), tables.algorithms_rst(), tables.environments_rst()
    for kind in beta_rules.KINDS:
        assert f"* - ``{kind}``" in rules
    for name in _builtin(ALGORITHMS):
        assert f"* - ``{name}``" in algorithms
    for name in _builtin(ENVIRONMENTS):
        assert f"* - ``{name}``" in environments


def test_the_default_beta_of_gp_ucb_is_stated():
    assert _tables().default_beta("gp-ucb") == "``log`` (c1=0.8, c2=4.0, clip=True; ``sqrt``)"
    assert "replaced at reset by ``wgpucb``" in _tables().default_beta("wgp-ucb")


# ------------------------------------------------------------------------------------- the docstrings


def _callables():
    return [n for n in authoring.__all__ if n not in DATA]


def _has_parameters(obj) -> bool:
    target = obj
    try:
        sig = inspect.signature(target)
    except (TypeError, ValueError):
        return False
    return any(p.name not in ("self", "cls") for p in sig.parameters.values())


def _returns(obj) -> bool:
    if inspect.isclass(obj):
        return False
    ret = inspect.signature(obj).return_annotation
    return ret not in (inspect.Signature.empty, None, "None")


def _numpydoc_gaps(name):
    obj = getattr(authoring, name)
    doc = inspect.getdoc(obj) or ""
    sections = set(re.findall(r"^(\w[\w ]*)\n-{3,}$", doc, flags=re.MULTILINE))
    gaps = []
    if _has_parameters(obj) and not sections & {"Parameters", "Attributes"}:
        gaps.append("Parameters")
    if _returns(obj) and not sections & {"Returns", "Yields"}:
        gaps.append("Returns")
    if "Examples" not in sections or ">>>" not in doc:
        gaps.append("Examples")
    return gaps


def test_the_list_of_names_not_yet_in_numpydoc_form_only_shrinks():
    done = sorted(n for n in NOT_YET_NUMPYDOC if not _numpydoc_gaps(n))
    assert not done, f"documented in full: remove {done} from NOT_YET_NUMPYDOC"
    assert NOT_YET_NUMPYDOC <= set(authoring.__all__)


@pytest.mark.parametrize("name", sorted(set(_callables()) - NOT_YET_NUMPYDOC))
def test_every_exported_callable_has_a_numpydoc_docstring(name):
    obj = getattr(authoring, name)
    doc = inspect.getdoc(obj) or ""
    sections = set(re.findall(r"^(\w[\w ]*)\n-{3,}$", doc, flags=re.MULTILINE))
    if _has_parameters(obj):
        assert "Parameters" in sections or "Attributes" in sections, f"{name}: no Parameters section"
    if _returns(obj):
        assert "Returns" in sections or "Yields" in sections, f"{name}: no Returns section"
    assert "Examples" in sections and ">>>" in doc, f"{name}: no Examples section with an example"


@pytest.mark.parametrize("name", sorted(set(_callables()) - NOT_YET_NUMPYDOC))
def test_the_examples_of_every_exported_callable_run(name):
    obj = getattr(authoring, name)
    finder = doctest.DocTestFinder(recurse=False)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    module = inspect.getmodule(obj)
    tests = [t for t in finder.find(obj, name, module=module, globs=dict(vars(module))) if t.examples]
    assert tests, f"{name}: no example"
    for test in tests:
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed"


def test_the_api_page_documents_every_exported_name():
    page = (DOCS / "api" / "authoring.rst").read_text(encoding="utf-8")
    shown = set(re.findall(r"^\.\. (?:autoclass|autofunction|py:data):: (\w+)", page, flags=re.MULTILINE))
    assert shown == set(authoring.__all__), f"missing: {sorted(set(authoring.__all__) - shown)}"
