"""The page versions' specs (no browser): what the library embeds in the page for each explorer."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from chapter_runner import ROOT
from page_site import explorers, screening_sample

from clfbook.widgets import (
    chance_baseline_simulator,
    confusion_matrix_explorer,
    prevalence_explorer,
    threshold_explorer,
)
from clfbook.widgets._base import fmt
from clfbook.widgets._page_specs import chance_vectors
from clfbook.widgets.chance import chance_summary, simulate_chance
from clfbook.widgets.page import KINDS, NO_SCRIPT, page_html, page_spec, page_view


def test_page_spec_rejects_what_is_not_an_explorer():
    with pytest.raises(ValueError, match="explorer must be one of the explorers"):
        page_spec([[1, 2], [3, 4]])


def test_snippet_is_deterministic_and_cannot_close_its_script_early():
    ex = confusion_matrix_explorer([[5, 1], [2, 7]], ["</script>", "b"], live_figure=False)
    first, second = page_html(ex), page_html(ex)
    assert first == second
    assert first.count("</script>") == 1  # only the real end of the JSON
    data = first.split('class="clf-spec">', 1)[1].rsplit("</script>", 1)[0]
    assert json.loads(data)["labels"] == ["</script>", "b"]
    assert page_view(ex)._repr_html_() == first


def test_threshold_spec_holds_the_sweep_and_both_score_distributions():
    y, scores = screening_sample(500, seed=3)
    ex = threshold_explorer(y, scores, live_figure=False)
    spec = page_spec(ex)
    assert np.array_equal(np.reshape(spec["stack"], (-1, 2, 2)), ex.stack)
    assert sum(spec["negatives"]) == (y == 0).sum()
    assert sum(spec["positives"]) == (y == 1).sum()
    want, _ = np.histogram(scores[y == 1], bins=spec["edges"])
    assert spec["positives"] == want.tolist()
    assert spec["low"] + spec["start"] * spec["step"] == pytest.approx(ex.threshold)


def test_prevalence_spec_starts_at_the_explorers_scale():
    ex = prevalence_explorer([[15, 5], [10, 10]], live_figure=False)
    ex.set_scale([0.5, 4])
    spec = page_spec(ex)
    assert [lam[i] for lam, i in zip(spec["lambdas"], spec["start"], strict=True)] == [0.5, 4.0]
    assert all(lam == sorted(lam) and lam[0] == 0.01 and lam[-1] == 100 for lam in spec["lambdas"])


def test_chance_spec_is_the_library_simulation_of_each_state():
    sim = chance_baseline_simulator(2, live_figure=False, n_sets=50, n_items=30, seed=4)
    spec = page_spec(sim)
    vectors, index = chance_vectors(2)
    # weights (0, 1/2, 1)^2 without (0, 0): five distributions; (1, 0) and (1/2, 0) are one
    assert len(vectors) == 5 and index["2,0"] == index["1,0"]
    k = len(vectors) * 2 + 1  # prevalence vectors[2], prediction vectors[1]
    p, z = vectors[2], vectors[1]
    summary = chance_summary(simulate_chance(p, z, n_sets=50, n_items=30, seed=4), p, z)
    for row, s in zip(spec["stats"][k], summary.values(), strict=True):
        assert [x / 10**4 for x in row] == [float(fmt(s[q])) for q in ("mean", "q05", "q95")]


def test_chance_spec_rejects_many_classes():
    with pytest.raises(ValueError, match="up to 3 classes"):
        page_spec(chance_baseline_simulator(4, live_figure=False, n_sets=10))


def test_a_page_view_built_from_the_factory_leaves_no_widget_state():
    """Built from the function, the explorer's widgets talk to no front end (no state is
    recorded in the executed notebook) and the snippet is the same as from the object."""
    import comm

    from clfbook.widgets.page import offline_widgets

    before = comm.create_comm
    with offline_widgets():
        ex = confusion_matrix_explorer([[5, 1], [2, 7]], live_figure=False)
    assert comm.create_comm is before
    assert isinstance(ex.size.comm, comm.DummyComm)
    assert isinstance(ex.editor.boxes[0][0].comm, comm.DummyComm)
    view = page_view(confusion_matrix_explorer, [[5, 1], [2, 7]], live_figure=False)
    assert view.html == page_html(ex)
    with pytest.raises(ValueError, match="only when explorer is a function"):
        page_view(ex, live_figure=False)


#: Where the book shows each kind's page version: the chapter, and which of its page_view
#: calls (in order) it is.
SHOWN_IN = {
    "confusion": ("01-confusion-matrix.md", 0),
    "macro_f1": ("04-two-macro-f1.md", 0),
    "nonmonotonicity": ("07-kappa-mcc.md", 0),
    "paradox": ("09-f-measure-paradox.md", 0),
    "prevalence": ("10-metric-properties.md", 0),
    "chance": ("10-metric-properties.md", 1),
    "chooser": ("13-choosing-a-metric.md", 0),
    "problem": ("13-choosing-a-metric.md", 1),
    "threshold": ("14-scores-and-thresholds.md", 0),
    "costs": ("15b-decisions.md", 0),
    "judge": ("17b-judges-and-prevalence.md", 0),
}


def _note(snippet: str) -> str:
    return re.search(r'<p class="clf-nojs">(.*?)</p>', snippet).group(1)


def test_the_no_script_note_says_what_the_chapter_shows_of_the_starting_state():
    """The note shown without JavaScript names a figure exactly where the chapter's section
    shows one before the page version (the problem chooser lists its pool, the paradox
    explorer shows tables), and each explorer's note is its kind's."""
    kinds = {kind for kind, _, _ in KINDS.values()}
    assert set(NO_SCRIPT) == set(SHOWN_IN) == kinds
    for kind, (chapter, k) in SHOWN_IN.items():
        text = (ROOT / "chapters" / chapter).read_text(encoding="utf-8")
        calls = [m.start() for m in re.finditer(r"^page_view\(", text, re.M)]
        before = text[: calls[k]]
        section = before[before.rfind("\n## ") :]  # from the section's heading on
        has_figure = re.search(r"^  figure:", section, re.M) is not None
        starting = NO_SCRIPT[kind][1]
        assert ("figure" in starting) == has_figure, (kind, chapter, starting)
    built = explorers("confusion", "paradox", "problem")
    notes = {kind: _note(page_html(ex)) for kind, ex in built.items()}
    assert "(the figure above shows its starting state)" in notes["confusion"]
    assert "figure" not in notes["problem"] and "figure" not in notes["paradox"]
    assert "the pool of metrics and the metrics left out are listed" in notes["problem"]
    assert notes["problem"].startswith("This is the page version of the problem chooser: ")
    assert "the table of propositions above" in notes["paradox"]
