"""An imbalanced ten-class task from scikit-learn's handwritten digits, and a model for it.

``sklearn.datasets.load_digits`` holds 1,797 images of 8x8 pixels, about 180
per digit, and ships with scikit-learn. :func:`imbalanced_digits` makes a
reproducible, imbalanced task of it:

1. Each image is averaged over 2x2 pixel blocks to 4x4 = 16 features, so that a
   linear model makes enough errors for the metrics to disagree (on all 64
   pixels logistic regression is right about 95% of the time).
2. With a seeded generator, the images of each digit are shuffled and cut into
   three equal pools: training, test and deployment.
3. Digit ``k`` keeps the share ``rarest ** (k / 9)`` of its training and test
   pools (digit 0 all of it, digit 9 the share ``rarest``), so training and test
   have the same, skewed class frequencies. The deployment pool keeps the
   *reversed* shares (digit 9 common, digit 0 rare): a prevalence shift between
   training and deployment.

Labels are the digits 0-9; score matrices have one column per digit, in order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..decisions import argmax_predictions

__all__ = ["DigitsTask", "ScoredModel", "fit_logistic", "imbalanced_digits"]

DIGITS = np.arange(10)


@dataclass(frozen=True)
class DigitsTask:
    """Features ``X_*`` (16 per image) and digit labels ``y_*`` of the three parts."""

    X_train: np.ndarray
    y_train: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray
    X_deploy: np.ndarray
    y_deploy: np.ndarray
    shares: np.ndarray  #: share of each digit's pool kept for training and test

    def prior(self, part: str) -> np.ndarray:
        """Class frequencies (summing to 1) of ``"train"``, ``"test"`` or ``"deploy"``."""
        y = {"train": self.y_train, "test": self.y_test, "deploy": self.y_deploy}[part]
        return np.bincount(y, minlength=10) / len(y)


def _pooled(images: np.ndarray) -> np.ndarray:
    """Average 8x8 images over 2x2 blocks: shape (N, 64) -> (N, 16)."""
    return images.reshape(-1, 4, 2, 4, 2).mean(axis=(2, 4)).reshape(len(images), 16)


def imbalanced_digits(*, seed: int = 0, rarest: float = 0.2) -> DigitsTask:
    """The seeded, imbalanced digits task described in the module docstring.

    Parameters
    ----------
    seed : int
        Seed of the generator that shuffles each digit's images.
    rarest : float in (0, 1]
        Share of its pools that digit 9 keeps (digit ``k`` keeps ``rarest ** (k / 9)``).

    Returns
    -------
    DigitsTask
    """
    from sklearn.datasets import load_digits

    if not 0 < rarest <= 1:
        raise ValueError(f"rarest must lie in (0, 1]; got {rarest!r}")
    X, y = load_digits(return_X_y=True)
    X = _pooled(X)
    rng = np.random.default_rng(seed)
    shares = rarest ** (DIGITS / 9)
    parts: dict[str, list[np.ndarray]] = {"train": [], "test": [], "deploy": []}
    for k in DIGITS:
        items = rng.permutation(np.flatnonzero(y == k))
        third = len(items) // 3
        keep, keep_reversed = round(third * shares[k]), round(third * shares[9 - k])
        parts["train"].append(items[:third][:keep])
        parts["test"].append(items[third : 2 * third][:keep])
        parts["deploy"].append(items[2 * third : 3 * third][:keep_reversed])
    idx = {name: np.sort(np.concatenate(chunks)) for name, chunks in parts.items()}
    return DigitsTask(
        X[idx["train"]],
        y[idx["train"]],
        X[idx["test"]],
        y[idx["test"]],
        X[idx["deploy"]],
        y[idx["deploy"]],
        shares,
    )


@dataclass(frozen=True)
class ScoredModel:
    """A fitted model and its test output: labels, class probabilities, argmax predictions."""

    model: object
    y_test: np.ndarray
    probabilities: np.ndarray  #: shape (N, 10), column k = P(digit k | image)
    predictions: np.ndarray

    def probabilities_for(self, X) -> np.ndarray:
        """Class probabilities of the fitted model on other images (16 features each)."""
        return self.model.predict_proba(X)


def fit_logistic(task: DigitsTask, *, class_weight=None, C: float = 1.0) -> ScoredModel:
    """Standardise the 16 features and fit multinomial logistic regression on the training part.

    Parameters
    ----------
    task : DigitsTask
    class_weight : None or "balanced"
        ``"balanced"`` weights each training item by the inverse frequency of its class,
        as if every digit were equally common in training.
    C : float
        Inverse regularisation strength of ``sklearn.linear_model.LogisticRegression``.

    Returns
    -------
    ScoredModel
        Predictions are the argmax of the probabilities on ``task.X_test``.
    """
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    model = make_pipeline(
        StandardScaler(), LogisticRegression(C=C, class_weight=class_weight, max_iter=2000)
    )
    model.fit(task.X_train, task.y_train)
    probabilities = model.predict_proba(task.X_test)
    return ScoredModel(model, task.y_test, probabilities, argmax_predictions(probabilities))
