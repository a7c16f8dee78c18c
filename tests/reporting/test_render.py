"""No rendering of the library prints a negative zero.

A value that is zero in exact arithmetic comes out as -1e-17 or +1e-17 depending on the order in
which the floating-point sums ran (numpy's pairwise summation, the machine's SIMD width). The
text must be the same either way: "0.000", never "-0.000".
"""

import numpy as np

from clfmetrics import Interval
from clfmetrics.reporting._render import interval_text


def test_interval_texts_print_zero_without_sign():
    iv = Interval(estimate=-1e-17, low=-2e-17, high=0.25, level=0.95, method="percentile")
    assert str(iv).startswith("0.000 [0.000, 0.250]")
    assert interval_text(iv) == "0.000 [0.000, 0.250]"


def test_a_chance_matrix_prints_its_zero_kappa_without_sign():
    """Rows proportional to the column sums: kappa and MCC are exactly 0 in exact arithmetic,
    and whatever sign the floating-point sums leave, the report prints no negative zero."""
    from clfmetrics import report_from_counts

    m = np.outer([3, 5, 7], [2, 9, 4])  # m[i, j]: predicted i, true j
    pred, truth = np.indices(m.shape).reshape(2, -1)
    rep = report_from_counts(truth, pred, m.ravel(), rng=0, size=200)
    assert abs(rep.intervals["kappa"].estimate) < 1e-12
    text = str(rep) + rep.reporting_block()
    assert "-0.000" not in text
    assert "0.000" in text
