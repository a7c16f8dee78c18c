"""The result objects of the probes: truthy verdicts that carry and display their evidence."""

from __future__ import annotations

import html
from dataclasses import dataclass, field

import numpy as np

from .cases import PROPERTIES
from .render import _clean, _fmt, _matrix_html, _matrix_text


@dataclass(frozen=True, repr=False)
class ProbeResult:
    """Outcome of one probe: truthy iff the property was found to hold.

    Attributes
    ----------
    prop : str
        Property code, "PI" ... "PV".
    metric : str
        Name of the probed metric.
    holds : bool
        The verdict.
    kind : str
        What the verdict rests on: "counterexample" (a refutation),
        "witness" (a proof of existence), "no counterexample" or "no witness"
        (a search that came back empty), "necessary condition" (PIII passes).
    n_cases : int
        How many matrices (or matrix pairs) were evaluated.
    detail : str
        One sentence explaining the verdict.
    evidence : dict
        The counterexample or witness: matrices ``m`` and ``m_after``, scores
        ``before`` and ``after``, the cell, step or scaling used.
    """

    prop: str
    metric: str
    holds: bool
    kind: str
    n_cases: int
    detail: str
    evidence: dict = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.holds)

    @property
    def counterexample(self):
        """The evidence when it refutes the property, else ``None``."""
        return self.evidence if self.kind == "counterexample" else None

    def _lines(self) -> list[str]:
        verdict = "holds" if self.holds else "fails"
        lines = [
            f"{self.prop} ({PROPERTIES.get(self.prop, '?')}) {verdict} for {self.metric}: "
            f"{self.kind}, {self.n_cases} cases",
            f"  {self.detail}",
        ]
        for key, value in self.evidence.items():
            text = _matrix_text(value) if np.ndim(value) == 2 else repr(value)
            lines.append(f"  {key} = {text}")
        return lines

    def __repr__(self) -> str:
        return "\n".join(self._lines())

    def _repr_html_(self) -> str:
        esc = html.escape
        verdict = "holds" if self.holds else "fails"
        # Darker shades of Okabe-Ito bluish green and vermilion: the palette's own
        # values are below the 4.5:1 contrast that text on white needs.
        colour = "#007A5A" if self.holds else "#B03A00"
        parts = [
            f'<div class="probe-result"><p><strong>{esc(self.prop)} '
            f"({esc(PROPERTIES.get(self.prop, '?'))})</strong> "
            f'<span style="color:{colour}"><strong>{verdict}</strong></span> for '
            f"<code>{esc(self.metric)}</code> — {esc(self.kind)}, {self.n_cases} cases.</p>",
            f"<p>{esc(self.detail)}</p>",
        ]
        cell = self.evidence.get("cell")
        items = []
        for key, value in self.evidence.items():
            if np.ndim(value) == 2:
                items.append(f"<li>{esc(key)}: {_matrix_html(value, cell)}</li>")
            else:
                items.append(f"<li>{esc(key)} = {esc(repr(value))}</li>")
        if items:
            parts.append("<ul>" + "".join(items) + "</ul>")
        parts.append("</div>")
        return "".join(parts)


@dataclass(frozen=True, repr=False)
class ChanceResult(ProbeResult):
    """Outcome of :func:`is_chance_corrected`, with the baseline per number of classes.

    ``baselines[n] = (lowest, highest)`` score of a random classifier with
    ``n`` classes; ``omega[n]`` is the highest, the paper's :math:`\\omega(n)`.
    """

    baselines: dict = field(default_factory=dict)
    strict: bool = False
    complete: bool = False

    @property
    def omega(self) -> dict:
        """:math:`\\omega(n)`, the best score of any random classifier, per ``n``."""
        return {n: hi for n, (lo, hi) in self.baselines.items()}

    @property
    def note(self) -> str:
        """Annotation in the style of Table 5: "1/n, strict", "0, complete", ...; "" if no PV."""
        if not self.holds:
            return ""
        om = self.omega
        if all(abs(v * n - 1) < 1e-6 for n, v in om.items()):
            base = "1/n"
        elif all(abs(v * n * n - 1) < 1e-6 for n, v in om.items()):
            base = "1/n²"
        elif self.complete:
            base = _fmt(round(next(iter(om.values())), 6))
        else:
            base = "ω(n)"
        if self.complete:
            return f"{base}, complete"
        return f"{base}, strict" if self.strict else base

    def _lines(self) -> list[str]:
        lines = super()._lines()
        for n, (lo, hi) in self.baselines.items():
            lines.append(
                f"  n={n}: random classifiers score between {_clean(lo):.6f} and {_clean(hi):.6f}"
            )
        lines.append(f"  strict: {self.strict}, complete: {self.complete}, note: {self.note!r}")
        return lines

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{n}</td><td>{_clean(lo):.6f}</td><td>{_clean(hi):.6f}</td></tr>"
            for n, (lo, hi) in self.baselines.items()
        )
        table = (
            '<table class="probe-baselines"><thead><tr><th scope="col">n</th>'
            '<th scope="col">lowest random score</th><th scope="col">ω(n) = highest</th>'
            f"</tr></thead><tbody>{rows}</tbody></table>"
        )
        extra = f"<p>strict: {self.strict}, complete: {self.complete}</p>"
        return super()._repr_html_().replace("</div>", table + extra + "</div>")
