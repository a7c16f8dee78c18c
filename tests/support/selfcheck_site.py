"""A tiny Sphinx project with the ``{selfcheck}`` directive, built in a few seconds.

Used by ``tests/book/test_selfcheck.py`` (the extension's HTML, its build errors, and the
grading in Chromium) so that those tests need no book build.
"""

from __future__ import annotations

import contextlib
import io
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXT = ROOT / "_ext"
SPHINX_BUILD = Path(sys.executable).parent / "sphinx-build"

CONF = f"""
import sys
sys.path.insert(0, {str(EXT)!r})
project = "selfcheck"
extensions = ["myst_parser", "selfcheck"]
myst_enable_extensions = ["dollarmath"]
html_static_path = ["_static"]
html_js_files = ["selfcheck.js"]
html_css_files = ["selfcheck.css"]
html_theme = "basic"
"""

#: One question of each kind, and one whose question has a second block.
PAGE = """# Self-checks

```{selfcheck}
:answer: cm.accuracy([[3, 1], [1, 5]])
:digits: 2
:feedback: Accuracy is the diagonal over the total, $(3 + 5) / 10$.

What is the accuracy of the matrix with rows (3, 1) and (1, 5)?
```

```{selfcheck}
:feedback: Rows are predictions and columns truth, so row 1, column 2.

Which cell counts the items predicted *neutral* whose true class is *positive*?

- [ ] `m[2, 1]`
- [x] `m[1, 2]`
- [ ] `m[1, 1]`
```

```{selfcheck}
:answer: np.trace(np.array([[40, 10], [20, 120]]))
:digits: 0
:feedback: The diagonal holds the correct items: 40 + 120.

How many items of this matrix are classified correctly?

| | true a | true b |
|---|---|---|
| predicted a | 40 | 10 |
| predicted b | 20 | 120 |
```
"""


def _write(folder: Path, page: str) -> list[str]:
    """Write the project into ``folder``; sphinx-build's arguments for it."""
    (folder / "_static").mkdir(parents=True, exist_ok=True)
    for name in ("selfcheck.js", "selfcheck.css"):
        shutil.copy(ROOT / "_static" / name, folder / "_static" / name)
    (folder / "conf.py").write_text(CONF)
    (folder / "index.md").write_text(page)
    return ["-W", "-q", "-b", "html", str(folder), str(folder / "_build")]


def build(folder: Path, page: str = PAGE) -> subprocess.CompletedProcess:
    """Write the project into ``folder`` and build it with warnings as errors."""
    return subprocess.run(
        [str(SPHINX_BUILD), *_write(folder, page)], capture_output=True, text=True, timeout=120
    )


def build_here(folder: Path, page: str) -> tuple[int, str]:
    """The same build in this process, by sphinx-build's own entry point: its exit status
    and what it wrote to stderr. For the builds that a bad page stops: each in a process of
    its own would start the interpreter and import Sphinx and MyST again, for each page."""
    from sphinx.cmd.build import build_main

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        status = build_main(_write(folder, page))
    return status, err.getvalue()


# --- driving a self-check in the browser (Playwright), shared with test_selfcheck_book.py ---


def reply_for(spec, right: bool) -> str | int:
    """A right or a wrong reply: a choice index, or the text a reader types."""
    if spec.kind == "choice":
        return spec.correct if right else (spec.correct + 1) % len(spec.choices)
    if right:
        return spec.shown_answer()
    wrong = spec.answer + max(10 * spec.tolerance, 1.0)
    return f"{wrong:.{spec.digits}f}"


def verdict(form) -> tuple[str | None, str]:
    """The form's state after a reply and the text of its live region."""
    return form.get_attribute("data-state"), form.locator(".clf-sc-result").inner_text()


def answer_by_pointer(form, spec, right: bool) -> tuple[str | None, str]:
    """Click the choice (its label) or type into the field, then click Check."""
    reply = reply_for(spec, right)
    if spec.kind == "choice":
        form.locator(f"label[for$='-{reply}']").click()
    else:
        form.locator("input[type=text]").fill(reply)
    form.locator("button[type=submit]").click()
    return verdict(form)


#: Every self-check of a page answered by pointer in one evaluation: for each form a wrong
#: reply, then the right one. Each control is scrolled to the middle of the window and the
#: pointer's target is what the page shows at the control's centre (``elementFromPoint``, as a
#: real click hit-tests): a control that is hidden, has no box, or lies under another element
#: fails, and the click goes to what is really there. A choice is clicked on its label; a number
#: is typed into its field (focus, the text, an ``input`` event as typing fires); then the Check
#: button is clicked, whose activation submits the form as a reader's click does. The page's own
#: listeners do the rest (``_static/selfcheck.js``). Returns, per form, the verdicts of the two
#: replies as ``[state, text of the live region]``, or ``["error", why]`` where a control could
#: not be reached. One round trip instead of about five per reply: the Playwright clicks are
#: slow (scrolling, waiting for stable frames and repainting each time).
ANSWER_ALL_BY_POINTER = """(replies) => {
    const forms = [...document.querySelectorAll('form.clf-selfcheck')];
    const reach = (element) => {
        if (!element) return [null, 'no such control'];
        element.scrollIntoView({block: 'center', inline: 'center'});
        const box = element.getBoundingClientRect();
        if (!box.width || !box.height) return [null, 'the control has no box'];
        const x = box.left + box.width / 2, y = box.top + box.height / 2;
        const top = document.elementFromPoint(x, y);
        if (!top || !(top === element || element.contains(top)))
            return [null, `covered by <${top ? top.tagName.toLowerCase() : 'nothing'}>`];
        return [top, ''];
    };
    return replies.map(([kind, pair], k) => pair.map((reply) => {
        const form = forms[k];
        if (!form) return ['error', `no form ${k}`];
        if (kind === 'choice') {
            const [target, why] = reach(form.querySelector(`label[for$='-${reply}']`));
            if (!target) return ['error', `choice ${reply}: ${why}`];
            target.click();
        } else {
            const field = form.querySelector('input[type=text]');
            const [target, why] = reach(field);
            if (!target) return ['error', `field: ${why}`];
            if (field.disabled || field.readOnly) return ['error', 'the field is not editable'];
            target.click();
            field.focus();
            if (document.activeElement !== field) return ['error', 'the field took no focus'];
            field.value = String(reply);
            field.dispatchEvent(new InputEvent('input', {bubbles: true, data: String(reply),
                                                         inputType: 'insertText'}));
        }
        const [button, why] = reach(form.querySelector('button[type=submit]'));
        if (!button) return ['error', `Check button: ${why}`];
        button.click();
        const region = form.querySelector('.clf-sc-result');
        return [form.dataset.state ?? null, region ? region.innerText : ''];
    }));
}"""


def answer_all_by_pointer(page, specs) -> list[list[tuple[str | None, str]]]:
    """Answer every self-check of ``page`` wrongly, then rightly, by pointer
    (``ANSWER_ALL_BY_POINTER``); per form, the two verdicts."""
    replies = [[spec.kind, [reply_for(spec, False), reply_for(spec, True)]] for spec in specs]
    return [[tuple(v) for v in pair] for pair in page.evaluate(ANSWER_ALL_BY_POINTER, replies)]


#: Before a keyboard reply: a focus stop just before form ``k`` (so that one Tab enters it as a
#: reader's would), focused; after it: the stop removed and the form's verdict.
KEY_START = """(k) => {
    const a = document.createElement('a');
    a.href = '#'; a.id = 'clf-sc-start'; a.textContent = 'start';
    document.querySelectorAll('form.clf-selfcheck')[k].before(a);
    a.focus();
    return document.activeElement === a;
}"""
KEY_VERDICT = """(k) => {
    document.getElementById('clf-sc-start').remove();
    const form = document.querySelectorAll('form.clf-selfcheck')[k];
    return [form.dataset.state ?? null, form.querySelector('.clf-sc-result').innerText];
}"""


def answer_by_keys(page, k: int, spec, right: bool) -> tuple[str | None, str]:
    """Tab into form ``k``, choose with the arrow keys or type, and submit with the keyboard;
    the page read in three evaluations, not a round trip per step (each round trip waits on a
    long chapter page)."""
    assert page.evaluate(KEY_START, k), "the focus stop took no focus"
    page.keyboard.press("Tab")
    reply = reply_for(spec, right)
    if spec.kind == "choice":
        # Tab enters the group on its checked radio, or its first one; arrows move and check
        current, checked = page.evaluate(
            "() => [Number(document.activeElement.value),"
            " document.activeElement.form.querySelector('input[type=radio]:checked') !== null]"
        )
        if not checked:
            page.keyboard.press("Space")
        for _ in range((reply - current) % len(spec.choices)):
            page.keyboard.press("ArrowDown")
        page.keyboard.press("Tab")
        chosen, focused = page.evaluate(
            "() => [Number(document.activeElement.form.querySelector("
            "'input[type=radio]:checked').value), document.activeElement.type]"
        )
        assert chosen == reply and focused == "submit", (chosen, reply, focused)
        page.keyboard.press("Enter")
    else:
        page.keyboard.press("Control+A")
        page.keyboard.type(reply)
        page.keyboard.press("Enter")  # Enter in a text field submits its form
    return tuple(page.evaluate(KEY_VERDICT, k))


def specs(source: Path) -> list:
    """The parsed self-checks of a MyST source, in page order (empty when it has none)."""
    sys.path.insert(0, str(EXT))
    import selfcheck

    return [selfcheck.parse(o, c) for _, o, c in selfcheck.read_blocks(source.read_text())]
