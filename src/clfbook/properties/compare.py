"""Where the computed Table 5 and the printed one differ, cell by cell."""

from __future__ import annotations

from dataclasses import dataclass

from .cases import PROPERTIES
from .paper import _C, _N, _Y, PAPER_TABLE_5
from .render import _html_table, _text_table
from .results import ProbeResult
from .table import PropertyTable


@dataclass(frozen=True)
class Disagreement:
    """One cell where the probes and the printed Table 5 differ (or the paper is silent).

    ``kind`` is "disagreement" (the paper's mark is contradicted) or "silent"
    (the paper marks ✓ and says nothing about calibration, but calibration
    loses the property). ``result`` is the probe result that decides it.
    """

    metric: str
    prop: str
    paper: str
    computed: str
    kind: str
    why: str
    result: ProbeResult | None = None


def compare_with_paper(table: PropertyTable) -> list[Disagreement]:
    """List every cell where ``table`` contradicts :data:`PAPER_TABLE_5`, and every silent loss.

    Rules: the paper's "✓" claims the raw metric has the property; "(✓)" claims
    the raw metric lacks it and the calibrated one has it; "✗" claims both lack
    it. For PV the annotation ("1/n, strict", ...) is compared too.
    """
    rules = {  # (paper mark, raw passes, calibrated passes) -> what contradicts it
        (_Y, False): "the raw metric fails the probe",
        (_C, True): "the raw metric already passes the probe",
        (_N, True): "the raw metric passes the probe",
    }
    out = []
    for name in table.names:
        if name not in PAPER_TABLE_5:
            continue
        paper = PAPER_TABLE_5[name]
        for prop in PROPERTIES:
            mark, raw, cal = paper[prop], table.raw[name][prop], table.cal[name][prop]
            computed = table.mark(name, prop)
            if (mark, bool(raw)) in rules:
                why, kind, res = rules[mark, bool(raw)], "disagreement", raw
            elif mark == _C and not cal:
                why, kind, res = "the calibrated metric fails the probe", "disagreement", cal
            elif mark == _N and cal:
                why, kind, res = (
                    "the calibrated metric passes the probe, so (✓) could have been printed",
                    "disagreement",
                    cal,
                )
            elif mark == _Y and not cal:
                why, kind, res = "prevalence calibration loses the property", "silent", cal
                computed = _Y + ", lost after calibration"
            else:
                continue
            out.append(Disagreement(name, prop, mark, computed, kind, why, res))
        note = table.note(name)
        if paper["PV_note"] and note != paper["PV_note"]:
            why = "the chance baseline differs"
            res = table.raw[name]["PV"]
            out.append(Disagreement(name, "PV", paper["PV_note"], note, "disagreement", why, res))
    return out


def disagreement_table(disagreements) -> str:
    """Plain HTML table of :func:`compare_with_paper`'s output (for the chapters)."""

    class _Html:
        def __init__(self, text):
            self.text = text

        def _repr_html_(self):
            return self.text

        def __repr__(self):
            return _text_table(["metric", "property", "paper", "probes", "kind", "why"], rows)

    rows = [[d.metric, d.prop, d.paper, d.computed, d.kind, d.why] for d in disagreements]
    return _Html(
        _html_table(
            ["metric", "property", "paper", "probes", "kind", "why"],
            rows,
            "Cells where the probes and the printed Table 5 differ.",
        )
    )
