"""The metric registry: the library's metrics and per-class functions, by name.

Public as ``clfmetrics.METRICS`` and ``clfmetrics.CLASSWISE`` (the same dictionaries).
It sits below everything that looks a metric up by name (intervals, simulations,
reports, comparisons), so that none of them reaches up to the package for it.
``CLASS_SUM_FORMS`` gives each metric of METRICS as the function of the class sums
that its matrix function calls, for the resampling of many classes.
"""

from __future__ import annotations

from ._agreement import _kappa_of, _mcc_of, kappa, mcc
from ._averages import (
    _accuracy_of,
    _delta_f1_of,
    _f1_of_averages_of,
    _geometric_macro_recall_of,
    _harmonic_macro_recall_of,
    _macro_f1_of,
    _macro_precision_of,
    _macro_recall_of,
    _micro_f1_of,
    _weighted_f1_of,
    accuracy,
    delta_f1,
    f1_of_averages,
    geometric_macro_recall,
    harmonic_macro_recall,
    macro_f1,
    macro_precision,
    macro_recall,
    micro_f1,
    micro_precision,
    micro_recall,
    weighted_f1,
)
from ._classwise import bias, correct, f1, precision, prevalence, recall

#: The single-number metrics of the library, by name, in the order the book presents them.
METRICS = {
    "accuracy": accuracy,
    "macro_recall": macro_recall,
    "macro_precision": macro_precision,
    "macro_f1": macro_f1,
    "f1_of_averages": f1_of_averages,
    "weighted_f1": weighted_f1,
    "kappa": kappa,
    "mcc": mcc,
    "geometric_macro_recall": geometric_macro_recall,
    "harmonic_macro_recall": harmonic_macro_recall,
    "micro_precision": micro_precision,
    "micro_recall": micro_recall,
    "micro_f1": micro_f1,
    "delta_f1": delta_f1,
}

#: The per-class functions, by name: each returns one value per class, shape (..., n).
CLASSWISE = {
    "bias": bias,
    "prevalence": prevalence,
    "correct": correct,
    "precision": precision,
    "recall": recall,
    "f1": f1,
}


#: Each metric of METRICS as the form ``f(sums, fill)`` on a ``ClassSums`` that it is
#: computed by (``fill``: the value of an undefined ratio, ignored by the micro averages).
CLASS_SUM_FORMS = {
    accuracy: _accuracy_of,
    macro_recall: _macro_recall_of,
    macro_precision: _macro_precision_of,
    macro_f1: _macro_f1_of,
    f1_of_averages: _f1_of_averages_of,
    weighted_f1: _weighted_f1_of,
    kappa: _kappa_of,
    mcc: _mcc_of,
    geometric_macro_recall: _geometric_macro_recall_of,
    harmonic_macro_recall: _harmonic_macro_recall_of,
    micro_precision: _accuracy_of,
    micro_recall: _accuracy_of,
    micro_f1: _micro_f1_of,
    delta_f1: _delta_f1_of,
}


def registry() -> dict:
    """``clfmetrics.METRICS``, the package's metrics by name (the dictionary itself)."""
    return METRICS


#: Other names of metrics: scikit-learn's balanced_accuracy_score is macro recall.
ALIASES = {"balanced_accuracy": "macro_recall"}


def resolve_metric(metric):
    """The metric as ``(name, function)``; a name is looked up in ``clfmetrics.METRICS``.

    ``"balanced_accuracy"`` is accepted as another name of ``"macro_recall"`` (the
    mean of class-wise recall, scikit-learn's ``balanced_accuracy_score``).
    """
    metric = ALIASES.get(metric, metric) if isinstance(metric, str) else metric
    if isinstance(metric, str):
        if metric not in METRICS:
            names = sorted([*METRICS, *ALIASES])
            raise ValueError(f"unknown metric {metric!r}; choose one of {names}")
        return metric, METRICS[metric]
    if not callable(metric):
        raise ValueError(
            f"metric must be a function of a confusion matrix or a name in METRICS; got {metric!r}"
        )
    return getattr(metric, "__name__", repr(metric)), metric
