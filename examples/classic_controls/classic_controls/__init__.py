"""Known results of the classical bandit literature, checked by tvbo-verify.

Two papers register through the entry-point group ``tvbo_verify.papers`` (:mod:`classic_controls.paper`):
Srinivas et al. (2010), whose Lemma 5.4 is checked exactly next to a deliberately false variant, and
Lattimore & Szepesvári (2020), whose explore-then-commit rate is decided from runs of a policy this
package registers (:mod:`classic_controls.bandits`).
"""
