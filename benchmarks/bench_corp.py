"""The CORP consistency band (issue 27) against the straightforward way, in the same run.

Ours: :func:`clfmetrics.corp_band` (``method="consistency"``): one binomial draw per
distinct probability and resample, and the PAV over the whole stack of resamples at
once. Reference: what one would write with scikit-learn: per resample, draw every
item's outcome ``y* ~ Bernoulli(p)``, fit ``IsotonicRegression`` to ``(p, y*)`` and read
it at the distinct probabilities; the band is the pointwise quantiles. The reference
is timed on a few resamples and scaled linearly to ``size`` (as the ROC band rows).
Both bands are random (different draws) and the reference's few resamples give no
band worth comparing, so the row records our band's mean width only.

Full: 10**5 items with probabilities on 3 decimals (1,000 distinct values), 1,000
resamples. ``--quick``: 10**4 items, 200 resamples.
"""

from __future__ import annotations

import time

import numpy as np

import clfmetrics as cm


def _reference(p, size: int, rng) -> float:
    """CPU seconds for ``size`` resamples of the item-by-item consistency band (outcomes
    drawn from ``p`` itself, so the observed ones play no part)."""
    from sklearn.isotonic import IsotonicRegression

    grid = np.unique(p)
    start, fits = time.process_time(), []
    for _ in range(size):
        drawn = rng.random(p.size) < p
        fit = IsotonicRegression(y_min=0.0, y_max=1.0, out_of_bounds="clip").fit(p, drawn)
        fits.append(fit.predict(grid))
    np.quantile(np.array(fits), [0.025, 0.975], axis=0)
    return time.process_time() - start


def bench_corp(quick: bool) -> list[dict]:
    rng = np.random.default_rng(27)
    items, size, few = (10**4, 200, 20) if quick else (10**5, 1000, 20)
    p = np.round(rng.beta(2, 5, items), 3)
    y = rng.random(items) < np.clip(p * 1.1, 0, 1)  # a little miscalibrated
    start = time.process_time()
    band = cm.corp_band(y, p, method="consistency", size=size, level=0.95, rng=0)
    ours = time.process_time() - start
    ref_few = _reference(p, few, rng)
    reference = ref_few * size / few
    return [
        {
            "items": items,
            "distinct": int(np.unique(p).size),
            "resamples": size,
            "ours_cpu_s": ours,
            "reference": "sklearn IsotonicRegression per resample (item draws)",
            "reference_cpu_s": reference,
            "reference_resamples_timed": few,
            "speedup": reference / ours,
            "mean_width": float(np.mean(band.high - band.low)),
        }
    ]
