"""The explorers' intervals: page == library, and the pages' look (ticks, layout, dark mode).

The page computes exact (Clopper-Pearson) intervals in the browser (``clopperPearson`` in
``_static/clfmetrics.js``), the large-sample interval of every other metric of the
confusion explorer (``metricIntervals``: estimate +- z x jackknife standard error, as
``clfmetrics.inference``) and draws the ROC band the library computed at build time.
Each test drives the page in Chromium and compares with ``clfbook.widgets.intervals``
and ``clfmetrics.inference`` in the same test; the Python twins (the ipywidgets explorers)
are checked at the top, without a browser.
"""

from __future__ import annotations

import itertools
from statistics import NormalDist

import numpy as np
import pytest
from local_server import serve
from page_site import explorers, screening_sample, write_site
from scipy.stats import binomtest

from clfbook.widgets import confusion_matrix_explorer, threshold_explorer
from clfbook.widgets._base import fmt
from clfbook.widgets.confusion import INTERVAL_NOTE
from clfbook.widgets.intervals import (
    EXACT,
    interval_text,
    matrix_intervals,
    metric_intervals,
    width_against_size,
)
from clfbook.widgets.page import page_spec
from clfbook.widgets.threshold import BAND_SEED, BAND_SIZE
from clfmetrics import (
    METRICS,
    RANGES,
    jackknife_interval,
    jackknife_se,
    rates_at_threshold,
    roc_band,
)
from clfmetrics.inference._binomial import clopper_pearson

TWEETS = [[40, 10, 5], [20, 120, 30], [5, 15, 60]]


# --- the Python side --------------------------------------------------------------------


def test_matrix_intervals_are_scipys_exact_intervals():
    ci = matrix_intervals(TWEETS)
    m = np.array(TWEETS)
    want = binomtest(int(np.trace(m)), int(m.sum())).proportion_ci(0.95, method="exact")
    np.testing.assert_allclose(ci["accuracy"], [want.low, want.high], atol=1e-10)
    for i in range(3):
        row = binomtest(int(m[i, i]), int(m[i].sum())).proportion_ci(0.95, method="exact")
        col = binomtest(int(m[i, i]), int(m[:, i].sum())).proportion_ci(0.95, method="exact")
        np.testing.assert_allclose(ci["precision"][i], [row.low, row.high], atol=1e-10)
        np.testing.assert_allclose(ci["recall"][i], [col.low, col.high], atol=1e-10)
    never_predicted = matrix_intervals([[5, 3], [0, 0]])
    assert never_predicted["precision"][1] == (0.0, 1.0)  # 0 of 0: the data say nothing
    with pytest.raises(ValueError, match="whole counts"):
        matrix_intervals([[1.5, 0], [0, 1]])


def test_operating_intervals_are_rates_at_threshold():
    y, s = screening_sample(400, seed=3)
    ex = threshold_explorer(y, s, live_figure=False)
    for t in (0.05, 0.2, 0.31, 0.5):
        ex.set_threshold(t)
        mine, lib = ex.rates(), rates_at_threshold(y, s, t)
        for name, iv in lib.items():
            est, low, high = mine[name]
            assert (np.isnan(est) and np.isnan(iv.estimate)) or np.isclose(est, iv.estimate)
            assert np.isclose(low, iv.low) and np.isclose(high, iv.high), name
    assert "95 % exact interval" in ex.rate_view.value
    low, high = ex.rates()["sensitivity"][1:]
    assert f"[{fmt(low)}, {fmt(high)}]" in ex.rate_view.value


def test_the_interval_narrows_as_counts_grow():
    widths = width_against_size(TWEETS)["width"]
    assert all(a > b for a, b in itertools.pairwise(widths))
    # same proportions, 1000 times the items: about sqrt(1000) times narrower
    assert 20 < widths[0] / widths[-1] < 40


def test_threshold_explorer_band_is_the_librarys():
    y, s = screening_sample(600, seed=5)
    ex = threshold_explorer(y, s, live_figure=False)
    band = roc_band(y, s, size=BAND_SIZE, rng=BAND_SEED)
    for key in ("x", "y", "low", "high"):
        np.testing.assert_array_equal(getattr(ex.band, key), getattr(band, key))
    spec = page_spec(ex)
    np.testing.assert_array_equal(spec["band"]["low"], band.low)
    np.testing.assert_array_equal(spec["band"]["high"], band.high)
    assert spec["band"]["simultaneous"] is True and spec["level"] == 0.95
    ax_roc = ex.figure().axes[1]
    (fill,) = ax_roc.collections
    assert fill.get_label() == "95% simultaneous band"
    assert np.isclose(fill.get_paths()[0].vertices[:, 1].max(), band.high.max())


def test_confusion_explorer_readout_shows_the_intervals():
    ex = confusion_matrix_explorer(TWEETS, live_figure=False)
    ci = ex.intervals()
    assert f"[{fmt(ci['accuracy'][0])}, {fmt(ci['accuracy'][1])}]" in ex.readout.value
    low, high = ci["recall"][2]
    assert f"[{fmt(low)}, {fmt(high)}]" in ex.per_class.value
    # every metric has its interval, for the state the reader set
    assert "bootstrap" not in ex.readout.value and "jackknife standard error" in ex.readout.value
    for cells in (TWEETS, [[9, 0], [0, 7]]):
        ex.set_matrix(cells)
        assert ex.intervals()["metrics"] == metric_intervals(cells)
        for name, (low, high, _) in metric_intervals(cells).items():
            assert f"<td style='padding:1px 8px;text-align:right'>{name}</td>" in ex.readout.value
            assert interval_text(low, high, fmt) in ex.readout.value, name
    assert "no spread seen" in ex.readout.value  # a perfect matrix: no bracket of width 0


def test_metric_intervals_are_the_librarys():
    mine = metric_intervals(TWEETS, 0.9)
    for name, (low, high, method) in mine.items():
        if method == "exact":
            assert (low, high) == matrix_intervals(TWEETS, 0.9)["accuracy"]
        else:
            iv = jackknife_interval(name, TWEETS, level=0.9)
            assert (low, high) == (iv.low, iv.high), name
    assert np.isnan(metric_intervals([[1, 0], [0, 0]])["kappa"][0])  # one item: no jackknife
    assert interval_text(np.nan, np.nan, fmt) == "too few items"


# --- the pages ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    objects = explorers("confusion", "threshold")
    directory = tmp_path_factory.mktemp("interval-pages")
    write_site(directory, objects)
    base, server = serve(directory)
    yield base, objects
    server.shutdown()


@pytest.fixture
def open_page(shared_context, site):
    base, _ = site
    pages = []

    def visit(name, width=1280):
        page = shared_context.new_page()
        page.set_viewport_size({"width": width, "height": 900})
        pages.append(page)
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{base}/{name}", wait_until="load")
        page.errors = errors
        return page

    yield visit
    for page in pages:
        page.close()


def readout(page) -> dict[str, str]:
    return page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('[data-key]')]"
        ".map(e => [e.dataset.key, e.textContent]))"
    )


def state(page):
    return page.evaluate("() => Object.values(window.clfExplorers)[0].state()")


def test_js_clopper_pearson_is_the_librarys(open_page):
    page = open_page("blank.html")
    rng = np.random.default_rng(27)
    cases = [(0, 1), (1, 1), (0, 7), (7, 7), (3, 10), (1, 2), (50, 100), (999, 1000)]
    for _ in range(150):
        n = int(10 ** rng.uniform(0, 7))
        cases.append((int(rng.integers(0, n + 1)), n))
    for level in (0.95, 0.9):
        got = page.evaluate(
            "([cs, lv]) => cs.map(([k, n]) => clfmetrics.clopperPearson(k, n, lv))",
            [cases, level],
        )
        # the library's ends for every case in one vectorised call (one call per case cost
        # seconds in all: each runs its Halley steps on arrays of one)
        k, n = np.array(cases).T
        want = np.column_stack(clopper_pearson(k, n, level))
        for case, mine, lib in zip(cases, got, want, strict=True):
            assert np.abs(np.array(mine) - lib).max() <= 1e-9, (case, level, mine, lib)
    assert page.evaluate("() => clfmetrics.clopperPearson(0, 0)") == [0, 1]
    assert not page.errors


def matrices_for_the_port(count: int, seed: int) -> list[list[list[int]]]:
    """Random matrices of 2 to 6 classes (sparse, small and large counts) and degenerate ones."""
    rng = np.random.default_rng(seed)
    out = [
        [[9, 0], [0, 7]],  # perfect: no spread
        [[5, 3], [0, 0]],  # a class never predicted
        [[5, 0, 0], [0, 7, 1], [0, 0, 1]],  # one item's removal leaves a 0/0
        [[1, 0], [0, 1]],
        [[0, 2], [0, 0]],
        [[1, 0], [0, 0]],  # one item
    ]
    for _ in range(count):
        n = int(rng.integers(2, 7))
        top = int(10 ** rng.uniform(0.5, 4))
        m = rng.integers(0, top + 1, size=(n, n)) * (rng.random((n, n)) < 0.8)
        if m.sum() == 0:
            m[0, 0] = 1
        out.append(m.tolist())
    return out


def library_ends(cases, levels) -> tuple[dict, dict]:
    """The library's ends of every case, metric and level, and the shares of undefined
    left-outs: ``jackknife_se`` once per metric on each stack of same-size matrices (the
    arithmetic of ``jackknife_interval``, checked against it above), and Clopper-Pearson
    once per level on the array of all cases for the exact ones."""
    correct = np.array([np.trace(m) for m in cases])
    total = np.array([np.sum(m) for m in cases])
    exact = {level: np.transpose(clopper_pearson(correct, total, level)) for level in levels}
    ends, shares = {}, {}
    for n in {len(m) for m in cases}:
        index = [k for k, m in enumerate(cases) if len(m) == n and total[k] >= 2]
        stack = np.array([cases[k] for k in index], dtype=float)
        for name, func in METRICS.items():
            se, share = jackknife_se(func, stack)
            estimate = func(stack)
            lower, upper = RANGES.get(name, (0.0, 1.0))
            for level in levels:
                z = NormalDist().inv_cdf((1 + level) / 2)
                for k, s, e, u in zip(index, se, estimate, share, strict=True):
                    ends[k, name, level] = (max(e - z * s, lower), min(e + z * s, upper))
                    shares[k, name] = u
    for k in range(len(cases)):
        for level in levels:
            if total[k] < 2:  # one item: no jackknife
                ends.update({(k, name, level): (np.nan, np.nan) for name in METRICS})
            for name in EXACT:
                ends[k, name, level] = tuple(exact[level][k])
    return ends, shares


def test_js_metric_intervals_are_the_librarys(open_page):
    # one page load and one evaluate for every case: the CPU goes into the comparison
    page = open_page("blank.html")
    cases = matrices_for_the_port(120, seed=27)
    levels = (0.95, 0.9)
    probabilities = [0.5, 0.6, 0.95, 0.975, 0.995, 1e-3, 0.9999, 1e-12]
    got = page.evaluate(
        """([cs, ps, lvs]) => ({
            z: ps.map((p) => clfmetrics.normalQuantile(p)),
            ci: lvs.map((lv) => cs.map((m) => clfmetrics.metricIntervals(m, lv))),
            share: cs.map((m) => clfmetrics.jackknifeSE(m, "macro_precision")[1]) })""",
        [cases, probabilities, levels],
    )
    for p, z in zip(probabilities, got["z"], strict=True):
        assert abs(z - NormalDist().inv_cdf(p)) <= 1e-12 * max(1, abs(z)), p
    ends, shares = library_ends(cases, levels)
    for level, shown in zip(levels, got["ci"], strict=True):
        for k, js in enumerate(shown):
            for name in METRICS:
                j_low, j_high, j_method = js[name]
                assert j_method == ("exact" if name in EXACT else "jackknife")
                for a, b in zip(ends[k, name, level], (j_low, j_high), strict=True):
                    nan = np.isnan(a) and (b is None or np.isnan(b))
                    assert nan or abs(a - b) <= 1e-9, (cases[k], name, level)
    for k, share in enumerate(got["share"]):
        if np.sum(cases[k]) >= 2:
            assert share == pytest.approx(shares[k, "macro_precision"])
    assert not page.errors


def test_threshold_page_band_and_operating_point(open_page, site):
    _, objects = site
    ex = objects["threshold"]
    spec = page_spec(ex)
    page = open_page("threshold.html")
    slider = page.get_by_label("threshold t", exact=True)
    slider.focus()
    for key in ("Home", "PageUp", "PageUp", "ArrowRight"):
        page.keyboard.press(key)
        t = spec["low"] + int(slider.input_value()) * spec["step"]
        ex.set_threshold(t)
        shown, mine = readout(page), state(page)["rates"]
        for name, (est, low, high) in ex.rates().items():
            assert shown[f"rate:{name}"] == fmt(est), name
            assert shown[f"rate:{name}:interval"] == f"[{fmt(low)}, {fmt(high)}]", name
            assert abs(mine[name][1] - low) <= 1e-9 and abs(mine[name][2] - high) <= 1e-9
    # the band drawn is the library's: its polygon spans the band's ends
    d = page.locator("svg path.clf-band").get_attribute("d")
    assert d.count("L") == 2 * len(spec["band"]["x"]) - 1
    assert page.locator("svg line.clf-cross").count() == 2
    roc = page.get_by_role("img", name="ROC curve inside its 95 % simultaneous")
    low, high = ex.rates()["sensitivity"][1:]
    assert f"[{fmt(low)}, {fmt(high)}]" in roc.get_attribute("aria-label")  # alt text too
    ticks = page.locator("figure:has(svg[aria-label^='ROC']) svg text").all_text_contents()
    assert {"0", "0.2", "0.4", "0.6", "0.8", "1"} <= set(ticks)
    assert not page.errors


def test_confusion_page_intervals_narrow_as_counts_grow(open_page):
    page = open_page("confusion.html")
    m = np.array(TWEETS)

    def check(matrix):
        shown, ci = readout(page), matrix_intervals(matrix)
        assert shown["interval:accuracy"] == f"[{fmt(ci['accuracy'][0])}, {fmt(ci['accuracy'][1])}]"
        for name, (low, high, _) in metric_intervals(matrix).items():
            assert shown[f"interval:{name}"] == interval_text(low, high, fmt), name
        for i in range(3):
            for q in ("precision", "recall"):
                low, high = ci[q][i]
                assert shown[f"interval:{q}:{i}"] == f"[{fmt(low)}, {fmt(high)}]", (q, i)
        got = state(page)["intervals"]["accuracy"]
        assert np.allclose(got, ci["accuracy"], atol=1e-9)
        return ci["accuracy"][1] - ci["accuracy"][0]

    before = check(m)
    for i in range(3):
        for j in range(3):
            page.locator(f"input[data-cell='{i},{j}']").fill(str(10 * m[i, j]))
    after = check(10 * m)
    assert after < before / 3  # ten times the items: about sqrt(10) times narrower
    kappa = [state(page)["metricIntervals"]["kappa"][k] for k in (0, 1)]
    assert (
        kappa[1] - kappa[0]
        < (metric_intervals(m)["kappa"][1] - metric_intervals(m)["kappa"][0]) / 3
    )
    # the page says what the intervals are and assume, in the library's words
    assert page.locator(".clf-note").text_content() == INTERVAL_NOTE
    label = page.get_by_role("img", name="Width of the 95 % exact accuracy interval")
    assert label.count() == 1
    assert not page.errors


def test_layout_ticks_and_dark_mode(open_page):
    # one page, laid out at each width in turn (a resize applies the same CSS as a load)
    wide = open_page("threshold.html", width=1400)
    side = wide.locator(".clf-side").bounding_box()
    # wide, the figures are items of the explorer's grid: the first one beside the controls
    figures = wide.locator(".clf-figures > figure").first.bounding_box()
    assert figures["x"] >= side["x"] + side["width"] - 1  # beside
    live = wide.locator("[aria-live]").bounding_box()
    assert live["width"] <= 1 and live["height"] <= 1  # read out, not printed twice
    # ticks: a mark at each label, labels evenly spaced by 1, 2 or 5 times a power of ten
    for svg in wide.locator("svg.clf-chart").all():
        labels = svg.locator("line.clf-tick + text").all_text_contents()
        assert len(labels) == svg.locator("line.clf-tick").count() >= 2
        values = [float(x) for x in labels if x]
        for axis in (values[: len(values) // 2], values[len(values) // 2 :]):
            steps = np.diff(axis)
            if len(steps) and np.allclose(steps, steps[0]):
                mantissa = abs(steps[0]) / 10 ** np.floor(np.log10(abs(steps[0])))
                assert any(np.isclose(mantissa, f) for f in (1, 2, 5)), labels
    phone = wide
    phone.set_viewport_size({"width": 390, "height": 900})
    assert phone.evaluate("() => window.innerWidth") == 390
    side = phone.locator(".clf-side").bounding_box()
    figures = phone.locator(".clf-figures > figure").first.bounding_box()
    assert figures["y"] >= side["y"] + side["height"] - 1  # below
    # dark mode: the theme sets data-theme on <html> and light text on a dark page; myst-nb
    # puts a cell's HTML output on a light box with dark text. The charts' ink, captions and
    # buttons follow the text colour of the box they sit in, so they stay readable in both.
    dark = phone
    dark.set_viewport_size({"width": 1280, "height": 900})
    dark.evaluate(
        """() => { document.documentElement.dataset.theme = 'dark';
        const s = document.createElement('style');
        s.textContent = 'html[data-theme=dark] body {color: #ced6dd; background: #14181e}';
        document.head.append(s); }"""
    )
    ink = "() => getComputedStyle(document.querySelector('svg.clf-chart text')).fill"
    caption = "() => getComputedStyle(document.querySelector('table.clf-table caption')).color"
    assert dark.evaluate(ink) == dark.evaluate(caption) == "rgb(206, 214, 221)"
    dark.evaluate(
        "() => { const r = document.querySelector('.clf-page-explorer');"
        " r.style.color = 'rgb(20, 24, 30)'; r.style.background = '#ced6dd'; }"
    )
    assert dark.evaluate(ink) == dark.evaluate(caption) == "rgb(20, 24, 30)"
