"""The run cache and sweep execution: content addressing, integrity, executors, resumption."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from tvbo_verify.bandits.beta import log_rule
from tvbo_verify.sweeps import Arm, RunCache, Sweep, paired_difference, run_sweep
from tvbo_verify.sweeps.cache import default_cache_dir

ENV = {"epsilon": 0.03, "points_per_dim": 15, "d": 1}


def _sweep(reps: int = 2, horizons=(10, 20)) -> Sweep:
    return Sweep("test", (Arm("tv", "tv-gp-ucb", {"epsilon": 0.03}), Arm("gp", "gp-ucb", beta=log_rule(0.8, 4.0))),
                 "tvgpucb-markov", tuple(horizons), reps, env_params=ENV)


def test_keys_depend_on_everything_that_determines_a_run():
    s = _sweep()
    base = s.spec("tv", 10, 0)
    assert base.key == s.spec("tv", 10, 0).key
    assert len({sp.key for sp in s.specs()}) == len(s.specs())
    other = Sweep("other name", s.arms, s.environment, s.horizons, s.reps, env_params=ENV)
    assert other.spec("tv", 10, 0).key == base.key  # the sweep's name is not part of a run
    changed = Sweep("x", (Arm("tv", "tv-gp-ucb", {"epsilon": 0.05}),), s.environment, (10,), 2, env_params=ENV)
    assert changed.spec("tv", 10, 0).key != base.key


def test_more_repetitions_reuse_the_runs_already_made(tmp_path):
    """A sequential design's next look (more repetitions of the same sweep) computes only the new runs, and
    the runs it shares with the smaller sweep are the same runs."""
    small, large = _sweep(reps=2, horizons=(10,)), _sweep(reps=4, horizons=(10,))
    assert small.spec("tv", 10, 1).key == large.spec("tv", 10, 1).key
    first = run_sweep(small, cache=RunCache(tmp_path))
    cache = RunCache(tmp_path)
    grown = run_sweep(large, cache=cache)
    assert cache.stats.hits == len(small.specs()) and cache.stats.misses == len(large.specs()) - len(small.specs())
    shared = small.spec("gp", 10, 1).key
    assert np.array_equal(first.traces[shared].regret, grown.traces[shared].regret)


def test_cache_hit_returns_byte_identical_traces(tmp_path):
    s = _sweep()
    first = run_sweep(s, cache=RunCache(tmp_path))
    cache = RunCache(tmp_path)
    again = run_sweep(s, cache=cache)
    assert cache.stats.hits == len(s.specs()) and cache.stats.misses == 0
    for key, trace in first.traces.items():
        other = again.traces[key]
        assert all(np.array_equal(a, b) and a.tobytes() == b.tobytes()
                   for a, b in zip(trace.arrays().values(), other.arrays().values()))
        assert trace.meta == other.meta


def test_corrupted_entry_is_recomputed_not_trusted(tmp_path):
    s = _sweep(reps=1, horizons=(10,))
    first = run_sweep(s, cache=RunCache(tmp_path))
    key = s.spec("tv", 10, 0).key
    path = RunCache(tmp_path).path(key)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    cache = RunCache(tmp_path)
    again = run_sweep(s, cache=cache)
    assert cache.stats.corrupt == 1 and cache.stats.written == 1
    assert again.traces[key].same_run(first.traces[key])
    path.write_bytes(b"not an npz")
    cache = RunCache(tmp_path)
    run_sweep(s, cache=cache)
    assert cache.stats.corrupt == 1


def test_a_tampered_but_readable_entry_fails_its_checksum(tmp_path):
    s = _sweep(reps=1, horizons=(10,))
    run_sweep(s, cache=RunCache(tmp_path))
    key = s.spec("tv", 10, 0).key
    path = RunCache(tmp_path).path(key)
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    arrays["regret"] = arrays["regret"] * 0.5
    np.savez(path, **arrays)
    cache = RunCache(tmp_path)
    assert cache.get(key) is None and cache.stats.corrupt == 1


def test_sweeps_are_identical_whatever_the_executor(tmp_path):
    s = _sweep()
    serial = run_sweep(s, executor="serial", cache=RunCache(None))
    process = run_sweep(s, executor="process", cache=RunCache(None))
    assert set(serial.traces) == set(process.traces)
    assert all(serial.traces[k].same_run(process.traces[k]) for k in serial.traces)


def test_sweep_on_a_two_worker_dask_cluster_matches_serial():
    distributed = pytest.importorskip("distributed")
    from tvbo_verify.execution import DaskExecutor

    s = _sweep(reps=2, horizons=(10,))
    serial = run_sweep(s, executor="serial", cache=RunCache(None))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cl:
        with distributed.Client(cl) as client:
            with DaskExecutor(client=client) as ex:
                dask = run_sweep(s, executor=ex, cache=RunCache(None))
    assert all(serial.traces[k].same_run(dask.traces[k]) for k in serial.traces)


def test_interrupted_sweep_keeps_what_finished(tmp_path, monkeypatch):
    from tvbo_verify.sweeps import execute

    s = _sweep(reps=2, horizons=(10,))
    calls = {"n": 0}
    real = execute.execute_spec

    def flaky(spec):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real(spec)

    monkeypatch.setattr(execute, "execute_spec", flaky)
    with pytest.raises(KeyboardInterrupt):
        run_sweep(s, cache=RunCache(tmp_path))
    cache = RunCache(tmp_path)
    monkeypatch.setattr(execute, "execute_spec", real)
    run_sweep(s, cache=cache)
    assert cache.stats.hits == 2 and cache.stats.written == 2


def test_unwritable_cache_is_one_clear_error(tmp_path):
    if os.geteuid() == 0:
        blocker = tmp_path / "file"
        blocker.write_text("x")
        cache = RunCache(blocker / "sub")  # a folder below a file can never be created
    else:
        ro = tmp_path / "ro"
        ro.mkdir(0o500)
        cache = RunCache(ro)
    with pytest.raises(ValueError, match="TVBO_VERIFY_CACHE"):
        run_sweep(_sweep(reps=1, horizons=(10,)), cache=cache)


def test_cache_location_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("TVBO_VERIFY_CACHE", str(tmp_path / "c"))
    assert default_cache_dir() == tmp_path / "c"
    monkeypatch.delenv("TVBO_VERIFY_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "x"))
    assert default_cache_dir() == tmp_path / "x" / "tvbo_verify"


def test_paired_difference_orders_arms(tmp_path):
    s = _sweep(reps=3, horizons=(40,))
    res = run_sweep(s, cache=RunCache(tmp_path))
    d = paired_difference(res, "tv", "gp", np.random.default_rng(0))
    assert d["n"] == 3 and d["ci95"][0] <= d["mean"] <= d["ci95"][1]
    with pytest.raises(ValueError, match="no arm"):
        res.final("nope")


# ------------------------------------------------------------------------------------ keyed by the code
def _package_copy(tmp_path):
    """A copy of the package's sources whose files a test may edit."""
    import shutil

    import tvbo_verify

    src = Path(tvbo_verify.__file__).resolve().parent
    dst = tmp_path / "tvbo_verify"
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return dst


KEYED = {"wgp": ("wgp-ucb", "wgpucb-rotation", {"discount": 0.9}), "tv": ("tv-gp-ucb", "tvgpucb-markov", {}),
         "sparq": ("sparq-gp-ucb", "sparq-synthetic", {})}


def _keys(root, monkeypatch):
    """Run keys of one run per :data:`KEYED` entry with the digests read from the sources under ``root``."""
    from tvbo_verify.sweeps import RunSpec, codekey

    tree = codekey.SourceTree(root)
    monkeypatch.setattr(codekey, "installed_tree", lambda: tree)
    return {name: RunSpec(a, e, 20, 0, 0, 1, dict(p)).key for name, (a, e, p) in KEYED.items()}


def _append_code(path):
    path.write_text(path.read_text(encoding="utf-8") + "\n_EDITED = 1\n", encoding="utf-8")


@pytest.mark.parametrize("edited, changed", [
    ("gp.py", {"wgp", "tv", "sparq"}),  # the GP posteriors every policy here uses
    ("bandits/window.py", {"wgp"}),  # WGP-UCB's module
    ("bandits/sparq.py", {"sparq"}),
    ("dpp.py", {"sparq"}),  # imported by SparQ only
    ("bandits/environments/rkhs.py", {"wgp", "tv"}),  # the rotation; the Markov GP uses its scale_to_norm
    ("bandits/environments/analytic.py", {"sparq"}),  # the SparQ synthetic objective
    ("bandits/runner.py", {"wgp", "tv", "sparq"}),
    ("blas.py", {"wgp", "tv", "sparq"}),  # one BLAS thread in every run: can change the last bits
    ("execution.py", set()),  # executors never change a result (test_runner checks bit-identical runs)
    ("papers/wgpucb/checks/confidence.py", set()),  # a claim
    ("report/html.py", set()),
    ("cli/main.py", set()),
])
def test_a_run_key_changes_exactly_when_code_that_can_change_the_run_changes(tmp_path, monkeypatch, edited, changed):
    root = _package_copy(tmp_path)
    before = _keys(root, monkeypatch)
    _append_code(root / edited)
    after = _keys(root, monkeypatch)
    assert {name for name in KEYED if before[name] != after[name]} == changed


@pytest.mark.parametrize("edited", ["gp.py", "bandits/window.py", "confidence.py"])
def test_a_run_key_keeps_through_edits_of_docstrings_comments_and_layout(tmp_path, monkeypatch, edited):
    """Prose cannot change a run: a full-fidelity report's hours of runs survive it."""
    import ast

    root = _package_copy(tmp_path)
    before = _keys(root, monkeypatch)
    path = root / edited
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    doc = ast.get_docstring(tree, clean=False)
    assert doc and doc in source
    edited_source = source.replace(doc, doc + " Reworded.", 1) + "\n\n# a comment\n"
    path.write_text(edited_source.replace("\n\n\n", "\n\n\n\n", 1), encoding="utf-8")
    assert _keys(root, monkeypatch) == before


def test_run_keys_are_the_same_in_another_process():
    import subprocess
    import sys

    from tvbo_verify.sweeps import RunSpec

    spec = RunSpec("wgp-ucb", "wgpucb-rotation", 20, 3, 1, 2, {"discount": 0.9})
    code = ("from tvbo_verify.sweeps import RunSpec; "
            "print(RunSpec('wgp-ucb', 'wgpucb-rotation', 20, 3, 1, 2, {'discount': 0.9}).key)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.strip() == spec.key


def test_the_import_scanner_follows_every_form_of_import_and_stops_where_told(tmp_path):
    from tvbo_verify.sweeps.codekey import SourceTree, factory_modules

    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    files = {
        "__init__.py": "",
        "a.py": "from .b import thing  # comment\nfrom . import (\n    c,  # the c module\n    d as dee,\n)\n",
        "b.py": "import numpy as np\n\ndef lazy():\n    from .sub.e import x\n    return x\n",
        "c.py": "import pkg.sub.f as f\n",
        "d.py": "",
        "sub/__init__.py": "",
        "sub/e.py": "from ..g import y\n",
        "sub/f.py": "",
        "g.py": "from .unrelated import nothing\n",
        "unrelated.py": "",
        "lonely.py": "",
    }
    for name, text in files.items():
        (pkg / name).write_text(text)
    tree = SourceTree(pkg, package="pkg")
    assert tree.imports("pkg.a") == {"pkg.b", "pkg.c", "pkg.d"}
    assert tree.imports("pkg.b") == {"pkg.sub.e"}  # numpy is not the package's; the lazy import counts
    assert tree.closure(["pkg.a"]) == {"pkg.a", "pkg.b", "pkg.c", "pkg.d", "pkg.sub.e", "pkg.sub.f", "pkg.g",
                                       "pkg.unrelated"}
    assert tree.closure(["pkg.a"], stop={"pkg.g"}) == {"pkg.a", "pkg.b", "pkg.c", "pkg.d", "pkg.sub.e", "pkg.sub.f"}
    first = tree.digest(tree.closure(["pkg.a"]))
    (pkg / "g.py").write_text("from .unrelated import nothing\n# edited\n")  # a comment is not code
    assert SourceTree(pkg, package="pkg").digest(tree.closure(["pkg.a"])) == first
    (pkg / "g.py").write_text("from .unrelated import nothing\nedited = True\n")
    assert SourceTree(pkg, package="pkg").digest(tree.closure(["pkg.a"])) != first
    (pkg / "lonely.py").write_text("edited = True\n")
    assert SourceTree(pkg, package="pkg").digest(tree.closure(["pkg.a"])) == SourceTree(pkg, package="pkg").digest(
        tree.closure(["pkg.a"]))

    from tvbo_verify.bandits.environments import SpatioTemporalGP
    from tvbo_verify.bandits.window import WGPUCB

    assert factory_modules(WGPUCB) == {"tvbo_verify.bandits.window"}
    assert factory_modules(lambda **kw: SpatioTemporalGP(**kw)) == {__name__, SpatioTemporalGP.__module__}


def test_an_unknown_algorithm_in_a_run_is_a_clear_error():
    from tvbo_verify.sweeps import RunSpec

    with pytest.raises(ValueError, match="algorithm"):
        RunSpec("no-such-policy", "wgpucb-rotation", 20, 0, 0, 1).key
