"""Input checks shared by every public function.

Each public function validates its input once, here, and then works on the
returned float array with the private helpers; nothing downstream re-checks.
"""

from __future__ import annotations

import math
import sys

import numpy as np

ZERO_DIVISION_HELP = "zero_division must be 0, 1 or 'nan' (np.nan is accepted for 'nan')"


def as_confusion(m, *, name: str = "m") -> np.ndarray:
    """Return ``m`` as a float array of shape ``(..., n, n)`` after checking it.

    See :func:`as_confusion_with_totals` for the checks.
    """
    return as_confusion_with_totals(m, name=name)[0]


def as_confusion_with_totals(m, *, name: str = "m") -> tuple[np.ndarray, np.ndarray]:
    """Return ``m`` as a float array ``(..., n, n)`` and its total masses ``(...)``.

    Raises ``ValueError`` naming the problem for: a masked array with masked
    entries, non-numeric entries, fewer than two dimensions, a non-square last
    pair of axes, fewer than two classes, an empty stack, NaN or infinite
    entries, negative entries, and matrices whose total mass is zero. The
    input is never modified.
    """
    reject_masked(m, name)
    try:
        arr = np.asarray(m)
    except ValueError as err:  # ragged nested lists
        raise ValueError(f"{name} is not a rectangular array of numbers: {err}") from None
    if arr.dtype == bool or not (
        np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)
    ):
        raise ValueError(
            f"{name} must hold numbers (integer or float counts); got dtype {arr.dtype}"
        )
    if arr.ndim < 2:
        raise ValueError(
            f"{name} must have shape (n, n) or (..., n, n); got {arr.ndim} dimension(s), "
            f"shape {arr.shape}"
        )
    n_rows, n_cols = arr.shape[-2:]
    if n_rows != n_cols:
        raise ValueError(
            f"{name} must be square in its last two axes (rows = predicted, columns = true); "
            f"got shape {arr.shape}"
        )
    if n_rows < 2:
        raise ValueError(f"{name} needs at least 2 classes; got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(
            f"{name} is an empty stack of shape {arr.shape}: there is no matrix to evaluate"
        )
    arr = arr.astype(np.float64, copy=False)
    # Two passes over the data on the happy path (min and the totals); the
    # offending entry is located only when something is wrong.
    lowest = arr.min()
    with np.errstate(over="ignore"):
        totals = np.einsum("...ij->...", arr)
    if np.isnan(lowest) or lowest < 0 or not np.isfinite(totals).all():
        _raise_bad_entry(arr, name)
    if (totals <= 0).any():
        if totals.ndim == 0:
            raise ValueError(f"{name} has total mass 0: there is nothing to evaluate")
        bad = np.argwhere(totals <= 0)[0]
        raise ValueError(
            f"{name} has total mass 0 at stack index {tuple(bad.tolist())}: "
            "there is nothing to evaluate"
        )
    return arr, totals


#: What to do instead of passing a masked array, by kind of argument.
MASK_HINTS = {
    "counts": "a matrix: m.filled(0); labels: drop the masked items from both vectors",
    "items": "drop the masked items from y_true and from this argument alike",
    "values": "fill the masked entries with the values you mean, x.filled(value)",
}


def reject_masked(x, name: str, kind: str = "counts") -> None:
    """Refuse a masked array that masks something.

    ``np.asarray`` would drop the mask and count the hidden entries, and
    scikit-learn does exactly that. A masked cell, label, score or factor has no
    agreed meaning here (a zero count? an item to skip?), so the caller must decide;
    the message suggests how, by ``kind`` (a key of ``MASK_HINTS``): ``x.filled(0)``
    for a matrix, the unmasked items for labels and scores, chosen values otherwise.
    """
    # numpy 2 imports numpy.ma on first use (7 ms, once per process, a CLI call's start):
    # a masked array cannot exist before it is imported
    ma = sys.modules.get("numpy.ma")
    if ma is not None and ma.is_masked(x):
        raise ValueError(
            f"{name} is a masked array with masked entries, and the mask would be ignored; "
            f"pass a plain array ({MASK_HINTS[kind]})"
        )


def _raise_bad_entry(arr: np.ndarray, name: str):
    if not np.isfinite(arr).all():
        bad = np.argwhere(~np.isfinite(arr))[0]
        raise ValueError(
            f"{name} has a NaN or infinite entry {arr[tuple(bad)]} at index {tuple(bad.tolist())}"
        )
    if (arr < 0).any():
        bad = np.argwhere(arr < 0)[0]
        raise ValueError(
            f"{name} has a negative entry {arr[tuple(bad)]} at index {tuple(bad.tolist())}; "
            "confusion matrices hold non-negative mass"
        )
    raise ValueError(f"{name} is too large: its total mass overflows a float64")


def fill_value(zero_division) -> float:
    """Return the value that stands for an undefined ratio (0, 1 or NaN)."""
    if isinstance(zero_division, str):
        if zero_division.lower() == "nan":
            return math.nan
        raise ValueError(f"{ZERO_DIVISION_HELP}; got {zero_division!r}")
    if isinstance(zero_division, (bool, np.bool_)) or not isinstance(
        zero_division, (int, float, np.integer, np.floating)
    ):
        raise ValueError(f"{ZERO_DIVISION_HELP}; got {zero_division!r}")
    if math.isnan(zero_division):
        return math.nan
    if zero_division in (0, 1):
        return float(zero_division)
    raise ValueError(f"{ZERO_DIVISION_HELP}; got {zero_division!r}")


def scalar_or_array(x: np.ndarray):
    """A 0-d result becomes a Python float; a stacked result stays an array."""
    return float(x) if np.ndim(x) == 0 else x
