"""The record of the paper ``sparq``: its citation and where its claim list, formulas, checks and
reproductions are (the module the entry point ``sparq`` of the group ``tvbo_verify.papers`` names; it imports
nothing heavy)."""

from importlib.resources import files

from tvbo_verify.papers import Paper

PAPER = Paper(
    id="sparq", topic="SparQ-GP-UCB (sparse expert queries)",
    authors=("Eliabelle Mauduit", "Eloïse Berthier", "Andrea Simonetto"),
    title="Time-varying Gaussian Process Bandit Optimization with Experts: no-regret in logarithmically-many "
          "side queries",
    venue="Joint European Conference on Machine Learning and Knowledge Discovery in Databases (ECML PKDD), "
          "Springer LNCS, pp. 164–182",
    year=2025,
    claims=files(__package__) / "claims.csv", formulas=files(__package__) / "formulas.csv",
    modules=("tvbo_verify.papers.sparq.checks",), reproductions=("tvbo_verify.papers.sparq.reproductions",))
