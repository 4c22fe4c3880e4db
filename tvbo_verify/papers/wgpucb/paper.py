"""The record of the paper ``wgpucb``: its citation and where its claim list, formulas, checks and
reproductions are (the module the entry point ``wgpucb`` of the group ``tvbo_verify.papers`` names; it imports
nothing heavy)."""

from importlib.resources import files

from tvbo_verify.papers import Paper

PAPER = Paper(
    id="wgpucb", topic="WGP-UCB (weighted GP-UCB)",
    authors=("Yuntian Deng", "Xingyu Zhou", "Baekjin Kim", "Ambuj Tewari", "Abhishek Gupta", "Ness Shroff"),
    title="Weighted Gaussian Process Bandits for Non-stationary Environments",
    venue="Proceedings of the 25th International Conference on Artificial Intelligence and Statistics "
          "(AISTATS), PMLR vol. 151, pp. 6909–6932",
    year=2022, arxiv="2107.02371",
    claims=files(__package__) / "claims.csv", formulas=files(__package__) / "formulas.csv",
    modules=("tvbo_verify.papers.wgpucb.checks",), reproductions=("tvbo_verify.papers.wgpucb.reproductions",))
