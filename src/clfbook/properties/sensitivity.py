"""Probe PII (class sensitivity): does a correct item or an error count differently by class?"""

from __future__ import annotations

import numpy as np

from .cases import _cached_cases, _check_metric, _is_integer, _name, _scores
from .render import _fmt
from .results import ProbeResult


def is_class_sensitive(metric, *, ns=(2, 3, 4), size=300, step=1.0, tol=1e-7, seed=1):
    r"""Probe PII: does the gain of a correct item, or the loss of an error, depend on the class?

    Discrete version of Opitz (2024), footnote 4: look for a matrix :math:`m`
    and two diagonal cells with :math:`metric(m + \delta e_{ii}) \ne
    metric(m + \delta e_{jj})`, or two error cells with
    :math:`metric(m + \delta e_{ij}) \ne metric(m + \delta e_{kl})`. Finding
    one proves PII; a metric that only counts right and wrong (accuracy) never
    yields one.

    The witness shown is chosen for reading: a matrix of whole counts before
    soft mass, two correct items before two errors, then the largest difference.

    Returns
    -------
    ProbeResult
        With the witness matrix, the two cells and their scores when PII holds.
    """
    best, n_cases = None, 0
    for n in ns:
        _check_metric(metric, n)
        m = _cached_cases(n, size, seed)
        whole = _is_integer(m)
        eye = np.eye(n * n).reshape(n * n, n, n)
        after = _scores(metric, m[:, None] + step * eye[None])  # (k, cells)
        n_cases += after.size
        diagonal = np.eye(n, dtype=bool).reshape(-1)
        for mask, label in ((diagonal, "correct"), (~diagonal, "error")):
            part = np.where(mask[None], after, np.nan)
            with np.errstate(all="ignore"):
                spread = np.nanmax(part, axis=1) - np.nanmin(part, axis=1)
                scale = tol * np.maximum(1.0, np.nanmax(np.abs(part), axis=1))
            found = spread > scale  # False where NaN
            if not found.any():
                continue
            # whole counts first, then the largest difference
            c = int(np.argmax(np.where(found, spread + 1e6 * whole, -np.inf)))
            key = (bool(whole[c]), label == "correct", float(spread[c]))
            if best is None or key > best[0]:
                hi = int(np.nanargmax(part[c]))
                lo = int(np.nanargmin(part[c]))
                best = (key, label, m[c], divmod(hi, n), divmod(lo, n), part[c, hi], part[c, lo])
    name = _name(metric)
    if best is None:
        return ProbeResult(
            "PII",
            name,
            False,
            "no witness",
            n_cases,
            "Every correct item counted the same in every class, and every error the same in "
            "every cell: the metric only sees right and wrong.",
        )
    _, label, m0, hi, lo, s_hi, s_lo = best
    return ProbeResult(
        "PII",
        name,
        True,
        "witness",
        n_cases,
        f"Adding {_fmt(step)} {label} item to m[{hi[0]}, {hi[1]}] gives {s_hi:.6g}, "
        f"to m[{lo[0]}, {lo[1]}] gives {s_lo:.6g}.",
        {"m": m0, "cells": (hi, lo), "scores": (float(s_hi), float(s_lo))},
    )
