"""Building confusion matrices from labels, and converting scikit-learn's.

Convention of this library and of the source papers: ``m[i, j]`` is the mass
predicted as class ``i`` whose true class is ``j`` (rows = predictions,
columns = reference). scikit-learn's ``confusion_matrix`` returns the
transpose (rows = true labels); :func:`from_sklearn` and :func:`to_sklearn`
convert between the two.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet

import numpy as np

from ._checks import as_confusion, reject_masked
from ._labels import refuse_exact_numbers, refuse_mixed

__all__ = ["confusion_matrix", "from_sklearn", "to_labels", "to_sklearn"]


def _as_label_vector(y, name: str) -> np.ndarray:
    """A checked 1-d array of labels; tuples stay whole and mixed types are never merged.

    Refused, as by scikit-learn's ``type_of_target``: strings, sets and other
    unordered collections, scalars, nested sequences, masked entries, NaN,
    infinite and non-integer float labels (scores or probabilities, not classes).
    """
    reject_masked(y, name)
    if isinstance(y, (str, bytes)):
        raise ValueError(
            f"{name} must be a sequence of labels, not a string ({y[:20]!r}); "
            f"pass list({name}) if each character is a label"
        )
    if isinstance(y, (AbstractSet, Mapping)):
        raise ValueError(
            f"{name} must be an ordered sequence of labels; got a {type(y).__name__}, "
            "whose order is arbitrary"
        )
    if isinstance(y, np.ndarray):
        arr = y
    else:
        try:
            items = list(y)
        except TypeError:
            raise ValueError(
                f"{name} must be a 1-d sequence of labels; got a single {type(y).__name__} "
                f"({y!r:.40})"
            ) from None
        try:
            arr = np.asarray(items)
        except ValueError:  # sequences of different lengths: numpy cannot make an array
            arr = None
        # Tuple labels would become a 2-d array (or none at all, when their lengths
        # differ), and [1, "1"] a string array in which the two labels coincide:
        # keep such labels as Python objects instead.
        mixed = (
            arr is not None
            and arr.dtype.kind in "US"
            and not all(isinstance(v, str) for v in items)
        )
        if mixed or ((arr is None or arr.ndim > 1) and any(isinstance(v, tuple) for v in items)):
            arr = np.fromiter(items, dtype=object, count=len(items))
        elif arr is None:
            raise ValueError(
                f"{name} must be a 1-d sequence of labels; it holds nested sequences "
                "of different lengths (use tuples for labels that are sequences)"
            )
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-d sequence of labels; got shape {arr.shape}")
    _check_label_values(arr, name)
    return arr


def _is_bad_float(v) -> bool:
    # NaN and infinities are not integers either.
    return isinstance(v, (float, np.floating)) and not float(v).is_integer()


def _check_label_values(arr: np.ndarray, name: str) -> None:
    """Refuse NaN, infinite and non-integer float labels, complex, Fraction and Decimal."""
    if arr.dtype.kind == "c":
        raise ValueError(f"{name} holds complex numbers; labels must be classes")
    if arr.dtype.kind == "f":
        bad = ~np.isfinite(arr) | (arr != np.trunc(arr))
        if not bad.any():
            return
        k = int(np.argmax(bad))
    elif arr.dtype == object:
        items = arr.tolist()
        refuse_exact_numbers(items, name)
        k = next((k for k, v in enumerate(items) if _is_bad_float(v)), None)
        if k is None:
            return
    else:
        return
    v = float(arr[k])
    if np.isnan(v):
        raise ValueError(
            f"{name} contains NaN at index {k}: a missing label is not a class; "
            "drop or fill such items first"
        )
    if np.isinf(v):
        raise ValueError(f"{name} contains an infinite label {v} at index {k}")
    raise ValueError(
        f"{name} holds continuous values ({v!r} at index {k}); labels must be classes, "
        "not scores or probabilities: threshold or argmax them first "
        "(float labels must have integer values, as in scikit-learn)"
    )


def _codes_fast(y: np.ndarray, labels: np.ndarray, name: str) -> np.ndarray:
    """Vectorised label -> index lookup for numeric or string labels."""
    order = np.argsort(labels, kind="stable")
    sorted_labels = labels[order]
    pos = np.searchsorted(sorted_labels, y)
    pos_clipped = np.minimum(pos, len(labels) - 1)
    found = sorted_labels[pos_clipped] == y
    if not found.all():
        bad = y[~found][0]
        raise ValueError(f"{name} contains label {bad!r}, which is not in labels {labels.tolist()}")
    return order[pos_clipped]


#: Integer labels spanning fewer values than this are coded through a lookup table.
_LOOKUP_SPAN = 1 << 20


def _integer_span(*arrays: np.ndarray) -> tuple[int, int] | None:
    """``(lowest, span)`` of integer arrays when a lookup table over them is small, else None."""
    if any(a.dtype.kind not in "iu" or a.size == 0 for a in arrays):
        return None
    lo = min(int(a.min()) for a in arrays)
    hi = max(int(a.max()) for a in arrays)
    if hi - lo >= _LOOKUP_SPAN or hi > np.iinfo(np.intp).max or lo < np.iinfo(np.intp).min:
        return None
    return lo, hi - lo + 1


def _offsets(y: np.ndarray, lo: int) -> np.ndarray:
    y = y.astype(np.intp, copy=False)
    return y - lo if lo else y


def _present_integers(offsets, lo: int, span: int) -> np.ndarray:
    """Sorted distinct labels from their offsets (labels minus ``lo``): counted, not sorted."""
    seen = sum(np.bincount(o, minlength=span) for o in offsets)
    return np.flatnonzero(seen) + lo


def _codes_lookup(offsets, y, labels: np.ndarray, lo: int, span: int, name: str) -> np.ndarray:
    """Label -> index for integer labels through a table: O(len(y)), no sort."""
    table = np.full(span, -1, dtype=np.intp)
    table[_offsets(labels, lo)] = np.arange(len(labels))
    codes = table[offsets]
    if (codes < 0).any():
        bad = y[int(np.argmax(codes < 0))].item()
        raise ValueError(f"{name} contains label {bad!r}, which is not in labels {labels.tolist()}")
    return codes


def _codes_generic(y, labels: list, name: str) -> np.ndarray:
    """Label -> index lookup for arbitrary hashable labels (tuples, mixed types)."""
    index = {label: k for k, label in enumerate(labels)}
    try:
        return np.fromiter((index[v] for v in y), dtype=np.intp, count=len(y))
    except KeyError as err:
        raise ValueError(
            f"{name} contains label {err.args[0]!r}, which is not in labels {labels}"
        ) from None
    except TypeError as err:
        raise ValueError(f"{name} contains an unhashable label: {err}") from None


def _same_simple_kind(*arrays: np.ndarray) -> bool:
    """True when all arrays hold numbers, or all hold strings (vectorised lookup is safe)."""
    kinds = {
        "num" if a.dtype.kind in "biuf" else "str" if a.dtype.kind in "US" else "obj"
        for a in arrays
    }
    return len(kinds) == 1 and "obj" not in kinds


def _default_labels(y_true: np.ndarray, y_pred: np.ndarray) -> list:
    try:
        seen = dict.fromkeys(y_true.tolist() + y_pred.tolist())
    except TypeError as err:
        raise ValueError(f"y_true and y_pred must hold hashable labels: {err}") from None
    try:
        return sorted(seen)
    except TypeError:  # labels of mixed, unorderable types: keep first appearance
        return list(seen)


def _label_codes(y_true, y_pred, labels=None) -> tuple[np.ndarray, np.ndarray, int]:
    """Class indices of ``y_true`` and ``y_pred`` in ``labels`` (checked), and the class count."""
    yt = _as_label_vector(y_true, "y_true")
    yp = _as_label_vector(y_pred, "y_pred")
    if len(yt) != len(yp):
        raise ValueError(f"y_true and y_pred differ in length: {len(yt)} vs {len(yp)}")
    if len(yt) == 0:
        raise ValueError("y_true and y_pred are empty: there is nothing to count")
    vectorisable = _same_simple_kind(yt, yp)
    given = labels is not None
    if not given:
        refuse_mixed([("y_true", yt), ("y_pred", yp)])
    label_arr = _as_label_vector(labels, "labels") if given else None
    # Integer labels in a modest range (the usual case) are found and coded with a
    # table indexed by value: no sort, one pass per vector.
    span = _integer_span(yt, yp, *([label_arr] if given else []))
    if span is not None:
        to, po = _offsets(yt, span[0]), _offsets(yp, span[0])
    if not given:
        if span is not None:
            label_arr = _present_integers((to, po), *span)
            labels = label_arr.tolist()
        else:
            labels = np.union1d(yt, yp).tolist() if vectorisable else _default_labels(yt, yp)
            label_arr = _as_label_vector(labels, "labels")
    else:
        labels = label_arr.tolist()
        try:
            repeated = len(set(labels)) != len(labels)
        except TypeError as err:
            raise ValueError(f"labels must be hashable: {err}") from None
        if repeated:
            raise ValueError(f"labels must not repeat a class; got {labels}")
    n = len(labels)
    if n < 2:
        raise ValueError(
            f"only {n} class ({labels}) found; pass labels= with every class of the task"
        )
    if span is not None:
        t = _codes_lookup(to, yt, label_arr, *span, "y_true")
        p = _codes_lookup(po, yp, label_arr, *span, "y_pred")
    elif vectorisable and _same_simple_kind(yt, label_arr):
        t = _codes_fast(yt, label_arr, "y_true")
        p = _codes_fast(yp, label_arr, "y_pred")
    else:
        t = _codes_generic(yt.tolist(), labels, "y_true")
        p = _codes_generic(yp.tolist(), labels, "y_pred")
    return t, p, n


def confusion_matrix(y_true, y_pred, labels=None) -> np.ndarray:
    """Count the label pairs into ``m[i, j]`` = items predicted ``labels[i]``, true ``labels[j]``.

    Rows are predictions and columns the reference, as in the source papers:
    the transpose of ``sklearn.metrics.confusion_matrix``.

    Parameters
    ----------
    y_true, y_pred : sequence of hashable labels, equal length
        Reference labels and the classifier's predictions.
    labels : sequence of hashable, optional
        The classes, in the order of the rows and columns. Defaults to the
        sorted union of the labels that occur (first appearance if they cannot
        be sorted). Give it whenever a class may be missing from both vectors.
        Given, it decides: every label must be one of its classes, compared
        as they are (``0`` is not ``"0"``), so it also admits vectors of
        mixed label types.

    Returns
    -------
    ndarray of int64, shape (n, n)

    Raises
    ------
    ValueError
        If the vectors differ in length or are empty, a label is not in
        ``labels``, ``labels`` repeats a class, or fewer than 2 classes remain;
        if a vector or ``labels`` is a string, a set, a scalar, nested, or a
        masked array with masked entries; or if it holds NaN, an infinity or a
        float with a fractional part (a score, not a class: floats with integer
        values such as 1.0 are labels, as in scikit-learn's ``type_of_target``).
        scikit-learn counts masked entries as if unmasked; this function
        refuses them, since only the caller knows what a masked label means.
        Also if the labels mix kinds (numbers, strings, bytes, tuples, None)
        and ``labels`` is not given, as scikit-learn refuses "a mix of label
        input types": ``[0, 1, 2]`` against ``["0", "1", "2"]`` is an error,
        not six classes. ``Fraction`` and ``Decimal`` labels are refused
        (scikit-learn refuses them too); convert them to ``int`` or ``str``.

    Examples
    --------
    >>> confusion_matrix(["a", "a", "b"], ["a", "b", "b"])
    array([[1, 0],
           [1, 1]])
    """
    t, p, n = _label_codes(y_true, y_pred, labels)
    return np.bincount(p * n + t, minlength=n * n).reshape(n, n).astype(np.int64)


def from_sklearn(cm) -> np.ndarray:
    """Convert scikit-learn's matrix (rows = true, columns = predicted) to this library's.

    Parameters
    ----------
    cm : array_like, shape (n, n) or (..., n, n)
        Output of ``sklearn.metrics.confusion_matrix``; ``cm[j, i]`` = true ``j``, predicted ``i``.

    Returns
    -------
    ndarray, shape (..., n, n)
        ``m`` with ``m[i, j]`` = predicted ``i``, true ``j``.

    Examples
    --------
    >>> from_sklearn([[5, 1], [2, 7]])
    array([[5., 2.],
           [1., 7.]])
    """
    return np.swapaxes(as_confusion(cm, name="cm"), -1, -2).copy()


def to_sklearn(m) -> np.ndarray:
    """Convert this library's matrix (rows = predicted) to scikit-learn's layout (rows = true).

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        ``m[i, j]`` = predicted ``i``, true ``j``.

    Returns
    -------
    ndarray, shape (..., n, n)

    Examples
    --------
    >>> to_sklearn([[5, 2], [1, 7]])
    array([[5., 1.],
           [2., 7.]])
    """
    return np.swapaxes(as_confusion(m), -1, -2).copy()


def to_labels(m, labels=None) -> tuple[np.ndarray, np.ndarray]:
    """Expand a count matrix into label vectors ``(y_true, y_pred)`` that reproduce it.

    The inverse of :func:`confusion_matrix`: item order is by predicted class,
    then by true class. ``m[i, j]`` = number of items predicted ``labels[i]``
    whose true label is ``labels[j]``.

    Parameters
    ----------
    m : array_like of non-negative integers, shape (n, n)
    labels : sequence, optional
        Class names; default ``0 .. n-1``.

    Returns
    -------
    y_true, y_pred : ndarray, shape (m.sum(),)

    Examples
    --------
    >>> to_labels([[1, 0], [2, 1]], ["a", "b"])
    (array(['a', 'a', 'a', 'b'], dtype='<U1'), array(['a', 'b', 'b', 'b'], dtype='<U1'))
    """
    arr = as_confusion(m)
    if arr.ndim != 2:
        raise ValueError(f"to_labels expands one matrix (n, n); got shape {arr.shape}")
    if not np.all(arr == np.round(arr)):
        raise ValueError("to_labels needs whole-number counts; got fractional mass")
    n = arr.shape[0]
    names = np.arange(n) if labels is None else np.asarray(list(labels))
    if len(names) != n:
        raise ValueError(f"labels must name {n} classes; got {len(names)}")
    counts = arr.astype(np.int64).ravel()
    pred_index, true_index = np.divmod(np.repeat(np.arange(n * n), counts), n)
    return names[true_index], names[pred_index]
