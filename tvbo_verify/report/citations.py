"""The five papers whose statements the report checks: full citations (authors, title, venue)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Citation:
    key: str
    algorithm: str
    authors: str
    title: str
    venue: str

    @property
    def text(self) -> str:
        return f"{self.authors}. {self.title}. {self.venue}."


CITATIONS: dict[str, Citation] = {c.key: c for c in (
    Citation("wsparq", "W-SparQ-GP-UCB (windowed sparse expert queries)",
             "Eliabelle Mauduit, Eloïse Berthier and Andrea Simonetto",
             "No-Regret Gaussian Process Optimization of Time-Varying Functions",
             "Journal manuscript (SIAM format), ENSTA, Institut Polytechnique de Paris; extended version of the "
             "ECML PKDD 2025 paper on SparQ-GP-UCB"),
    Citation("sparq", "SparQ-GP-UCB (sparse expert queries)",
             "Eliabelle Mauduit, Eloïse Berthier and Andrea Simonetto",
             "Time-varying Gaussian Process Bandit Optimization with Experts: no-regret in logarithmically-many "
             "side queries",
             "Joint European Conference on Machine Learning and Knowledge Discovery in Databases (ECML PKDD), "
             "Springer LNCS, 2025, pp. 164–182"),
    Citation("tvgpucb", "R-GP-UCB / TV-GP-UCB (time-varying GP bandits)",
             "Ilija Bogunovic, Jonathan Scarlett and Volkan Cevher",
             "Time-Varying Gaussian Process Bandit Optimization",
             "Proceedings of the 19th International Conference on Artificial Intelligence and Statistics "
             "(AISTATS), PMLR vol. 51, 2016, pp. 314–323"),
    Citation("bolt", "BOLT (response times and optimal dataset size n*)",
             "Anthony Bardou and Patrick Thiran",
             "Optimizing Through Change: Bounds and Recommendations for Time-Varying Bayesian Optimization "
             "Algorithms",
             "International Conference on Machine Learning (ICML), 2025"),
    Citation("wgpucb", "WGP-UCB (weighted GP-UCB)",
             "Yuntian Deng, Xingyu Zhou, Baekjin Kim, Ambuj Tewari, Abhishek Gupta and Ness Shroff",
             "Weighted Gaussian Process Bandits for Non-stationary Environments",
             "Proceedings of the 25th International Conference on Artificial Intelligence and Statistics "
             "(AISTATS), PMLR vol. 151, 2022, pp. 6909–6932"),
)}


def citation(paper: str) -> Citation:
    """The citation of ``paper`` (one of the claim list's paper keys)."""
    try:
        return CITATIONS[paper]
    except KeyError:
        raise ValueError(f"paper must be one of {', '.join(CITATIONS)}, got {paper!r}") from None
