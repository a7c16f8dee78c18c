"""Page versions of the explorers: the same explorer, working in the static HTML book.

:func:`page_view` turns an ipywidgets explorer of this package into an HTML snippet
that needs no kernel and no network: a ``<div>`` with the explorer's *spec* (its
starting state and any data the library precomputed, as JSON, see ``_page_specs``)
that ``_static/explorers.js`` turns into labelled, keyboard-operable controls, an
``aria-live`` readout and SVG figures in the book's Okabe-Ito palette. The formulas a
matrix edit needs run in the browser (``_static/clfmetrics.js``, a port checked against
the library); sweeps and simulations are computed here, by the library, at build time.
Without JavaScript the snippet shows a one-line note, and the chapter's static view of
the starting state remains (:data:`NO_SCRIPT` says what it is: a figure for most, the
paradox explorer's tables, the problem chooser's pool of metrics). Convention:
``m[i, j]`` = predicted ``i``, true ``j``.
"""

from __future__ import annotations

import contextlib
import hashlib
import html
import json

import comm

from . import _page_specs as specs
from ._base import Explorer
from .chance import ChanceBaselineSimulator
from .chooser import MetricChooser
from .confusion import ConfusionMatrixExplorer
from .costs import CostCurveExplorer
from .judge import JudgeExplorer
from .macro_f1 import MacroF1Explorer
from .nonmonotonicity import NonMonotonicityExplorer
from .paradox import FMeasureParadoxExplorer
from .prevalence import PrevalenceExplorer
from .problem import ProblemChooser
from .threshold import ThresholdExplorer

__all__ = [
    "KINDS",
    "NO_SCRIPT",
    "PageExplorer",
    "offline_widgets",
    "page_html",
    "page_spec",
    "page_view",
]

#: Explorer class -> (kind used by explorers.js, title, spec builder).
KINDS = {
    ConfusionMatrixExplorer: ("confusion", "Confusion matrix explorer", specs.confusion_spec),
    MacroF1Explorer: ("macro_f1", "Two macro F1s explorer", specs.macro_f1_spec),
    NonMonotonicityExplorer: (
        "nonmonotonicity",
        "Add errors to one cell",
        specs.nonmonotonicity_spec,
    ),
    FMeasureParadoxExplorer: ("paradox", "F-measure paradox explorer", specs.paradox_spec),
    PrevalenceExplorer: ("prevalence", "Prevalence explorer", specs.prevalence_spec),
    ChanceBaselineSimulator: ("chance", "Chance-baseline simulator", specs.chance_spec),
    MetricChooser: ("chooser", "Metric chooser", specs.chooser_spec),
    ThresholdExplorer: ("threshold", "Threshold explorer", specs.threshold_spec),
    CostCurveExplorer: ("costs", "Cost curve explorer", specs.costs_spec),
    ProblemChooser: ("problem", "From the problem to a plan", specs.problem_spec),
    JudgeExplorer: ("judge", "Judge explorer", specs.judge_spec),
}


#: What most explorers' chapters show of the starting state: its static figure.
FIGURE_ABOVE = "the figure above shows its starting state"
#: Per kind, for the note shown where the book's script does not run: the explorer's name
#: in a sentence, and where the chapter shows its starting state without the script.
NO_SCRIPT = {
    "confusion": ("the confusion matrix explorer", FIGURE_ABOVE),
    "macro_f1": ("the two macro F1s explorer", FIGURE_ABOVE),
    "nonmonotonicity": ("the explorer that adds errors to one cell", FIGURE_ABOVE),
    "paradox": (
        "the F-measure paradox explorer",
        "the scores and the table of propositions above show its starting state",
    ),
    "prevalence": ("the prevalence explorer", FIGURE_ABOVE),
    "chance": ("the chance-baseline simulator", FIGURE_ABOVE),
    "chooser": (
        "the metric chooser",
        "its starting state, with nothing ticked, is the figure of the property grid earlier "
        "in this section",
    ),
    "threshold": ("the threshold explorer", FIGURE_ABOVE),
    "costs": ("the cost curve explorer", FIGURE_ABOVE),
    "problem": (
        "the problem chooser",
        "for its starting answers, the pool of metrics and the metrics left out are listed "
        "earlier in this section",
    ),
    "judge": ("the judge explorer", FIGURE_ABOVE),
}


def _kind(explorer) -> tuple[str, str, object]:
    for cls, entry in KINDS.items():
        if isinstance(explorer, cls):
            return entry
    names = ", ".join(cls.__name__ for cls in KINDS)
    raise ValueError(
        f"explorer must be one of the explorers of clfbook.widgets ({names}); "
        f"got {type(explorer).__name__}"
    )


def page_spec(explorer) -> dict:
    """The JSON-ready description of ``explorer`` that the page version is built from.

    Returns
    -------
    dict
        ``kind`` (which explorer), ``title`` and the explorer's own fields (see
        ``clfbook.widgets._page_specs``).

    Raises
    ------
    ValueError
        If ``explorer`` is not one of the explorers of :mod:`clfbook.widgets`.
    """
    kind, title, build = _kind(explorer)
    return {"kind": kind, "title": title, **build(explorer)}


def page_html(explorer) -> str:
    """The HTML snippet of the page version of ``explorer`` (a ``<div>`` with its spec).

    The element id is derived from the spec, so a rebuild gives the same HTML.
    """
    spec = page_spec(explorer)
    data = json.dumps(spec, allow_nan=False, separators=(",", ":"), ensure_ascii=False)
    data = data.replace("</", "<\\/")  # never close the script element early
    uid = hashlib.sha1(data.encode()).hexdigest()[:8]
    title = html.escape(spec["title"])
    name, starting = NO_SCRIPT[spec["kind"]]
    return (
        f'<div class="clf-page-explorer" id="clf-{spec["kind"]}-{uid}" '
        f'data-kind="{spec["kind"]}" role="group" aria-label="{title} (runs in this page)">'
        # Shown where the book's script does not run: a browser without JavaScript, and a
        # notebook (JupyterLab), where the cell before this one is the live explorer.
        f'<p class="clf-nojs">This is the page version of {name}: it runs in the book\'s web '
        f"page, with JavaScript ({starting}). With a kernel, the cell before this one runs "
        "the live explorer.</p>"
        f'<script type="application/json" class="clf-spec">{data}</script></div>'
    )


class PageExplorer:
    """The page version of an explorer; Jupyter and the book show it as HTML."""

    def __init__(self, explorer):
        self.html = page_html(explorer)

    def _repr_html_(self) -> str:
        return self.html

    def __repr__(self) -> str:
        return "<page version of a clfmetrics explorer: shown as HTML in the book>"


@contextlib.contextmanager
def offline_widgets():
    """Widgets created inside talk to no front end (their comm is ``comm.DummyComm``).

    A widget created while a notebook executes is recorded by the executor and embedded
    in the built page as widget state (tens of kB per explorer), although only its page
    version is shown. Explorers built here for :func:`page_view` leave no such trace.
    """
    create = comm.create_comm
    comm.create_comm = comm.DummyComm
    try:
        yield
    finally:
        comm.create_comm = create


def page_view(explorer, *args, **kwargs) -> PageExplorer:
    """Show ``explorer`` as its page version: it works in the static HTML book.

    Parameters
    ----------
    explorer : an explorer of :mod:`clfbook.widgets`, or the function that makes one
        For example ``confusion_matrix_explorer(m)``; its current state is the starting
        state (the non-monotonicity explorer starts from its reset state). Given the
        function, ``explorer(*args, **kwargs)`` is built inside :func:`offline_widgets`,
        so the page carries no widget state of it.

    Returns
    -------
    PageExplorer
        Displays as the HTML snippet of :func:`page_html`; the book's
        ``_static/explorers.js`` brings it to life in the browser, with no kernel.

    Examples
    --------
    >>> from clfbook.widgets import confusion_matrix_explorer
    >>> view = page_view(confusion_matrix_explorer, [[5, 1], [2, 7]], live_figure=False)
    >>> 'data-kind="confusion"' in view.html
    True
    """
    if callable(explorer) and not isinstance(explorer, Explorer):
        with offline_widgets():
            explorer = explorer(*args, **kwargs)
    elif args or kwargs:
        raise ValueError("arguments are passed on only when explorer is a function")
    return PageExplorer(explorer)
