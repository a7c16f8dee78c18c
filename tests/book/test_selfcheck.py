"""The quick self-checks: the ``{selfcheck}`` extension, the chapters' questions, the grading.

The extension (``_ext/selfcheck.py``) is checked on a tiny Sphinx project built in
seconds (``selfcheck_site.py``): its HTML, and a clear build error for each kind of bad
directive. Every self-check written in the chapter sources must have a computable
answer. The grading script (``_static/selfcheck.js``) runs in Chromium on the tiny
project, by pointer and by keyboard, with axe; ``test_selfcheck_book.py`` checks every
self-check of the built book.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest
from chapter_runner import ROOT, toc_files
from local_server import serve
from selfcheck_site import PAGE, build, build_here

import clfmetrics as cm

sys.path.insert(0, str(ROOT / "_ext"))
import selfcheck  # the book's local Sphinx extension

#: The numbered chapters, inserted ones (``15b-...``, ``17b-...``) included.
CHAPTERS = sorted((ROOT / "chapters").glob("[0-9][0-9]*-*.md"))
#: Chapters whose self-checks are still to be written (none now): exempt from the 2-4 count.
PENDING: set[str] = set()


# --- parsing -------------------------------------------------------------------------------


def test_a_number_question_is_computed_by_the_library():
    spec = selfcheck.parse(
        {"answer": "cm.accuracy([[3, 1], [1, 5]])", "digits": "2", "feedback": "Why."},
        ["What is the accuracy?"],
    )
    assert spec.kind == "number"
    assert spec.answer == cm.accuracy([[3, 1], [1, 5]]) == 0.8
    assert spec.digits == 2 and spec.tolerance == pytest.approx(0.005)
    assert spec.shown_answer() == "0.80"


def test_a_choice_question_knows_its_right_choice():
    spec = selfcheck.parse(
        {"feedback": "Because."},
        ["Which one?", "", "- [ ] `m[2, 1]`", "- [x] `m[1, 2]`", "- [ ] neither"],
    )
    assert spec.kind == "choice"
    assert spec.choices == ["`m[2, 1]`", "`m[1, 2]`", "neither"]
    assert spec.correct == 1
    assert spec.question == ["Which one?"]


def test_answer_expressions_see_only_cm_and_np():
    assert selfcheck.evaluate("np.trace(np.eye(3))") == 3.0
    with pytest.raises(selfcheck.SelfCheckError, match=r"NameError.*only `cm`"):
        selfcheck.evaluate("len([1, 2])")
    with pytest.raises(selfcheck.SelfCheckError, match="NameError"):
        selfcheck.evaluate("__import__('os').getcwd()")


BAD = [
    ({"answer": "cm.accuracy([[1]])"}, ["Q?"], ":feedback: is required"),
    ({"feedback": "f"}, ["Q?"], "needs :answer:"),
    ({"feedback": "f", "answer": "1"}, [""], "the question is missing"),
    ({"feedback": "f", "answer": "cm.nope(1)"}, ["Q?"], "AttributeError"),
    ({"feedback": "f", "answer": "np.array([1, 2])"}, ["Q?"], "not a single number"),
    ({"feedback": "f", "answer": "np.nan"}, ["Q?"], "not a finite number"),
    ({"feedback": "f", "answer": "1", "digits": "two"}, ["Q?"], ":digits: must be a whole"),
    ({"feedback": "f", "answer": "1", "tolerance": "-1"}, ["Q?"], ":tolerance: must be >= 0"),
    ({"feedback": "f", "answer": "1", "colour": "red"}, ["Q?"], "unknown option"),
    ({"feedback": "f"}, ["Q?", "- [ ] a", "- [ ] b"], "exactly one choice"),
    ({"feedback": "f"}, ["Q?", "- [x] a", "- [x] b"], "exactly one choice"),
    ({"feedback": "f"}, ["Q?", "- [x] a"], "at least two choices"),
    ({"feedback": "f", "answer": "1"}, ["Q?", "- [x] a", "- [ ] b"], "takes no :answer:"),
    ({"feedback": "f"}, ["Q?", "- [x] a", "", "more", "- [ ] b"], "one list at the end"),
]


@pytest.mark.parametrize("options, content, message", BAD, ids=[b[2] for b in BAD])
def test_bad_directives_are_refused_with_a_message(options, content, message):
    with pytest.raises(selfcheck.SelfCheckError, match=re.escape(message).split(r"\.")[0]):
        selfcheck.parse(options, content)


def test_read_blocks_finds_options_and_content():
    blocks = selfcheck.read_blocks(PAGE)
    assert [len(b[1]) for b in blocks] == [3, 1, 3]
    assert blocks[1][1] == {
        "feedback": "Rows are predictions and columns truth, so row 1, column 2."
    }
    assert "- [x] `m[1, 2]`" in blocks[1][2]


# --- the chapters' questions -----------------------------------------------------------------


@pytest.mark.parametrize("path", CHAPTERS, ids=[p.stem for p in CHAPTERS])
def test_every_self_check_of_a_chapter_has_a_computable_answer(path):
    """Each question parses, has its right answer (computed, for a number) and feedback."""
    blocks = selfcheck.read_blocks(path.read_text())
    for line, options, content in blocks:
        try:
            spec = selfcheck.parse(options, content)
        except selfcheck.SelfCheckError as error:
            pytest.fail(f"{path.name}:{line}: {error}")
        if spec.kind == "number":
            assert np.isfinite(spec.answer)
        assert len(spec.feedback.split()) >= 6, f"{path.name}:{line}: feedback too short"
    if path.stem not in PENDING:
        assert 2 <= len(blocks) <= 4, f"{path.name}: {len(blocks)} self-checks, want 2-4"


def test_the_chapters_of_the_toc_are_the_ones_checked():
    in_toc = {p.stem for p in toc_files() if re.match(r"\d\d[a-z]?-", p.stem)}
    assert in_toc == {p.stem for p in CHAPTERS}
    assert PENDING <= in_toc


# --- the extension in Sphinx -------------------------------------------------------------------


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    folder = tmp_path_factory.mktemp("selfcheck")
    result = build(folder)
    assert result.returncode == 0, result.stderr
    return folder / "_build"


def test_the_html_is_a_form_with_a_legend_labels_and_a_live_region(tiny):
    html = (tiny / "index.html").read_text()
    forms = re.findall(r"<form class=\"clf-selfcheck\".*?</form>", html, re.S)
    assert len(forms) == 3
    for form in forms:
        assert form.count("<fieldset") == 1 and "<legend>" in form
        assert 'role="status" aria-live="polite"' in form
        assert '<button type="submit" hidden>Check</button>' in form  # shown by the script
        assert '<details class="clf-sc-answer"><summary>Show the answer</summary>' in form
        for ident in re.findall(r'<input type="(?:radio|text)"[^>]* id="([^"]+)"', form):
            assert f'<label for="{ident}">' in form
    assert 'data-answer="0.8" data-tolerance="0.005" data-digits="2"' in forms[0]
    assert "<strong>Answer: </strong>0.80" in forms[0]
    assert 'data-kind="choice" data-correct="1"' in forms[1]
    assert forms[1].count('type="radio"') == 3
    assert 'aria-describedby="selfcheck-3-context"' in forms[2] and "<table" in forms[2]


BAD_PAGES = [
    (":answer: cm.accuracy([[1]])\n\nQ?", ":feedback: is required"),
    (":feedback: because it is so.\n:answer: cm.no_such_metric(1)\n\nQ?", "AttributeError"),
    (":feedback: because it is so.\n\nQ?\n\n- [ ] a\n- [ ] b", "exactly one choice"),
    (":feedback: because it is so.\n:answer: 1\n:digits: many\n\nQ?", ":digits: must be"),
]


@pytest.mark.parametrize("body, message", BAD_PAGES, ids=[b[1] for b in BAD_PAGES])
def test_a_bad_directive_stops_the_build_naming_the_place(tmp_path, body, message):
    status, stderr = build_here(tmp_path, f"# Page\n\ntext\n\n```{{selfcheck}}\n{body}\n```\n")
    assert status != 0
    assert "index.md:5: {selfcheck}: " in stderr, stderr
    assert message in stderr


# --- the grading in Chromium, on the tiny project ------------------------------------------


@pytest.fixture(scope="module")
def tiny_page(tiny, browser):
    base, server = serve(tiny)
    requests: list[str] = []
    errors: list[str] = []
    context = browser.new_context()
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))

    def route(r):
        requests.append(r.request.url)
        return r.continue_() if r.request.url.startswith(base) else r.abort()

    page.route("**/*", route)
    page.goto(f"{base}/index.html", wait_until="load")
    page.browser_for_tests, page.base_for_tests = browser, base
    yield page, requests, errors
    context.close()
    server.shutdown()


SPECS = [selfcheck.parse(o, c) for _, o, c in selfcheck.read_blocks(PAGE)]


@pytest.mark.parametrize("index", range(len(SPECS)))
def test_each_self_check_rejects_a_wrong_reply_and_accepts_the_right_one(tiny_page, index):
    from selfcheck_site import answer_by_keys, answer_by_pointer

    page, requests, errors = tiny_page
    form = page.locator("form.clf-selfcheck").nth(index)
    spec = SPECS[index]
    requests.clear()
    for answer in (
        lambda right: answer_by_pointer(form, spec, right),
        lambda right: answer_by_keys(page, index, spec, right),
    ):
        state, text = answer(False)
        assert state == "wrong" and text.startswith("Not quite"), (state, text)
        state, text = answer(True)
        assert state == "correct" and text.startswith("Correct."), (state, text)
        assert spec.feedback.split()[0] in text  # the explanation comes with the verdict
    assert requests == [], "grading made a request"
    assert errors == []


def test_replies_that_are_not_numbers_are_not_graded(tiny_page):
    page, _, _ = tiny_page
    assert page.evaluate("() => clfSelfCheck.parseReply('4/5')") == 0.8
    assert page.evaluate("() => clfSelfCheck.parseReply('80 %')") == 0.8
    assert page.evaluate("() => clfSelfCheck.parseReply('0,8')") == 0.8
    form = page.locator("form.clf-selfcheck").first
    form.locator("input[type=text]").fill("eighty")
    form.locator("button[type=submit]").click()
    state, text = form.get_attribute("data-state"), form.locator(".clf-sc-result").inner_text()
    assert state == "invalid" and "Type a number" in text
    choice = page.locator("form.clf-selfcheck").nth(1)
    choice.evaluate("f => f.reset()")
    choice.locator("button[type=submit]").click()
    assert choice.get_attribute("data-state") == "invalid"


def test_no_serious_accessibility_violation_in_the_self_checks(tiny_page):
    import axe_playwright_python

    page, _, _ = tiny_page
    page.add_script_tag(
        content=(Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()
    )
    result = page.evaluate(  # resultTypes: every violation, one node of each pass
        "async () => await axe.run({include: [['form.clf-selfcheck']]},"
        " {resultTypes: ['violations']})"
    )
    problems = [
        (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    assert not problems
    assert result["passes"], "axe looked at the forms"


def test_without_javascript_the_question_reads_and_the_answer_is_folded(tiny_page):
    page, _, _ = tiny_page
    context = page.browser_for_tests.new_context(java_script_enabled=False)
    try:
        bare = context.new_page()
        bare.goto(f"{page.base_for_tests}/index.html", wait_until="load")
        form = bare.locator("form.clf-selfcheck").first
        assert "What is the accuracy" in form.locator("legend").inner_text()
        assert not form.locator("button[type=submit]").is_visible()  # nothing to check
        assert not form.locator(".clf-sc-explain").is_visible()
        form.locator("summary").click()
        assert "diagonal over the total" in form.locator(".clf-sc-explain").inner_text()
    finally:
        context.close()
    assert page.locator("form.clf-selfcheck button[type=submit]").first.is_visible()
