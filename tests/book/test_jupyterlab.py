"""A chapter opened in JupyterLab reads like the page: a real JupyterLab in Chromium.

One JupyterLab server for the module, started from the venv (installed from the pinned
requirements, as Binder installs them) with the book's Jupyter configuration
(``binder/jupyter``: the default viewer and the contents manager), on 127.0.0.1 with a token,
serving a copy of the repository. Chromium loads JupyterLab once, from the link to a
chapter with an explorer (``lab/tree/chapters/01-....md``): that tab, its kernel started by
the link, runs first, and its explorer (ipywidgets) must appear.

Rendering a chapter costs seconds of CPU, quadratic in its markdown cells, so what is
checked where:

* every chapter, through the server's contents API (no rendering): it opens as a notebook
  through jupytext and the book's contents manager, with the Python kernel the server has,
  every cell of the chapter in order, each markdown cell rewritten for reading, a "Quick
  check" box for each self-check;
* every MyST construct of the book, rendered: the chapters of
  :func:`lab_constructs.lab_chapters` (a set cover over the constructs that the book's own
  parser finds in every chapter; ``tests/book/test_lab_constructs.py`` checks that it covers
  them all) are opened in the app by their path with JupyterLab's default viewer (the
  command the link runs, without starting a kernel: the markup renders without one). The
  test waits until every markdown cell of the tab is rendered, finds no raw MyST, no
  unknown directive and no "not found" or error mark of ``jupyterlab-myst`` in them, then
  closes the tab;
  every formula of those chapters must have become KaTeX;
* every other math expression, rendered (JupyterLab's KaTeX is not the page's, the book's):
  one notebook of one markdown cell holding each expression of the other chapters once, in
  its inline or display form: each must become KaTeX, none an error;
* a chapter's numbers (chapter 04, with a kernel): opened after a build of it (its
  execution cache, written by the test as ``jupyter-book build`` writes it), every glued
  number shows the build's value; after Run All, the kernel's, the same; no glue name shows
  in either. Its solutions and hidden checks are folded, and its explorer, with the file
  browser open in a 1,280 px window, fits the notebook (as the first chapter's does).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import nbformat
import pytest
from chapter_runner import ROOT, execute, notebook_pages, read_notebook
from lab_constructs import (
    EXPLORER_CHAPTER,
    book_cells,
    code_blocks,
    fragments_markdown,
    lab_chapters,
    math_expressions,
)

pytestmark = pytest.mark.jupyterlab

JUPYTER_LAB = Path(sys.executable).parent / "jupyter-lab"
COPY_IGNORE = shutil.ignore_patterns(
    ".git", ".venv", "_build", ".pytest_cache", ".ruff_cache", ".hypothesis", "*.egg-info"
)
#: JupyterLab starts in seconds on an idle machine; the other xdist worker may starve it.
START_TIMEOUT = 300
PAGE_TIMEOUT_MS = 240_000
CHAPTERS = [p.relative_to(ROOT).as_posix() for p in notebook_pages()]
EXPLORER_CELL = "explorer = confusion_matrix_explorer(m, LABELS)"
#: The chapter whose numbers are read before and after Run All, and its explorer's cell.
NUMBERS_CHAPTER = "chapters/04-two-macro-f1.md"
NUMBERS_EXPLORER = "f1_explorer"

#: Raw MyST a reader must never see in a rendered markdown cell.
RAW = {
    "directive fence": re.compile(r"^\s*(`{3,}|:{3,})\{"),
    "role": re.compile(r"\{[a-z]+(?::[a-z]+)*\}`?"),
    "label target": re.compile(r"^\s*\([\w:.-]+\)=\s*$"),
    "label option": re.compile(r":label:"),
    # jupyterlab-myst's box for a directive or role it does not know (text, no title)
    "unknown": re.compile(r" - Unknown (Directive|Role)"),
}

#: True once the app has opened the file its URL names (``lab/tree/<path>``).
APP_JS = """path => !!window.jupyterapp
  && [...window.jupyterapp.shell.widgets('main')].some(w => w.context?.path === path)"""

#: Opens a file as ``lab/tree/<path>`` does: that route runs the file browser's
#: ``filebrowser:open-path``, which runs ``docmanager:open`` with no factory, that is
#: ``openOrReveal`` with the default viewer (as a double-click in the file browser does).
#: With ``kernel`` false, ``docmanager:open`` is run directly, still with no factory (the
#: same default viewer), and the kernel preference ``shouldStart: false``: the markup
#: renders without a kernel, and starting one per chapter only to shut it down again was
#: most of this module's CPU (the explorer test opens its chapter the reader's way).
#: Returns the tab's id and whether it is a notebook (a text editor is the wrong viewer).
OPEN_JS = """async ([path, kernel]) => {
  const widget = await (kernel
    ? window.jupyterapp.commands.execute('filebrowser:open-path', {path, dontShowBrowser: true})
    : window.jupyterapp.commands.execute(
        'docmanager:open', {path, kernelPreference: {shouldStart: false}}));
  if (widget?.context?.path !== path) throw new Error(`${path} did not open`);
  return {id: widget.id, notebook: widget.hasClass('jp-NotebookPanel'), title: widget.title.label};
}"""

#: Closes a tab and shuts its kernel down (closing a notebook keeps its kernel by default).
CLOSE_JS = """async id => {
  const widget = [...window.jupyterapp.shell.widgets('main')].find(w => w.id === id);
  if (!widget) return;
  const session = widget.sessionContext;
  const waited = new Promise(done => setTimeout(done, 10000));
  await Promise.race([session?.ready.catch(() => {}), waited]);
  await session?.shutdown().catch(() => {});
  widget.dispose();
}"""

#: True once the tab's kernel is up and idle (Run All before that skips every cell).
IDLE_JS = """id => [...window.jupyterapp.shell.widgets('main')]
  .find(w => w.id === id)?.sessionContext.session?.kernel?.status === 'idle'"""

#: Runs the chapter down to its explorer, as a reader who selects the explorer's cell, runs
#: every cell above it, then that cell: the cells below (exercises, the page version) would
#: only keep the kernel busy while the test looks at the widget.
RUN_TO_JS = """async ([id, text]) => {
  const panel = [...window.jupyterapp.shell.widgets('main')].find(w => w.id === id);
  const index = panel.content.widgets.findIndex(
    cell => cell.model.type === 'code' && cell.model.sharedModel.getSource().includes(text));
  if (index < 0) throw new Error(`no code cell holds ${text}`);
  window.jupyterapp.shell.activateById(id);
  panel.content.activeCellIndex = index;
  await window.jupyterapp.commands.execute('notebook:run-all-above');
  await window.jupyterapp.commands.execute('notebook:run-cell');
}"""

#: Text of every markdown cell of one tab as the reader sees it (the hidden editor, the
#: prompt and KaTeX's MathML copy removed), jupyterlab-myst's warnings ("Citation Not
#: Found", "Cross Reference Not Found", unknown roles, "Undefined control sequence" of a
#: formula KaTeX refused), the number of formulas KaTeX rendered and the text of each code
#: block.
CELLS_JS = """id => [...document.getElementById(id).querySelectorAll('.jp-MarkdownCell')]
  .map(cell => {
    const area = cell.querySelector('.jp-Cell-inputArea');
    const clone = area.cloneNode(true);
    clone.querySelectorAll('.jp-InputArea-editor, .jp-InputPrompt, .katex-mathml')
      .forEach(e => e.remove());
    const warnings = [...area.querySelectorAll('[title]')]
      .filter(e => /not found|unknown|error|undefined/i.test(e.title))
      .map(e => `${e.title}: ${e.innerText.trim()}`);
    const code = [...area.querySelectorAll('.myst pre')].map(pre => pre.innerText);
    return {text: clone.innerText, warnings, katex: area.querySelectorAll('.katex').length, code};
  })"""

#: True once the tab is a notebook with its n markdown cells, all rendered. A text editor
#: (the wrong default viewer) shows no cells at all, so this checks the viewer too.
RENDERED_JS = """([id, n]) => {
  const cells = document.getElementById(id)
    ?.querySelectorAll('.jp-Notebook .jp-MarkdownCell') || [];
  return cells.length === n && [...cells].every(cell =>
    cell.querySelector('.jp-InputArea-editor.lm-mod-hidden')
    && cell.querySelector('.myst, .jp-RenderedMarkdown'));
}"""

#: Resolves once the tab has not changed for a second (the notebook-wide pass of
#: jupyterlab-myst, which resolves references, runs after the cells render), or after 30 s.
QUIET_JS = """id => new Promise(resolve => {
  let last = Date.now();
  const seen = new MutationObserver(() => { last = Date.now(); });
  seen.observe(document.getElementById(id),
    {subtree: true, childList: true, characterData: true});
  const start = Date.now();
  const check = () => (Date.now() - last > 1000 || Date.now() - start > 30000)
    ? (seen.disconnect(), resolve(true)) : setTimeout(check, 200);
  setTimeout(check, 200);
})"""


#: Every markdown cell of a tab: its text as the reader sees it (as CELLS_JS) and the
#: ``user_expressions`` metadata jupyterlab-myst renders its inline expressions from.
EXPRESSIONS_JS = """id => [...window.jupyterapp.shell.widgets('main')].find(w => w.id === id)
  .content.widgets.filter(cell => cell.model.type === 'markdown').map(cell => {
    const clone = cell.node.querySelector('.jp-Cell-inputArea').cloneNode(true);
    clone.querySelectorAll('.jp-InputArea-editor, .jp-InputPrompt, .katex-mathml')
      .forEach(e => e.remove());
    return {text: clone.innerText, expressions: cell.model.getMetadata('user_expressions') || []};
  })"""

#: True once Run All is done: the kernel idle, every code cell run, and every inline
#: expression the kernel's (the contents manager's stand-ins carry ``metadata.clfbook``).
RAN_JS = """id => {
  const panel = [...window.jupyterapp.shell.widgets('main')].find(w => w.id === id);
  const cells = panel.content.widgets;
  return panel.sessionContext.session?.kernel?.status === 'idle'
    && cells.every(c => c.model.type !== 'code' || c.model.executionCount !== null)
    && cells.every(c => c.model.type !== 'markdown'
      || (c.model.getMetadata('user_expressions') || []).every(e => !e.result.metadata?.clfbook));
}"""

#: Tags -> (input hidden, outputs hidden) of every code cell of a tab that has tags.
FOLDED_JS = """id => [...window.jupyterapp.shell.widgets('main')].find(w => w.id === id)
  .content.widgets.filter(c => c.model.type === 'code' && c.model.getMetadata('tags'))
  .map(c => ({tags: c.model.getMetadata('tags'), input: c.inputHidden, output: c.outputHidden}))"""

#: What of the explorer in a cell's output (the first cell holding ``text`` with widget
#: inputs) reaches past the notebook's right edge or the box it sits in, with the file
#: browser open: each a class name and its right edge; null without such a cell.
OVERFLOW_JS = """([id, text]) => {
  window.jupyterapp.shell.activateById('filebrowser');
  const panel = [...window.jupyterapp.shell.widgets('main')].find(w => w.id === id);
  const cell = panel.content.widgets.find(
    c => c.model.type === 'code' && c.model.sharedModel.getSource().includes(text)
      && c.node.querySelector('.jp-OutputArea .jupyter-widgets input'));
  if (!cell) return null;
  const area = cell.node.querySelector('.jp-OutputArea');
  const edge = panel.content.node.getBoundingClientRect().right;
  // the notebook's edge, and the box each sits in (a grid's column clips what overflows it)
  const limit = e => Math.min(edge,
    e.parentElement.closest('.widget-box')?.getBoundingClientRect().right ?? edge);
  return [...area.querySelectorAll('.jupyter-widgets, input, img')]
    .filter(e => e.getBoundingClientRect().width > 0)
    .filter(e => e.getBoundingClientRect().right > limit(e) + 1)
    .map(e => `${e.className || e.tagName}: ${Math.round(e.getBoundingClientRect().right)}`
      + ` > ${Math.round(limit(e))}`);
}"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _api(base: str, token: str, path: str, method: str = "GET", body=None):
    request = urllib.request.Request(
        f"{base}{path}",
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"token {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        text = response.read().decode()
    return json.loads(text) if text else None


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab on a copy of the repository, configured as Binder configures it."""
    tmp = tmp_path_factory.mktemp("jupyterlab")
    repo = tmp / "repo"
    shutil.copytree(ROOT, repo, ignore=COPY_IGNORE)
    user = tmp / "user-config"  # the reader's own ~/.jupyter: empty but for two test needs
    notebook_settings = user / "lab" / "user-settings" / "@jupyterlab" / "notebook-extension"
    notebook_settings.mkdir(parents=True)
    # Render every cell at once. JupyterLab 4.6's default, "contentVisibility", attaches
    # every cell too (the same text), but rendering these chapters that way costs Chromium
    # much more CPU.
    (notebook_settings / "tracker.jupyterlab-settings").write_text('{"windowingMode": "none"}')
    token, port = secrets.token_hex(16), _free_port()
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(user),
        "JUPYTER_CONFIG_PATH": str(repo / "binder" / "jupyter"),
        "JUPYTER_RUNTIME_DIR": str(tmp / "runtime"),
        "PYTHONPATH": os.pathsep.join(
            filter(None, [str(repo / "src"), os.environ.get("PYTHONPATH")])
        ),
    }
    command = [
        str(JUPYTER_LAB),
        "--no-browser",
        "--ip=127.0.0.1",
        f"--port={port}",
        "--port-retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={repo}",
        "--LabApp.news_url=",
        "--LabServerApp.extension_manager=readonly",
        "--LabApp.expose_app_in_browser=True",  # window.jupyterapp, to run its commands
        *(["--allow-root"] if os.geteuid() == 0 else []),
    ]
    log = open(tmp / "lab.log", "w")
    server = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        assert server.poll() is None, (tmp / "lab.log").read_text()[-4000:]
        try:
            _api(base, token, "/api/status")
            break
        except OSError:
            assert time.monotonic() < deadline, "JupyterLab did not start"
            time.sleep(1)
    yield {"base": base, "token": token, "repo": repo, "log": tmp / "lab.log"}
    server.terminate()
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
    log.close()


def _route(route):
    """JupyterLab needs nothing from outside; the sandbox is offline anyway."""
    if route.request.url.startswith("http://127.0.0.1:"):
        return route.continue_()
    return route.abort()


def _shut_down_kernels(lab):
    for session in _api(lab["base"], lab["token"], "/api/sessions"):
        _api(lab["base"], lab["token"], f"/api/sessions/{session['id']}", method="DELETE")


@pytest.fixture(scope="module")
def app(browser, lab):
    """One JupyterLab page for the module; each test opens its chapter in it by its path.

    Loading JupyterLab takes seconds of CPU; the app a test then opens a chapter in is the
    one the reader has after following a link to a chapter (``?reset``: a fresh workspace).
    """
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(PAGE_TIMEOUT_MS)
    page = context.new_page()
    page.route("**/*", _route)
    page.goto(f"{lab['base']}/lab/tree/{EXPLORER_CHAPTER}?reset&token={lab['token']}")
    page.wait_for_function(APP_JS, arg=EXPLORER_CHAPTER, polling=500)
    yield page
    context.close()


@contextmanager
def _chapter(app, lab, path: str, *, kernel: bool = True, close: bool = True):
    """The tab of a chapter opened by its path; closed afterwards, its kernel shut down.

    A chapter still open is revealed (as the link's command does), not opened again. With
    ``close`` false the tab stays open (its kernel is still shut down).
    """
    tab = app.evaluate(OPEN_JS, [path, kernel])
    try:
        assert tab["notebook"], f"{path} opens in {tab['title']!r}, not as a notebook"
        yield tab["id"]
    finally:
        if close:
            app.evaluate(CLOSE_JS, tab["id"])
        _shut_down_kernels(lab)


def test_explorer_comes_alive_in_the_kernel(app, lab):
    """First in the module: the tab the app's link opened (its kernel started) is the one.

    The tab stays open, its kernel shut down: the markup check of the same chapter then reads
    the tab the reader's link opened instead of rendering the chapter a second time.
    """
    with _chapter(app, lab, EXPLORER_CHAPTER, close=False) as tab:
        panel = app.locator(f"[id='{tab}']")
        panel.locator(".jp-Notebook .jp-CodeCell").first.wait_for()
        app.wait_for_function(IDLE_JS, arg=tab, polling=500)
        app.evaluate(RUN_TO_JS, [tab, EXPLORER_CELL])
        cell = panel.locator(".jp-CodeCell", has_text=EXPLORER_CELL)
        cell.locator(".jp-OutputArea .jupyter-widgets").first.wait_for(state="visible")
        assert cell.locator(".jp-OutputArea input").count() > 0, "the explorer has no inputs"
        _assert_fits(app, tab, EXPLORER_CELL)


def _assert_fits(app, tab: str, text: str) -> None:
    """The explorer in the cell holding ``text`` fits the notebook beside the file browser."""
    app.wait_for_timeout(500)  # the file browser opens and the notebook narrows
    overflow = app.evaluate(OVERFLOW_JS, [tab, text])
    assert overflow is not None, f"no explorer with inputs in a cell holding {text!r}"
    assert app.viewport_size["width"] == 1280
    assert not overflow, "the explorer reaches past the notebook:\n" + "\n".join(overflow[:10])


def _rendered(app, lab, path: str, markdown_cells: int) -> tuple[list[str], list[dict]]:
    """Open ``path`` with the default viewer, no kernel; what its rendered markdown shows
    that a reader must never see: raw MyST, ``jupyterlab-myst``'s not-found and error marks.
    Also returns the cells (their text and marks)."""
    with _chapter(app, lab, path, kernel=False) as tab:
        app.wait_for_function(RENDERED_JS, arg=[tab, markdown_cells], polling=250)
        app.evaluate(QUIET_JS, tab)
        cells = app.evaluate(CELLS_JS, tab)
    problems = []
    for index, cell in enumerate(cells):
        for line in cell["text"].splitlines():
            problems += [
                f"cell {index}: {kind}: {line[:120]}"
                for kind, pattern in RAW.items()
                if pattern.search(line)
            ]
        problems += [f"cell {index}: warning: {w}" for w in cell["warnings"]]
    return problems, cells


def test_the_rendered_chapters_read_like_the_page(app, lab):
    """The chapters that together hold every construct of the book, rendered and read.

    The set is computed when the test runs (:func:`lab_constructs.lab_chapters`, the
    explorer's chapter first: its tab is open already), not at collection, which every
    worker does; each chapter's problems are gathered before the test fails.
    """
    failures = []
    for path in lab_chapters(EXPLORER_CHAPTER):
        expected = len(book_cells()[path])  # its markdown cells, as JupyterLab gets them
        problems, cells = _rendered(app, lab, path, expected)
        shown = "\n".join(cell["text"] for cell in cells)
        if shown.count("Quick check") < (ROOT / path).read_text().count("{selfcheck}"):
            problems.append("a quick self-check is missing")
        formulas = len(math_expressions(book_cells()[path]))
        if sum(cell["katex"] for cell in cells) != formulas:
            problems.append(f"not all of its {formulas} formulas became KaTeX")
        failures += [f"{path}: {p}" for p in problems[:20]]
    assert not failures, "in JupyterLab:\n" + "\n".join(failures)


def test_every_formula_and_code_block_renders(app, lab):
    """Each math expression and code block of the chapters not rendered whole, once, in one
    cell: every formula KaTeX (none an error), every code block a block showing its code.

    JupyterLab's KaTeX is not the one the book builds with (nor has its macros), so a
    chapter left out of the rendered set still has its formulas rendered here (those of the
    rendered chapters were, in place); a code block of the text means the same wherever it stands
    (``lab_constructs.FRAGMENTS``). One cell costs one notebook-wide pass of
    ``jupyterlab-myst``.
    """
    cells, rendered = book_cells(), lab_chapters(EXPLORER_CHAPTER)
    others = [c for c in CHAPTERS if c not in rendered]
    expressions = {e for c in others for e in math_expressions(cells[c])} - {
        e for c in rendered for e in math_expressions(cells[c])
    }
    blocks = {b for c in CHAPTERS for b in code_blocks(cells[c])}
    assert len(expressions) > 100 and blocks
    path = "fragments-of-the-other-chapters.ipynb"
    cell = nbformat.v4.new_markdown_cell(fragments_markdown(expressions, blocks))
    nbformat.write(nbformat.v4.new_notebook(cells=[cell]), lab["repo"] / path)
    problems, shown = _rendered(app, lab, path, 1)
    assert not problems, "math and code in JupyterLab:\n" + "\n".join(problems[:40])
    assert shown[0]["katex"] == len(expressions), "an expression did not become KaTeX"
    shown_code = sorted(text.strip() for text in shown[0]["code"])
    assert shown_code == sorted(text.strip() for _, text in blocks), "a code block is not one"


def _glue_names(path: str) -> set[str]:
    return set(re.findall(r"\{glue(?::\w+)?\}`([^`:]+)", (ROOT / path).read_text()))


def _numbers(cells: list[dict]) -> dict[str, str]:
    """Inline expression -> the text the reader sees for it (its results' text)."""
    return {
        e["expression"]: e["result"]["data"]["text/plain"].strip("'\"")
        for cell in cells
        for e in cell["expressions"]
    }


def _glue_names_shown(cells: list[dict], names: set[str]) -> list[str]:
    return sorted(n for n in names for cell in cells if n in cell["text"])


def test_a_chapter_shows_its_numbers_before_and_after_run_all(app, lab):
    """Chapter 04 after a build of it: the build's numbers, then Run All: the kernel's.

    The build is the chapter executed here into ``_build/.jupyter_cache`` of the server's
    copy, as ``jupyter-book build`` leaves it (the contents manager matches it on the code).
    """
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn

    chapter = lab["repo"] / NUMBERS_CHAPTER
    cache = get_cache(str(lab["repo"] / "_build" / ".jupyter_cache"))
    executed = execute(chapter)
    for cell in executed.cells:  # the build records no timing (the cache hashes metadata)
        cell.metadata.pop("execution", None)
    # check_validity off, as the build: the explorer's skip-execution cell has no count
    bundle = CacheBundleIn(executed, str(chapter))
    cache.cache_notebook_bundle(bundle, check_validity=False)
    names = _glue_names(NUMBERS_CHAPTER)
    assert len(names) >= 10
    with _chapter(app, lab, NUMBERS_CHAPTER) as tab:
        expected = len(book_cells()[NUMBERS_CHAPTER])
        app.wait_for_function(RENDERED_JS, arg=[tab, expected], polling=250)
        app.evaluate(QUIET_JS, tab)
        before = app.evaluate(EXPRESSIONS_JS, tab)
        built = _numbers(before)
        assert len(built) >= len(names), "a glue role did not become an inline expression"
        kinds = {e["result"]["metadata"].get("clfbook") for c in before for e in c["expressions"]}
        assert kinds == {"build"}, f"not every number is the build's: {kinds}"
        assert not _glue_names_shown(before, names), _glue_names_shown(before, names)
        for number in {built[e] for e in built}:
            assert any(number in c["text"] for c in before), f"{number} is not shown"

        folded = app.evaluate(FOLDED_JS, tab)
        for cell in folded:
            if {"solution", "remove-cell"} & set(cell["tags"]):
                assert cell["input"] and cell["output"], f"{cell['tags']} is not folded"
            if "hide-input" in cell["tags"]:
                assert cell["input"] and not cell["output"], f"{cell['tags']} is not folded"
        assert any("solution" in c["tags"] for c in folded)

        app.wait_for_function(IDLE_JS, arg=tab, polling=500)
        started = time.monotonic()
        app.evaluate(
            """id => { window.jupyterapp.shell.activateById(id);
              return window.jupyterapp.commands.execute('notebook:run-all-cells'); }""",
            tab,
        )
        app.wait_for_function(RAN_JS, arg=tab, polling=500)
        app.evaluate(QUIET_JS, tab)
        ran = time.monotonic() - started
        after = app.evaluate(EXPRESSIONS_JS, tab)
        assert not _glue_names_shown(after, names), _glue_names_shown(after, names)
        assert _numbers(after) == built, (
            f"the kernel's numbers differ from the build's ({ran:.0f} s)"
        )
        _assert_fits(app, tab, NUMBERS_EXPLORER)


def test_every_chapter_opens_as_a_notebook(lab):
    """Every chapter, through the server (no rendering): a notebook through jupytext and the
    book's contents manager, with a kernel the server has, every cell in order, each markdown
    cell as the rendered chapters' (rewritten for reading), a box for each self-check."""
    kernels = _api(lab["base"], lab["token"], "/api/kernelspecs")["kernelspecs"]
    for path in CHAPTERS:
        model = _api(lab["base"], lab["token"], f"/api/contents/{path}?type=notebook")
        assert model["type"] == "notebook", path
        notebook = model["content"]
        assert notebook["metadata"]["kernelspec"]["name"] in kernels, path
        source = read_notebook(ROOT / path)
        assert [c["cell_type"] for c in notebook["cells"]] == [c.cell_type for c in source.cells], (
            path
        )
        code = [c["source"] for c in notebook["cells"] if c["cell_type"] == "code"]
        assert code == [c.source for c in source.cells if c.cell_type == "code"], path
        markdown = [c["source"] for c in notebook["cells"] if c["cell_type"] == "markdown"]
        assert markdown == book_cells()[path], path
        boxes = sum(s.count("{admonition} Quick check") for s in markdown)
        assert boxes == (ROOT / path).read_text().count("{selfcheck}"), path


def test_saving_a_chapter_keeps_its_markup(lab):
    """What JupyterLab shows is rewritten for reading; saving writes the chapter's MyST back.

    (Jupytext may re-wrap a code cell's YAML options when it writes the file; the markdown,
    which the rewrite touches, must come back exactly.)
    """
    path = "chapters/04-two-macro-f1.md"
    before = read_notebook(lab["repo"] / path)
    model = _api(lab["base"], lab["token"], f"/api/contents/{path}?type=notebook")
    shown = "\n".join(c["source"] for c in model["content"]["cells"])
    assert "{cite}" in (lab["repo"] / path).read_text() and "{cite}" not in shown
    body = {"type": "notebook", "format": "json", "content": model["content"]}
    _api(lab["base"], lab["token"], f"/api/contents/{path}", method="PUT", body=body)
    after = read_notebook(lab["repo"] / path)
    assert [c.source for c in after.cells] == [c.source for c in before.cells]
    assert not any("clfmetrics" in json.dumps(c.metadata) for c in after.cells)
