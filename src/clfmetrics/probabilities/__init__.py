"""Probabilities: proper scores, reliability and calibration, with their uncertainty; prevalence
estimated through a classifier (quantification)."""

from ._brier_curve import BrierCurve, brier_curve
from ._classwise import classwise_calibration_error, classwise_reliability
from ._consistency import CalibrationTest, ReliabilityBand, calibration_test, reliability_band
from ._corp import (
    CORPBand,
    CORPResult,
    corp_band,
    corp_reliability,
    pool_adjacent_violators,
    pool_adjacent_violators_stack,
)
from ._quantification import PrevalenceEstimate, estimate_prevalence, labels_needed
from ._reliability import brier_score, expected_calibration_error, log_loss, reliability_curve

# isort: split
# The interface to the concerns above, not public API (not in __all__): the proper scores and
# binned sums on checked probabilities, for the report.
from ._consistency import calibration_test_in_blocks as calibration_test_in_blocks
from ._reliability import ROW_SUM_TOLERANCE as ROW_SUM_TOLERANCE
from ._reliability import binned as binned
from ._reliability import brier_of as brier_of
from ._reliability import ece_of as ece_of
from ._reliability import log_loss_of as log_loss_of
from ._reliability import worst_row_sum as worst_row_sum

__all__ = [
    "BrierCurve",
    "CORPBand",
    "CORPResult",
    "CalibrationTest",
    "PrevalenceEstimate",
    "ReliabilityBand",
    "brier_curve",
    "brier_score",
    "calibration_test",
    "classwise_calibration_error",
    "classwise_reliability",
    "corp_band",
    "corp_reliability",
    "estimate_prevalence",
    "expected_calibration_error",
    "labels_needed",
    "log_loss",
    "pool_adjacent_violators",
    "pool_adjacent_violators_stack",
    "reliability_band",
    "reliability_curve",
]
