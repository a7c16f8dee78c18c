"""The judges chapter's figures in clfbook.plots.judges draw what they are given."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from clfbook.plots.judges import (
    agreement_against_prevalence,
    judge_matrices,
    labels_width_plot,
    prevalence_plot,
)


def test_judge_matrices_hold_the_rates_and_the_prevalence():
    stack = judge_matrices([0.1, 0.5], 0.8, 0.9)
    np.testing.assert_allclose(stack.sum(axis=(1, 2)), 1.0)
    np.testing.assert_allclose(stack.sum(axis=1)[:, 1], [0.1, 0.5])  # prevalence
    np.testing.assert_allclose(stack[:, 1, 1] / stack.sum(axis=1)[:, 1], 0.8)  # sensitivity
    np.testing.assert_allclose(stack[:, 0, 0] / stack.sum(axis=1)[:, 0], 0.9)  # specificity
    with pytest.raises(ValueError, match="sensitivity"):
        judge_matrices([0.5], 1.5, 0.9)
    with pytest.raises(ValueError, match="prevalences"):
        judge_matrices([1.2], 0.8, 0.9)


def test_agreement_against_prevalence_draws_kappa_as_scikit_learn_computes_it():
    q = np.array([0.1, 0.5, 0.9])
    fig = agreement_against_prevalence(0.9, 0.9, q)
    ax = fig.axes[0]
    lines = {line.get_label(): line.get_ydata() for line in ax.get_lines()}
    assert set(lines) == {"accuracy", "PABAK", "Gwet's AC1", "Cohen's kappa"}
    counts = np.rint(judge_matrices(q, 0.9, 0.9) * 1000).astype(int)
    for k, m in enumerate(counts):  # the same matrices as items: rows = the judge
        pred, true = np.indices(m.shape).reshape(2, -1)
        y_pred, y_true = np.repeat(pred, m.ravel()), np.repeat(true, m.ravel())
        assert lines["Cohen's kappa"][k] == pytest.approx(cohen_kappa_score(y_true, y_pred))
    np.testing.assert_allclose(lines["PABAK"], 0.8)
    assert ax.get_xlabel() and ax.get_ylabel()
    plt.close(fig)


def test_prevalence_plot_puts_one_row_per_method_and_the_truth():
    fig = prevalence_plot({"a": (0.3, 0.2, 0.4), "b": (0.5, 0.45, 0.6)}, truth=0.5)
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a", "b"]
    (truth,) = [line for line in ax.get_lines() if line.get_label() == "true prevalence"]
    np.testing.assert_allclose(truth.get_xdata(), [0.5, 0.5])
    plt.close(fig)
    with pytest.raises(ValueError, match="empty"):
        prevalence_plot({})


def test_labels_width_plot_marks_the_target_and_the_plan():
    fig = labels_width_plot([50, 100, 200], [0.2, 0.14, 0.1], target=0.12, planned=150)
    ax = fig.axes[0]
    lines = {line.get_label(): line for line in ax.get_lines()}
    np.testing.assert_allclose(lines["simulated (median width)"].get_ydata(), [0.2, 0.14, 0.1])
    np.testing.assert_allclose(lines["target width 0.12"].get_ydata(), [0.12, 0.12])
    np.testing.assert_allclose(lines["planned: 150 labels"].get_xdata(), [150, 150])
    plt.close(fig)
    with pytest.raises(ValueError, match="same length"):
        labels_width_plot([1, 2], [0.1], target=0.1, planned=1)
