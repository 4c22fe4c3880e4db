"""The five papers this package checks, as :class:`~tvbo_verify.papers.Paper` records.

They register like any other paper, through the entry-point group ``tvbo_verify.papers`` (see
``pyproject.toml``): their claims are the rows of ``verify/claims.csv`` naming them, their checks the
packages ``verify/claims/<paper>``, their formulas ``report/statements.csv`` and their reproductions the
modules ``sweeps/reproduce/<paper>``. This module only builds the records (it imports nothing heavy).
"""

from __future__ import annotations

from .papers import Paper

CLAIMS = ("tvbo_verify.verify", "claims.csv")
FORMULAS = ("tvbo_verify.report", "statements.csv")


def _files(paper: str) -> dict:
    return {"claims": CLAIMS, "formulas": FORMULAS, "modules": (f"tvbo_verify.verify.claims.{paper}",),
            "reproductions": (f"tvbo_verify.sweeps.reproduce.{paper}",)}


WSPARQ = Paper(
    id="wsparq", topic="W-SparQ-GP-UCB (windowed sparse expert queries)",
    authors=("Eliabelle Mauduit", "Eloïse Berthier", "Andrea Simonetto"),
    title="No-Regret Gaussian Process Optimization of Time-Varying Functions",
    venue="Journal manuscript (SIAM format), ENSTA, Institut Polytechnique de Paris; extended version of the "
          "ECML PKDD 2025 paper on SparQ-GP-UCB",
    year=2025, arxiv="2512.00517", **_files("wsparq"))

SPARQ = Paper(
    id="sparq", topic="SparQ-GP-UCB (sparse expert queries)",
    authors=("Eliabelle Mauduit", "Eloïse Berthier", "Andrea Simonetto"),
    title="Time-varying Gaussian Process Bandit Optimization with Experts: no-regret in logarithmically-many "
          "side queries",
    venue="Joint European Conference on Machine Learning and Knowledge Discovery in Databases (ECML PKDD), "
          "Springer LNCS, pp. 164–182",
    year=2025, **_files("sparq"))

TVGPUCB = Paper(
    id="tvgpucb", topic="R-GP-UCB / TV-GP-UCB (time-varying GP bandits)",
    authors=("Ilija Bogunovic", "Jonathan Scarlett", "Volkan Cevher"),
    title="Time-Varying Gaussian Process Bandit Optimization",
    venue="Proceedings of the 19th International Conference on Artificial Intelligence and Statistics "
          "(AISTATS), PMLR vol. 51, pp. 314–323",
    year=2016, arxiv="1601.06650", **_files("tvgpucb"))

BOLT = Paper(
    id="bolt", topic="BOLT (response times and optimal dataset size n*)",
    authors=("Anthony Bardou", "Patrick Thiran"),
    title="Optimizing Through Change: Bounds and Recommendations for Time-Varying Bayesian Optimization "
          "Algorithms",
    venue="International Conference on Machine Learning (ICML)",
    year=2025, arxiv="2501.18963v2", **_files("bolt"))

WGPUCB = Paper(
    id="wgpucb", topic="WGP-UCB (weighted GP-UCB)",
    authors=("Yuntian Deng", "Xingyu Zhou", "Baekjin Kim", "Ambuj Tewari", "Abhishek Gupta", "Ness Shroff"),
    title="Weighted Gaussian Process Bandits for Non-stationary Environments",
    venue="Proceedings of the 25th International Conference on Artificial Intelligence and Statistics "
          "(AISTATS), PMLR vol. 151, pp. 6909–6932",
    year=2022, arxiv="2107.02371", **_files("wgpucb"))
