"""The real-data task of the chapter "A real classifier, end to end"."""

from __future__ import annotations

import numpy as np
import pytest

import clfmetrics as cm
from clfmetrics.examples import fit_logistic, imbalanced_digits


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
