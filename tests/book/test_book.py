"""The whole book builds with warnings as errors, and the built pages hold what they should."""

from __future__ import annotations

import re

from chapter_runner import ROOT, toc_files


def test_every_toc_page_is_built(built_html):
    """Each page of _toc.yml becomes an HTML page, with index.html at the top."""
    assert (built_html / "index.html").exists()
    for src in toc_files():
        page = built_html / src.relative_to(ROOT).with_suffix(".html")
        assert page.exists(), f"{page} was not built"


def test_no_unrendered_markup_or_errors(built_html):
    """No page shows a traceback, an unresolved glue key or raw MyST role syntax."""
    for page in built_html.rglob("*.html"):
        if "_static" in page.parts or "reports" in page.parts:
            continue
        text = page.read_text()
        assert "Traceback (most recent call last)" not in text, page
        assert "{glue:" not in text and "{cite}" not in text and "{prf:" not in text, page


def test_outputs_print_numbers_not_numpy_scalar_reprs(built_html):
    """No output shows numpy 2's scalar repr such as np.float64(0.69) where a number belongs."""
    pattern = re.compile(r"np\.(float|int|bool)\w*\(")
    for src in toc_files():
        page = built_html / src.relative_to(ROOT).with_suffix(".html")
        shown = pattern.findall(page.read_text())
        assert not shown, f"{page.name} prints numpy scalar reprs: {shown[:5]}"


def test_images_have_alt_text(built_html):
    """Every figure of the book describes itself; theme icons at least name themselves."""
    for page in built_html.rglob("*.html"):
        if "_static" in page.parts:
            continue
        for tag in re.findall(r"<img\b[^>]*>", page.read_text()):
            alt = re.search(r'alt="([^"]*)"', tag)
            assert alt and alt.group(1).strip(), f"image without alt text in {page}: {tag}"
            # Figures the chapters compute land in _images/; the theme's logos live in _static/.
            if "_images/" in tag:
                assert len(alt.group(1)) > 40, f"figure alt text too short in {page}: {tag}"


def test_first_chapter_shows_computed_numbers(built_html):
    """The glued numbers of chapter 1 appear in the rendered prose."""
    import numpy as np

    from clfmetrics import bias, precision, prevalence, prevalence_scale

    m = np.array([[60, 15, 5], [35, 170, 40], [5, 15, 55]])
    html = (built_html / "chapters" / "01-confusion-matrix.html").read_text()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))
    assert f"predicts that class for {int(bias(m)[1])} tweets" in text
    assert f"only {int(prevalence(m)[1])} are neutral" in text
    scaled = precision(prevalence_scale(m, [1, 1, 3]))[1]
    assert f"fell from {precision(m)[1]:.3f} to {scaled:.3f}" in text
