"""Probabilities: proper scores, reliability and calibration, with their uncertainty."""

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
from ._reliability import brier_score, expected_calibration_error, log_loss, reliability_curve

__all__ = [
    "CORPBand",
    "CORPResult",
    "CalibrationTest",
    "ReliabilityBand",
    "brier_score",
    "calibration_test",
    "classwise_calibration_error",
    "classwise_reliability",
    "corp_band",
    "corp_reliability",
    "expected_calibration_error",
    "log_loss",
    "pool_adjacent_violators",
    "pool_adjacent_violators_stack",
    "reliability_band",
    "reliability_curve",
]
