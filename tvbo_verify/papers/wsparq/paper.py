"""The record of the paper ``wsparq``: its citation and where its claim list, formulas, checks and
reproductions are (the module the entry point ``wsparq`` of the group ``tvbo_verify.papers`` names; it imports
nothing heavy)."""

from importlib.resources import files

from tvbo_verify.papers import Paper

PAPER = Paper(
    id="wsparq", topic="W-SparQ-GP-UCB (windowed sparse expert queries)",
    authors=("Eliabelle Mauduit", "Eloïse Berthier", "Andrea Simonetto"),
    title="No-Regret Gaussian Process Optimization of Time-Varying Functions",
    venue="Journal manuscript (SIAM format), ENSTA, Institut Polytechnique de Paris; extended version of the "
          "ECML PKDD 2025 paper on SparQ-GP-UCB",
    year=2025, arxiv="2512.00517",
    claims=files(__package__) / "claims.csv", formulas=files(__package__) / "formulas.csv",
    modules=("tvbo_verify.papers.wsparq.checks",), reproductions=("tvbo_verify.papers.wsparq.reproductions",))
