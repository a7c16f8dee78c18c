"""Quick self-checks: the directive rejects answers that cannot be right, and the page grades.

The browser test builds a two-question Sphinx project with the book's extension and
``_static/selfcheck.js`` (seconds, no book build) and answers each question right and
wrong, by keyboard and by pointer. ``test_browser.py`` checks every self-check of the
built book the same way.
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap

import pytest
from chapter_runner import ROOT, toc_files
from page_site import serve
from playwright.sync_api import sync_playwright
from test_browser import CHROMIUM, FLAGS

sys.path.insert(0, str(ROOT / "_ext"))
from self_check import answer_key

BLOCK = re.compile(r"^```\{self-check\}(?P<question>.*?)\n(?P<body>.*?)^```", re.M | re.S)


def options_of(body: str) -> dict:
    return dict(re.findall(r"^:(\w+):\s*(.*)$", body, re.M))


@pytest.mark.parametrize(
    "options, message",
    [
        ({}, "needs an :answer:"),
        ({"answer": "c", "choices": "a | b"}, "not one of the choices"),
        ({"answer": "a", "choices": "a"}, "at least two"),
        ({"answer": "a", "choices": "a | "}, "at least two"),
        ({"answer": "three"}, "needs a number"),
        ({"answer": "1", "tolerance": "-1"}, "tolerance >= 0"),
        ({"answer": "inf"}, "finite"),
    ],
)
def test_answer_key_rejects_answers_that_cannot_be_right(options, message):
    with pytest.raises(ValueError, match=message):
        answer_key(options)


def test_every_self_check_in_the_book_has_a_valid_answer():
    """Each ``{self-check}`` block of the chapters has a question and a gradable answer."""
    found = 0
    for path in toc_files():
        for block in BLOCK.finditer(path.read_text()):
            assert block["question"].strip(), f"{path.name}: a self-check without a question"
            answer_key(options_of(block["body"]))
            found += 1
    assert found >= 3, "the first chapter carries three self-checks as a model"


PAGE = textwrap.dedent(
    """\
    # Checks

    ```{self-check} Which margin is the bias?
    :choices: the row sums | the column sums
    :answer: the row sums

    Rows are predictions.
    ```

    ```{self-check} What is 3/4?
    :answer: 0.75
    :tolerance: 0.005

    Three quarters.
    ```
    """
)

CONF = f"""
import sys
sys.path.insert(0, {str(ROOT / "_ext")!r})
extensions = ["myst_parser", "self_check"]
html_static_path = [{str(ROOT / "_static")!r}]
html_js_files = ["selfcheck.js"]
html_css_files = ["explorers.css"]
"""


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    src = tmp_path_factory.mktemp("checks")
    (src / "conf.py").write_text(CONF)
    (src / "index.md").write_text(PAGE)
    out = src / "_build"
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "html", "-W", "-q", str(src), str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    base, server = serve(out)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=FLAGS)
        p = browser.new_page()
        p.route("**/*", lambda r: r.continue_() if r.request.url.startswith(base) else r.abort())
        p.goto(f"{base}/index.html", wait_until="load")
        yield p
        browser.close()
    server.shutdown()


def result(check) -> str:
    return check.get_attribute("data-result")


@pytest.mark.slow
def test_multiple_choice_by_pointer_and_keyboard(page):
    check = page.locator(".clf-self-check").nth(0)
    check.get_by_label("the column sums").check()  # pointer: a wrong choice
    check.get_by_role("button", name="Check").click()
    assert result(check) == "wrong"
    assert check.locator("details").get_attribute("open") is not None  # explanation shown
    check.get_by_label("the row sums").focus()  # keyboard: select, then Enter submits
    page.keyboard.press("Space")
    page.keyboard.press("Enter")
    assert result(check) == "right"
    assert check.locator(".clf-verdict").text_content() == "Right."


@pytest.mark.slow
def test_number_answer_within_its_tolerance(page):
    check = page.locator(".clf-self-check").nth(1)
    box = check.get_by_label("Your answer")
    for typed, verdict in (
        ("0.7", "wrong"),
        ("0.753", "right"),
        ("3/4", "wrong"),
        ("0,75", "right"),
    ):
        box.fill(typed)
        box.press("Enter")  # keyboard
        assert result(check) == verdict, typed
    box.fill("0.76")
    check.get_by_role("button", name="Check").click()  # pointer
    assert result(check) == "wrong"
