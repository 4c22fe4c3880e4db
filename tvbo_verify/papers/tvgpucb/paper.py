"""The record of the paper ``tvgpucb``: its citation and where its claim list, formulas, checks and
reproductions are (the module the entry point ``tvgpucb`` of the group ``tvbo_verify.papers`` names; it imports
nothing heavy)."""

from importlib.resources import files

from tvbo_verify.papers import Paper

PAPER = Paper(
    id="tvgpucb", topic="R-GP-UCB / TV-GP-UCB (time-varying GP bandits)",
    authors=("Ilija Bogunovic", "Jonathan Scarlett", "Volkan Cevher"),
    title="Time-Varying Gaussian Process Bandit Optimization",
    venue="Proceedings of the 19th International Conference on Artificial Intelligence and Statistics "
          "(AISTATS), PMLR vol. 51, pp. 314–323",
    year=2016, arxiv="1601.06650",
    claims=files(__package__) / "claims.csv", formulas=files(__package__) / "formulas.csv",
    modules=("tvbo_verify.papers.tvgpucb.checks",), reproductions=("tvbo_verify.papers.tvgpucb.reproductions",))
