"""Chapter 11 (11-prevalence-calibration.md): each claim the text makes, computed or read."""

from __future__ import annotations

import ast
import re

import numpy as np
from chapter_text import ROOT

import clfmetrics as cm
from clfmetrics import calibrated_macro_precision


def test_item10_the_pair_with_the_same_recalls_has_different_calibrated_precision():
    source = (ROOT / "chapters" / "11-prevalence-calibration.md").read_text()

    def matrix(name: str) -> np.ndarray:
        found = re.search(rf"^{name} = np\.array\((\[\[.*?\]\])\)", source, re.M)
        return np.array(ast.literal_eval(found.group(1)))

    balanced, never_negative = matrix("balanced"), matrix("never_negative")
    same = matrix("same_recalls")
    assert not np.allclose(cm.recall(balanced), cm.recall(never_negative))
    assert np.allclose(cm.recall(balanced), cm.recall(same))
    assert abs(calibrated_macro_precision(same) - calibrated_macro_precision(balanced)) > 0.05
    assert "as `balanced` and `never_negative` do, and get different" not in " ".join(
        source.split()
    )


def test_d2_the_opening_says_weighted_f1_becomes_the_calibrated_matrixs_macro_f1():
    """11 ~19: weightF1(m~) = macF1(m~), and in general not macF1(m)."""
    m = np.array([[30, 6, 4], [10, 18, 4], [10, 6, 12]])
    m_cal = cm.prevalence_calibrate(m)
    assert np.isclose(cm.weighted_f1(m_cal), cm.macro_f1(m_cal))
    assert not np.isclose(cm.weighted_f1(m_cal), cm.macro_f1(m))
    text = " ".join((ROOT / "chapters" / "11-prevalence-calibration.md").read_text().split())
    assert "weighted F1 becomes macro F1" not in text
    assert "weighted F1 becomes the macro F1 of the calibrated matrix" in text
