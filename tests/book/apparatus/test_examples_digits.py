"""The real-data task of the chapter "A real classifier, end to end"."""

from __future__ import annotations

import numpy as np
import pytest

import clfmetrics as cm
from clfbook.examples import fit_logistic, imbalanced_digits


@pytest.fixture(scope="module")
def task():
    return imbalanced_digits()


def test_task_is_seeded_imbalanced_and_shifted(task):
    again = imbalanced_digits()
    assert np.array_equal(task.y_train, again.y_train) and np.array_equal(task.X_test, again.X_test)
    assert task.X_train.shape[1] == 16
    train, test, deploy = task.prior("train"), task.prior("test"), task.prior("deploy")
    assert np.all(np.diff(train) < 0) and np.all(np.diff(deploy) > 0)  # reversed shares
    assert np.allclose(train, test, atol=0.01)
    assert train[0] / train[9] == pytest.approx(1 / 0.2, rel=0.1)
    with pytest.raises(ValueError, match="rarest"):
        imbalanced_digits(rarest=0)


def test_model_output_and_prior_shift(task):
    fitted = fit_logistic(task)
    assert fitted.probabilities.shape == (len(task.y_test), 10)
    assert np.allclose(fitted.probabilities.sum(axis=1), 1)
    assert np.array_equal(fitted.predictions, fitted.model.predict(task.X_test))
    p = fitted.probabilities_for(task.X_deploy)
    shifted = cm.prior_shift(p, task.prior("train"), task.prior("deploy"))
    labels = list(range(10))
    before = cm.confusion_matrix(task.y_deploy, cm.argmax_predictions(p), labels=labels)
    after = cm.confusion_matrix(task.y_deploy, cm.argmax_predictions(shifted), labels=labels)
    prevalence = cm.prevalence(before)
    # The correction moves the bias toward the deployment prevalence and raises accuracy.
    assert np.abs(cm.bias(after) - prevalence).sum() < np.abs(cm.bias(before) - prevalence).sum()
    assert cm.accuracy(after) > cm.accuracy(before)


def test_validation_part_leaves_train_and_test_unchanged(task):
    """validation=True halves the deployment pool; training and test are the same images."""
    split = imbalanced_digits(validation=True)
    assert np.array_equal(split.X_train, task.X_train) and np.array_equal(split.y_test, task.y_test)
    assert len(task.y_val) == 0 and 0 < len(split.y_val) < len(task.y_deploy)
    # Validation has the training frequencies; deployment keeps the reversed ones.
    assert np.allclose(split.prior("val"), split.prior("train"), atol=0.03)
    assert np.all(np.diff(split.prior("deploy")) > 0)
    # No image is in two parts (the 1,797 pooled images are all distinct, so rows identify them).
    assert _disjoint(split.X_train, split.X_val, split.X_test, split.X_deploy)
    with pytest.raises(ValueError, match="no 'val' part"):
        task.prior("val")
    with pytest.raises(ValueError, match="part must be one of"):
        task.prior("validation")


def _disjoint(*parts):
    rows = np.concatenate(parts)
    return len(np.unique(rows, axis=0)) == len(rows)


def test_train_seed_keeps_test_and_redraws_training():
    base = imbalanced_digits(validation=True)
    other = imbalanced_digits(validation=True, train_seed=1)
    assert np.array_equal(base.X_test, other.X_test)
    assert np.array_equal(base.X_deploy, other.X_deploy)
    assert not np.array_equal(base.X_train, other.X_train)
    # Same class counts; the training and validation images together are the same set.
    assert np.array_equal(np.bincount(base.y_train), np.bincount(other.y_train))
    assert _disjoint(other.X_train, other.X_val, other.X_test, other.X_deploy)
    with pytest.raises(ValueError, match="train_seed needs validation=True"):
        imbalanced_digits(train_seed=1)


def test_seeded_matrices_are_the_fitted_models_test_matrices():
    from clfbook.examples import seeded_matrices

    mats = seeded_matrices([0, 3], vary="split")
    assert mats.shape == (2, 2, 10, 10)
    task3 = imbalanced_digits(seed=3, validation=True)
    fitted = fit_logistic(task3, class_weight="balanced")
    expected = cm.confusion_matrix(task3.y_test, fitted.predictions, labels=list(range(10)))
    assert np.array_equal(mats[1, 1], expected)
    # vary="training" keeps the test set: every matrix has the same column sums.
    fixed = seeded_matrices([1, 2], vary="training", class_weights=[None])
    assert np.array_equal(fixed[0, 0].sum(axis=0), fixed[1, 0].sum(axis=0))
    assert not np.array_equal(fixed[0, 0], fixed[1, 0])
    with pytest.raises(ValueError, match="vary"):
        seeded_matrices([0], vary="test")
    with pytest.raises(ValueError, match="seeds is empty"):
        seeded_matrices([])
