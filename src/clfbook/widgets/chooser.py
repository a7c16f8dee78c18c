"""Metric chooser: tick the properties you need, see the metrics that have them.

The five properties are those of Opitz (2024): PI monotonicity, PII class
sensitivity, PIII class decomposability, PIV prevalence invariance and PV
chance correction. A prevalence-calibrated metric is a metric of its own, with
its own properties (calibrated macro F1 gains PIV but loses PI), so it is a row
of its own, named with a trailing ``~``; the "after calibration" toggle adds
those rows. Mixing the raw metric's PI with the calibrated metric's PIV would
recommend a metric that has neither combination.
"""

from __future__ import annotations

import html

import ipywidgets as w

from ..properties import CALIBRATED_SUFFIX, PROPERTIES
from ..properties.choose import check_codes, is_calibrated_row, rows_with
from ._base import Explorer, Raw, html_table, mark, row

__all__ = ["CALIBRATED_SUFFIX", "PROPERTIES", "MetricChooser", "matching_metrics", "metric_chooser"]


def _check_table(table) -> dict:
    if hasattr(table, "as_dict"):  # a computed properties.PropertyTable
        table = table.as_dict()
    try:
        items = list(table.items())
    except AttributeError:
        raise ValueError("table must be a mapping {metric: {property code: bool}}") from None
    if not items:
        raise ValueError("table is empty: there are no metrics to choose from")
    for metric, props in items:
        if not hasattr(props, "items"):
            raise ValueError(f"table[{metric!r}] must be a mapping {{property code: bool}}")
        unknown = set(props) - set(PROPERTIES)
        if unknown:
            raise ValueError(
                f"table[{metric!r}] has unknown property codes {sorted(unknown)}; "
                f"use {list(PROPERTIES)}"
            )
        for code, value in props.items():
            if not isinstance(value, bool):
                raise ValueError(
                    f"table[{metric!r}][{code!r}] must be True or False; got {value!r} "
                    f"(describe a calibrated metric as its own row, '{metric}~')"
                )
    return dict(items)


def matching_metrics(table, required, *, calibrated: bool = False) -> list[str]:
    """The metrics of ``table`` (in its order) that have every property in ``required``.

    Parameters
    ----------
    table : PropertyTable or mapping of metric name -> mapping of property code -> bool
        A missing code counts as not having the property. Rows whose name ends
        in ``~`` describe prevalence-calibrated metrics.
    required : iterable of str
        Property codes from :data:`PROPERTIES`.
    calibrated : bool
        Also offer the calibrated rows.

    Examples
    --------
    >>> t = {"accuracy": {"PI": True}, "accuracy~": {"PI": True, "PIV": True}}
    >>> matching_metrics(t, ["PIV"]), matching_metrics(t, ["PIV"], calibrated=True)
    ([], ['accuracy~'])
    """
    return rows_with(_check_table(table), check_codes(required), calibrated=calibrated)


class MetricChooser(Explorer):
    """One checkbox per property and an "after calibration" toggle; the matching metrics, live."""

    def __init__(self, table):
        self.table = _check_table(table)
        self.checkboxes = {
            code: w.Checkbox(value=False, description=f"{code} {name}", indent=False)
            for code, name in PROPERTIES.items()
        }
        self.calibration = w.ToggleButton(
            value=False,
            description="after calibration",
            tooltip="also offer the metrics of the prevalence-calibrated matrix (name~)",
        )
        for widget in (*self.checkboxes.values(), self.calibration):
            widget.observe(self._on_change, names="value")
        self.result = w.HTML()
        self.table_view = w.HTML()
        self._muted = False
        self.view = w.VBox(
            [
                w.HTML("<b>Which properties do you need?</b>"),
                row([w.VBox(list(self.checkboxes.values())), self.calibration]),
                self.result,
                self.table_view,
            ]
        )
        self._refresh()

    def require(self, props) -> None:
        """Tick exactly the property codes in ``props`` (e.g. ``["PI", "PIV"]``)."""
        codes = set(check_codes(props))
        self._muted = True
        try:
            for code, box in self.checkboxes.items():
                box.value = code in codes
        finally:
            self._muted = False
        self._refresh()

    def set_calibrated(self, flag: bool) -> None:
        """Also offer the prevalence-calibrated metrics, the ``name~`` rows (the toggle)."""
        self.calibration.value = bool(flag)

    def required(self) -> list[str]:
        """The ticked property codes."""
        return [code for code, box in self.checkboxes.items() if box.value]

    def matching(self) -> list[str]:
        """The metrics with every ticked property (in the table's order)."""
        return matching_metrics(self.table, self.required(), calibrated=self.calibration.value)

    def _on_change(self, _change) -> None:
        if not self._muted:
            self._refresh()

    def _refresh(self) -> None:
        found = self.matching()
        cal = self.calibration.value
        self.result.value = "<b>Matching:</b> " + (
            html.escape(", ".join(found)) if found else "none"
        )
        rows = [
            [
                Raw(f"<b>{html.escape(name)}</b>" if name in found else html.escape(name)),
                *[mark(bool(props.get(c, False))) for c in PROPERTIES],
            ]
            for name, props in self.table.items()
            if cal or not is_calibrated_row(name)
        ]
        self.table_view.value = html_table(["metric", *PROPERTIES], rows)


def metric_chooser(table):
    """Tick the properties you need and see the metrics that have them.

    Parameters
    ----------
    table : PropertyTable or mapping {metric name: {property code: bool}}
        The output of :func:`clfbook.properties.property_table` (the computed
        Table 5), or a mapping with property codes ``PI`` .. ``PV`` (see
        :data:`PROPERTIES`). Rows named ``metric~`` describe the metric of the
        prevalence-calibrated matrix; the calibration toggle shows them.

    Returns
    -------
    MetricChooser
        ``require(props)``, ``set_calibrated(flag)`` and ``matching()`` drive and read it.

    Examples
    --------
    >>> ch = metric_chooser({"macro_recall": {"PIV": True}, "accuracy": {"PIV": False}})
    >>> ch.require(["PIV"])
    >>> ch.matching()
    ['macro_recall']
    """
    return MetricChooser(table)
