"""Issue 38: four hidden tests that a wrong answer passed now recompute from the given data.

Each case runs, in this process, the chapter's first code cell (its imports and constants)
and the cells that give the exercise's data, then the hidden-check cell twice: as it was
(``WAS``), which a wrong answer built for it passes, and as the chapter has it now, which the
same wrong answer fails and the chapter's own solution passes. The grader runs the same
cells on the student's values (``test_coursework_hostile`` and the mini batches show that
path); here only the assertions are in question.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from coursework_products import book_assignment

ROOT = Path(__file__).resolve().parents[2]

#: The hidden checks before issue 38, word for word.
WAS = {
    "ex-ch05-skew": """\
assert 0.12 < mean_gap < 0.2, "expected a mean gap a little above the 95/5 value"
assert mean_gap > float(deltas["95 / 5"].mean()), "the stronger skew widens the gap"
""",
    "ex-ch09-average": """\
assert np.isnan(avg_nan), "NaN absorbs"
assert np.isclose(avg_skip, macro_f1(np.array(m2)[:2, :2])), (
    "skipping z = the 2-class F1"
)
assert np.isclose(avg_zero, 2 / 3 * avg_skip), "counting z as 0 scales by 2/3"
""",
    "ex-ch12-calibrated-precision": """\
f1_back = 2 * macp_cal * mac_r / (macp_cal + mac_r)
assert np.allclose(f1_back, table.column("cal_macF1_prime"))
assert best_macp_cal == table.systems[int(np.argmax(macp_cal))], "the best of macp_cal"
""",
    "ex-ch18-mcc-interval": """\
assert low < cm.mcc(TWEETS) < high, "the interval contains the observed MCC"
assert 0 < high - low < 0.5, "the 2.5 and 97.5 percentiles of the resampled MCC"
""",
    "ex-ch18-paired": """\
observed = (cm.macro_f1(cm.confusion_matrix(y_true, pred_a, labels=[0, 1, 2]))
            - cm.macro_f1(cm.confusion_matrix(y_true, pred_b, labels=[0, 1, 2])))
assert abs(np.mean(diffs) - observed) < 0.02, "A minus B on the same resamples"
""",
}

#: Per exercise: its chapter, a line of each cell that gives its data, and a wrong answer
#: that the old hidden check passed (what the red-team round submitted).
CASES = {
    "ex-ch05-skew": (
        "05-macro-f1-in-practice",
        ["deltas = experiments.delta_by_distribution"],
        # 10 % too large
        "mean_gap = 1.1 * float(delta_f1(experiments.random_baseline("
        "[0.99, 0.01], n_sets=500, n_items=1000, rng=1)).mean())",
    ),
    "ex-ch09-average": (
        "09-f-measure-paradox",
        [],
        # the right formulas on a matrix of the notebook's own
        "m2 = np.array([[5, 1, 0], [3, 9, 0], [0, 0, 0]])\n"
        "avg_zero = macro_f1(m2, zero_division=0)\n"
        'avg_nan = macro_f1(m2, zero_division="nan")\n'
        "avg_skip = macro_f1_skip_undefined(m2)",
    ),
    "ex-ch12-calibrated-precision": (
        "12-shared-task",
        ["table = load_semeval2017_task4()"],
        # a recall of the notebook's own (two of the three columns)
        'f_cal = table.column("cal_macF1_prime")\n'
        'mac_r = table.columns_of(["r1", "r2"]).mean(axis=1)\n'
        "macp_cal = f_cal * mac_r / (2 * mac_r - f_cal)\n"
        "best_macp_cal = table.systems[int(np.argmax(macp_cal))]",
    ),
    "ex-ch18-mcc-interval": (
        "18-how-fast",
        [],
        # any interval around the estimate narrower than 0.5
        "low, high = cm.mcc(TWEETS) - 0.1, cm.mcc(TWEETS) + 0.1",
    ),
    "ex-ch18-paired": (
        "18-how-fast",
        ["pair_rng = np.random.default_rng(5)"],
        # a constant difference, and a share of one half
        "observed = (cm.macro_f1(cm.confusion_matrix(y_true, pred_a, labels=[0, 1, 2]))"
        " - cm.macro_f1(cm.confusion_matrix(y_true, pred_b, labels=[0, 1, 2])))\n"
        "diffs = np.full(2_000, observed)\nshare_a = 0.5",
    ),
}


def _given(stem: str, markers: list[str]):
    """The chapter's assignment and a namespace with its first code cell and the cells that
    hold ``markers`` run in it (their output swallowed)."""
    assignment = book_assignment(ROOT / "chapters" / f"{stem}.md")
    code = [c for c in assignment.notebook.cells if c.cell_type == "code"]
    cells = [code[0], *(next(c for c in code if m in c.source) for m in markers)]
    namespace: dict = {}
    with contextlib.redirect_stdout(io.StringIO()):
        for cell in cells:
            exec(cell.source, namespace)
    return assignment, namespace


@pytest.mark.parametrize("label", sorted(CASES))
def test_a_wrong_answer_that_passed_the_old_hidden_check_fails_the_new(label):
    stem, markers, wrong = CASES[label]
    assignment, given = _given(stem, markers)
    exercise = assignment.exercises[label]
    cells = assignment.notebook.cells
    (hidden,) = [cells[k].source for k in exercise.hidden_cells]
    assert hidden.strip() != WAS[label].strip()
    attempt = dict(given)
    exec(wrong, attempt)
    exec(WAS[label], dict(attempt))  # the old check: passed
    with pytest.raises(AssertionError):
        exec(hidden, dict(attempt))  # the new one: fails
    honest = dict(given)
    with contextlib.redirect_stdout(io.StringIO()):
        for k in exercise.solution_cells:
            exec(cells[k].source, honest)
    exec(hidden, honest)  # the chapter's own answer passes
