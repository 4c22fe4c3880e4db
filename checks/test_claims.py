"""One test item per claim id of every registered paper (or of ``--tvbo-paper``), collected by the pytest
plugin shipped with the package (:mod:`tvbo_verify.pytest_plugin`), which also provides ``--fidelity``, the
run resources handed to every check and one marker per paper and per kind.

An item passes by the pass rule of :mod:`tvbo_verify.verify.passing`, the one ``tvbo-verify report`` uses
for its exit code (a claim without a check is skipped as "not implemented", never passed).
"""

from tvbo_verify.pytest_plugin import ClaimSuite

test_claims = ClaimSuite()
