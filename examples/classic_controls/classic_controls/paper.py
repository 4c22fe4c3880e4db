"""The records of the two papers (named by the package's entry points; imports nothing heavy)."""

from importlib.resources import files

from tvbo_verify.papers import Paper

CLAIMS = files(__package__) / "claims.csv"
FORMULAS = files(__package__) / "formulas.csv"

SRINIVAS2010 = Paper(
    id="srinivas2010", topic="GP-UCB (information gain and regret)",
    authors=("Niranjan Srinivas", "Andreas Krause", "Sham M. Kakade", "Matthias Seeger"),
    title="Gaussian Process Optimization in the Bandit Setting: No Regret and Experimental Design",
    venue="Proceedings of the 27th International Conference on Machine Learning (ICML)", year=2010,
    arxiv="0912.3995", claims=CLAIMS, formulas=FORMULAS, modules=("classic_controls.checks.information",))

LATTIMORE2020 = Paper(
    id="lattimore2020", topic="Explore-then-commit (stochastic bandits)",
    authors=("Tor Lattimore", "Csaba Szepesvári"), title="Bandit Algorithms",
    venue="Cambridge University Press", year=2020, claims=CLAIMS, formulas=FORMULAS,
    modules=("classic_controls.checks.explore_then_commit",))
