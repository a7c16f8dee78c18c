"""An imbalanced ten-class task from scikit-learn's handwritten digits, and a model for it.

``sklearn.datasets.load_digits`` holds 1,797 images of 8x8 pixels, about 180
per digit, and ships with scikit-learn. :func:`imbalanced_digits` makes a
reproducible, imbalanced task of it:

1. Each image is averaged over 2x2 pixel blocks to 4x4 = 16 features, so that a
   linear model makes enough errors for the metrics to disagree (on all 64
   pixels logistic regression is right about 95% of the time).
2. With a seeded generator (``seed``, the *split seed*), the images of each
   digit are shuffled and cut into three equal pools: training, test and
   deployment. With ``validation=True`` the deployment pool is halved: its first
   half becomes the validation pool, its second half the deployment pool, and
   the training and test pools stay exactly as without it.
3. Digit ``k`` keeps the share ``rarest ** (k / 9)`` of its training, validation
   and test pools (digit 0 all of it, digit 9 the share ``rarest``), so these
   parts have the same, skewed class frequencies. The deployment pool keeps the
   *reversed* shares (digit 9 common, digit 0 rare): a prevalence shift between
   training and deployment.
4. ``train_seed`` (with ``validation=True``) reshuffles each digit's training
   and validation pools together before they are cut again, so the test and
   deployment images stay fixed while the training images change: the
   variation that comes from the training data alone.

The three labelled parts never share an image: choose on the validation part
(thresholds, calibration, the model), report on the test part.

Labels are the digits 0-9; score matrices have one column per digit, in order.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from clfmetrics.metrics._confusion import confusion_matrix
from clfmetrics.scores._decisions import argmax_predictions

__all__ = [
    "DigitsTask",
    "ScoredModel",
    "fit_logistic",
    "imbalanced_digits",
    "seeded_matrices",
]

DIGITS = np.arange(10)


PARTS = ("train", "val", "test", "deploy")


@dataclass(frozen=True)
class DigitsTask:
    """Features ``X_*`` (16 per image) and digit labels ``y_*`` of the parts.

    ``X_val`` and ``y_val`` (the validation part) are empty unless the task was made
    with ``validation=True``.
    """

    X_train: np.ndarray
    y_train: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray
    X_deploy: np.ndarray
    y_deploy: np.ndarray
    shares: np.ndarray  #: share of each digit's pool kept for training, validation, test
    X_val: np.ndarray = field(default_factory=lambda: np.empty((0, 16)))
    y_val: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=int))

    def prior(self, part: str) -> np.ndarray:
        """Class frequencies (summing to 1) of one part: "train", "val", "test" or "deploy"."""
        if part not in PARTS:
            raise ValueError(f"part must be one of {PARTS}; got {part!r}")
        y = getattr(self, f"y_{part}")
        if len(y) == 0:
            raise ValueError(f"the task has no {part!r} part (make it with validation=True)")
        return np.bincount(y, minlength=10) / len(y)


def _pooled(images: np.ndarray) -> np.ndarray:
    """Average 8x8 images over 2x2 blocks: shape (N, 64) -> (N, 16)."""
    return images.reshape(-1, 4, 2, 4, 2).mean(axis=(2, 4)).reshape(len(images), 16)


@functools.cache
def _digits() -> tuple[np.ndarray, np.ndarray]:
    """The pooled images and their labels, read once (every task indexes copies of them)."""
    from sklearn.datasets import load_digits

    X, y = load_digits(return_X_y=True)
    return _pooled(X), y


def imbalanced_digits(
    *, seed: int = 0, rarest: float = 0.2, validation: bool = False, train_seed=None
) -> DigitsTask:
    """The seeded, imbalanced digits task described in the module docstring.

    Parameters
    ----------
    seed : int
        The split seed: seed of the generator that shuffles each digit's images.
    rarest : float in (0, 1]
        Share of its pools that digit 9 keeps (digit ``k`` keeps ``rarest ** (k / 9)``).
    validation : bool, default False
        Cut a validation part from the deployment pool (its first half); the training
        and test parts are the same as without it.
    train_seed : int, optional
        Needs ``validation=True``. Reshuffle each digit's training and validation pools
        together with this seed before cutting them again: the test and deployment
        parts stay fixed, the training images change.

    Returns
    -------
    DigitsTask
    """
    if not 0 < rarest <= 1:
        raise ValueError(f"rarest must lie in (0, 1]; got {rarest!r}")
    if train_seed is not None and not validation:
        raise ValueError("train_seed needs validation=True: it redraws training vs validation")
    X, y = _digits()
    rng = np.random.default_rng(seed)
    retrain = None if train_seed is None else np.random.default_rng(train_seed)
    shares = rarest ** (DIGITS / 9)
    parts: dict[str, list[np.ndarray]] = {part: [] for part in PARTS}
    for k in DIGITS:  # a loop over the ten classes, not over items
        items = rng.permutation(np.flatnonzero(y == k))
        third = len(items) // 3
        train, test, rest = items[:third], items[third : 2 * third], items[2 * third : 3 * third]
        val, deploy = (rest[: third // 2], rest[third // 2 :]) if validation else (rest[:0], rest)
        if retrain is not None:
            pooled = retrain.permutation(np.concatenate([train, val]))
            train, val = pooled[:third], pooled[third:]
        keep, keep_reversed = round(third * shares[k]), round(len(deploy) * shares[9 - k])
        parts["train"].append(train[:keep])
        parts["test"].append(test[:keep])
        parts["val"].append(val[: round(len(val) * shares[k])])
        parts["deploy"].append(deploy[:keep_reversed])
    idx = {name: np.sort(np.concatenate(chunks)) for name, chunks in parts.items()}
    return DigitsTask(
        X[idx["train"]],
        y[idx["train"]],
        X[idx["test"]],
        y[idx["test"]],
        X[idx["deploy"]],
        y[idx["deploy"]],
        shares,
        X[idx["val"]],
        y[idx["val"]],
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
        with _one_thread():
            return self.model.predict_proba(X)


def _one_thread():
    """Run numpy's BLAS on one thread: on a few hundred images its thread pool costs more
    than it saves, most of all on a busy machine with few cores."""
    from threadpoolctl import threadpool_limits

    return threadpool_limits(limits=1)


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
    with _one_thread():
        model.fit(task.X_train, task.y_train)
        probabilities = model.predict_proba(task.X_test)
    return ScoredModel(model, task.y_test, probabilities, argmax_predictions(probabilities))


def seeded_matrices(
    seeds, *, vary: str = "split", class_weights=(None, "balanced"), seed: int = 0
) -> np.ndarray:
    """Test confusion matrices of several logistic regressions, one task per seed.

    Logistic regression is fitted deterministically (a convex loss, solved to
    convergence), so what varies from seed to seed is the data: with
    ``vary="split"`` every part is redrawn (``imbalanced_digits(seed=s,
    validation=True)``); with ``vary="training"`` the test part stays that of ``seed``
    and only the training images change (``train_seed=s``). Each model is fitted on the
    training part and scored by the argmax on the test part.

    Parameters
    ----------
    seeds : sequence of int
    vary : {"split", "training"}
    class_weights : sequence of None or "balanced"
        One model per entry, fitted on the same task.
    seed : int
        The split seed that ``vary="training"`` keeps.

    Returns
    -------
    ndarray of int64, shape (len(seeds), len(class_weights), 10, 10)
        ``[s, k]`` is the test confusion matrix of model ``k`` on task ``s``, in the
        book's orientation (rows = predicted digit, columns = true digit).
    """
    if vary not in ("split", "training"):
        raise ValueError(f'vary must be "split" or "training"; got {vary!r}')
    seeds = [int(s) for s in seeds]
    if not seeds:
        raise ValueError("seeds is empty: give at least one seed")
    out = np.empty((len(seeds), len(class_weights), 10, 10), dtype=np.int64)
    for a, s in enumerate(seeds):  # one task and one fit per seed and model
        if vary == "split":
            task = imbalanced_digits(seed=s, validation=True)
        else:
            task = imbalanced_digits(seed=seed, validation=True, train_seed=s)
        for b, weight in enumerate(class_weights):
            fitted = fit_logistic(task, class_weight=weight)
            out[a, b] = confusion_matrix(task.y_test, fitted.predictions, labels=DIGITS)
    return out
