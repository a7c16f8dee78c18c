"""``python -m clfmetrics prevalence --proba`` against QuaPy on the same file's numbers.

The probabilistic classify-and-count, the probabilistic adjusted count and EM (from the
calibration sample's class shares, and from a fitting prior) equal QuaPy's ``PCC``,
``PACC`` (exact inversion, clipped) and ``EMQ.EM`` to 1e-10. The deliberate differences
(QuaPy's EM tolerance, its default least-squares solver, its rates from folds, no interval)
are in :func:`clfmetrics.estimate_prevalence`'s notes; here QuaPy is called where they
coincide. A file of its own: QuaPy is not among the oldest-numpy tier's packages.
"""

from __future__ import annotations

import numpy as np
import pytest
from messy_csv import cli_json, proba_csv, scored
from quapy.method.aggregative import ACC, EMQ, PACC

CAL, DEP = scored(400, 0.3, 3), scored(3000, 0.75, 4)[1]


def quapy(method, prior=None):
    truth, p_cal = CAL
    y = (truth == "spam").astype(int)
    pcc = DEP.mean(axis=0)
    if method == "pcc":
        return pcc
    if method == "pacc":
        rates = PACC.getPteCondEstim(np.arange(2), y, p_cal)
        pacc = ACC.solve_adjustment(rates, pcc, method="inversion", solver="exact-raise")
        return np.clip(pacc, 0, 1) / np.clip(pacc, 0, 1).sum()
    steps, EMQ.MAX_ITER = EMQ.MAX_ITER, 10**6
    try:
        start = np.bincount(y) / len(y) if prior is None else np.array(prior)
        return EMQ.EM(start, DEP, epsilon=1e-15)[0]
    finally:
        EMQ.MAX_ITER = steps


@pytest.mark.parametrize(
    ("method", "prior"), [("pcc", None), ("pacc", None), ("em", None), ("sld", [0.5, 0.5])]
)
def test_the_probabilistic_methods_equal_quapys(tmp_path, capsys, method, prior):
    path = proba_csv(tmp_path / "scored.csv", CAL, DEP)
    argv = ["prevalence", path, "--truth", "gold", "--proba", "p_spam", "p_ham", "--size", 20]
    out = cli_json(capsys, [*argv, "--method", method, *(["--prior", *prior] if prior else [])])
    assert out["estimate"] == pytest.approx(quapy(method, prior).tolist(), abs=1e-10)
