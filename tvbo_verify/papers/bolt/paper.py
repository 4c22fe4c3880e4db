"""The record of the paper ``bolt``: its citation and where its claim list, formulas, checks and
reproductions are (the module the entry point ``bolt`` of the group ``tvbo_verify.papers`` names; it imports
nothing heavy)."""

from importlib.resources import files

from tvbo_verify.papers import Paper

PAPER = Paper(
    id="bolt", topic="BOLT (response times and optimal dataset size n*)",
    authors=("Anthony Bardou", "Patrick Thiran"),
    title="Optimizing Through Change: Bounds and Recommendations for Time-Varying Bayesian Optimization "
          "Algorithms",
    venue="International Conference on Machine Learning (ICML)",
    year=2025, arxiv="2501.18963v2",
    claims=files(__package__) / "claims.csv", formulas=files(__package__) / "formulas.csv",
    modules=("tvbo_verify.papers.bolt.checks",), reproductions=("tvbo_verify.papers.bolt.reproductions",))
