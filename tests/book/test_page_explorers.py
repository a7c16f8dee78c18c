"""The page versions of the explorers in Chromium, against the library in the same test.

Each explorer's page version (``clfbook.widgets.page``) is shown on a standalone
page served from 127.0.0.1 (``page_site.py``; no book build needed). Every control is
moved by keyboard and by pointer; the same action is applied to the ipywidgets
explorer in Python, and the page's readout must show the library's numbers: the text
equals ``fmt(value)`` and the page's raw state agrees to 1e-12. The JavaScript port of
the formulas is checked on 1,200 random matrices, degenerate ones included, under each
``zero_division``. One browser per module; one page per explorer.
"""

from __future__ import annotations

import inspect
import json
import math

import numpy as np
import pytest
from local_server import not_local, serve
from page_site import CHOOSER_TABLE, explorers, problem_table, screening_sample, write_site

import clfmetrics as cm
from clfbook.properties.chooser import QUESTIONS, every_answer, plan_text
from clfbook.widgets import (
    chance_baseline_simulator,
    confusion_matrix_explorer,
    cost_curve_explorer,
    f_measure_paradox_explorer,
    judge_explorer,
    macro_f1_explorer,
    metric_chooser,
    nonmonotonicity_explorer,
    prevalence_explorer,
    problem_chooser,
)
from clfbook.widgets._base import fmt
from clfbook.widgets.judge import COEFFICIENTS, agreement_values, prevalence_values
from clfbook.widgets.macro_f1 import PRESETS
from clfbook.widgets.page import page_spec
from clfbook.widgets.threshold import sweep_index

TOL = 1e-12


@pytest.fixture(scope="module")
def objects():
    return explorers()


@pytest.fixture(scope="module")
def site(tmp_path_factory, objects):
    directory = tmp_path_factory.mktemp("pages")
    pages = write_site(directory, objects)
    base, server = serve(directory)
    yield base, pages
    server.shutdown()


class Visit:
    """One explorer page: every request is recorded; anything not local is aborted."""

    def __init__(self, context, base: str, name: str):
        self.page = context.new_page()
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("request", lambda request: self.requests.append(request.url))
        # only requests to other hosts go through Python, to be aborted (the sandbox is
        # offline); a local one needs no decision
        self.page.route(not_local(base), lambda route: route.abort())
        self.page.goto(f"{base}/{name}", wait_until="load")
        self.root = self.page.evaluate("Object.keys(window.clfExplorers)[0]")

    def readout(self) -> dict[str, str]:
        return self.page.evaluate(
            "() => Object.fromEntries([...document.querySelectorAll('[data-key]')]"
            ".map(e => [e.dataset.key, e.textContent]))"
        )

    def state(self):
        return self.page.evaluate(f"() => window.clfExplorers[{self.root!r}].state()")

    def click_slider(self, locator, fraction: float) -> int:
        """Click a range input at ``fraction`` of its width; return its new value."""
        box = locator.bounding_box()
        locator.click(position={"x": box["width"] * fraction, "y": box["height"] / 2})
        return int(locator.input_value())


@pytest.fixture(scope="module")
def visits(shared_context, site):
    base, pages = site
    opened = {kind: Visit(shared_context, base, name) for kind, name in pages.items()}
    yield opened
    for v in opened.values():
        v.page.close()


def close(a, b, tol=TOL) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= tol


def assert_metrics(visit, expected: dict, prefix: str = ""):
    """Readout text equals fmt(library value) for every metric."""
    shown = visit.readout()
    for name, value in expected.items():
        assert shown[f"{prefix}{name}"] == fmt(value), (name, shown[f"{prefix}{name}"], value)


# --- the JavaScript port --------------------------------------------------------------------


def random_matrices(count: int, seed: int = 20) -> list[np.ndarray]:
    """Random count matrices of 2..6 classes, a third of them degenerate on purpose."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(count):
        n = int(rng.integers(2, 7))
        kind = k % 6
        if kind == 0:  # small counts, many zeros
            m = rng.integers(0, 3, (n, n)) * (rng.random((n, n)) < 0.5)
        elif kind == 1:  # a class never predicted and one never present
            m = rng.integers(0, 50, (n, n))
            m[rng.integers(n)] = 0
            m[:, rng.integers(n)] = 0
        elif kind == 2:  # one cell only (diagonal or not)
            m = np.zeros((n, n), dtype=int)
            m[rng.integers(n), rng.integers(n)] = rng.integers(1, 10**6)
        elif kind == 3:  # large counts
            m = rng.integers(0, 10**7, (n, n))
        elif kind == 4:  # prevalence-scaled: fractional masses
            m = rng.integers(0, 100, (n, n)) * 10.0 ** rng.uniform(-2, 2, n)
        else:  # perfect or all-wrong classifiers
            diagonal = rng.random() < 0.5
            m = np.diag(rng.integers(0, 20, n)) if diagonal else rng.integers(0, 9, (n, n))
            if rng.random() < 0.5:
                np.fill_diagonal(m, 0)
        if m.sum() == 0:
            m[0, 0] = 1
        out.append(np.asarray(m, dtype=float))
    return out


ZERO_DIVISION = (0, 1, "nan")


TAKES_ZERO_DIVISION = {
    name for name, fn in cm.METRICS.items() if "zero_division" in inspect.signature(fn).parameters
}


def library_values(matrices: list[np.ndarray], zd) -> list[dict]:
    """Every metric and class-wise P, R, F1 of each matrix (one stacked call per size)."""
    out: list[dict] = [{} for _ in matrices]
    for n in {len(m) for m in matrices}:
        rows = [k for k, m in enumerate(matrices) if len(m) == n]
        stack = np.stack([matrices[k] for k in rows])
        for name, fn in cm.METRICS.items():
            values = fn(stack, zero_division=zd) if name in TAKES_ZERO_DIVISION else fn(stack)
            for k, x in zip(rows, np.atleast_1d(values), strict=True):
                out[k][name] = float(x)
        for name in ("precision", "recall", "f1"):
            values = cm.CLASSWISE[name](stack, zero_division=zd)
            for k, x in zip(rows, values, strict=True):
                out[k][name] = x.tolist()
    return out


def test_js_port_agrees_with_the_library(shared_context, site):
    """1,200 random matrices x 3 zero_division conventions: every metric and class-wise
    precision, recall and F1 of clfmetrics.js equal the library's to 1e-12 (NaN = NaN)."""
    base, _ = site
    visit = Visit(shared_context, base, "blank.html")
    try:
        matrices = random_matrices(1200)
        degenerate = 0
        js = visit.page.evaluate(
            """(ms) => ms.map(m => [0, 1, NaN].map(fill => {
                const v = clfmetrics.metrics(m, fill), cw = clfmetrics.classwise(m, fill);
                return {...v, precision: cw.precision, recall: cw.recall, f1: cw.f1};
            }))""",
            [m.tolist() for m in matrices],
        )
        library = {zd: library_values(matrices, zd) for zd in ZERO_DIVISION}
        for k, (m, per_fill) in enumerate(zip(matrices, js, strict=True)):
            b, p = m.sum(axis=1), m.sum(axis=0)
            degenerate += bool((b == 0).any() or (p == 0).any())
            for zd, got in zip(ZERO_DIVISION, per_fill, strict=True):
                want = library[zd][k]
                for name, value in want.items():
                    values = value if isinstance(value, list) else [value]
                    mine = got[name] if isinstance(value, list) else [got[name]]
                    for a, c in zip(values, mine, strict=True):
                        assert close(a, c), (name, zd, m.tolist(), a, c)
        assert degenerate >= 300, degenerate  # 0/0 occurs under every convention
    finally:
        visit.page.close()


# --- every explorer, by keyboard and by pointer ----------------------------------------------


def test_confusion_explorer(visits, objects):
    v, page = visits["confusion"], visits["confusion"].page
    ex = confusion_matrix_explorer(objects["confusion"].matrix, live_figure=False)
    cell = page.locator("input[data-cell='0,1']")
    cell.focus()
    page.keyboard.press("ArrowUp")  # keyboard: one more item of class 1 predicted as 0
    ex.set_cell(0, 1, int(ex.matrix[0, 1]) + 1)
    assert_metrics(v, ex.metrics())
    state = v.state()
    for name, value in ex.metrics().items():
        assert close(state["metrics"][name], value), name
    cell = page.locator("input[data-cell='1,0']")
    cell.click()  # pointer: click the cell, type a count
    cell.fill("0")
    ex.set_cell(1, 0, 0)
    assert_metrics(v, ex.metrics())
    cw = ex.classwise()
    shown = v.readout()
    for i in range(3):
        for q in ("precision", "recall", "f1"):
            assert shown[f"{q}:{i}"] == fmt(cw[q][i])
        assert shown[f"bias:{i}"] == str(int(cw["bias"][i]))
        assert shown[f"prevalence:{i}"] == str(int(cw["prevalence"][i]))
    size = page.get_by_label("classes", exact=True)
    size.focus()
    page.keyboard.press("ArrowUp")  # four classes: the new one has one correct item
    ex.size.value = 4
    assert page.locator("input[data-cell]").count() == 16
    assert_metrics(v, ex.metrics())
    assert not v.errors


def test_macro_f1_explorer(visits):
    v, page = visits["macro_f1"], visits["macro_f1"].page
    ex = macro_f1_explorer(2, live_figure=False)
    skew = page.get_by_label("error skew", exact=True)
    skew.focus()
    page.keyboard.press("End")  # keyboard: every error above the diagonal
    ex.set_skew(1.0)
    assert_metrics(v, {k: x for k, x in ex.metrics().items() if k != "skew"})
    assert v.state()["matrix"] == ex.matrix.tolist()
    page.keyboard.press("ArrowLeft")
    ex.set_skew(0.99)
    assert v.state()["matrix"] == ex.matrix.tolist()
    i = v.click_slider(skew, 0.3)  # pointer
    ex.set_skew(i / 100)
    assert v.state()["matrix"] == ex.matrix.tolist()
    assert_metrics(v, {k: x for k, x in ex.metrics().items() if k != "skew"})
    page.get_by_role("button", name="three-class-skewed").click()  # pointer: a preset
    ex.preset("three-class-skewed")
    assert_metrics(v, {k: x for k, x in ex.metrics().items() if k != "skew"})
    for key, value in ex.metrics().items():
        assert close(v.state()["readout"][key], value), key
    page.get_by_role("button", name="skewed", exact=True).focus()
    page.keyboard.press("Enter")  # keyboard: a preset
    ex.preset("skewed")
    assert_metrics(v, {k: x for k, x in ex.metrics().items() if k != "skew"})
    cell = page.locator("input[data-cell='1,0']")
    cell.focus()
    page.keyboard.press("ArrowUp")
    ex.editor.boxes[1][0].value = int(PRESETS["skewed"][1][0]) + 1
    assert_metrics(v, {k: x for k, x in ex.metrics().items() if k != "skew"})
    assert int(skew.input_value()) == round(ex.skew.value * 100)
    assert not v.errors


def test_nonmonotonicity_explorer(visits):
    v, page = visits["nonmonotonicity"], visits["nonmonotonicity"].page
    ex = nonmonotonicity_explorer(live_figure=False)
    errors = page.get_by_label("errors", exact=True)
    errors.fill("10")  # pointer: Table 7 -> Table 8
    page.get_by_role("button", name="add errors").click()
    ex.add_error(10)
    assert_metrics(v, ex.metrics())
    state = v.state()
    assert state["matrix"] == ex.matrix.tolist()
    for name, values in ex.trace().items():
        assert all(close(a, b) for a, b in zip(state["trace"][name], values, strict=True))
    select = page.get_by_label("cell", exact=True)
    select.focus()
    page.keyboard.press("ArrowDown")  # keyboard: the next off-diagonal cell
    i, j = (int(x) for x in select.input_value().split(","))
    ex.select_cell(i, j)
    errors.focus()
    page.keyboard.press("Control+a")
    page.keyboard.type("3")
    page.get_by_role("button", name="add errors").focus()
    page.keyboard.press("Enter")
    ex.add_error(3)
    assert v.state()["matrix"] == ex.matrix.tolist()
    assert_metrics(v, ex.metrics())
    page.get_by_role("button", name="reset").click()
    ex.reset()
    assert_metrics(v, ex.metrics())
    assert not v.errors


def test_paradox_explorer(visits):
    v, page = visits["paradox"], visits["paradox"].page
    ex = f_measure_paradox_explorer(tp=0, fp=3, fn=0)

    def check():
        r, shown = ex.readout(), v.readout()
        for conv in ("zero", "nan"):
            for q in ("precision", "recall", "f1"):
                assert shown[f"{conv}:{q}"] == fmt(r[conv][q]), (conv, q)
            for k in range(1, 5):
                holds = r["propositions"][k][conv]
                assert shown[f"prop:{k}:{conv}"].startswith("✓" if holds else "✗")

    check()
    page.get_by_label("FN", exact=True).focus()
    page.keyboard.press("ArrowUp")  # keyboard
    ex.set_counts(0, 3, 1)
    check()
    tp = page.get_by_label("TP", exact=True)
    tp.click()  # pointer
    tp.fill("2")
    ex.set_counts(2, 3, 1)
    check()
    assert not v.errors


def test_prevalence_explorer(visits, objects):
    v, page = visits["prevalence"], visits["prevalence"].page
    spec = page_spec(objects["prevalence"])
    ex = prevalence_explorer([[15, 5], [10, 10]], ["x", "y"], live_figure=False)
    ex.set_scale([1, 4])  # the chapter's state: the page starts exactly there
    lam, index = spec["lambdas"], list(spec["start"])
    assert [lam[j][i] for j, i in enumerate(index)] == [1.0, 4.0]
    assert_metrics(v, ex.metrics())
    sliders = [page.get_by_label("λ x", exact=True), page.get_by_label("λ y", exact=True)]
    sliders[1].focus()
    for _ in range(12):
        page.keyboard.press("ArrowRight")  # keyboard: twelve stops up (λ_y = 10^1.2)
    index[1] = int(sliders[1].input_value())
    assert index[1] == spec["start"][1] + 12
    ex.set_scale([lam[j][i] for j, i in enumerate(index)])
    assert_metrics(v, ex.metrics())
    changed = ex.changed()
    shown = v.readout()
    for name, flag in changed.items():
        assert shown[f"moved:{name}"].startswith("✓" if flag else "✗"), name
    index[0] = v.click_slider(sliders[0], 0.2)  # pointer
    ex.set_scale([lam[j][i] for j, i in enumerate(index)])
    assert_metrics(v, ex.metrics())
    state = v.state()
    assert np.allclose(state["scaled"], ex.scaled_matrix(), rtol=TOL, atol=0)
    assert not v.errors


def test_chance_simulator(visits):
    v, page = visits["chance"], visits["chance"].page
    sim = chance_baseline_simulator(3, live_figure=False, n_sets=500)

    def check():
        shown = v.readout()
        for name, s in sim.summary().items():
            for q in ("mean", "q05", "q95"):  # kept to the readout's 4 decimals
                assert float(shown[f"{q}:{name}"]) == float(fmt(s[q])), (name, q)
            # The page and the library sum in different orders: a limit of 0 can be -1e-17 in
            # one and +1e-17 in the other. Both must print it as 0.0000, and any limit must
            # agree to the readout's rounding whatever the order.
            limit = shown[f"limit:{name}"]
            assert not limit.startswith("-0.0000"), (name, limit)
            assert abs(float(limit) - s["limit"]) <= 0.5e-4 + 1e-12, (name, limit, s["limit"])

    check()
    slider = page.get_by_label("P(c=k) 0", exact=True)
    slider.focus()
    page.keyboard.press("ArrowLeft")  # keyboard: class 0 weight 1 -> 0.5
    sim.set_prevalence([0.5, 1, 1])
    check()
    # pointer: class 2 is never predicted
    v.click_slider(page.get_by_label("P(f→k) 2", exact=True), 0.02)
    sim.set_prediction([1, 1, 0])
    check()
    assert not v.errors


def test_metric_chooser(visits):
    v, page = visits["chooser"], visits["chooser"].page
    ch = metric_chooser(CHOOSER_TABLE)

    def check():
        assert v.readout()["matching"] == "Matching: " + (", ".join(ch.matching()) or "none")
        assert v.state()["matching"] == ch.matching()

    box = page.get_by_label("PIV prevalence invariance", exact=True)
    box.focus()
    page.keyboard.press("Space")  # keyboard
    ch.require(["PIV"])
    check()
    page.get_by_role("button", name="after calibration").click()  # pointer
    ch.set_calibrated(True)
    check()
    page.get_by_label("PI monotonicity", exact=True).click()  # pointer
    ch.require(["PI", "PIV"])
    check()
    assert not v.errors


def test_problem_chooser(visits):
    """Answers picked on the page by keyboard and pointer give the pool, the notes and the
    plan file's text that the ipywidgets chooser (the library's ``choose`` and
    ``metric_plan``) gives for the same answers and inputs; bad inputs get its message."""
    v, page = visits["problem"], visits["problem"].page
    ch = problem_chooser(problem_table())

    def check():
        state, choice = v.state(), ch.choice()
        assert state["answers"] == ch.answers()
        assert state["required"] == list(choice.required)
        assert state["pool"] == [e.metric for e in choice.pool]
        assert state["left_out"] == [e.metric for e in choice.left_out]
        assert state["notes"] == list(choice.notes)
        try:
            want, problem = plan_text(ch.plan()), ""
        except ValueError as err:
            want, problem = "", str(err)
        assert (state["plan"], state["status"]) == (want, problem)
        assert v.readout()["plan"] == want
        for e in choice.pool:
            assert v.readout()[f"pool:{e.metric}"].startswith(f"{e.metric}: {e.reason}. ")

    def pick(key, value):
        question, options = QUESTIONS[key]
        page.get_by_role("group", name=question).get_by_label(options[value], exact=True).click()
        ch.answer(**{key: value})

    check()  # the screening task
    output = page.get_by_role("group", name=QUESTIONS["output"][0])
    output.get_by_label(QUESTIONS["output"][1]["threshold"], exact=True).focus()
    page.keyboard.press("ArrowDown")  # keyboard: the next answer of the group
    ch.answer(output="sensitivity")
    check()
    pick("costs", "known")  # pointer
    check()
    costs = page.get_by_label("costs (rows = predicted, columns = true, rows separated by ;)")
    costs.fill("0, 2.5; 1e-5 0")
    ch.costs.value = "0, 2.5; 1e-5 0"
    check()
    pick("classes", "more")  # the reader's matrix stays: the plan's costs are 2 x 2
    check()
    costs.fill("0 1; 2")
    ch.costs.value = "0 1; 2"
    check()
    pick("classes", "two")
    prevalence = page.get_by_label("deployment prevalence (positive class)")
    for text in ("1.5", "x", "0.000015"):
        prevalence.fill(text)
        ch.prevalence.value = text
        check()
    answers = list(every_answer())
    for k in np.random.default_rng(36).choice(len(answers), 8, replace=False):
        for key, value in answers[k].items():
            if ch.answers()[key] != value:
                pick(key, value)
        check()
    links = page.evaluate(
        "() => [...document.querySelectorAll('.clf-pool a')].map(a => a.getAttribute('href'))"
    )
    assert links and set(links) <= {p["href"] for p in page_spec(ch)["pitfalls"].values()}
    assert not v.errors


def test_threshold_explorer(visits, objects):
    v, page = visits["threshold"], visits["threshold"].page
    ex = objects["threshold"]
    spec = page_spec(ex)
    slider = page.get_by_label("threshold t", exact=True)

    def check(i):
        t = spec["low"] + i * spec["step"]
        ex.set_threshold(t)
        assert v.state()["k"] == sweep_index(ex.thresholds, t)
        assert v.state()["matrix"] == ex.matrix().tolist()
        assert_metrics(v, ex.metrics())
        m, shown = ex.matrix(), v.readout()
        for a in range(2):
            for b in range(2):
                assert shown[f"m:{a},{b}"] == str(m[a, b])

    check(spec["start"])
    slider.focus()
    for key in ("ArrowRight", "PageUp", "Home", "End"):
        page.keyboard.press(key)  # keyboard
        check(int(slider.input_value()))
    check(v.click_slider(slider, 0.25))  # pointer
    assert not v.errors


def test_long_readout_tables_fold_and_stay_open_when_redrawn(visits):
    """The threshold explorer's table of 14 metrics shows its first rows and folds the rest
    behind a button (aria-expanded); opened, it stays open when the slider redraws the
    readout, and its hidden rows still carry the library's numbers (the test above read
    them)."""
    page = visits["threshold"].page
    button = page.locator("button.clf-more")
    assert button.count() == 1
    rows = "() => [...document.querySelector('button.clf-more').previousElementSibling.rows]"
    visible = f"{rows}.filter(r => r.checkVisibility()).length"
    total = page.evaluate(f"{rows}.length")
    shown = page.evaluate(visible)
    assert 1 < shown < total - 4, (shown, total)
    assert button.get_attribute("aria-expanded") == "false"
    button.click()
    assert page.evaluate(visible) == total
    slider = page.get_by_label("threshold t", exact=True)
    slider.focus()
    page.keyboard.press("ArrowLeft")
    assert page.locator("button.clf-more").get_attribute("aria-expanded") == "true"
    assert page.evaluate(visible) == total
    page.locator("button.clf-more").click()
    assert page.evaluate(visible) == shown


def test_cost_explorer(visits, objects):
    """Issue 36: the cost ratio moves a line across the envelope and lights up the ROC
    point; the page picks the library's cheapest point at the library's PC(+)."""
    v, page = visits["costs"], visits["costs"].page
    ex = objects["costs"]
    spec = page_spec(ex)
    assert spec == page_spec(cost_curve_explorer(*screening_sample(), live_figure=False))
    slider = page.get_by_label("cost ratio", exact=True)

    def check(i):
        ex.set_log_ratio(spec["exponents"][i])
        want, got, shown = ex.readout_values(), v.state(), v.readout()
        assert got["k"] == want["k"], (i, got["k"], want["k"])
        for key in ("pc", "fpr", "tpr", "nec", "trivial", "ratio"):
            assert close(got[key], want[key]), (i, key, got[key], want[key])
        for key in ("pc", "fpr", "tpr", "nec", "trivial"):
            assert shown[key] == fmt(want[key]), (i, key)
        assert shown["ratio"] == f"{want['ratio']:.4g}"
        t = want["threshold"]
        assert shown["threshold"] == (f"{t:.4g}" if np.isfinite(t) else "∞ (treat none)")

    check(spec["start"])
    slider.focus()
    seen = set()
    for key in ("ArrowRight", "PageUp", "End", "Home", "ArrowRight"):
        page.keyboard.press(key)  # keyboard
        i = int(slider.input_value())
        check(i)
        seen.add(v.state()["k"])
    for fraction in (0.2, 0.7):
        i = v.click_slider(slider, fraction)  # pointer
        check(i)
        seen.add(v.state()["k"])
    assert len(seen) >= 3, "moving the ratio moved the operating point"
    assert not v.errors


def test_judge_explorer(visits, objects):
    """Issue 37: the judge's rates and the prevalence; the page shows the library's agreement
    coefficients and the two prevalence estimates (closed forms, to 1e-12), for every slider
    moved by keyboard and by pointer, and for 400 random states of the four sliders."""
    v, page = visits["judge"], visits["judge"].page
    ex = objects["judge"]
    spec = page_spec(ex)
    assert spec == page_spec(
        judge_explorer(0.7, 0.97, 0.05, names=("acceptable", "fails"), live_figure=False)
    )
    keys = ("sensitivity", "specificity", "prevalence", "labels")

    def same(got, want, where):
        for key, value in want.items():
            if key == "matrix":
                assert np.allclose(got[key], value, rtol=0, atol=TOL), (where, key)
            elif isinstance(value, bool):
                assert got[key] is value, (where, key)
            else:
                assert close(got[key], value), (where, key, got[key], value)

    def check(where):
        got = v.state()
        ex.set_state(**{key: got[key] for key in keys})
        a, e = ex.agreement(), ex.estimates()
        same(got["agreement"], a, where)
        same(got["estimates"], e, where)
        shown = v.readout()
        for key in COEFFICIENTS:
            assert shown[key] == fmt(a[key]), (where, key)
        for i in range(2):
            for j in range(2):
                assert shown[f"m:{i},{j}"] == fmt(a["matrix"][i, j]), (where, i, j)
        for key in ("flagged", "cc_bias", "cc_low", "cc_high"):
            assert shown[key] == fmt(e[key]), (where, key)
        for key in ("adjusted", "adjusted_bias", "adjusted_low", "adjusted_high"):
            want = "undefined" if math.isnan(e[key]) else fmt(e[key])
            assert shown[key] == want, (where, key)
        assert shown["cc_covers"].startswith("✓" if e["cc_covers"] else "✗"), where
        return got

    start = check("start")
    assert {key: start[key] for key in keys} == {
        "sensitivity": 0.7,
        "specificity": 0.97,
        "prevalence": 0.05,
        "labels": 200,
    }
    labels = {
        "sensitivity": "sensitivity T",
        "specificity": "specificity",
        "prevalence": "prevalence q",
        "labels": "hand labels n",
    }
    for key, label in labels.items():
        slider = page.get_by_label(label, exact=True)
        slider.focus()
        for press in ("ArrowLeft", "PageUp", "Home"):
            page.keyboard.press(press)  # keyboard
            check(f"{key} {press}")
        v.click_slider(slider, 0.8)  # pointer
        check(f"{key} click")
    # the sensitivity and specificity at 0.50: T = F, the adjusted estimate undefined
    for label in ("sensitivity T", "specificity"):
        page.get_by_label(label, exact=True).focus()
        page.keyboard.press("Home")
    assert check("T = F")["estimates"]["youden"] == 0
    assert v.readout()["adjusted_low"] == "undefined"
    # every state's closed forms, evaluated in the page in one call
    rng = np.random.default_rng(37)
    stops = spec["stops"]
    states = [[float(rng.choice(stops[key])) for key in keys] for _ in range(400)]
    got = page.evaluate(
        f"(xs) => xs.map(x => window.clfExplorers[{v.root!r}].values(...x))", states
    )
    for (t, s, q, n), values in zip(states, got, strict=True):
        kwargs = {"labels": int(n), "deployment": spec["deployment"]}
        same(values["agreement"], agreement_values(t, s, q), (t, s, q))
        same(values["estimates"], prevalence_values(t, s, q, **kwargs), (t, s, q, n))
    assert not v.errors


# --- the pages as a whole ------------------------------------------------------------------


def test_no_request_leaves_the_local_server(visits):
    """Every request of every explorer page went to 127.0.0.1."""
    for kind, visit in visits.items():
        assert visit.requests, kind
        outside = [u for u in visit.requests if not u.startswith("http://127.0.0.1")]
        assert not outside, (kind, outside)


def test_no_serious_accessibility_violations(visits):
    """axe-core: no serious or critical violation on any explorer page (after the tests
    above moved its controls)."""
    from pathlib import Path

    import axe_playwright_python

    axe_js = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()
    problems = []
    for kind, visit in visits.items():
        visit.page.add_script_tag(content=axe_js)
        # every rule, every node; resultTypes only spares describing the nodes that pass
        result = visit.page.evaluate(
            "async () => await axe.run(document, {resultTypes: ['violations']})"
        )
        for violation in result["violations"]:
            if violation["impact"] in ("serious", "critical"):
                targets = [n["target"] for n in violation["nodes"]][:3]
                problems.append(f"{kind}: {violation['id']} ({violation['impact']}) {targets}")
    assert not problems, "\n".join(problems)


def test_js_number_formats_are_pythons(shared_context, site):
    """The page prints numbers as the widgets do: fmt (4 decimals, half to even on exact
    binary ties, 'nan') and f"{x:.4g}" for the scaled matrices."""
    base, _ = site
    visit = Visit(shared_context, base, "blank.html")
    try:
        rng = np.random.default_rng(7)
        values = [0.03125, 0.00005, 0.00015, -0.03125, -1e-17, 0.0, 1.0, -0.5, 2.5e-5, 0.99995]
        values += (rng.integers(0, 2**15, 300) / 2**15).tolist()  # many exact ties
        values += rng.normal(0, 3, 300).tolist()
        got = visit.page.evaluate("(xs) => xs.map(x => clfPage.fmt(x))", values)
        assert got == [fmt(x) for x in values]
        assert visit.page.evaluate("() => [clfPage.fmt(NaN), clfPage.fmt(null)]") == ["nan", "n/a"]
        tiny = [-1e-17, 1e-17, -0.0, -4.9e-5, 4.9e-5]  # all round to zero: never "-0.0000"
        assert visit.page.evaluate("(xs) => xs.map(x => clfPage.fmt(x))", tiny) == ["0.0000"] * 5
        assert visit.page.evaluate("() => clfPage.fmt(-0)") == "0.0000"
        scaled = [0.6, 15.0, 60.0, 8500.0, 123456.0, 0.000123, 3.98107, 1e-5, 1234.5]
        scaled += (rng.integers(0, 100, 100) * 10.0 ** rng.uniform(-2, 2, 100)).tolist()
        got = visit.page.evaluate("(xs) => xs.map(x => clfPage.fmtG(x))", scaled)
        assert got == [f"{x:.4g}" for x in scaled]
        # the plan file: Python's float repr and json.dumps(plan, indent=2)
        floats = [1e-5, 0.0001, 1e16, 1.5e16, 9999999999999998.0, 0.1 + 0.2, 5.0, -0.0, 0.0]
        floats += [2.5e-300, 1.7976931348623157e308, 123456789.0, 1e-7, -3.25]
        floats += (rng.normal(0, 1, 100) * 10.0 ** rng.integers(-20, 20, 100)).tolist()
        got = visit.page.evaluate("(xs) => xs.map(x => clfPage.pyFloat(x))", floats)
        assert got == [repr(x) for x in floats]
        plan = {
            "metrics": ["a", "b~"],
            "reasons": {"a": 'caf\u00e9 \u2013 "q"\n\x7f'},
            "costs": [[0.0, 2.5], [1e-05, 0.0]],
            "empty": [],
            "none": {},
        }
        assert visit.page.evaluate("(p) => clfPage.pyJSON(p)", plan) == json.dumps(plan, indent=2)
    finally:
        visit.page.close()
