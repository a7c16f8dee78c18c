"""Labels become class codes here, once, at the boundary of every entry point.

``confusion_matrix``, ``report``, ``compare``, ``report_from_counts``,
``compare_from_counts`` (and so the command line, which calls the last four)
hand their label vectors to :func:`joint_codes` or :func:`counted_codes`. Each
vector is checked once (:func:`as_label_vector`), the classes are fixed once
(``labels=``, or the sorted union of the labels that occur), and every vector
is turned into integer codes ``0 .. n-1`` in one pass. Past this module only
codes travel; the labels come back only to name rows and columns.

The rule for which labels are one class: labels are compared as they are.
Numbers are one kind (``1 == 1.0 == True``), strings another, and the two never
match (``0`` is not ``"0"``, see ``_labels``). Strings are compared as text:
``"Spam"`` and ``"spam"``, ``"007"`` and ``"7"`` are different classes. Since
such near-duplicates are usually a mistake in the data, :func:`joint_codes`
warns (:class:`clfmetrics.LabelWarning`) when the classes it finds hold
labels that differ only in case, whitespace or leading zeros, naming both
spellings. (The command line reads every value as text and applies the same
rule, see ``_csvinput``.)
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from collections.abc import Set as AbstractSet

import numpy as np

from .checks import reject_masked
from .labels import LabelWarning, near_duplicates, refuse_exact_numbers, refuse_mixed


def as_label_vector(y, name: str) -> np.ndarray:
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


def _default_labels(*vectors: np.ndarray) -> list:
    try:
        seen = dict.fromkeys(v for vec in vectors for v in vec.tolist())
    except TypeError as err:
        raise ValueError(f"the labels must be hashable: {err}") from None
    try:
        return sorted(seen)
    except TypeError:  # labels of mixed, unorderable types: keep first appearance
        return list(seen)


def _prediction_names(k: int) -> list[str]:
    if k == 1:
        return ["y_pred"]
    return ["pred_a", "pred_b"] if k == 2 else [f"predictions[{s}]" for s in range(k)]


def _classes(vectors: list[np.ndarray], names: list[str], labels) -> tuple[list, np.ndarray]:
    """The classes (given, checked; or the sorted union of the labels found) as list and array."""
    if labels is not None:
        label_arr = as_label_vector(labels, "labels")
        labels = label_arr.tolist()
        try:
            repeated = len(set(labels)) != len(labels)
        except TypeError as err:
            raise ValueError(f"labels must be hashable: {err}") from None
        if repeated:
            raise ValueError(f"labels must not repeat a class; got {labels}")
        return labels, label_arr
    refuse_mixed(list(zip(names, vectors, strict=True)))
    span = _integer_span(*vectors)
    if span is not None:  # small integer labels: count which occur, no sort of the items
        label_arr = _present_integers([_offsets(v, span[0]) for v in vectors], *span)
    elif _same_simple_kind(*vectors):
        label_arr = np.unique(np.concatenate([np.unique(v) for v in vectors]))
    else:
        label_arr = as_label_vector(_default_labels(*vectors), "labels")
    labels = label_arr.tolist()
    close = near_duplicates(labels)
    if close:
        warnings.warn(close, LabelWarning, stacklevel=4)
    return labels, label_arr


def _code(v: np.ndarray, name: str, labels: list, label_arr: np.ndarray, span) -> np.ndarray:
    if span is not None:
        return _codes_lookup(_offsets(v, span[0]), v, label_arr, *span, name)
    if _same_simple_kind(v, label_arr):
        return _codes_fast(v, label_arr, name)
    return _codes_generic(v.tolist(), labels, name)


def joint_codes(y_true, predictions, labels=None, names=None) -> tuple[np.ndarray, int, list]:
    """Class indices of the truth and of every prediction vector, stacked as rows.

    Returns ``(codes, n, labels)`` with ``codes`` of shape ``(1 + k, N)``: row 0
    the true classes, row ``1 + s`` the predictions of system ``s``, all in the
    order of ``labels`` (default: the sorted union of every label that occurs;
    then the vectors must hold one kind of label, see ``_labels``). ``names``:
    how the vectors are called in error messages.
    """
    predictions = list(predictions)
    if not predictions:
        raise ValueError("predictions is empty: give at least one prediction vector")
    names = list(names or ["y_true", *_prediction_names(len(predictions))])
    given = [y_true, *predictions]
    vectors = [as_label_vector(v, name) for v, name in zip(given, names, strict=True)]
    for v, name in zip(vectors[1:], names[1:], strict=True):
        if len(v) != len(vectors[0]):
            raise ValueError(
                f"{names[0]} and {name} differ in length: {len(vectors[0])} vs {len(v)}"
            )
    if len(vectors[0]) == 0:
        raise ValueError(f"{' and '.join(names)} are empty: there is nothing to count")
    labels, label_arr = _classes(vectors, names, labels)
    n = len(labels)
    if n < 2:
        raise ValueError(
            f"only {n} class ({labels}) found; pass labels= with every class of the task"
        )
    span = _integer_span(*vectors, label_arr)
    codes = np.empty((len(vectors), len(vectors[0])), dtype=np.intp)
    for row, (v, name) in enumerate(zip(vectors, names, strict=True)):
        codes[row] = _code(v, name, labels, label_arr, span)
    return codes, n, labels


def label_codes(y_true, y_pred, labels=None) -> tuple[np.ndarray, np.ndarray, int]:
    """Class indices of ``y_true`` and ``y_pred`` in ``labels`` (checked), and the class count."""
    codes, n, _ = joint_codes(y_true, [y_pred], labels)
    return codes[0], codes[1], n


def check_counts(counts, length: int) -> np.ndarray:
    """``counts`` as int64: ``length`` whole, non-negative numbers of items, not all 0."""
    arr = np.asarray(counts)
    if np.ma.isMaskedArray(counts) and np.ma.getmaskarray(counts).any():
        raise ValueError("counts has masked entries; drop or fill them")
    if arr.ndim != 1:
        raise ValueError(f"counts must be 1-d, one count per combination; got shape {arr.shape}")
    if arr.dtype.kind not in "iuf":
        raise ValueError(f"counts must be numbers of items; got an array of dtype {arr.dtype}")
    if len(arr) != length:
        raise ValueError(f"counts has {len(arr)} entries but the label arrays have {length}")
    if arr.dtype.kind == "f" and not np.isfinite(arr).all():
        raise ValueError("counts must be finite numbers of items; got NaN or infinity")
    if (arr < 0).any():
        raise ValueError(f"counts must not be negative; got {arr[arr < 0][0]!r}")
    if arr.dtype.kind == "f" and not np.array_equal(arr, np.round(arr)):
        raise ValueError(
            "counts must hold whole-number counts of items to resample them; "
            "got fractional entries (a normalised or rescaled matrix?)"
        )
    out = arr.astype(np.int64)
    if out.sum() == 0:
        raise ValueError("counts sum to 0: there are no items to evaluate")
    return out


def counted_codes(truth, predictions, counts, labels=None, names=None):
    """:func:`joint_codes` of label combinations, each shared by ``counts[c]`` items.

    Returns ``(codes, weights, n, labels)``; ``counts=None`` means one item per
    combination. Combinations with count 0 are dropped first, so a class that
    only they mention is no class, as on the expanded items. ``names``: how the
    truth and each prediction argument are called in error messages.
    """
    names = list(names or ["truth", *_prediction_names(len(predictions))])
    if counts is None:
        codes, n, labels = joint_codes(truth, predictions, labels, names)
        return codes, None, n, labels
    truth = as_label_vector(truth, names[0])
    weights = check_counts(counts, len(truth))
    keep = weights > 0
    if not keep.all():
        preds = [as_label_vector(p, name) for p, name in zip(predictions, names[1:], strict=True)]
        if any(len(p) != len(truth) for p in preds):
            codes, n, labels = joint_codes(truth, preds, labels, names)  # names the length error
        truth, predictions, weights = truth[keep], [p[keep] for p in preds], weights[keep]
    codes, n, labels = joint_codes(truth, predictions, labels, names)
    return codes, weights, n, labels
