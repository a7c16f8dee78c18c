"""Table 5 computed: every probe on every metric, raw and prevalence-calibrated, and the
printed table in the same layout."""

from __future__ import annotations

from dataclasses import dataclass

from .cases import CALIBRATED_SUFFIX, PROPERTIES, TABLE_METRICS, calibrated
from .chance import is_chance_corrected
from .decomposability import is_decomposable
from .invariance import is_prevalence_invariant
from .monotonicity import is_monotonic
from .paper import _C, _N, _Y, PAPER_TABLE_5
from .render import TableView
from .sensitivity import is_class_sensitive

_PROBES = {
    "PI": is_monotonic,
    "PII": is_class_sensitive,
    "PIII": is_decomposable,
    "PIV": is_prevalence_invariant,
    "PV": is_chance_corrected,
}


def probe_all(metric) -> dict:
    """Run all five probes on ``metric``; returns ``{"PI": ProbeResult, ...}``."""
    return {code: probe(metric) for code, probe in _PROBES.items()}


@dataclass(repr=False)
class PropertyTable(TableView):
    """Probe results for several metrics, raw and prevalence-calibrated.

    ``raw[name][prop]`` and ``cal[name][prop]`` are :class:`ProbeResult` objects.
    It renders like Table 5: "✓" the metric has the property, "(✓)" only after
    prevalence calibration, "✗" neither; PV carries the baseline annotation.
    """

    raw: dict
    cal: dict

    @property
    def names(self) -> list[str]:
        return list(self.raw)

    def mark(self, name: str, prop: str) -> str:
        """The Table-5 style mark for one cell."""
        if self.raw[name][prop]:
            return _Y
        if name in self.cal and self.cal[name][prop]:
            return _C
        return _N

    def note(self, name: str) -> str:
        return self.raw[name]["PV"].note

    def as_dict(self) -> dict:
        """``{metric: {code: bool}}`` plus ``{metric~: {code: bool}}``, the chooser's input.

        A row ``name~`` holds the probe results of the metric computed on the
        prevalence-calibrated matrix: a metric of its own, which may gain one
        property and lose another.
        """
        out = {n: {p: bool(self.raw[n][p]) for p in PROPERTIES} for n in self.names}
        out |= {
            n + CALIBRATED_SUFFIX: {p: bool(self.cal[n][p]) for p in PROPERTIES} for n in self.cal
        }
        return out

    def rows(self) -> list[list[str]]:
        out = []
        for name in self.names:
            cells = [self.mark(name, p) for p in PROPERTIES]
            note = self.note(name)
            if note:
                cells[-1] += f" : {note}"
            out.append([name, *cells])
        return out

    caption = (
        "Computed by the probes. ✓ has the property, (✓) only after prevalence "
        "calibration, ✗ neither."
    )


class PaperTable(TableView):
    """Displayable view of :data:`PAPER_TABLE_5` (same layout as :class:`PropertyTable`)."""

    def rows(self) -> list[list[str]]:
        out = []
        for name, row in PAPER_TABLE_5.items():
            cells = [row[p] for p in PROPERTIES]
            if row["PV_note"]:
                cells[-1] += f" : {row['PV_note']}"
            out.append([name, *cells])
        return out

    caption = "Table 5 of Opitz (2024) as printed. (✓): fulfilled after prevalence calibration."


def property_table(metrics=None) -> PropertyTable:
    """Compute Table 5: every probe on every metric, raw and after prevalence calibration.

    Parameters
    ----------
    metrics : dict of name -> callable, optional
        Default :data:`TABLE_METRICS` (the paper's rows).
    """
    metrics = TABLE_METRICS if metrics is None else metrics
    raw = {name: probe_all(f) for name, f in metrics.items()}
    cal = {name: probe_all(calibrated(f)) for name, f in metrics.items()}
    return PropertyTable(raw, cal)
