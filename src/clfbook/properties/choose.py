"""The chooser's filter: which metrics (raw or calibrated) have a given set of properties."""

from __future__ import annotations

from .cases import CALIBRATED_SUFFIX, PROPERTIES
from .table import PropertyTable

__all__ = ["check_codes", "is_calibrated_row", "metrics_with", "rows_with"]


def metrics_with(table: PropertyTable, required, *, allow_calibration=False) -> list[str]:
    """The metrics of ``table`` that have every property in ``required``.

    Parameters
    ----------
    table : PropertyTable
    required : iterable of str
        Property codes, e.g. ``{"PI", "PIV"}``.
    allow_calibration : bool
        Also offer ``name~`` (the metric of the prevalence-calibrated matrix)
        when the calibrated metric has every required property.

    Returns
    -------
    list of str
        Names in table order; calibrated variants carry a trailing ``~``.
    """
    codes = check_codes(list(required))
    return rows_with(table.as_dict(), codes, calibrated=allow_calibration)


def check_codes(props) -> list[str]:
    """``props`` as a list of property codes (one string is one code); unknown codes raise."""
    codes = [props] if isinstance(props, str) else list(props)
    unknown = [c for c in codes if c not in PROPERTIES]
    if unknown:
        raise ValueError(f"unknown property codes {unknown}; use {list(PROPERTIES)}")
    return codes


def is_calibrated_row(name: str) -> bool:
    """True for a row of a prevalence-calibrated metric (``'macro_f1~'``)."""
    return str(name).endswith(CALIBRATED_SUFFIX)


def rows_with(rows: dict, codes, *, calibrated: bool) -> list[str]:
    """Names of ``rows`` (in order) with every code; ``name~`` rows only if ``calibrated``."""
    return [
        name
        for name, props in rows.items()
        if (calibrated or not is_calibrated_row(name)) and all(props.get(c, False) for c in codes)
    ]
