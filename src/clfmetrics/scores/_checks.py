"""Input checks for scores and their labels, shared by the curves, the costs and reliability.

Each public function that takes one score (or probability) per item checks its input
here once and works on the returned float arrays.
"""

from __future__ import annotations

import numpy as np

from .._base.checks import reject_masked
from .._base.codes import as_label_vector


def as_scores(scores, *, ndim: int, name: str = "scores") -> np.ndarray:
    """``scores`` as a finite float array with ``ndim`` dimensions, or a ValueError."""
    reject_masked(scores, name, "items")
    try:
        arr = np.asarray(scores)
    except ValueError as err:  # ragged nested lists
        raise ValueError(f"{name} is not a rectangular array of numbers: {err}") from None
    if arr.dtype.kind not in "biuf":
        raise ValueError(f"{name} must hold numbers; got dtype {arr.dtype}")
    if arr.ndim != ndim:
        want = "a 1-d array, one score per item" if ndim == 1 else "shape (N, n)"
        raise ValueError(f"{name} must be {want}; got shape {arr.shape}")
    arr = arr.astype(np.float64, copy=False)
    if not np.isfinite(arr).all():
        bad = np.argwhere(~np.isfinite(arr))[0]
        raise ValueError(
            f"{name} has a NaN or infinite score {arr[tuple(bad)]} at index "
            f"{tuple(bad.tolist()) if arr.ndim > 1 else int(bad[0])}"
        )
    return arr


def as_target(y_true, n_items: int, name: str = "scores") -> np.ndarray:
    y = as_label_vector(y_true, "y_true")
    if len(y) != n_items:
        raise ValueError(f"y_true and {name} differ in length: {len(y)} vs {n_items}")
    if len(y) == 0:
        raise ValueError(f"y_true and {name} are empty: there is nothing to evaluate")
    return y


def _classes(y: np.ndarray) -> np.ndarray:
    try:
        return np.unique(y)
    except TypeError as err:
        raise ValueError(f"y_true must hold labels of one sortable kind: {err}") from None


def positives(y_true, scores, pos_label, *, name: str = "scores"):
    """Checked 1-d scores and the boolean vector "item is positive".

    The positive class is ``pos_label``, else the greater of two classes; a single
    class 0, 1 or -1 makes 1 the positive class (scikit-learn's rule), any other
    single class needs ``pos_label``.
    """
    s = as_scores(scores, ndim=1, name=name)
    y = as_target(y_true, len(s), name)
    classes = _classes(y)
    if pos_label is None:
        if len(classes) > 2:
            raise ValueError(
                f"y_true has {len(classes)} classes {classes.tolist()}, but {name} is 1-d "
                "(binary); pass pos_label= to take one class against the rest"
            )
        if len(classes) == 2:
            pos_label = classes[1]
        elif classes[0] in (0, 1, -1) and not isinstance(classes[0], str):
            pos_label = 1  # scikit-learn's rule for a single class
        else:
            raise ValueError(
                f"y_true holds the single class {classes.tolist()[0]!r}; pass pos_label= to say "
                "whether it is the positive class"
            )
    elif len(classes) == 2 and pos_label not in classes.tolist():
        raise ValueError(f"pos_label={pos_label!r} is not a label of y_true {classes.tolist()}")
    return s, y == pos_label
