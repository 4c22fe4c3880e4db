"""Claim checks of ``bolt`` (Bardou & Thiran, BOLT), one module per topic of the paper.

=====================  ==========================================================================
module                 claims (paper section)
=====================  ==========================================================================
``response_times``     definition-3.5 (§3.1 Definition 3.5, §4 cubic fit of R)
``nstar``              n-star, n-star-unimodal (§3.3 Recommendation 1, eq. (9))
``spectra``            assumption-3.3, compact-spectrum (§3.1 Assumption 3.3, §3.2 remark after Cor. 3.7)
``lower_bound``        eq-4, theorem-3.6 (§3.2 Theorem 3.6, eqs. (4)–(5), App. C oracle)
``oracle``             lemma-c.1, lemma-c.2, lemma-c.3, lemma-c.3+corrected (App. C)
``oracle_bounds``      eq-46, eq-46+corrected, eq-59, eq-59+corrected (Lemma C.4)
``circulant``          appendix-b, eq-27, eq-27+corrected, eq-28, eq-28+corrected (App. B)
``upper_bound``        lemma-d.2, eq-63, eq-63+corrected (App. D), no-removal-prior (§3.3 argument)
``removal``            assumption-3.9, theorem-3.10, recommendation-2 (§3.4, App. E)
``algorithm``          algorithm-1 (§4 Algorithm 1, BOLT)
``tables``             table-3-overall, table-3-overall+corrected, table-3-ranking (§5.2 Table 3)
``regret_runs``        corollary-3.7, theorem-3.8, lemma-d.1 (§3.2-3.3, App. D), decided from algorithm runs
``experiments``        figure-1, figure-2, table-1, table-2, table-3 (§2-5), decided from their reproductions
=====================  ==========================================================================

``plotting`` holds the figure layout they share; ``table3.json`` the printed numbers of Table 3. The runs
behind ``regret_runs`` and ``experiments`` are the reproductions of this paper (``reproductions/``). The full
reading of each claim is the section of READING.md headed by its id (e.g. READING.md §bolt:eq-4).
"""
