r"""The numerical experiments of Opitz & Burst (2019), vectorised over stacks of matrices.

Every experiment draws confusion matrices in the library convention
(``m[..., i, j]`` = items predicted ``i`` whose true class is ``j``) with a
seeded ``numpy.random.Generator`` and evaluates both macro F1 formulas on the
whole stack at once: :math:`\mathbb{F}_1` (F1 of averages,
:func:`clfmetrics.f1_of_averages`) and :math:`\mathcal{F}_1` (averaged F1,
:func:`clfmetrics.macro_f1`).
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from clfmetrics.inference._simulate import random_classifier
from clfmetrics.metrics._averages import delta_f1, f1_of_averages, macro_f1

__all__ = [
    "PAPER",
    "accuracy_conditional",
    "accuracy_skew_grid",
    "accuracy_spread_grid",
    "agreement_stats",
    "all_binary_matrices",
    "delta_by_distribution",
    "discordant_share",
    "error_spread_conditional",
    "random_baseline",
    "sample_grid",
    "skewed_prevalence",
    "strongest_flip",
]

#: Numbers reported by Opitz & Burst (2019), for comparison with the re-computed ones.
PAPER = {
    "fig1a_max_f1_of_averages": 0.56,
    "fig1a_max_averaged_f1": 0.41,
    "fig1a_rmsd": 0.13,
    "fig1a_pearson": 0.72,
    "fig1a_spearman": 0.69,
    "fig2_max_delta": 0.02,  # "differences up to 2 percentage points" (HTML version)
    "fig3_max_delta_4": 0.008,  # balanced data: "up to 0.8 percentage points for n=4"
    "fig3_max_delta_13": 0.017,  # "and 1.7 percentage points for n=13"
    "example_f1_of_averages": 0.504950495049505,  # reference implementation's output
    "example_averaged_f1": 1.96078431372549e-2,
    "example_delta": 0.48534265191225007,
    "table1_f1_of_averages": 0.5,
    "table1_averaged_f1": 0.49,
    "table2_f1_of_averages": 0.55,
    "table2_averaged_f1": 0.48,
}


def random_baseline(prevalence, n_sets: int = 1000, n_items: int = 1000, rng=None) -> np.ndarray:
    """Confusion matrices of a uniform random classifier on ``n_sets`` sampled data sets.

    True labels are drawn from ``prevalence``; each prediction is uniform over
    the classes, whatever the truth (the note's "dummy" classifier).

    Returns
    -------
    ndarray of int64, shape (n_sets, n, n)
    """
    n = len(prevalence)
    return random_classifier(prevalence, np.full(n, 1.0 / n), n_items, size=n_sets, rng=rng)


def agreement_stats(big, small) -> dict[str, float]:
    r"""How far two score vectors agree: maxima, RMSD, Pearson and Spearman correlation.

    ``big`` is :math:`\mathbb{F}_1`, ``small`` is :math:`\mathcal{F}_1` of the
    same matrices; RMSD is :math:`\sqrt{\frac{1}{N}\sum(\mathbb{F}_1-\mathcal{F}_1)^2}`.
    """
    big, small = np.asarray(big, dtype=float), np.asarray(small, dtype=float)
    return {
        "max_f1_of_averages": float(big.max()),
        "max_averaged_f1": float(small.max()),
        "rmsd": float(np.sqrt(np.mean((big - small) ** 2))),
        "pearson": float(stats.pearsonr(big, small)[0]),
        "spearman": float(stats.spearmanr(big, small)[0]),
        "discordant": discordant_share(big, small),
    }


def discordant_share(a, b) -> float:
    """Share of pairs ``(k, l)`` that ``a`` and ``b`` order in opposite directions (strictly)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    da = np.sign(a[:, None] - a[None, :])
    db = np.sign(b[:, None] - b[None, :])
    upper = np.triu(np.ones(da.shape, dtype=bool), k=1)
    return float(np.mean((da * db < 0)[upper]))


def delta_by_distribution(distributions: dict, n_sets: int = 1000, n_items: int = 1000, rng=None):
    r""":math:`\Delta` of a uniform random classifier for each named class distribution.

    Returns a dict ``name -> ndarray (n_sets,)``; one generator feeds all
    distributions in order, so the result is reproducible from ``rng``.
    """
    rng = np.random.default_rng(rng)
    return {
        name: delta_f1(random_baseline(prev, n_sets, n_items, rng))
        for name, prev in distributions.items()
    }


def skewed_prevalence(n: int, y) -> np.ndarray:
    r"""Class distribution from uniform (``y = 0``) to proportional to the class index (``y = 1``).

    :math:`\mathcal{P}(c = i) = (1 - y)\frac{1}{n} + y\frac{i}{\sum_{k=1}^n k}` for
    :math:`i = 1, \dots, n`. Opitz & Burst (2019, Figure 2's y-axis) give only the
    end points ``y = 0`` and ``y = 1``; the linear interpolation between them is
    this book's choice.

    Returns
    -------
    ndarray, shape ``np.shape(y) + (n,)``
    """
    y = np.asarray(y, dtype=float)[..., None]
    i = np.arange(1, n + 1)
    return (1 - y) / n + y * i / i.sum()


def accuracy_conditional(n: int, x) -> np.ndarray:
    r"""Classifier that is right with probability ``x`` and spreads its errors evenly.

    :math:`\mathcal{P}(f \to i \mid c = j) = x` for :math:`i = j` and
    :math:`(1 - x)/(n - 1)` otherwise (Figure 2's x-axis).

    Returns
    -------
    ndarray, shape ``np.shape(x) + (n, n)``; column ``j`` sums to 1.
    """
    x = np.asarray(x, dtype=float)[..., None, None]
    eye = np.eye(n)
    return x * eye + (1 - x) / (n - 1) * (1 - eye)


def sample_grid(prevalence, conditional, n_items: int, rng=None) -> np.ndarray:
    """Sample confusion matrices for broadcast stacks of class distributions and classifiers.

    Parameters
    ----------
    prevalence : array_like, shape (..., n)
        Class distribution of each data set.
    conditional : array_like, shape (..., n, n)
        ``conditional[..., i, j]`` = probability that an item of true class ``j`` is
        predicted ``i``; the leading axes broadcast against those of ``prevalence``.
    n_items : int
        Items per data set.
    rng : numpy.random.Generator or int, optional

    Returns
    -------
    ndarray of int64, shape (broadcast leading axes) + (n, n)
    """
    rng = np.random.default_rng(rng)
    prevalence = np.asarray(prevalence, dtype=float)
    cond_t = np.swapaxes(np.asarray(conditional, dtype=float), -1, -2)  # (..., true, pred)
    lead = np.broadcast_shapes(prevalence.shape[:-1], cond_t.shape[:-2])
    n = prevalence.shape[-1]
    true_counts = rng.multinomial(n_items, np.broadcast_to(prevalence, (*lead, n)))
    by_true = rng.multinomial(true_counts, np.broadcast_to(cond_t, (*lead, n, n)))
    return np.swapaxes(by_true, -1, -2).astype(np.int64)


def accuracy_skew_grid(
    n: int, n_x: int = 21, n_y: int = 21, n_items: int = 2000, reps: int = 10, rng=None
):
    r"""Mean :math:`\Delta` over a grid of accuracy ``x`` (columns) and label skew ``y`` (rows).

    ``x`` runs from :math:`1/n` to 1 (:func:`accuracy_conditional`), ``y`` from
    0 to 1 (:func:`skewed_prevalence`); each cell averages ``reps`` data sets of
    ``n_items`` items.

    Returns
    -------
    xs : ndarray (n_x,)
    ys : ndarray (n_y,)
    delta : ndarray (n_y, n_x)
    """

    def build(xs, ys):  # (n_y, 1, 1, n) prevalences, (1, n_x, 1, n, n) classifiers
        return skewed_prevalence(n, ys)[:, None, None, :], accuracy_conditional(n, xs)[
            None, :, None
        ]

    return _grid(n, n_x, n_y, reps, n_items, rng, build)


def _grid(n, n_x, n_y, reps, n_items, rng, build):
    """x from 1/n to 1, y from 0 to 1, and the mean Δ of ``reps`` data sets per cell.

    ``build(xs, ys)`` returns the prevalences and classifiers, broadcastable to
    ``(n_y, n_x, reps, n)`` and ``(n_y, n_x, reps, n, n)``.
    """
    xs = np.linspace(1.0 / n, 1.0, n_x)
    ys = np.linspace(0.0, 1.0, n_y)
    prev, cond = build(xs, ys)
    m = sample_grid(np.broadcast_to(prev, (n_y, n_x, reps, n)), cond, n_items, rng)
    return xs, ys, delta_f1(m).mean(axis=-1)


def error_spread_conditional(n: int, x, y) -> np.ndarray:
    r"""Classifier right with probability ``x`` whose errors lean towards high class numbers.

    For true class :math:`j` (classes numbered :math:`1, \dots, n`) and :math:`i \ne j`,

    .. math::

        \mathcal{P}(f \to i \mid c = j) = (1 - y)\,\frac{1 - x}{n - 1}
        + y\,\frac{i\,(1 - x)}{\sum_{k=1}^n k - j},

    even at ``y = 0`` and proportional to the predicted class's number at ``y = 1``;
    :math:`\mathcal{P}(f \to j \mid c = j) = x`. Opitz & Burst (2019, Figure 3's
    y-axis) give only these end points; the linear interpolation between them is this
    book's choice.

    Returns
    -------
    ndarray, shape ``np.broadcast_shapes(np.shape(x), np.shape(y)) + (n, n)``;
    ``out[..., i, j]`` = probability of predicting ``i`` for true ``j``; columns sum to 1.
    """
    x = np.asarray(x, dtype=float)[..., None, None]
    y = np.asarray(y, dtype=float)[..., None, None]
    k = np.arange(1, n + 1, dtype=float)
    eye = np.eye(n)
    leaning = k[:, None] / (k.sum() - k[None, :]) * (1 - eye)  # [i, j] = i / (sum - j)
    errors = (1 - y) * (1 - eye) / (n - 1) + y * leaning
    return x * eye + (1 - x) * errors


def accuracy_spread_grid(
    n: int, n_x: int = 21, n_y: int = 21, n_items: int = 2000, reps: int = 10, rng=None
):
    r"""Mean :math:`\Delta` on balanced data over accuracy ``x`` (columns) and error spread ``y``.

    Figure 3 of Opitz & Burst (2019): every class occurs with probability
    :math:`1/n`; the classifier is :func:`error_spread_conditional`, ``x`` from
    :math:`1/n` to 1, ``y`` from 0 to 1. Each cell averages ``reps`` data sets
    of ``n_items`` items.

    Returns
    -------
    xs : ndarray (n_x,)
    ys : ndarray (n_y,)
    delta : ndarray (n_y, n_x)
    """

    def build(xs, ys):  # balanced prevalence, (n_y, n_x, 1, n, n) classifiers
        return np.full(n, 1.0 / n), error_spread_conditional(n, xs[None, :], ys[:, None])[
            :, :, None
        ]

    return _grid(n, n_x, n_y, reps, n_items, rng, build)


def all_binary_matrices(prevalence=(10, 20)) -> np.ndarray:
    """Every binary confusion matrix whose columns sum to ``prevalence`` (a fixed data set).

    Returns
    -------
    ndarray of int64, shape (k, 2, 2), ``k = (prevalence[0] + 1) * (prevalence[1] + 1)``
    """
    a, b = (int(v) for v in prevalence)
    hit_a, hit_b = np.meshgrid(np.arange(a + 1), np.arange(b + 1), indexing="ij")
    hit_a, hit_b = hit_a.ravel(), hit_b.ravel()
    m = np.empty((hit_a.size, 2, 2), dtype=np.int64)
    m[:, 0, 0], m[:, 1, 0] = hit_a, a - hit_a  # true class a: found, predicted b
    m[:, 1, 1], m[:, 0, 1] = hit_b, b - hit_b
    return m


def strongest_flip(big, small) -> tuple[int, int]:
    r"""Indices ``(k, j)``: :math:`\mathbb{F}_1` prefers ``k``, :math:`\mathcal{F}_1` prefers ``j``.

    Chooses the pair whose smaller of the two margins is largest, i.e. the
    clearest disagreement; raises ``ValueError`` if the rankings never disagree.
    """
    big, small = np.asarray(big, dtype=float), np.asarray(small, dtype=float)
    margin = np.minimum(big[:, None] - big[None, :], small[None, :] - small[:, None])
    k, j = np.unravel_index(np.argmax(margin), margin.shape)
    if margin[k, j] <= 0:
        raise ValueError("the two formulas rank these matrices identically")
    return int(k), int(j)


def two_macro_f1(m):
    """``(f1_of_averages(m), macro_f1(m))`` for a matrix or stack."""
    return f1_of_averages(m), macro_f1(m)
