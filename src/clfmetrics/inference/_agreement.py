r"""Intervals of the agreement coefficients, and their coverage in simulation.

- **Bootstrap of items.** For two raters the items are the cells of their cross-table, and
  the interval is :func:`~clfmetrics.inference.interval` of the coefficient. For many raters
  the items are summarised by their distinct rows (the counts of each category an item got,
  through :func:`patterns`); a resample is one multinomial draw of those rows' weights, and
  the coefficient, a weighted sum over items, scores every resample of a chunk in one
  product.
- **Analytic variances.** Cohen's (weighted) kappa: Fleiss, Cohen & Everitt (1969). Gwet's
  AC1/AC2 and Fleiss' kappa: Gwet's (2008) linearisation, as irrCAC computes it. Scott's pi:
  the delta method on the multinomial cross-table (Gwet's linearisation of Fleiss' kappa,
  which two raters make pi, without its :math:`N / (N - 1)`). These give
  :math:`\hat\theta \pm z\, \widehat{se}`, clipped at 1. PABAK is an affine function of
  the observed agreement :math:`p_o`, a binomial proportion, so its interval is the exact
  Clopper & Pearson (1934) interval of :math:`p_o` mapped through it (Byrt, Bishop & Carlin
  1993 give the point estimate alone). Krippendorff's alpha has no standard one: its
  bootstrap is what Krippendorff (2011) recommends. All assume independent items. In
  simulation PABAK's exact interval covers at least its level at any number of items (so
  it carries no few-items warning); pi's normal one, like kappa's, is near its level from
  a few hundred items and too narrow on a few dozen of a rare class.
- **Coverage.** :func:`agreement_coverage` simulates raters with a known population value;
  :data:`AGREEMENT_FEW_ITEMS_COVERAGE` keeps what it showed, and an interval from fewer than
  :data:`AGREEMENT_FEW_ITEMS` items carries that warning.

Convention: ``m[i, j]`` = items rater A (the predictions, rows) put in class ``i`` and
rater B (the truth, columns) in class ``j``.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from ..metrics import (
    agreement_weights,
    alpha_of,
    check_measurement,
    check_ratings,
    check_table,
    coincidences_per_item,
    fleiss_of,
    fleiss_parts,
    gwet_ac1,
    kappa,
    pabak,
    scott_pi,
    weighted_kappa,
)
from ._binomial import clopper_pearson
from ._bootstrap import (
    check_level,
    check_size,
    count_matrix,
    defined_bounds,
    memory_budget,
    patterns,
)
from ._interval import Interval
from ._uncertainty import interval

#: The coefficients of a two-raters cross-table, by name.
OF_MATRIX = {
    "kappa": kappa,
    "weighted_kappa": weighted_kappa,
    "scott_pi": scott_pi,
    "pabak": pabak,
    "gwet_ac1": gwet_ac1,
}
#: The coefficients of many raters: of a count table, of ratings.
OF_RATERS = ("fleiss_kappa", "krippendorff_alpha")
#: The analytic standard errors, by coefficient.
AGREEMENT_ANALYTIC = {
    "kappa": "Fleiss, Cohen & Everitt 1969",
    "weighted_kappa": "Fleiss, Cohen & Everitt 1969",
    "gwet_ac1": "Gwet 2008",
    "fleiss_kappa": "Gwet 2008",
    "scott_pi": "delta method, Gwet 2008",
    "pabak": "Clopper-Pearson of the observed agreement",
}
AGREEMENT_METHODS = ("percentile", "bca", "analytic")

#: Below this many items an interval carries a warning: in simulation
#: (:data:`AGREEMENT_FEW_ITEMS_COVERAGE`) the intervals were too narrow.
AGREEMENT_FEW_ITEMS = 30
#: The simulations of :data:`AGREEMENT_FEW_ITEMS_COVERAGE`: ``agreement_coverage(name, **study,
#: method=...)``.
AGREEMENT_FEW_ITEMS_STUDY = {
    "kappa": {
        "items": 20,
        "prevalence": 0.15,
        "accuracy": 0.85,
        "sets": 1000,
        "size": 1000,
        "rng": 0,
    },
    "krippendorff_alpha": {
        "items": 20,
        "prevalence": 0.15,
        "accuracy": 0.85,
        "raters": 3,
        "missing": 0.2,
        "sets": 1000,
        "size": 1000,
        "rng": 0,
    },
}
#: Coverage of nominal 95 % intervals in those simulations, by coefficient and method (each
#: within about 0.01 of the truth: 1,000 studies). From 50 items on, and at prevalence 0.5,
#: they came within 0.03 of 0.95.
AGREEMENT_FEW_ITEMS_COVERAGE = {
    "kappa": {"percentile": 0.889, "bca": 0.914, "analytic": 0.874},
    "krippendorff_alpha": {"percentile": 0.888, "bca": 0.919},
}

_NORMAL = NormalDist()


@dataclass(frozen=True)
class AgreementInterval(Interval):
    """An :class:`Interval` of an agreement coefficient.

    Attributes
    ----------
    estimate, low, high, level, method, undefined
        As in :class:`Interval`; ``method`` is ``"percentile"``, ``"bca"`` or
        ``"analytic (<source>)"``; ``undefined`` the share of resamples on which the
        coefficient was a 0/0 (left out).
    coefficient : str
        Its name, e.g. ``"krippendorff_alpha"``.
    items : int
        The items it rests on.
    se : float
        The analytic standard error (``method="analytic"``); NaN for the bootstrap.
    warning : str or None
        Why the interval may be too narrow (fewer than :data:`AGREEMENT_FEW_ITEMS` items), from
        the simulation of :data:`AGREEMENT_FEW_ITEMS_STUDY`, or None.
    """

    coefficient: str = ""
    items: int = 0
    se: float = math.nan
    warning: str | None = None


def _few_items_warning(coefficient: str, items: int, method: str, level: float) -> str | None:
    """The warning of an interval on fewer than AGREEMENT_FEW_ITEMS items, or None (also for
    PABAK's exact interval, whose coverage is at least its level at any number of items)."""
    if items >= AGREEMENT_FEW_ITEMS or (coefficient == "pabak" and method == "analytic"):
        return None
    study = "krippendorff_alpha" if coefficient == "krippendorff_alpha" else "kappa"
    setting, coverage = AGREEMENT_FEW_ITEMS_STUDY[study], AGREEMENT_FEW_ITEMS_COVERAGE[study]
    return (
        f"the interval of {coefficient} rests on {items} items (fewer than "
        f"{AGREEMENT_FEW_ITEMS}): in simulation, nominal 95 % {method} intervals of {study} at "
        f"{setting['items']} items and prevalence {setting['prevalence']} covered the true "
        f"value only {coverage[method]:.2f} of the time; read it as too narrow"
        + ("" if abs(level - 0.95) < 1e-9 else f" (this interval's level is {level:.0%})")
    )


def _matrix_func(coefficient: str, weights):
    func = OF_MATRIX[coefficient]
    if coefficient == "weighted_kappa":
        return functools.partial(func, weights="linear" if weights is None else weights)
    if coefficient == "gwet_ac1":
        return functools.partial(func, weights=weights)
    if weights is not None:
        raise ValueError(f"{coefficient} takes no weights (weighted_kappa and gwet_ac1 do)")
    return func


def _clipped(estimate: float, se: float, level: float) -> tuple[float, float]:
    z = _NORMAL.inv_cdf(0.5 + level / 2)
    return max(estimate - z * se, -1.0), min(estimate + z * se, 1.0)


def kappa_se(m: np.ndarray, w: np.ndarray) -> float:
    r"""Fleiss, Cohen & Everitt (1969): the large-sample standard error of weighted kappa.

    With proportions :math:`p_{ij}`, margins :math:`p_{i\cdot}`, :math:`p_{\cdot j}`,
    :math:`\bar w_{i\cdot} = \sum_j p_{\cdot j} w_{ij}` and
    :math:`\bar w_{\cdot j} = \sum_i p_{i\cdot} w_{ij}`:
    :math:`var = [\sum_{ij} p_{ij} (w_{ij} - (\bar w_{i\cdot} + \bar w_{\cdot j})(1 - \kappa))^2
    - (\kappa - p_e (1 - \kappa))^2] / (N (1 - p_e)^2)`.
    """
    total = m.sum()
    p = m / total
    rows, cols = p.sum(axis=1), p.sum(axis=0)
    chance = rows @ w @ cols
    if chance >= 1:  # one shared class: kappa is undefined (its zero_division), and so is its se
        return math.nan
    k = (np.sum(w * p) - chance) / (1 - chance)
    w_row, w_col = w @ cols, rows @ w
    spread = np.sum(p * (w - (w_row[:, None] + w_col[None, :]) * (1 - k)) ** 2)
    var = (spread - (k - chance * (1 - k)) ** 2) / (total * (1 - chance) ** 2)
    return math.sqrt(max(var, 0.0))


def gwet_se(m: np.ndarray, w: np.ndarray) -> float:
    r"""Gwet (2008): the linearised standard error of AC1/AC2, for two raters.

    Each item (here: each cell, weighted by its count) contributes
    :math:`ac_i^* = (p_{a,i} - p_e) / (1 - p_e) - 2 (1 - AC)(p_{e,i} - p_e) / (1 - p_e)`,
    and :math:`var = \sum_i (ac_i^* - AC)^2 / (N (N - 1))` (no finite-population correction).
    """
    q = m.shape[0]
    total = m.sum()
    pi = (m.sum(axis=1) + m.sum(axis=0)) / (2 * total)
    scale = w.sum() / (q * (q - 1))
    chance = scale * np.sum(pi * (1 - pi))
    if total < 2 or chance >= 1:  # N (N - 1) = 0, or AC undefined: so is its se
        return math.nan
    a, b = np.indices(m.shape)
    # Cell (a, b): one rating of a and one of b; agreeing pairs r_k (r*_k - 1) / 2 = w[a, b].
    agree = w[a, b]
    observed = np.sum(m * agree) / total
    ac = (observed - chance) / (1 - chance)
    chance_i = scale * ((1 - pi)[a] + (1 - pi)[b]) / 2
    ac_i = (agree - chance) / (1 - chance) - 2 * (1 - ac) * (chance_i - chance) / (1 - chance)
    var = np.sum(m * (ac_i - ac) ** 2) / (total * (total - 1))
    return math.sqrt(var)


def scott_pi_se(m: np.ndarray) -> float:
    r"""The delta-method standard error of Scott's pi, for a multinomial cross-table.

    With proportions :math:`p_{ij}`, pooled shares :math:`\pi_k = (p_{k\cdot} + p_{\cdot k})
    / 2`, :math:`p_o = \sum_k p_{kk}` and :math:`p_e = \sum_k \pi_k^2`, the gradient of
    :math:`\pi = (p_o - p_e) / (1 - p_e)` in :math:`p_{ij}` is
    :math:`g_{ij} = [\delta_{ij} - (1 - \pi)(\pi_i + \pi_j)] / (1 - p_e)`, and
    :math:`var = [\sum_{ij} p_{ij} g_{ij}^2 - (\sum_{ij} p_{ij} g_{ij})^2] / N`. It is Gwet's
    (2008) linearised variance of Fleiss' kappa on two ratings per item times
    :math:`(N - 1) / N`.
    """
    total = m.sum()
    p = m / total
    pooled = (p.sum(axis=1) + p.sum(axis=0)) / 2
    chance = pooled @ pooled
    with np.errstate(invalid="ignore", divide="ignore"):  # one shared class: NaN, as kappa's
        pi = (np.trace(p) - chance) / (1 - chance)
        g = (np.eye(len(p)) - (1 - pi) * (pooled[:, None] + pooled[None, :])) / (1 - chance)
    var = (np.sum(p * g * g) - np.sum(p * g) ** 2) / total
    return math.sqrt(max(var, 0.0)) if np.isfinite(var) else math.nan


# A simulation of coverage (agreement_coverage) asks for the same few counts again and again;
# each exact interval is a root-finding of its own.
_exact_ends = functools.lru_cache(maxsize=4096)(clopper_pearson)


def pabak_interval(m: np.ndarray, level: float) -> tuple[float, float, float]:
    r"""PABAK's ends from the Clopper-Pearson interval of the observed agreement, and its se.

    :math:`PABAK = (q\, p_o - 1) / (q - 1)` is increasing in :math:`p_o`, the share of the
    :math:`N` items on the diagonal: a binomial proportion when the items are independent.
    Its exact interval maps to PABAK's, whose coverage is then at least ``level`` for any
    :math:`N`; the se is the delta method's :math:`\frac{q}{q - 1}\sqrt{p_o (1 - p_o) / N}`.
    """
    q, total, agree = m.shape[0], int(m.sum()), int(np.trace(m))
    low, high = _exact_ends(agree, total, level)
    scale = q / (q - 1)
    p_o = agree / total
    se = scale * math.sqrt(p_o * (1 - p_o) / total)
    return scale * low - 1 / (q - 1), scale * high - 1 / (q - 1), se


def fleiss_se(rows: np.ndarray, counts: np.ndarray) -> float:
    """Gwet (2008): the linearised standard error of Fleiss' kappa from distinct item rows."""
    agree, shares = fleiss_parts(rows)
    total = counts.sum()
    pi = counts @ shares / total
    chance = pi @ pi
    if total < 2 or chance >= 1:  # N (N - 1) = 0, or kappa undefined: so is its se
        return math.nan
    k = (counts @ agree / total - chance) / (1 - chance)
    chance_i = shares @ pi
    k_i = (agree - chance) / (1 - chance) - 2 * (1 - k) * (chance_i - chance) / (1 - chance)
    return math.sqrt(np.sum(counts * (k_i - k) ** 2) / (total * (total - 1)))


def _raters_parts(coefficient: str, data, measurement, categories):
    """Distinct item rows, their counts, and the coefficient of a weighting ``(rows, P)``."""
    if coefficient == "fleiss_kappa":
        if categories is not None:
            raise ValueError("fleiss_kappa takes no categories: they are the table's columns")
        table = check_table(data)
        per_item = table
    else:
        level = check_measurement(measurement)
        per_item, domain = check_ratings(data, categories)
    codes = per_item.T.astype(np.int64)
    rows, counts = patterns(codes, int(codes.max()) + 1)
    distinct = rows.T.astype(np.float64)
    if coefficient == "fleiss_kappa":
        agree, shares = fleiss_parts(distinct)
        return distinct, counts, lambda w: fleiss_of(agree, shares, w)
    pairs = coincidences_per_item(distinct)
    return distinct, counts, lambda w: alpha_of(pairs, domain, level, w)


def _chunks(size: int, width: int):
    rows = max(1, min(size, memory_budget() // 64 // max(width, 1), 2**22 // max(width, 1)))
    for start in range(0, size, rows):
        yield slice(start, min(start + rows, size))


def _raters_bootstrap(theta, counts, size, rng) -> np.ndarray:
    total = int(counts.sum())
    probs = counts / total
    values = np.empty(size)
    for block in _chunks(size, counts.size):
        draws = rng.multinomial(total, probs, size=block.stop - block.start)
        values[block] = theta(draws.astype(np.float64))
    return values


def _raters_acceleration(theta, counts) -> float:
    """BCa acceleration from the jackknife: leaving out one item of each distinct row."""
    width = counts.size
    jack = np.empty(width)
    for block in _chunks(width, width):
        w = np.repeat(counts[None, :].astype(np.float64), block.stop - block.start, axis=0)
        w[np.arange(w.shape[0]), np.arange(block.start, block.stop)] -= 1
        jack[block] = theta(w)
    if not np.isfinite(jack).all():
        raise ValueError(
            "bca is undefined here: the coefficient is not finite when one item is left out; "
            "use method='percentile'"
        )
    d = counts @ jack / counts.sum() - jack
    spread = np.sum(counts * d**2)
    return float(np.sum(counts * d**3) / (6 * spread**1.5)) if spread > 0 else 0.0


def agreement_interval(
    coefficient,
    data,
    *,
    weights=None,
    measurement="nominal",
    categories=None,
    method="percentile",
    level=0.95,
    size=2000,
    rng=None,
) -> AgreementInterval:
    r"""Confidence interval of an agreement coefficient, by the bootstrap of items or analytic.

    Parameters
    ----------
    coefficient : str
        ``"kappa"``, ``"weighted_kappa"``, ``"scott_pi"``, ``"pabak"``, ``"gwet_ac1"`` (of a
        cross-table), ``"fleiss_kappa"`` (of a count table) or ``"krippendorff_alpha"`` (of
        ratings).
    data : array_like
        Two raters: their cross-table of whole counts, ``m[i, j]`` = items rater A (rows,
        the predictions) put in class ``i`` and rater B (columns, the truth) in ``j``.
        ``"fleiss_kappa"``: the items x categories count table. ``"krippendorff_alpha"``:
        the raters x items ratings, NaN where missing.
    weights : None, {"linear", "quadratic"} or array_like (n, n)
        Of ``"weighted_kappa"`` (default ``"linear"``) and ``"gwet_ac1"`` (AC2 when given).
    measurement : {"nominal", "ordinal", "interval", "ratio"}, default "nominal"
        The ``level`` of :func:`~clfmetrics.metrics.krippendorff_alpha`.
    categories : sequence of numbers, optional
        Of ``"krippendorff_alpha"``.
    method : {"percentile", "bca", "analytic"}, default "percentile"
        The item bootstrap's percentile or BCa ends, or :math:`\hat\theta \pm z\,se` with the
        analytic standard error: Fleiss, Cohen & Everitt (1969) for kappa and weighted kappa,
        Gwet (2008) for AC1/AC2 and Fleiss' kappa, the delta method for Scott's pi; for
        PABAK the exact Clopper & Pearson (1934) interval of the observed agreement mapped
        through :math:`(q\,p_o - 1)/(q - 1)` (Byrt, Bishop & Carlin 1993), with the delta
        method's se; none for Krippendorff's alpha. Each assumes independent items, the
        normal ones a large sample too; :func:`agreement_coverage` with
        ``method="analytic"`` measures their coverage.
    level : float, default 0.95
    size : int, default 2000
        Resamples of the bootstrap.
    rng : numpy.random.Generator or int, optional

    Returns
    -------
    AgreementInterval
        With ``warning`` set below :data:`AGREEMENT_FEW_ITEMS` items, where simulation showed the
        intervals too narrow.

    Raises
    ------
    ValueError
        For an unknown coefficient or method, an analytic interval where none is standard,
        weights for a coefficient without them, and every bad input of the coefficient
        itself (ratings outside the categories, one category, an item of Fleiss' table with
        fewer than two ratings).

    Examples
    --------
    >>> iv = agreement_interval("kappa", [[40, 9], [6, 45]], rng=0)
    >>> round(iv.estimate, 4), iv.low < iv.estimate < iv.high
    (0.6995, True)
    >>> round(agreement_interval("kappa", [[40, 9], [6, 45]], method="analytic").se, 4)
    0.0714
    """
    if coefficient not in OF_MATRIX and coefficient not in OF_RATERS:
        raise ValueError(
            f"coefficient must be one of {[*OF_MATRIX, *OF_RATERS]}; got {coefficient!r}"
        )
    if method not in AGREEMENT_METHODS:
        raise ValueError(f"method must be one of {AGREEMENT_METHODS}; got {method!r}")
    if method == "analytic" and coefficient not in AGREEMENT_ANALYTIC:
        raise ValueError(
            f"{coefficient} has no standard analytic variance; use method='percentile' or 'bca' "
            f"(analytic: {', '.join(AGREEMENT_ANALYTIC)})"
        )
    level, size = check_level(level), check_size(size)
    rng = np.random.default_rng(rng)
    if coefficient != "krippendorff_alpha" and (categories is not None or measurement != "nominal"):
        raise ValueError("measurement and categories are krippendorff_alpha's alone")
    if coefficient in OF_MATRIX:
        func = _matrix_func(coefficient, weights)
        m = count_matrix(data)
        items, estimate = int(m.sum()), float(func(m))
        if method != "analytic":
            iv = interval(func, m, level=level, size=size, method=method, rng=rng)
            return AgreementInterval(
                iv.estimate,
                iv.low,
                iv.high,
                level,
                iv.method,
                iv.undefined,
                coefficient=coefficient,
                items=items,
                warning=_few_items_warning(coefficient, items, method, level),
            )
        n = m.shape[0]
        if coefficient == "pabak":
            low, high, se = pabak_interval(m, level)
            return AgreementInterval(
                estimate,
                low,
                high,
                level,
                f"analytic ({AGREEMENT_ANALYTIC[coefficient]})",
                coefficient=coefficient,
                items=items,
                se=se,
                warning=_few_items_warning(coefficient, items, "analytic", level),
            )
        if coefficient == "kappa":
            se = kappa_se(m, np.eye(n))
        elif coefficient == "scott_pi":
            se = scott_pi_se(m)
        elif coefficient == "weighted_kappa":
            se = kappa_se(m, agreement_weights("linear" if weights is None else weights, n))
        else:
            se = gwet_se(m, np.eye(n) if weights is None else agreement_weights(weights, n))
    else:
        if weights is not None:
            raise ValueError(f"{coefficient} takes no weights")
        rows, counts, theta = _raters_parts(coefficient, data, measurement, categories)
        items = int(counts.sum())
        estimate = float(theta(counts[None, :].astype(np.float64))[0])
        if method != "analytic":
            values = _raters_bootstrap(theta, counts, size, rng)
            acc = _raters_acceleration(theta, counts) if method == "bca" else 0.0
            low, high, share = defined_bounds(
                values,
                np.isnan(values),
                estimate,
                level,
                method,
                acc,
                observed=not math.isnan(estimate),
            )
            return AgreementInterval(
                estimate,
                low,
                high,
                level,
                method,
                share,
                coefficient=coefficient,
                items=items,
                warning=_few_items_warning(coefficient, items, method, level),
            )
        se = fleiss_se(rows, counts)
    low, high = _clipped(estimate, se, level)
    name = f"analytic ({AGREEMENT_ANALYTIC[coefficient]})"
    return AgreementInterval(
        estimate,
        low,
        high,
        level,
        name,
        coefficient=coefficient,
        items=items,
        se=se,
        warning=_few_items_warning(coefficient, items, "analytic", level),
    )


def _population_table(prevalence: float, accuracy: float) -> np.ndarray:
    """The cross-table of two raters, as proportions: each right with ``accuracy``."""
    true = np.array([1 - prevalence, prevalence])
    given = np.array([[accuracy, 1 - accuracy], [1 - accuracy, accuracy]])  # [true, rated]
    return np.einsum("z,zi,zj->ij", true, given, given)


def agreement_coverage(
    coefficient,
    *,
    items: int,
    prevalence: float,
    accuracy: float,
    raters: int = 2,
    missing: float = 0.0,
    method="percentile",
    sets: int = 200,
    level=0.95,
    size: int = 1000,
    rng=None,
) -> float:
    r"""Share of simulated agreement studies whose interval contains the population value.

    Each study rates ``items`` items of two classes, class 1 with probability
    ``prevalence``; each of ``raters`` raters gives the true class with probability
    ``accuracy``, independently, and (for ``"krippendorff_alpha"``) leaves each rating out
    with probability ``missing``. The population value of every coefficient follows from
    the population cross-table of two raters :math:`P`: kappa, pi, PABAK and AC1 are the
    coefficient of :math:`P`; Fleiss' kappa and (for infinitely many items) Krippendorff's
    alpha are Scott's pi of :math:`P`. On each study :func:`agreement_interval` computes the
    interval; studies on which the coefficient is undefined (one class only) are left out.

    Parameters
    ----------
    coefficient : str
        As in :func:`agreement_interval` (without weights).
    items, raters : int
        Items per study (at least 2); raters (2 for the coefficients of a cross-table).
    prevalence, accuracy : float
        Strictly between 0 and 1.
    missing : float, default 0
        Share of ratings left out, of ``"krippendorff_alpha"`` only.
    method, level, size, rng
        As in :func:`agreement_interval`; ``sets`` studies.

    Returns
    -------
    float
        The coverage; near ``level`` its simulation error is about
        :math:`\sqrt{level (1 - level) / sets}`.

    Examples
    --------
    >>> c = agreement_coverage("kappa", items=200, prevalence=0.3, accuracy=0.9, sets=50,
    ...                        size=500, rng=0)
    >>> 0.8 <= c <= 1.0
    True
    """
    if coefficient not in OF_MATRIX and coefficient not in OF_RATERS:
        raise ValueError(
            f"coefficient must be one of {[*OF_MATRIX, *OF_RATERS]}; got {coefficient!r}"
        )
    for name, value in (("prevalence", prevalence), ("accuracy", accuracy)):
        if not 0 < value < 1:
            raise ValueError(f"{name} must be strictly between 0 and 1; got {value!r}")
    if not 0 <= missing < 1 or (missing and coefficient != "krippendorff_alpha"):
        raise ValueError("missing must be in [0, 1), and only krippendorff_alpha takes it")
    if items < 2 or raters < 2 or (coefficient in OF_MATRIX and raters != 2):
        raise ValueError("items and raters must be at least 2 (exactly 2 raters of a cross-table)")
    sets = check_size(sets)
    rng = np.random.default_rng(rng)
    table = _population_table(prevalence, accuracy)
    truth = float(OF_MATRIX[coefficient](table) if coefficient in OF_MATRIX else scott_pi(table))
    hits = tried = 0
    for _ in range(sets):
        if coefficient in OF_MATRIX:
            data = rng.multinomial(items, table.ravel()).reshape(2, 2)
        else:
            z = rng.random(items) < prevalence
            right = rng.random((raters, items)) < accuracy
            ratings = np.where(right, z, ~z).astype(np.float64)
            if coefficient == "fleiss_kappa":
                data = np.stack([(ratings == 0).sum(axis=0), (ratings == 1).sum(axis=0)], 1)
            else:
                data = np.where(rng.random((raters, items)) < missing, np.nan, ratings)
        try:
            iv = agreement_interval(
                coefficient, data, method=method, level=level, size=size, rng=rng
            )
        except ValueError:  # a study whose ratings hold one class only, or no pair
            continue
        if math.isnan(iv.estimate):
            continue
        tried += 1
        hits += iv.low <= truth <= iv.high
    return hits / tried if tried else math.nan
