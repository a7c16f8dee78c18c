"""What every probe shares: the property codes, the metrics of Table 5, and the cases.

The cases are seeded stacks of confusion matrices (``m[i, j]`` = mass
predicted as class ``i`` whose true class is ``j``) drawn from several
families, so that one metric call evaluates thousands of matrices.
"""

from __future__ import annotations

import functools

import numpy as np

from clfmetrics import METRICS, prevalence_calibrate

#: Property codes and their names, in the order of Opitz (2024), section 3.
PROPERTIES = {
    "PI": "monotonicity",
    "PII": "class sensitivity",
    "PIII": "class decomposability",
    "PIV": "prevalence invariance",
    "PV": "chance correction",
}

#: Suffix of a row that describes the metric of the prevalence-calibrated matrix.
CALIBRATED_SUFFIX = "~"

#: The rows of Table 5, as library functions, in the paper's order.
TABLE_METRICS = {
    name: METRICS[name]
    for name in (
        "accuracy",
        "macro_recall",
        "geometric_macro_recall",
        "harmonic_macro_recall",
        "macro_precision",
        "macro_f1",
        "f1_of_averages",
        "weighted_f1",
        "kappa",
        "mcc",
    )
}


def _name(metric) -> str:
    return getattr(metric, "__name__", None) or repr(metric)


def calibrated(metric):
    """Return ``metric ∘ prevalence_calibrate``: the metric of the prevalence-calibrated matrix.

    The name gains a ``~`` (the paper writes :math:`metric^\\sim`).
    """

    def composed(m):
        return metric(prevalence_calibrate(m))

    composed.__name__ = _name(metric) + "~"
    composed.__doc__ = f"{_name(metric)} of the prevalence-calibrated matrix (Opitz 2024, eq. 6)."
    return composed


def _scores(metric, stack: np.ndarray) -> np.ndarray:
    """Evaluate ``metric`` on a stack of any leading shape, returning that shape."""
    lead = stack.shape[:-2]
    n = stack.shape[-1]
    with np.errstate(all="ignore"):
        out = np.asarray(metric(stack.reshape(-1, n, n)), dtype=np.float64)
    return out.reshape(lead)


def _dirichlet(rng: np.random.Generator, alpha: float, shape: tuple) -> np.ndarray:
    """Dirichlet samples over the last axis of ``shape`` (gamma draws, much faster than
    ``Generator.dirichlet`` for small ``alpha``)."""
    g = rng.gamma(alpha, size=shape)
    g[g.sum(axis=-1) == 0, 0] = 1.0
    return g / g.sum(axis=-1, keepdims=True)


@functools.lru_cache(maxsize=64)
def _cached_cases(n: int, size: int, seed: int) -> np.ndarray:
    out = _cases(n, size, np.random.default_rng([seed, n, size]))
    out.flags.writeable = False
    return out


def _cases(n: int, size: int, rng: np.random.Generator) -> np.ndarray:
    """A varied stack of confusion matrices in which every class occurs.

    Families (in equal parts): uniform integer counts; sparse Dirichlet mass
    (many cells near 0); skewed prevalences with a random column-stochastic
    classifier; one dominant off-diagonal cell; a classifier that predicts one
    class almost always; strong diagonals (good classifiers). Half of each
    family is rounded to integer counts.
    """
    k = max(size // 6, 1)
    total = rng.choice([20.0, 100.0, 1000.0], size=(6 * k, 1, 1))
    fams = []
    fams.append(rng.integers(0, 50, size=(k, n, n)).astype(float))
    fams.append(_dirichlet(rng, 0.15, (k, n * n)).reshape(k, n, n))
    prev = _dirichlet(rng, 0.4, (k, n))
    cond = _dirichlet(rng, 0.7, (k, n, n)).swapaxes(-1, -2)
    fams.append(cond * prev[:, None, :])
    dom = _dirichlet(rng, 1.0, (k, n * n)).reshape(k, n, n)
    i = rng.integers(0, n, k)
    j = (i + rng.integers(1, n, k)) % n
    dom[np.arange(k), i, j] += rng.uniform(2, 30, k)
    fams.append(dom)
    row = _dirichlet(rng, 0.5, (k, n * n)).reshape(k, n, n)
    row[np.arange(k), rng.integers(0, n, k), :] += rng.uniform(1, 20, (k, n))
    fams.append(row)
    diag = _dirichlet(rng, 1.0, (k, n * n)).reshape(k, n, n)
    diag += np.eye(n) * rng.uniform(1, 20, (k, 1, 1))
    fams.append(diag)
    m = np.concatenate(fams)
    m = m / m.sum(axis=(-2, -1), keepdims=True) * total
    half = rng.random(6 * k) < 0.5
    m[half] = np.round(m[half])
    # every class must occur (calibration needs it): give an empty column one correct item
    empty = m.sum(axis=-2) == 0
    idx = np.argwhere(empty)
    m[idx[:, 0], idx[:, 1], idx[:, 1]] = 1.0
    return m


def _check_metric(metric, n: int) -> None:
    """Fail early with a clear message if ``metric`` does not follow the calling convention."""
    probe = np.stack([np.eye(n) + 1.0, np.eye(n) * 3 + 1.0])
    try:
        out = np.asarray(metric(probe), dtype=np.float64)
    except Exception as err:
        raise ValueError(
            f"metric {_name(metric)} failed on a stack of shape {probe.shape}: {err}"
        ) from err
    if out.shape != (2,):
        raise ValueError(
            f"metric {_name(metric)} must map a stack (k, n, n) to shape (k,); "
            f"got shape {out.shape}"
        )


def _is_integer(m: np.ndarray) -> np.ndarray:
    return np.all(m == np.round(m), axis=(-2, -1))


def _rng(seed) -> np.random.Generator:
    return np.random.default_rng(seed)
