"""One evidence builder per kind of claim (docs/ARCHITECTURE.md §4).

Writing a claim of any kind is: what to measure, the statement, the sharpening, the instances.

=============================  =================================================================
kind                           builder
=============================  =================================================================
exact                          :func:`exact_evidence` on a :class:`~tvbo_verify.verify.statement.Statement`
probabilistic                  :func:`probabilistic_evidence` on :class:`Trials` (one score per repetition;
                               :func:`anytime_trials`: a regret curve for every t <= T at once)
rate                           :func:`rate_evidence` on a :class:`RateMeasurement` (a ladder of sizes);
                               :func:`sequential_rate_evidence` when the verdict needs more repetitions
ingredient                     :func:`ingredient_evidence` on :class:`Property` items
algorithm                      :func:`properties_evidence` on :class:`Property` items (and mutants)
experiment                     :func:`experiment_evidence`: properties of a reproduction's finding;
                               :func:`sensitivity_evidence` when the paper leaves constants open
=============================  =================================================================

Every claim decided from runs must be able to fail, and the builders enforce it (each module's docstring
states its contract): power is counted part by part; a rate from runs, a regret bound and an ordering
of methods are confirmed only when a negative control (:class:`~tvbo_verify.verify.evidence.Control`,
the same measurement and rule on a policy that cannot satisfy the statement) came out violated; a rate
must resolve its exponent from linear regret and from the nearest misreading; a regret bound at or
above the most regret any policy could incur on its runs (the trivial bound the builders read from the
traces) is vacuous; a sharpening no bounded objective could satisfy is refused.
"""

from .common import combine, rerun_record
from .exact import exact_evidence
from .experiment import (
    ControlRuns,
    comparison_control,
    experiment_evidence,
    on_analogue_data,
    ordering_property,
    ratio_bound_power,
    tracking_text,
    unshipped_data,
    with_control,
)
from .horizon import (
    BoundCurve,
    Horizon,
    SampleRange,
    cost_to_reach,
    earliest_horizon,
    horizon_figure,
    horizon_record,
    non_vacuity_horizon,
    sample_range,
    searched_instance_evidence,
    with_horizon,
)
from .probabilistic import Trials, affine_score, anytime_trials, probabilistic_evidence
from .properties import Property, ingredient_evidence, properties_evidence
from .rate import RateMeasurement, rate_evidence, rate_figure, rate_horizons, sequential_rate_evidence
from .sensitivity import sensitivity_evidence

__all__ = ["BoundCurve", "Horizon", "SampleRange", "sample_range", "searched_instance_evidence", "with_horizon",
           "cost_to_reach", "horizon_record",
           "earliest_horizon", "horizon_figure", "non_vacuity_horizon",
           "ControlRuns", "Property", "RateMeasurement", "Trials", "affine_score", "anytime_trials", "combine",
           "comparison_control",
           "exact_evidence", "experiment_evidence", "ingredient_evidence", "on_analogue_data", "ordering_property",
           "probabilistic_evidence", "properties_evidence", "rate_evidence", "rate_figure", "rate_horizons",
           "ratio_bound_power", "rerun_record", "sensitivity_evidence", "sequential_rate_evidence", "tracking_text",
           "unshipped_data", "with_control"]
