"""One evidence builder per kind of claim (ARCHITECTURE.md, "Claims, evidence, verdicts").

Writing a claim of any kind is: what to measure, the statement, the sharpening, the instances.

=============================  =================================================================
kind                           builder
=============================  =================================================================
exact                          :func:`exact_evidence` on a :class:`~tvbo_verify.verify.statement.Statement`
probabilistic                  :func:`probabilistic_evidence` on :class:`Trials` (one score per repetition)
rate                           :func:`rate_evidence` on a :class:`RateMeasurement` (a ladder of sizes)
ingredient                     :func:`ingredient_evidence` on :class:`Property` items
algorithm                      :func:`properties_evidence` on :class:`Property` items (and mutants)
experiment                     :func:`experiment_evidence`: properties of a reproduction's finding;
                               :func:`sensitivity_evidence` when the paper leaves constants open
=============================  =================================================================
"""

from .common import combine, rerun_record
from .exact import exact_evidence
from .experiment import experiment_evidence, on_analogue_data, ordering_property, tracking_text, unshipped_data
from .probabilistic import Trials, probabilistic_evidence
from .properties import Property, ingredient_evidence, properties_evidence
from .rate import RateMeasurement, rate_evidence, rate_figure
from .sensitivity import sensitivity_evidence

__all__ = ["Property", "RateMeasurement", "Trials", "combine", "exact_evidence", "experiment_evidence",
           "ingredient_evidence", "on_analogue_data", "ordering_property",
           "probabilistic_evidence", "properties_evidence", "rate_evidence", "rate_figure", "rerun_record",
           "sensitivity_evidence", "tracking_text", "unshipped_data"]
