"""A small paper plugin written to a temporary folder, as a third party would write it: a paper record, its
claim list and formulas, an exact claim that holds, an exact claim that is false, a rate claim decided from
runs of a policy and an environment it registers itself, and a reproduction of a figure.

:func:`write_plugin` writes the package; :func:`write_dist_info` makes it an installed distribution (its
entry points included) for a subprocess whose ``PYTHONPATH`` holds the folder, without pip.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

PAPER_ID = "demo2024"
PACKAGE = "demo_plugin"
DISTRIBUTION = "demo-plugin"

FILES = {
    "__init__.py": '"""A demonstration paper plugin."""\n',
    "paper.py": '''
from pathlib import Path

from tvbo_verify.papers import Paper

HERE = Path(__file__).parent
DEMO = Paper(id="demo2024", authors=("Ada Author", "Bo Writer"), title="A Demonstration of Plugin Papers",
             venue="Proceedings of Nothing", year=2024, arxiv="2401.00001", topic="plugin demo",
             claims=HERE / "claims.csv", formulas=HERE / "formulas.csv", modules=("demo_plugin.checks",),
             reproductions=("demo_plugin.figures",))
''',
    "claims.csv": '''id,paper,ref,kind,expect,title,spec,disagreement
demo2024:square,demo2024,Eq. (1),exact,holds,x^2 <= x on [0 1],,
demo2024:square-wide,demo2024,Eq. (1'),exact,fails-as-printed,x^2 <= x on [0 2],,
demo2024:fixed-arm-rate,demo2024,Theorem 2,rate,fails-as-printed,a fixed arm has regret O(sqrt(T)),,
''',
    "formulas.csv": '''id,printed,corrected
demo2024:square,x^2\\leq x\\ \\ (0\\leq x\\leq 1),
''',
    "bandits.py": '''
import numpy as np

from tvbo_verify.authoring import Environment, GramKernel, Policy, constant_beta, register_environment, register_policy


class FixedArm(Policy):
    name = "demo-fixed-arm"

    def __init__(self, arm: int = 0):
        super().__init__(constant_beta(0.0))
        self.arm = arm

    def _reset(self):
        self.seen = 0

    def select(self, step, time):
        return self.arm

    def observe(self, step, time, index, y):
        self.seen += 1

    @property
    def dataset_size(self):
        return self.seen


class TwoArms(Environment):
    name = "demo-two-arms"

    def __init__(self, gap: float = 0.5):
        super().__init__()
        self.gap, self.grid = gap, np.array([[0.0], [1.0]])
        self.kernel, self.noise_var = GramKernel(np.eye(2)), 1.0

    def _draw(self, rng):
        pass

    def _values(self):
        return np.array([-self.gap, 0.0])


register_policy("demo-fixed-arm", FixedArm)
register_environment("demo-two-arms", TwoArms)
''',
    "checks.py": '''
from tvbo_verify.authoring import (Arm, Comparison, Context, Evidence, RateMeasurement, Statement, Sweep, claim,
                                   exact_evidence, rate_evidence, run_sweep)

from . import bandits  # noqa: F401


class SquareBelowIdentity(Statement):
    sharpening = "bound halved"
    continuous = ("x",)

    def __init__(self, name, high):
        super().__init__(name=name)
        self.high = high
        self.bounds = {"x": (0.0, high)}

    def sample(self, rng):
        return {"x": float(rng.uniform(0.0, self.high))}

    def evaluate(self, p, sharpened=False):
        return Comparison(p["x"] ** 2, p["x"] / 2 if sharpened else p["x"], "<=")

    def hp(self, p):
        import mpmath

        x = mpmath.mpf(p["x"])
        return Comparison(x ** 2, x, "<=")


@claim("demo2024:square")
def square(ctx: Context) -> Evidence:
    """x^2 <= x at random x of [0, 1]."""
    return exact_evidence(ctx, SquareBelowIdentity("demo2024: x^2 <= x on [0, 1]", 1.0), n_random=40, n_starts=0)


@claim("demo2024:square-wide")
def square_wide(ctx: Context) -> Evidence:
    """x^2 <= x at random x of [0, 2]."""
    return exact_evidence(ctx, SquareBelowIdentity("demo2024: x^2 <= x on [0, 2]", 2.0), n_random=40, n_starts=0)


SWEEP = Sweep("demo fixed arm", (Arm("fixed", "demo-fixed-arm"),), "demo-two-arms", (10, 100, 1000), reps=2)


@claim("demo2024:fixed-arm-rate")
def fixed_arm_rate(ctx: Context) -> Evidence:
    """The regret of the worse arm played every round against sqrt(T)."""
    runs = run_sweep(SWEEP, cache=ctx.cache, executor=ctx.executor, progress=False)
    m = RateMeasurement.from_sweep(runs, "fixed", exponent=0.5)
    return rate_evidence(ctx, m, lowered_by=0.5, what="fixed arm")
''',
    "figures.py": '''
from tvbo_verify.authoring import Finding, Reproduction, register_reproduction

from .checks import SWEEP


def analyse(results, rng):
    final = results["main"].final("fixed").tolist()
    return Finding(f"the fixed arm's regret at T = 1000 is {final[0]:g}", {"final": final})


def draw(results, finding):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    ax.plot(results["main"].series("fixed")[0])
    return fig


register_reproduction(Reproduction("demo2024:figure-1", "demo2024", "Regret of a fixed arm", setup="two arms",
                                   expected="linear regret", sweeps=lambda fidelity: {"main": SWEEP},
                                   analyse=analyse, figure=draw, claims=("demo2024:fixed-arm-rate",)))
''',
}

PYPROJECT_ENTRY = f"{PAPER_ID} = {PACKAGE}.paper:DEMO"


def write_plugin(root: Path) -> Path:
    """The package ``demo_plugin`` written below ``root``; returns ``root`` (to put on ``sys.path``)."""
    pkg = root / PACKAGE
    pkg.mkdir(parents=True, exist_ok=True)
    for name, text in FILES.items():
        (pkg / name).write_text(text.lstrip("\n"), encoding="utf-8")
    return root


def write_dist_info(root: Path, name: str, version: str, entry_points: dict[str, dict[str, str]]) -> Path:
    """A ``<name>-<version>.dist-info`` folder in ``root`` declaring ``entry_points`` (what pip would write)."""
    info = root / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8")
    lines = []
    for group, items in entry_points.items():
        lines += [f"[{group}]", *(f"{k} = {v}" for k, v in items.items()), ""]
    (info / "entry_points.txt").write_text("\n".join(lines), encoding="utf-8")
    return info


def install_demo(root: Path) -> Path:
    """The demo plugin as an installed distribution in ``root`` (package and metadata)."""
    write_plugin(root)
    write_dist_info(root, DISTRIBUTION, "1.0", {"tvbo_verify.papers": {PAPER_ID: f"{PACKAGE}.paper:DEMO"}})
    return root


def subprocess_env(*paths: Path) -> dict[str, str]:
    """The environment of a subprocess that sees ``paths`` first on its ``PYTHONPATH``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([*(str(p) for p in paths), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.setdefault("MPLBACKEND", "Agg")
    return env


def forget_modules(prefix: str) -> None:
    """Drop the modules of a package from ``sys.modules`` (a test's temporary plugin)."""
    for name in [m for m in sys.modules if m == prefix or m.startswith(prefix + ".")]:
        del sys.modules[name]
