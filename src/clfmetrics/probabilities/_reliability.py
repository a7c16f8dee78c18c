r"""Are the probabilities right? Proper scoring rules, the reliability curve and the ECE.

:func:`brier_score` and :func:`log_loss` are strictly proper scoring rules;
:func:`reliability_curve` bins the stated probabilities and compares, bin by bin, the
observed frequency with the mean stated probability; :func:`expected_calibration_error`
sums the gaps (plug-in or debiased). Calibration of probabilities is not the book's
prevalence calibration of a confusion matrix (:mod:`clfmetrics.metrics`).

The public functions check their input once (``p``: float64, 1-d or ``(N, n)``,
in [0, 1], rows summing to 1; with ``pos``, whether each item is positive, or
``cols``, the column of its true class) and call the arithmetic here (``brier_of``,
``log_loss_of``, ``binned``, ``ece_of``), which the report calls directly on
probabilities it has checked where they entered, so no check is repeated over the
``N`` items. Equal-width bins are summed a block of items at a time, to the same bits.
"""

from __future__ import annotations

import math

import numpy as np

from .._base.arrays import bincount_onto
from .._base.checks import reject_masked
from .._base.codes import label_codes
from ..scores import as_scores, as_target, positives

_EPS = np.finfo(np.float64).eps
#: Rows of a probability matrix handled at a time by the Brier score (no copy of the matrix).
_BLOCK_ITEMS = 2**20


def brier_of(p: np.ndarray, pos, cols) -> float:
    """The Brier score (see :func:`clfmetrics.probabilities.brier_score`)."""
    if cols is None:
        # Both columns of [1 - p, p], halved: scikit-learn's arithmetic (the same last bit),
        # in place (one or two floats per item held, not five).
        outer = (~pos).astype(np.float64)  # 1 - y
        inner = 1.0 - p
        outer -= inner
        del inner
        np.square(outer, out=outer)
        term = pos.astype(np.float64)
        term -= p
        np.square(term, out=term)
        outer += term
        return float(np.mean(outer) * 0.5)
    rows, step = np.empty(len(p)), max(1, _BLOCK_ITEMS // p.shape[1])  # blocks: no matrix copy
    for start in range(0, len(p), step):
        diff = p[start : start + step].copy()
        diff[np.arange(len(diff)), cols[start : start + step]] -= 1.0
        rows[start : start + step] = np.einsum("ij,ij->i", diff, diff)
    return float(np.mean(rows))


def log_loss_of(p: np.ndarray, pos, cols) -> float:
    """The log loss, clipped as scikit-learn's (see :func:`clfmetrics.probabilities.log_loss`)."""
    if cols is None:  # np.where(pos, p, 1 - p), in place
        true_p = 1.0 - p
        np.copyto(true_p, p, where=pos)
    else:  # p[np.arange(N), cols], a block of rows at a time (no N indices)
        true_p, step = np.empty(len(p)), max(1, _BLOCK_ITEMS // p.shape[1])
        for start in range(0, len(p), step):
            block = p[start : start + step]
            true_p[start : start + len(block)] = block[
                np.arange(len(block)), cols[start : start + step]
            ]
    np.clip(true_p, _EPS, 1.0 - _EPS, out=true_p)
    return float(-np.mean(np.log(true_p, out=true_p)))


def bin_items(p: np.ndarray, pos, cols, bins: int, strategy: str):
    """Per item: its bin, stated probability and hit (outcome)."""
    if cols is None:
        stated, hit = p, pos
    else:  # top-label (confidence) calibration, Guo et al. (2017)
        top = np.argmax(p, axis=1)
        stated, hit = p[np.arange(len(p)), top], top == cols
    return bin_ids(stated, bins, strategy), stated, hit


def bin_ids(stated: np.ndarray, bins: int, strategy: str) -> np.ndarray:
    """The bin of each stated probability: ``bins`` equal widths, or quantile edges."""
    if strategy == "uniform":
        edges = np.linspace(0.0, 1.0, bins + 1)
    else:
        edges = np.percentile(stated, np.linspace(0, 1, bins + 1) * 100)
    # As scikit-learn's calibration_curve: bin b holds (edges[b], edges[b + 1]], the
    # first bin also its left edge; values on an inner edge go to the lower bin.
    return np.searchsorted(edges[1:-1], stated)


def bin_sums(ids, stated, hit, bins):
    """Per non-empty bin: count, sum of outcomes, sum of stated probabilities."""
    counts = np.bincount(ids, minlength=bins)
    observed = np.bincount(ids, weights=hit.astype(np.float64), minlength=bins)
    predicted = np.bincount(ids, weights=stated, minlength=bins)
    full = counts > 0
    return counts[full], observed[full], predicted[full]


def binned(p: np.ndarray, pos, cols, bins: int, strategy: str):
    """Per non-empty bin: count, sum of outcomes, sum of stated probabilities.

    Equal-width bins: a block of items at a time, so no bin, top label or stated
    probability of N items is held; the sums are the same to the last bit
    (:func:`bincount_onto`).
    """
    if strategy != "uniform":  # quantile edges need every stated probability at once
        return bin_sums(*bin_items(p, pos, cols, bins, strategy), bins)
    counts, hits, stated = np.zeros(bins, np.int64), np.zeros(bins), np.zeros(bins)
    step = max(1, _BLOCK_ITEMS // (1 if p.ndim == 1 else p.shape[1]))
    for start in range(0, len(p), step):
        part = slice(start, start + step)
        ids, said, hit = bin_items(
            p[part], None if pos is None else pos[part], None if cols is None else cols[part],
            bins, strategy,
        )  # fmt: skip
        counts += np.bincount(ids, minlength=bins)
        hits, stated = bincount_onto(hits, ids, hit), bincount_onto(stated, ids, said)
    full = counts > 0
    return counts[full], hits[full], stated[full]


def ece_of(counts, hits, stated, debiased, norm=1) -> float:
    """Plug-in or debiased ECE (``norm=1``) or squared calibration error (``norm=2``).

    From the sums per non-empty bin: items, positives and stated probabilities.
    """
    gap = hits / counts - stated / counts
    weight = counts / counts.sum()
    if norm == 2:
        squared = gap**2
        if debiased:
            # Kumar, Liang & Ma (2019): the unbiased estimate of each bin's noise variance,
            # freq (1 - freq) / (n_b - 1); a bin of one item cannot estimate it.
            freq = hits / counts
            noise = np.divide(
                freq * (1 - freq), counts - 1, out=np.zeros_like(freq), where=counts > 1
            )
            squared = squared - noise
        return float(weight @ squared)
    if not debiased:
        return float(np.abs(hits - stated).sum() / counts.sum())
    freq = hits / counts
    sd = np.sqrt(freq * (1 - freq) / counts)
    # E|G| for G ~ N(gap, sd^2): sd sqrt(2/pi) exp(-gap^2 / 2 sd^2) + gap (1 - 2 Phi(-gap / sd)).
    z = np.divide(gap, sd, out=np.zeros_like(gap), where=sd > 0)
    phi = 0.5 * (1 + np.array([math.erf(-v / math.sqrt(2)) for v in z.tolist()]))
    folded = np.where(
        sd > 0,
        sd * math.sqrt(2 / math.pi) * np.exp(-0.5 * z**2) + gap * (1 - 2 * phi),
        np.abs(gap),
    )
    return float(weight @ (2 * np.abs(gap) - folded))


#: How far a row of an (N, n) matrix may sum from 1 (float32 probabilities pass).
ROW_SUM_TOLERANCE = 1e-6
#: Rows of a probability matrix summed at a time by :func:`worst_row_sum`.
_ROW_BLOCK = 2**16


def _as_proba(proba) -> np.ndarray:
    """``proba`` as a float array, 1-d or (N, n), finite, in [0, 1], non-empty."""
    reject_masked(proba, "proba", "items")
    try:
        arr = np.asarray(proba)
    except ValueError as err:  # ragged nested lists
        raise ValueError(f"proba is not a rectangular array of numbers: {err}") from None
    if arr.ndim not in (1, 2):
        raise ValueError(
            "proba must be 1-d (the probability of the positive class, one per item) or "
            f"(N, n) (one column per class); got shape {arr.shape}"
        )
    p = as_scores(arr, ndim=arr.ndim, name="proba")
    if p.size == 0:
        raise ValueError(f"proba is empty (shape {p.shape}): there is nothing to evaluate")
    if p.min() < 0 or p.max() > 1:
        bad = np.argwhere((p < 0) | (p > 1))[0]
        where = tuple(bad.tolist()) if p.ndim > 1 else int(bad[0])
        raise ValueError(
            f"proba has the value {p[tuple(bad)]} at index {where}: probabilities lie in [0, 1]"
        )
    return p


def _true_columns(y_true, p: np.ndarray, labels) -> np.ndarray:
    """For an (N, n) matrix: the column of each item's true class, after checking the rows."""
    n = p.shape[1]
    if n < 2:
        raise ValueError(f"proba must have one column per class (n >= 2); got shape {p.shape}")
    y = as_target(y_true, len(p), "proba")
    if labels is None:
        try:
            classes = np.unique(y)
        except TypeError as err:
            raise ValueError(f"y_true must hold labels of one sortable kind: {err}") from None
        if len(classes) != n:
            raise ValueError(
                f"proba has {n} columns but y_true holds {len(classes)} distinct classes "
                f"{classes.tolist()}; pass labels= with the class of each column"
            )
    codes, _, n_labels = label_codes(y, y, labels)
    if n_labels != n:
        raise ValueError(
            f"proba has {n} columns but labels names {n_labels} classes; "
            "there must be one column per class"
        )
    sums = p.sum(axis=1)
    off = np.abs(sums - 1) > ROW_SUM_TOLERANCE
    if off.any():
        row = int(np.argmax(off))
        raise ValueError(
            f"proba row {row} sums to {float(sums[row])!r}, not 1: each row must be a probability "
            "distribution over the classes (normalise it, or pass the probability of the "
            "positive class as a 1-d array)"
        )
    return codes


def worst_row_sum(p: np.ndarray) -> tuple[float, int]:
    """The largest ``|row sum - 1|`` of an ``(N, n)`` matrix and the first row that has it,
    summed a block of rows at a time (no column of N row sums is held)."""
    worst, row = 0.0, 0
    for start in range(0, len(p), _ROW_BLOCK):
        off = np.abs(p[start : start + _ROW_BLOCK].sum(axis=1) - 1)
        if off.max() > worst:
            worst, row = float(off.max()), start + int(np.argmax(off))
    return worst, row


def _binary_or_matrix(y_true, proba, pos_label, labels):
    """``(p, is_pos, None)`` for 1-d ``proba``, ``(p, None, true columns)`` for a matrix."""
    p = _as_proba(proba)
    if p.ndim == 1:
        if labels is not None:
            raise ValueError(
                "labels applies to an (N, n) matrix; for 1-d proba (the probability of the "
                "positive class) use pos_label="
            )
        _, pos = positives(y_true, p, pos_label, name="proba")
        return p, pos, None
    if pos_label is not None:
        raise ValueError(
            "pos_label applies to 1-d proba; an (N, n) matrix uses labels= for its columns"
        )
    return p, None, _true_columns(y_true, p, labels)


def brier_score(y_true, proba, *, labels=None, pos_label=None) -> float:
    r"""The Brier score: mean squared distance between probabilities and outcomes.

    For 1-d ``proba`` (:math:`p_i` = probability that item :math:`i` is positive,
    :math:`y_i \in \{0, 1\}`):

    .. math:: BS = \frac{1}{N} \sum_i (p_i - y_i)^2 \in [0, 1].

    For an ``(N, n)`` matrix (:math:`p_{ik}` = probability that item :math:`i` is of
    class :math:`k`):

    .. math:: BS = \frac{1}{N} \sum_i \sum_k (p_{ik} - [y_i = k])^2 \in [0, 2].

    Lower is better. A strictly proper scoring rule (Brier 1950): its expectation is
    smallest only for the true probabilities, so it rewards honest probabilities,
    where accuracy only looks at which side of 0.5 they fall.

    Parameters
    ----------
    y_true : array_like of shape (N,)
        Reference labels.
    proba : array_like of shape (N,) or (N, n)
        Probabilities in [0, 1]: of the positive class (1-d), or one column per class
        with rows that sum to 1 (within ``ROW_SUM_TOLERANCE`` = 1e-6).
    labels : sequence of length n, optional
        ``(N, n)`` only: the class of each column (any order). Default: the sorted
        classes of ``y_true``, which must then number ``n``.
    pos_label : label, optional
        1-d only: the positive class; default the greater of the two labels (a single
        class 0, 1 or -1 makes 1 positive), as in :func:`clfmetrics.scores.roc_auc`.
        With ``pos_label``, ``y_true`` may hold more classes: the others are negative
        (one class against the rest).

    Returns
    -------
    float

    Notes
    -----
    1-d: equal to ``sklearn.metrics.brier_score_loss(y_true, proba)``. The matrix
    form sums over *all* classes; it equals ``brier_score_loss(y_true, proba,
    labels=..., scale_by_half=False)`` in scikit-learn 1.9, which is the default
    (``scale_by_half="auto"``) for three or more columns, while for two columns
    scikit-learn's default halves it. So a 2-column matrix ``[1 - p, p]`` scores
    twice the 1-d ``p``. Differences: for two string labels scikit-learn asks for
    ``pos_label``, here the greater label is positive; a matrix whose rows do not sum
    to 1 raises ``ValueError`` (scikit-learn computes on it); ``labels`` may be in
    any order (scikit-learn assumes sorted columns).

    Examples
    --------
    >>> round(brier_score([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3]), 12)
    0.0375
    """
    return brier_of(*_binary_or_matrix(y_true, proba, pos_label, labels))


def log_loss(y_true, proba, *, labels=None, pos_label=None) -> float:
    r"""Log loss (cross-entropy): the mean negative log-probability of the true class.

    .. math:: LL = -\frac{1}{N} \sum_i \ln \hat p_i(y_i),

    with :math:`\hat p_i(y_i)` the probability given to item :math:`i`'s true class
    (for 1-d ``proba``: :math:`p_i` if positive, :math:`1 - p_i` if negative). Lower is
    better; strictly proper, and unbounded: a confident mistake costs without limit.

    Parameters
    ----------
    y_true, proba, labels, pos_label
        As in :func:`brier_score`.

    Returns
    -------
    float

    Notes
    -----
    Equal to ``sklearn.metrics.log_loss`` (version 1.9) on the same input, including
    its clipping: each probability is clipped to :math:`[\epsilon, 1 - \epsilon]`,
    :math:`\epsilon = 2.2 \cdot 10^{-16}` (float64's machine epsilon), so a probability 0
    for the true class costs :math:`-\ln \epsilon \approx 36.04`, not infinity, and a
    probability 1 costs :math:`\approx 2.2 \cdot 10^{-16}`, not 0. Differences:
    scikit-learn 1.9 only warns when a row of a matrix does not sum to 1 and then uses
    the row as given; here a row off by more than 1e-6 raises ``ValueError``. For 1-d
    ``proba`` scikit-learn takes the greater label of ``y_true`` (or of ``labels``) as
    positive and refuses a single class; here ``pos_label`` says which class is
    positive, as in :func:`brier_score`.

    Examples
    --------
    >>> round(log_loss(["spam", "ham", "ham", "spam"],
    ...                [[.1, .9], [.9, .1], [.8, .2], [.35, .65]]), 5)
    0.21616
    """
    return log_loss_of(*_binary_or_matrix(y_true, proba, pos_label, labels))


def _as_bins(bins, strategy) -> int:
    if isinstance(bins, (bool, np.bool_)) or not isinstance(bins, (int, np.integer)):
        raise ValueError(f"bins must be a positive integer (the number of bins); got {bins!r}")
    if bins < 1:
        raise ValueError(f"bins must be at least 1; got {bins}")
    if strategy not in ("uniform", "quantile"):
        raise ValueError(f"strategy must be 'uniform' or 'quantile'; got {strategy!r}")
    return int(bins)


def _bin_items(y_true, proba, bins, strategy, pos_label, labels):
    """Per item: its bin, stated probability and hit (outcome); and the number of bins."""
    bins = _as_bins(bins, strategy)
    return (*bin_items(*_binary_or_matrix(y_true, proba, pos_label, labels), bins, strategy), bins)


def _binned(y_true, proba, bins, strategy, pos_label, labels):
    """Per non-empty bin: count, sum of outcomes, sum of stated probabilities."""
    bins = _as_bins(bins, strategy)
    return binned(*_binary_or_matrix(y_true, proba, pos_label, labels), bins, strategy)


def reliability_curve(
    y_true, proba, *, bins=10, strategy="uniform", pos_label=None, labels=None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""The reliability diagram: observed frequency against stated probability, per bin.

    The stated probabilities are cut into ``bins`` bins; for each bin :math:`b` that
    holds :math:`n_b > 0` items,

    .. math:: \mathrm{observed}_b = \frac{1}{n_b} \sum_{i \in b} y_i, \qquad
              \mathrm{predicted}_b = \frac{1}{n_b} \sum_{i \in b} p_i.

    Calibrated probabilities lie on the diagonal, up to the noise that :math:`n_b`
    items allow: read ``counts`` before reading a gap.

    Parameters
    ----------
    y_true : array_like of shape (N,)
    proba : array_like of shape (N,) or (N, n)
        1-d: :math:`p_i` is the probability of the positive class and :math:`y_i`
        whether item :math:`i` is positive. ``(N, n)``: top-label (confidence)
        calibration: :math:`p_i` is the row's largest probability and :math:`y_i`
        whether its column (the first of tied columns) is the true class.
    bins : int, default 10
        The number of bins.
    strategy : {"uniform", "quantile"}, default "uniform"
        ``"uniform"``: ``bins`` equal widths on [0, 1]. ``"quantile"``: edges at the
        quantiles of the stated probabilities, so the bins hold about equally many items
        (tied probabilities can merge bins).
    pos_label, labels
        As in :func:`brier_score`.

    Returns
    -------
    observed : ndarray of float
        The fraction of hits (positives) per non-empty bin, in order of the bins.
    predicted : ndarray of float
        The mean stated probability per non-empty bin.
    counts : ndarray of int64
        The items per non-empty bin; they sum to ``N``.

    Notes
    -----
    For 1-d ``proba``, ``observed`` and ``predicted`` equal ``prob_true`` and
    ``prob_pred`` of ``sklearn.calibration.calibration_curve(y_true, proba,
    n_bins=bins, strategy=strategy)``, with its bins: :math:`(e_b, e_{b+1}]`, the first
    bin closed, quantile edges from ``np.percentile`` (linear interpolation). Empty bins
    are left out, as there. scikit-learn's curve is binary only and has no counts.

    Examples
    --------
    >>> observed, predicted, counts = reliability_curve(
    ...     [0, 0, 1, 1, 1], [0.1, 0.2, 0.6, 0.7, 0.9], bins=2)
    >>> observed, predicted, counts
    (array([0., 1.]), array([0.15      , 0.73333333]), array([2, 3]))
    """
    counts, hits, stated = _binned(y_true, proba, bins, strategy, pos_label, labels)
    return hits / counts, stated / counts, counts


def expected_calibration_error(
    y_true,
    proba,
    *,
    bins=10,
    strategy="uniform",
    pos_label=None,
    labels=None,
    debiased=False,
    norm=1,
) -> float:
    r"""Expected calibration error: the gaps of the reliability diagram, weighted by counts.

    .. math:: ECE = \sum_b \frac{n_b}{N}\,
              \left| \mathrm{observed}_b - \mathrm{predicted}_b \right|

    over the non-empty bins of :func:`reliability_curve` with the same arguments
    (Naeini, Cooper & Hauskrecht 2015; Guo, Pleiss, Sun & Weinberger 2017).

    Parameters
    ----------
    y_true, proba, bins, strategy, pos_label, labels
        As in :func:`reliability_curve`; the result depends on them. 1-d ``proba``
        bins the probability of the positive class; an ``(N, n)`` matrix bins the
        top-label confidence (Guo et al.'s ECE; with 15 uniform bins in their paper).
    debiased : bool, default False
        Subtract the estimated upward bias of the plug-in (Kumar, Liang & Ma
        2019), see the notes.
    norm : {1, 2}, default 1
        1: the ECE, the weighted mean of the absolute gaps. 2: the *squared*
        calibration error, the weighted mean of the squared gaps (the square of
        Kumar et al.'s :math:`\ell_2` calibration error); with ``debiased=True``
        it is the one of the two whose estimate is unbiased, see the notes.

    Returns
    -------
    float
        In [0, 1] (the debiased forms may be slightly negative); 0 when every bin's
        observed frequency equals its mean probability.

    Notes
    -----
    The number depends on the binning, not only on the probabilities: more bins hold
    fewer items each, and their sampling noise adds to the sum, so even perfectly
    calibrated probabilities have an ECE above 0 that shrinks only as items per bin
    grow. Compare ECEs only with the same ``bins`` and ``strategy`` and similar
    numbers of items. With one bin it is :math:`|\bar y - \bar p|`, the gap between
    the observed and the mean stated frequency. scikit-learn has no ECE.

    **Debiased.** The plug-in ECE is biased upward: a bin's gap
    :math:`d_b = \mathrm{observed}_b - \mathrm{predicted}_b` is noisy, and the mean
    of :math:`|d_b|` exceeds :math:`|E d_b|`. With ``debiased=True`` the bias is
    estimated as Kumar, Liang & Ma (2019) do, by the gap's normal approximation
    :math:`G_b \sim N(d_b, s_b^2)`, :math:`s_b^2 = \bar y_b (1 - \bar y_b) / n_b`, and
    subtracted:

    .. math:: ECE_\text{debiased} = \sum_b \frac{n_b}{N}
              \left(2 |d_b| - E|G_b|\right), \quad
              E|G| = s \sqrt{2/\pi}\, e^{-d^2 / 2s^2} + d\,(1 - 2\Phi(-d/s)).

    Kumar et al. draw :math:`G_b` at random; here :math:`E|G_b|` is in closed form,
    so the result is not random. It may be slightly negative for well-calibrated
    probabilities; it still depends on the bins. The correction is only partial
    where the true gap is near 0, which is where the bias is largest: for a
    calibrated bin with exactly normal noise, :math:`E(2|G| - E|G|) = (2 - \sqrt 2)
    E|G|`, so about 59 % of the plug-in's bias remains whatever the bin's size.

    **Squared.** With ``norm=2`` and ``debiased=True`` each bin's squared gap loses
    the unbiased estimate of its noise variance (Kumar, Liang & Ma 2019):

    .. math:: \sum_b \frac{n_b}{N} \left(d_b^2 -
              \frac{\bar y_b (1 - \bar y_b)}{n_b - 1}\right),

    whose mean is the binned squared calibration error (exactly, when the
    probabilities within a bin are equal; otherwise it over-corrects by their
    variance over :math:`n_b - 1`, a tiny amount). It is the summary to report when
    an unbiased number is wanted; a bin of one item keeps its plug-in square. The
    calibration test (:func:`~clfmetrics.probabilities.calibration_test`) remains the
    statement of uncertainty.

    Examples
    --------
    >>> ece = expected_calibration_error([0, 0, 1, 1, 1], [0.1, 0.2, 0.6, 0.7, 0.9], bins=2)
    >>> round(ece, 12)
    0.22
    """
    if not isinstance(debiased, (bool, np.bool_)):
        raise ValueError(f"debiased must be True or False; got {debiased!r}")
    if isinstance(norm, (bool, np.bool_)) or norm not in (1, 2):
        raise ValueError(f"norm must be 1 (the ECE) or 2 (the squared error); got {norm!r}")
    return ece_of(*_binned(y_true, proba, bins, strategy, pos_label, labels), debiased, norm)
