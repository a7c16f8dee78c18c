"""A chapter opened in JupyterLab reads like the page: a real JupyterLab in Chromium.

One JupyterLab server for the module, started from the venv (installed from the pinned
requirements, as Binder installs them) with the book's Jupyter configuration
(``binder/jupyter``: the default viewer and the contents manager), on 127.0.0.1 with a token,
serving a copy of the repository. Chromium opens every chapter by its path
(``lab/tree/chapters/NN-....md``), that is with JupyterLab's default viewer, waits until
every markdown cell is rendered, and finds no raw MyST and no "not found" warning of
``jupyterlab-myst`` in them. One chapter is then run in its kernel, and its explorer
(ipywidgets) must appear.
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
from pathlib import Path

import pytest
from chapter_runner import ROOT, notebook_pages, read_notebook

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("jupyterlab")]

JUPYTER_LAB = Path(sys.executable).parent / "jupyter-lab"
COPY_IGNORE = shutil.ignore_patterns(
    ".git", ".venv", "_build", ".pytest_cache", ".ruff_cache", ".hypothesis", "*.egg-info"
)
#: JupyterLab starts in seconds on an idle machine; the other xdist worker may starve it.
START_TIMEOUT = 300
PAGE_TIMEOUT_MS = 240_000
CHAPTERS = [p.relative_to(ROOT).as_posix() for p in notebook_pages()]
EXPLORER_CHAPTER = "chapters/01-confusion-matrix.md"

#: Raw MyST a reader must never see in a rendered markdown cell.
RAW = {
    "directive fence": re.compile(r"^\s*(`{3,}|:{3,})\{"),
    "role": re.compile(r"\{[a-z]+(?::[a-z]+)*\}`?"),
    "label target": re.compile(r"^\s*\([\w:.-]+\)=\s*$"),
    "label option": re.compile(r":label:"),
}

#: Text of every markdown cell as the reader sees it (the hidden editor, the prompt and
#: KaTeX's MathML copy removed), whether it is rendered, and jupyterlab-myst's warnings
#: ("Citation Not Found", "Cross Reference Not Found", unknown directives and roles).
CELLS_JS = """() => [...document.querySelectorAll('.jp-Notebook .jp-MarkdownCell')].map(cell => {
  const area = cell.querySelector('.jp-Cell-inputArea');
  const rendered = !!cell.querySelector('.jp-InputArea-editor.lm-mod-hidden')
    && !!area.querySelector('.myst, .jp-RenderedMarkdown');
  const clone = area.cloneNode(true);
  clone.querySelectorAll('.jp-InputArea-editor, .jp-InputPrompt, .katex-mathml')
    .forEach(e => e.remove());
  const warnings = [...area.querySelectorAll('[title]')]
    .filter(e => /not found|unknown|error/i.test(e.title))
    .map(e => `${e.title}: ${e.innerText.trim()}`);
  return {rendered, text: clone.innerText, warnings};
})"""

#: True once the notebook has its n markdown cells, all rendered. A text editor (the wrong
#: default viewer) shows no cells at all, so this waits for the notebook view too.
RENDERED_JS = """n => {
  const cells = document.querySelectorAll('.jp-Notebook .jp-MarkdownCell');
  return cells.length === n && [...cells].every(cell =>
    cell.querySelector('.jp-InputArea-editor.lm-mod-hidden')
    && cell.querySelector('.myst, .jp-RenderedMarkdown'));
}"""

#: Resolves once the page has not changed for a second (the notebook-wide pass of
#: jupyterlab-myst, which resolves references, runs after the cells render), or after 30 s.
QUIET_JS = """() => new Promise(resolve => {
  let last = Date.now();
  const seen = new MutationObserver(() => { last = Date.now(); });
  seen.observe(document.body, {subtree: true, childList: true, characterData: true});
  const start = Date.now();
  const check = () => (Date.now() - last > 1000 || Date.now() - start > 30000)
    ? (seen.disconnect(), resolve(true)) : setTimeout(check, 200);
  setTimeout(check, 200);
})"""


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
    # Render every cell at once (JupyterLab renders only the visible ones by default).
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


def _open(browser, lab, path: str):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(PAGE_TIMEOUT_MS)
    page = context.new_page()
    page.route("**/*", _route)
    # ?reset: a fresh workspace, so the tab is the one this URL opens and nothing restored.
    page.goto(f"{lab['base']}/lab/tree/{path}?reset&token={lab['token']}")
    return context, page


def _shut_down_kernels(lab):
    for session in _api(lab["base"], lab["token"], "/api/sessions"):
        _api(lab["base"], lab["token"], f"/api/sessions/{session['id']}", method="DELETE")


@pytest.mark.parametrize("path", CHAPTERS, ids=[Path(p).stem for p in CHAPTERS])
def test_chapter_reads_like_the_page(browser, lab, path):
    expected = sum(c.cell_type == "markdown" for c in read_notebook(ROOT / path).cells)
    selfchecks = (ROOT / path).read_text().count("{selfcheck}")
    context, page = _open(browser, lab, path)
    try:
        # The default viewer is the notebook: a text editor would show no cells at all.
        page.wait_for_function(RENDERED_JS, arg=expected, polling=500)
        page.evaluate(QUIET_JS)
        cells = page.evaluate(CELLS_JS)
    finally:
        context.close()
        _shut_down_kernels(lab)
    problems = []
    for index, cell in enumerate(cells):
        for line in cell["text"].splitlines():
            problems += [
                f"cell {index}: {kind}: {line[:120]}"
                for kind, pattern in RAW.items()
                if pattern.search(line)
            ]
        problems += [f"cell {index}: warning: {w}" for w in cell["warnings"]]
    assert not problems, f"{path} in JupyterLab:\n" + "\n".join(problems[:40])
    shown = "\n".join(cell["text"] for cell in cells)
    assert shown.count("Quick check") >= selfchecks, "a quick self-check is missing"


def test_explorer_comes_alive_in_the_kernel(browser, lab):
    context, page = _open(browser, lab, EXPLORER_CHAPTER)
    try:
        page.wait_for_selector(".jp-Notebook .jp-CodeCell")
        # Run All before the kernel is up skips every cell: wait for "Python 3 ... | Idle".
        page.wait_for_function(
            "() => /Idle/.test(document.querySelector('#jp-main-statusbar')?.innerText || '')",
            polling=500,
        )
        page.get_by_role("menuitem", name="Run", exact=True).click()
        page.get_by_text("Run All Cells", exact=True).click()
        cell = page.locator(".jp-CodeCell", has_text="confusion_matrix_explorer(m, LABELS)")
        widget = cell.locator(".jp-OutputArea .jupyter-widgets").first
        widget.wait_for(state="visible")
        assert cell.locator(".jp-OutputArea input").count() > 0, "the explorer has no inputs"
    finally:
        context.close()
        _shut_down_kernels(lab)


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
