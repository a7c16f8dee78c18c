r"""How often is it really? The prevalence of a deployment set through an imperfect classifier.

The share of deployment items a classifier puts in class :math:`i` is its *bias*
:math:`\hat b_i`, not the prevalence :math:`q_i`. Under label shift (the classifier's
class-conditional behaviour is the same on the calibration and the deployment set) the two
are tied by the calibration set's rates, :math:`\hat b = C q` with
:math:`C_{ij} = P(\text{predicted } i \mid \text{true } j)`, the columns of the calibration
confusion matrix normalised (rows = predictions, columns = truth). The estimators:

* ``"classify_and_count"``: :math:`\hat q = \hat b` (Forman 2008's CC), no correction;
* ``"adjusted"``: :math:`\hat q = C^{-1} \hat b`, for two classes the Rogan & Gladen (1978)
  estimator :math:`(\hat b_1 - FPR) / (TPR - FPR)`; Forman's (2008) adjusted count; for
  many classes the confusion-matrix inversion of black-box shift estimation (Lipton, Wang &
  Smola 2018);
* ``"probabilistic"`` and ``"probabilistic_adjusted"`` (Bella et al. 2010): the same with
  the mean probabilities in place of the counts of predictions;
* ``"em"``: Saerens, Latinne & Decaestecker (2002), the probabilities re-weighted by the
  ratio of the new prior to the prior they are calibrated for (the calibration sample's
  class shares, or ``prior=``: the fitting prior) until the prior is their mean.

An adjusted estimate can leave [0, 1]; it is then clipped and renormalised (QuaPy's
``norm="clip"``), and says so. The interval is the percentile bootstrap of **both**
samples: each resample draws the calibration items and the deployment items anew, so it
carries the uncertainty of the rates as well as of the deployment shares.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from .._base.codes import joint_codes
from ..inference import check_level, check_size
from ._reliability import ROW_SUM_TOLERANCE, _as_proba

METHODS = ("classify_and_count", "adjusted", "probabilistic", "probabilistic_adjusted", "em")
#: QuaPy's names of the same estimators.
ALIASES = {
    "cc": "classify_and_count",
    "acc": "adjusted",
    "pcc": "probabilistic",
    "pacc": "probabilistic_adjusted",
    "sld": "em",
    "emq": "em",
}
_PROBABILISTIC = ("probabilistic", "probabilistic_adjusted", "em")
_ADJUSTED = ("adjusted", "probabilistic_adjusted")
#: Above this condition number of the rates the inversion is said to be ill-conditioned:
#: errors of the calibrated rates reach the estimate multiplied by up to that much. For two
#: classes it is about 1 / (TPR - FPR), so 10 means a Youden index near 0.1.
ILL_CONDITIONED = 10.0
#: Beyond this the rates are taken as singular, and the inversion is refused.
_SINGULAR = 1e10
# EM stops when the prior moves by less than this (mean absolute change): the estimate to
# 1e-12; each resample to 1e-7 or after 200 cycles, since its ends need three digits and a
# resample whose maximum lies on the simplex's edge (a class at 0) creeps towards it.
_EM_TOLERANCE, _EM_RESAMPLE_TOLERANCE, _EM_STEPS, _EM_RESAMPLE_STEPS = 1e-12, 1e-7, 10_000, 200
# The longest SQUAREM extrapolation, in steps along r (Varadhan & Roland bound it too).
_SQUAREM_MOST = 1e4
# Numbers held per chunk of resamples (items x classes x resamples).
_CHUNK_NUMBERS = 2**22
# Numbers of the (rows, items) array of one block of an EM step.
_EM_BLOCK_NUMBERS = 2**16


@dataclass(frozen=True, eq=False)
class PrevalenceEstimate:
    """The estimated class prevalence of a deployment set, with its interval.

    Parameters
    ----------
    labels : list
        The classes, in the order of every vector below.
    estimate, low, high : ndarray of shape (n,)
        The prevalence of each class and the ends of its percentile interval.
    raw : ndarray of shape (n,)
        The estimate before clipping (equal to ``estimate`` unless ``clipped``).
    clipped : bool
        Whether the raw estimate left [0, 1] and was clipped and renormalised.
    level : float
    method : str
    condition : float
        Condition number of the calibrated rates inverted (NaN where none is).
    undefined : float
        Share of resamples left out: rates not invertible, or a class without calibration items.
    calibration, deployment : int
        Items of the two samples.
    warning : str or None
        What to read with care: a clipped estimate, an ill-conditioned inversion.
    """

    labels: list
    estimate: np.ndarray
    low: np.ndarray
    high: np.ndarray
    raw: np.ndarray
    clipped: bool
    level: float
    method: str
    condition: float
    undefined: float
    calibration: int
    deployment: int
    warning: str | None = None

    def __str__(self) -> str:
        rows = [
            f"{label!s}: {e:.3f} [{lo:.3f}, {hi:.3f}]"
            for label, e, lo, hi in zip(
                self.labels, self.estimate, self.low, self.high, strict=True
            )
        ]
        head = f"prevalence ({self.method}, {self.level:.0%} interval of both samples)"
        return "\n".join([head, *rows] + ([f"note: {self.warning}"] if self.warning else []))


def _method(method) -> str:
    name = ALIASES.get(method, method) if isinstance(method, str) else method
    if name not in METHODS:
        raise ValueError(f"method must be one of {METHODS} (or {sorted(ALIASES)}); got {method!r}")
    return name


def _probabilities(pred, n: int | None, name: str) -> np.ndarray:
    """``(N, n)`` probabilities from 1-d (two classes: of the second label) or ``(N, n)``."""
    p = _as_proba(pred)
    if p.ndim == 1:
        if n not in (None, 2):
            raise ValueError(f"{name} is 1-d (two classes) but there are {n} classes")
        return np.stack([1.0 - p, p], axis=1)
    if n is not None and p.shape[1] != n:
        raise ValueError(f"{name} has {p.shape[1]} columns for {n} classes: one per class")
    off = np.abs(p.sum(axis=1) - 1) > ROW_SUM_TOLERANCE
    if off.any():
        raise ValueError(f"{name} row {int(np.argmax(off))} does not sum to 1")
    return p


def _is_matrix(pred) -> bool:
    return np.ndim(pred) == 2


def _codes(y_cal, pred_cal, pred_deploy, labels, probabilistic):
    """The calibration truth as codes, both predictions (codes or probabilities), the labels."""
    if probabilistic:
        p_cal = _probabilities(pred_cal, None, "pred_cal")
        n = p_cal.shape[1]
        p_dep = _probabilities(pred_deploy, n, "pred_deploy")
        codes, k, labels = joint_codes(y_cal, [y_cal], labels, names=["y_cal", "y_cal"])
        if k != n:
            raise ValueError(
                f"pred_cal has {n} columns but there are {k} classes ({labels}); pass labels= "
                "with the class of each column"
            )
        if len(p_cal) != codes.shape[1]:
            raise ValueError(
                f"y_cal and pred_cal differ in length: {codes.shape[1]} vs {len(p_cal)}"
            )
        return codes[0], p_cal, p_dep, labels
    if _is_matrix(pred_cal) != _is_matrix(pred_deploy):
        raise ValueError("give pred_cal and pred_deploy alike: both labels, or both probabilities")
    if _is_matrix(pred_cal):  # probabilities: their argmax is the prediction
        p_cal = _probabilities(pred_cal, None, "pred_cal")
        n = p_cal.shape[1]
        p_dep = _probabilities(pred_deploy, n, "pred_deploy")
        codes, k, labels = joint_codes(y_cal, [y_cal], labels, names=["y_cal", "y_cal"])
        if k != n:
            raise ValueError(f"pred_cal has {n} columns but there are {k} classes; pass labels=")
        if len(p_cal) != codes.shape[1]:
            raise ValueError(
                f"y_cal and pred_cal differ in length: {codes.shape[1]} vs {len(p_cal)}"
            )
        return codes[0], np.argmax(p_cal, axis=1), np.argmax(p_dep, axis=1), labels
    codes, n, labels = joint_codes(y_cal, [pred_cal], labels, names=["y_cal", "pred_cal"])
    try:
        deploy, _, _ = joint_codes(pred_deploy, [pred_deploy], labels, ["pred_deploy"] * 2)
    except ValueError as err:
        raise ValueError(
            f"{err} (the classes are those of the calibration set, or labels=)"
        ) from None
    return codes[0], codes[1], deploy[0], labels


def _clip(q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Clipped to [0, 1] and renormalised, and whether each row needed it."""
    out = np.clip(q, 0.0, 1.0)
    needed = (q < 0).any(axis=-1) | (q > 1).any(axis=-1)
    return out / out.sum(axis=-1, keepdims=True), needed


def _solve(rates: np.ndarray, shares: np.ndarray) -> np.ndarray:
    """``rates^-1 shares`` for stacks; NaN rows where the rates are singular or undefined."""
    out = np.full(shares.shape, np.nan)
    ok = np.isfinite(rates).all(axis=(-2, -1))
    if ok.any():
        cond = np.linalg.cond(rates[ok])
        good = np.flatnonzero(ok)[np.isfinite(cond) & (cond < _SINGULAR)]
        if good.size:
            out[good] = np.linalg.solve(rates[good], shares[good][..., None])[..., 0]
    return out


def _em_step(q, prior, p, weights, total):
    """One EM step for each row: E (re-weighted probabilities), M (their weighted mean).

    With r = q / prior, item i's new probabilities are p_i * r / (p_i . r); their weighted
    mean is r * sum_i (w_i / (p_i . r)) p_i: two products, no (rows, N, n) array. They run
    on blocks of items, each (rows, block) array in cache: the products are thin (n columns),
    memory-bound, and BLAS's threads cost more than they save on them (a block's product is
    small enough for OpenBLAS to keep it on one thread).
    """
    r = q / prior
    block = max(256, _EM_BLOCK_NUMBERS // len(r))
    acc = np.zeros(r.shape)
    for start in range(0, len(p), block):
        part = p[start : start + block]
        scale = r @ part.T
        np.divide(weights[:, start : start + block], scale, out=scale)
        acc += scale @ part
    return r * acc / total


def _em(prior, p, weights, tolerance: float, steps: int, start=None) -> np.ndarray:
    """Saerens et al. (2002) for each row of ``weights`` (rows, N) and ``prior`` (rows, n),
    from ``prior`` or from ``start`` (n,), a positive prior nearer the fixed point.

    Plain EM crawls where a class is rare (hundreds of steps); each cycle here is two EM steps
    and one extrapolation along them (SQUAREM, Varadhan & Roland 2008), kept inside the
    simplex, then one EM step, which has the same fixed point in far fewer steps.
    """
    total = weights.sum(axis=1, keepdims=True)
    q = prior.copy() if start is None else np.broadcast_to(start, prior.shape).copy()
    active = np.arange(len(q))
    args = (prior, p, weights, total)
    for _ in range(steps):
        if active.size == 0:
            break
        if len(args[0]) != active.size:  # copy the rows still moving only when some stop
            args = (prior[active], p, weights[active], total[active])
        q0 = q[active]
        q1 = _em_step(q0, *args)
        q2 = _em_step(q1, *args)
        r, v = q1 - q0, q2 - 2 * q1 + q0
        rn, vn = np.linalg.norm(r, axis=1), np.linalg.norm(v, axis=1)
        a = -np.divide(rn, vn, out=np.ones_like(rn), where=vn > 0)
        # a = -1 is the plain double step; near the fixed point r and v are rounding noise
        # and their ratio anything, so the step is bounded
        a = np.clip(a, -_SQUAREM_MOST, -1.0)[:, None]
        jump = np.clip(q0 - 2 * a * r + a * a * v, 1e-300, None)
        jump /= jump.sum(axis=1, keepdims=True)
        new = _em_step(jump, *args)
        moved = np.abs(new - q0).mean(axis=1)
        q[active] = new
        active = active[moved >= tolerance]
    return q


def _estimates(
    method, truth, pred_cal, pred_dep, w_cal, w_dep, n, tolerance, prior=None, start=None
):
    """Raw estimates ``(rows, n)`` for calibration weights ``w_cal`` and deployment ``w_dep``;
    EM with ``prior`` where given (the fitting prior), else the calibration shares, started
    from ``start`` where given."""
    if method != "em":  # EM's estimate is its fixed point, not the deployment set's mean
        total = w_dep.sum(axis=1, keepdims=True)
        if method in _PROBABILISTIC:
            shares = w_dep @ pred_dep / total
        else:
            shares = _bincount_rows(w_dep, pred_dep, n) / total
    if method in ("classify_and_count", "probabilistic"):
        return shares
    onehot = np.eye(n)[truth]
    class_items = w_cal @ onehot  # (rows, n)
    if method == "em":
        if prior is None:
            prior = class_items / class_items.sum(axis=1, keepdims=True)
        else:
            prior = np.broadcast_to(prior, class_items.shape).copy()
        out = np.full((len(w_dep), n), np.nan)
        ok = (prior > 0).all(axis=1)
        if ok.any():
            out[ok] = _em(prior[ok], pred_dep, w_dep[ok], *tolerance, start=start)
        return out
    stated = pred_cal if method == "probabilistic_adjusted" else np.eye(n)[pred_cal]
    joint = w_cal @ (stated[:, :, None] * onehot[:, None, :]).reshape(len(truth), n * n)
    with np.errstate(invalid="ignore", divide="ignore"):
        rates = joint.reshape(-1, n, n) / class_items[:, None, :]
    return _solve(rates, shares)


def _count_resamples(method, truth, pred_cal, pred_dep, n, size, rng) -> np.ndarray:
    """Clipped estimates ``(size, n)`` of resampled counts: labels need no item weights.

    Resampling the deployment items draws its counts of predictions (a multinomial over the
    n classes), resampling the calibration items its confusion matrix (one over the n * n
    cells), so a resample costs O(n^2) whatever the numbers of items.
    """
    n_dep = len(pred_dep)
    bias = np.bincount(pred_dep, minlength=n) / n_dep
    shares = rng.multinomial(n_dep, bias, size=size) / n_dep
    if method == "classify_and_count":
        return shares
    cells = np.bincount(pred_cal * n + truth, minlength=n * n) / len(truth)
    joint = rng.multinomial(len(truth), cells, size=size).reshape(size, n, n).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        rates = joint / joint.sum(axis=1, keepdims=True)
    return _clip(_solve(rates, shares))[0]


def _bincount_rows(weights: np.ndarray, codes: np.ndarray, n: int) -> np.ndarray:
    """``(rows, n)``: the weight of each class's items, for each row of ``weights`` (rows, N)."""
    return weights @ np.eye(n)[codes]


def _resample_weights(rng, items: int, rows: int) -> np.ndarray:
    return rng.multinomial(items, np.full(items, 1.0 / items), size=rows).astype(np.float64)


def _prior(prior, method: str, n: int) -> np.ndarray | None:
    """The fitting prior of EM, checked: n shares, each positive, summing to 1."""
    if prior is None:
        return None
    if method != "em":
        raise ValueError(f"prior= is the fitting prior of method='em'; method is {method!r}")
    try:
        out = np.asarray(prior, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"prior must be {n} numbers, one per class; got {prior!r}") from None
    if out.shape != (n,):
        raise ValueError(f"prior must be {n} numbers, one per class; got shape {out.shape}")
    if not (np.isfinite(out).all() and (out > 0).all()):
        raise ValueError(f"prior must be positive shares (EM divides by them); got {out.tolist()}")
    if abs(out.sum() - 1) > ROW_SUM_TOLERANCE:
        raise ValueError(f"prior must sum to 1; it sums to {out.sum():.6g}")
    return out / out.sum()


def estimate_prevalence(
    y_cal,
    pred_cal,
    pred_deploy,
    *,
    method="adjusted",
    labels=None,
    level=0.95,
    size=2000,
    rng=None,
    prior=None,
) -> PrevalenceEstimate:
    r"""The class prevalence of a deployment set, from a classifier checked on a labelled sample.

    With the calibration set's rates :math:`C_{ij} = P(\text{predicted } i \mid \text{true }
    j)` (rows = predictions, columns = truth) and the deployment set's share of predictions
    :math:`\hat b` (its bias), under label shift :math:`\hat b = C q`:

    * ``"classify_and_count"``: :math:`\hat q = \hat b`;
    * ``"adjusted"``: :math:`\hat q = C^{-1} \hat b`; for two classes
      :math:`\hat q_1 = (\hat b_1 - FPR) / (TPR - FPR)` (Rogan & Gladen 1978; Forman 2008;
      for many classes black-box shift estimation, Lipton et al. 2018);
    * ``"probabilistic"``: :math:`\hat q = \frac1N \sum_x p(x)`, the mean probability;
    * ``"probabilistic_adjusted"``: :math:`\hat q = \bar C^{-1} \frac1N \sum_x p(x)` with
      :math:`\bar C_{ij}` the mean probability of class :math:`i` over the calibration
      items of class :math:`j` (Bella et al. 2010);
    * ``"em"``: from :math:`q^{(0)} = \pi` (the calibration prevalence, or ``prior``),
      :math:`q^{(t+1)}_k = \frac1N \sum_x \frac{p_k(x)\, q^{(t)}_k / \pi_k}
      {\sum_l p_l(x)\, q^{(t)}_l / \pi_l}` until it settles (Saerens et al. 2002); the
      probabilities must be calibrated for the prior :math:`\pi`.

    Parameters
    ----------
    y_cal : sequence of labels, shape (N_cal,)
        The true classes of the calibration (hand-labelled) sample.
    pred_cal, pred_deploy : sequence
        The classifier's output on the calibration and the deployment items: predicted labels
        for ``"classify_and_count"`` and ``"adjusted"`` (or probabilities ``(N, n)``, whose
        argmax is the prediction); probabilities for the other methods, ``(N, n)`` with one
        column per class in label order, or 1-d for two classes (of the second label).
    method : str, default "adjusted"
        One of ``"classify_and_count"``, ``"adjusted"``, ``"probabilistic"``,
        ``"probabilistic_adjusted"``, ``"em"`` (or QuaPy's ``"cc"``, ``"acc"``, ``"pcc"``,
        ``"pacc"``, ``"sld"``).
    labels : sequence, optional
        The classes in order (default: the sorted classes of the calibration set).
    level : float, default 0.95
    size : int, default 2000
        Resamples of both samples.
    rng : numpy.random.Generator or int, optional
    prior : sequence of float, optional
        ``"em"`` only: the prior the probabilities are calibrated for, in label order (the
        *fitting prior*, the class shares of the data the classifier was fitted on). Default:
        the calibration sample's class shares, whose sampling error then moves every step.
        Given, it is taken as known: the interval resamples the deployment set alone.

    Returns
    -------
    PrevalenceEstimate
        ``estimate``, ``low``, ``high``: prevalence vectors in label order.

    Raises
    ------
    ValueError
        For an unknown method, labels the calibration set does not know, probabilities that
        are not probabilities, a class without calibration items (where the rates need it),
        or rates that cannot be inverted (the classifier does not tell the classes apart).

    Warns
    -----
    UserWarning
        When the inversion is ill-conditioned (condition number above ``ILL_CONDITIONED``),
        or the estimate was clipped; the same text is the result's ``warning``.

    Notes
    -----
    The interval resamples the calibration items and the deployment items, independently,
    in every resample (``"classify_and_count"`` and ``"probabilistic"`` use the deployment
    set alone). With predicted labels a resample draws counts (of the deployment
    predictions, of the calibration confusion matrix), so its cost does not grow with the
    items; with probabilities it draws a weight per item, ``size`` times the items' work
    (EM: per step). Where definitions coincide the estimates equal QuaPy's: ``CC``, ``PCC``;
    ``ACC`` and ``PACC`` with ``method="inversion"``, ``solver="exact-raise"``,
    ``norm="clip"``; ``EMQ.EM`` with the calibration prevalence (or ``prior``) as its
    training prevalence. Deliberate differences: QuaPy's EM stops when the prior moves by
    less than 1e-4 (mean absolute change) or after 1,000 steps, this one at 1e-12 (so they
    agree to about 1e-4 at QuaPy's defaults, to 1e-10 with its ``epsilon`` at 1e-15); a
    prior with a zero QuaPy smooths, this one refuses; QuaPy's ``ACC`` and ``PACC`` default
    to ``solver="minimize"`` (least squares inside the simplex), where this inverts exactly
    and clips, saying so, so that an estimate the rates cannot produce is seen; its
    aggregative methods fit the rates on cross-validation folds of the training data, where
    these come from the hand-labelled sample given; its estimates carry no interval.

    Examples
    --------
    >>> y_cal = [0] * 80 + [1] * 20
    >>> pred_cal = [0] * 72 + [1] * 8 + [0] * 4 + [1] * 16  # TPR 0.8, FPR 0.1
    >>> pred_deploy = [1] * 300 + [0] * 700  # 30 % predicted positive
    >>> est = estimate_prevalence(y_cal, pred_cal, pred_deploy, rng=0)
    >>> [round(float(x), 4) for x in est.estimate]  # (0.3 - 0.1) / (0.8 - 0.1)
    [0.7143, 0.2857]
    >>> bool(est.low[1] < est.estimate[1] < est.high[1])
    True
    """
    method = _method(method)
    level, size = check_level(level), check_size(size)
    rng = np.random.default_rng(rng)
    truth, pred_cal, pred_dep, labels = _codes(
        y_cal, pred_cal, pred_deploy, labels, method in _PROBABILISTIC
    )
    n, n_cal, n_dep = len(labels), len(truth), len(pred_dep)
    prior = _prior(prior, method, n)
    needs_cal = method not in ("classify_and_count", "probabilistic") and prior is None
    if needs_cal:
        present = np.bincount(truth, minlength=n)
        if (present == 0).any():
            missing = [labels[k] for k in np.flatnonzero(present == 0)]
            raise ValueError(
                f"the calibration set has no item of class {missing[0]!r}: its rates are unknown"
            )
    one_cal, one_dep = np.ones((1, n_cal)), np.ones((1, n_dep))
    raw = _estimates(
        method,
        truth,
        pred_cal,
        pred_dep,
        one_cal,
        one_dep,
        n,
        (_EM_TOLERANCE, _EM_STEPS),
        prior,
    )[0]
    condition = math.nan
    if method in _ADJUSTED:
        onehot = np.eye(n)[truth]
        stated = pred_cal if method == "probabilistic_adjusted" else np.eye(n)[pred_cal]
        rates = stated.T @ onehot / onehot.sum(axis=0)
        condition = float(np.linalg.cond(rates))
        if not np.isfinite(raw).all():
            raise ValueError(
                "the calibration rates cannot be inverted (condition number "
                f"{condition:.3g}): the classifier's output does not tell the classes apart "
                "on the calibration set; use method='classify_and_count' or more labels"
            )
    estimate, was_clipped = _clip(raw[None])
    estimate, was_clipped = estimate[0], bool(was_clipped[0])
    if method in ("classify_and_count", "adjusted"):
        values = _count_resamples(method, truth, pred_cal, pred_dep, n, size, rng)
    else:
        values = np.empty((size, n))
        rows = max(1, _CHUNK_NUMBERS // ((n_cal + n_dep) * n))
        steps = (_EM_RESAMPLE_TOLERANCE, _EM_RESAMPLE_STEPS)
        # EM's log-likelihood is concave in the prior, so a resample's fixed point does not
        # depend on the start: from the whole sample's estimate (kept off the simplex's
        # edge, which multiplicative steps never leave) it is a few steps away.
        near = None
        if method == "em" and np.isfinite(raw).all():
            near = np.clip(raw, 1e-6, None) / np.clip(raw, 1e-6, None).sum()
        for start in range(0, size, rows):
            count = min(rows, size - start)
            w_cal = _resample_weights(rng, n_cal, count) if needs_cal else np.ones((count, n_cal))
            w_dep = _resample_weights(rng, n_dep, count)
            got = _estimates(method, truth, pred_cal, pred_dep, w_cal, w_dep, n, steps, prior, near)
            values[start : start + count] = _clip(got)[0]
    undefined = ~np.isfinite(values).all(axis=1)
    kept = values[~undefined]
    alpha = (1 - level) / 2
    if len(kept):
        low, high = np.quantile(kept, alpha, axis=0), np.quantile(kept, 1 - alpha, axis=0)
    else:
        low = high = np.full(n, np.nan)
    notes = []
    if was_clipped:
        notes.append(
            "the adjusted estimate left [0, 1] ("
            + ", ".join(f"{x:.3g}" for x in raw)
            + ") and was clipped and renormalised: the deployment shares are not what "
            "these rates can produce, a sign of too few labels or of a shift that is not "
            "label shift"
        )
    if condition > ILL_CONDITIONED:
        notes.append(
            f"the inversion is ill-conditioned (condition number {condition:.3g} > "
            f"{ILL_CONDITIONED:g}): errors of the calibrated rates reach the estimate "
            "multiplied by up to that much"
        )
    warning = "; ".join(notes) or None
    if warning:
        warnings.warn(warning, UserWarning, stacklevel=2)
    return PrevalenceEstimate(
        labels=list(labels),
        estimate=estimate,
        low=low,
        high=high,
        raw=raw,
        clipped=was_clipped,
        level=level,
        method=method,
        condition=condition,
        undefined=float(undefined.mean()),
        calibration=n_cal,
        deployment=n_dep,
        warning=warning,
    )


def labels_needed(
    width,
    *,
    prevalence,
    sensitivity=None,
    specificity=None,
    rates=None,
    deployment=None,
    calibration_prevalence=None,
    level=0.95,
) -> int:
    r"""Hand labels for an adjusted (Rogan–Gladen, or BBSE) prevalence interval of a given width.

    For two classes the adjusted estimate :math:`\hat q = (\hat b - F) / (T - F)`, with the
    deployment share :math:`\hat b` of predicted positives, the calibrated true and false
    positive rates :math:`T` (sensitivity) and :math:`F` (1 - specificity), and
    :math:`J = T - F`, has by the delta method

    .. math::

        var(\hat q) \approx \frac{1}{J^2}\left[\frac{b (1 - b)}{N_{dep}}
          + \frac{q^2\, T (1 - T)}{n \pi} + \frac{(1 - q)^2 F (1 - F)}{n (1 - \pi)}\right],

    :math:`b = F + q J`, with :math:`n` calibration labels of which a share :math:`\pi`
    positive. For :math:`k` classes (``rates`` :math:`C`, ``C[i, j]`` = P(predicted ``i`` |
    true ``j``)) the estimate :math:`\hat q = \hat C^{-1} \hat b` has, by the same delta
    method,

    .. math::

        var(\hat q) \approx C^{-1} \left[\frac{diag(b) - b b^T}{N_{dep}}
          + \sum_j \frac{q_j^2\,(diag(C_j) - C_j C_j^T)}{n \pi_j}\right] C^{-T},

    :math:`b = C q`, :math:`C_j` the column of class :math:`j` (each column of :math:`\hat C`
    a multinomial share of the :math:`n \pi_j` labels of class :math:`j`); for two classes it
    is the formula above. The interval :math:`\hat q_i \pm z\,se_i` is at most ``width``
    wide for every class :math:`i` for the smallest such :math:`n`, returned.

    Parameters
    ----------
    width : float
        Total width of the interval wanted (high - low), in prevalence units; for many classes
        that of the class whose interval is widest.
    prevalence : float or sequence of float
        The deployment prevalence expected: :math:`q` of the positive class (two classes), or
        one share per class in the order of ``rates``.
    sensitivity, specificity : float, optional
        Two classes: the classifier's expected rates (give these, or ``rates``).
    rates : array_like (k, k), optional
        The classifier's expected rates, ``rates[i, j]`` = P(predicted ``i`` | true ``j``):
        rows = predictions, each column summing to 1 (for two classes
        ``[[spec, 1 - sens], [1 - spec, sens]]``).
    deployment : int, optional
        Deployment items (default: so many that their own share is exact).
    calibration_prevalence : float or sequence of float, optional
        Share of each class (two classes: of positives) among the hand-labelled items
        (default ``prevalence``: a random sample of the deployment set).
    level : float, default 0.95

    Returns
    -------
    int

    Raises
    ------
    ValueError
        For values outside their ranges, a two-class classifier with sensitivity +
        specificity <= 1, rates that are not a square matrix of columns summing to 1 or
        that cannot be inverted, or a width the deployment set alone already exceeds.

    Notes
    -----
    The delta method is a large-sample approximation: in simulation (with
    :func:`estimate_prevalence`'s bootstrap) it is close at moderate prevalence and
    optimistic for a rare class, where it is a lower bound of the labels needed.

    Examples
    --------
    >>> labels_needed(0.1, prevalence=0.2, sensitivity=0.85, specificity=0.9)
    267
    >>> labels_needed(0.1, prevalence=[0.8, 0.2], rates=[[0.9, 0.15], [0.1, 0.85]])
    267
    """
    level = check_level(level)
    if not 0 < width < 1:
        raise ValueError(f"width must lie in (0, 1); got {width!r}")
    c, q, pi = _planned_rates(prevalence, sensitivity, specificity, rates, calibration_prevalence)
    k = len(q)
    try:
        inverse = np.linalg.inv(c)
    except np.linalg.LinAlgError:
        inverse = None
    if inverse is None or np.linalg.cond(c) >= _SINGULAR:
        raise ValueError(
            "the rates cannot be inverted: the classifier does not tell the classes apart, "
            "so no number of labels gives the prevalence"
        )
    b = c @ q
    shares = (np.diag(b) - np.outer(b, b)) / (1 if deployment is None else deployment)
    from_deployment = np.diag(inverse @ shares @ inverse.T) if deployment is not None else 0.0
    per_label = np.zeros((k, k))
    for j in range(k):
        if q[j] > 0:
            column = c[:, j]
            per_label += q[j] ** 2 * (np.diag(column) - np.outer(column, column)) / pi[j]
    per_label = np.diag(inverse @ per_label @ inverse.T)
    z = NormalDist().inv_cdf(0.5 + level / 2)
    target = (width / (2 * z)) ** 2
    if np.any(target <= from_deployment):
        raise ValueError(
            f"the deployment set alone ({deployment} items) gives an interval wider than "
            f"{width:g}: no number of labels is enough"
        )
    need = per_label / (target - from_deployment)
    worst = float(np.max(need))
    if worst <= 0:
        return 1
    return max(1, math.ceil(worst))


def _planned_rates(prevalence, sensitivity, specificity, rates, calibration_prevalence):
    """The rates matrix, the prevalence and the calibration shares of :func:`labels_needed`."""
    if rates is None:
        if sensitivity is None or specificity is None:
            raise ValueError("give sensitivity and specificity (two classes), or rates=")
        for name, value in (
            ("prevalence", prevalence),
            ("sensitivity", sensitivity),
            ("specificity", specificity),
        ):
            if not np.isscalar(value) or not 0 <= value <= 1:
                raise ValueError(f"{name} must lie in [0, 1]; got {value!r}")
        if sensitivity + specificity <= 1:
            raise ValueError(
                "sensitivity + specificity must exceed 1: otherwise the classifier says "
                "nothing about the prevalence"
            )
        t, f = sensitivity, 1.0 - specificity
        c = np.array([[1 - f, 1 - t], [f, t]])
        q = np.array([1 - prevalence, prevalence], dtype=float)
        pi = prevalence if calibration_prevalence is None else calibration_prevalence
        if not np.isscalar(pi) or not 0 < pi < 1:
            raise ValueError(
                f"the hand-labelled sample needs both classes: calibration_prevalence {pi!r}"
            )
        return c, q, np.array([1 - pi, pi])
    if sensitivity is not None or specificity is not None:
        raise ValueError("give rates= or sensitivity and specificity, not both")
    c = np.asarray(rates, dtype=float)
    if c.ndim != 2 or c.shape[0] != c.shape[1] or c.shape[0] < 2:
        raise ValueError(f"rates must be a square matrix of 2 classes or more; got {c.shape}")
    k = c.shape[0]
    if not np.isfinite(c).all() or (c < 0).any() or np.abs(c.sum(axis=0) - 1).max() > 1e-9:
        raise ValueError(
            "rates must hold P(predicted i | true j) in column j: non-negative, each column "
            "summing to 1"
        )
    q = _shares(prevalence, k, "prevalence", positive=False)
    pi = (
        q
        if calibration_prevalence is None
        else _shares(calibration_prevalence, k, "calibration_prevalence", positive=True)
    )
    if (pi <= 0).any():
        raise ValueError(
            "the hand-labelled sample needs every class: calibration_prevalence (default "
            f"prevalence) has a zero share {pi.tolist()}"
        )
    return c, q, pi


def _shares(value, k: int, name: str, positive: bool) -> np.ndarray:
    """``k`` shares in [0, 1] summing to 1 (two classes: a scalar is the second's)."""
    if np.isscalar(value) and k == 2:
        value = [1 - value, value]
    out = np.asarray(value, dtype=float)
    if out.shape != (k,) or not np.isfinite(out).all() or (out < 0).any() or (out > 1).any():
        raise ValueError(f"{name} must be {k} shares in [0, 1], one per class; got {value!r}")
    if abs(out.sum() - 1) > 1e-9:
        raise ValueError(f"{name} must sum to 1; it sums to {out.sum():.6g}")
    return out
