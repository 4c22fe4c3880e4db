"""The paper ``wgpucb``: WGP-UCB (weighted GP-UCB) — everything the toolkit holds about it.

=====================  ================================================================================
``READING.md``         the toolkit's reading of the paper: per claim, the statement as printed, the reading
                       the check takes, its free constants, the check recipe, and the paper's errata
``paper.py``           the record (citation and the files below), named by the entry point ``wgpucb``
``claims.csv``         the claim list: id, reference, kind, expectation, title, reading section, disagreement
``formulas.csv``       the statements as typeset formulas, printed and corrected
``checks/``            one ``@claim`` check per claim, one module per topic of the paper
``reproductions.py``  the reproductions of its figures (``tvbo-verify reproduce``)
``presets.py``         the paper's experimental set-ups: environment, horizon and each algorithm's settings
=====================  ================================================================================

It is registered through the entry-point group ``tvbo_verify.papers``, as a paper of another package is, and
imports only the public API of the toolkit (``tvbo_verify.authoring`` and the public numerics and bandit
modules).
"""
