"""MathJax served from the book's own site, so that a saved or offline copy shows its math.

Sphinx loads MathJax from a CDN by default: offline, or from ``file://``, every formula stays
raw TeX. ``mathjax_path`` in ``_config.yml`` points at ``_static/mathjax/tex-mml-chtml.js``
instead (a path relative to ``_static``), and this extension copies MathJax 3 there from the
``django-static-mathjax`` wheel (a dependency of the book): the combined component the pages
load, and every file it may load later. That is the lazy typesetting the book configures
(``ui/lazy``), the CHTML fonts, the TeX extensions that ``autoload`` fetches when a formula
uses one, and what the formula menu loads on request (the accessibility extensions and their
speech rules, the SVG renderer). The other combined components are left out.
"""

from __future__ import annotations

import shutil
from pathlib import Path

#: The combined component of the pages (Sphinx's default, the CDN's same file).
COMPONENT = "tex-mml-chtml.js"
#: The folders of ``es5`` that the component loads from at run time.
FOLDERS = ("a11y", "adaptors", "input", "output", "sre", "ui")


def mathjax_source() -> Path:
    """The MathJax 3 ``es5`` folder of the ``django-static-mathjax`` wheel."""
    try:
        import mathjax
    except ImportError as error:  # a clear message, not a build with raw TeX
        raise RuntimeError(
            "the book serves MathJax itself: install django-static-mathjax "
            "(pyproject.toml's book group)"
        ) from error
    return Path(mathjax.__file__).parent / "static" / "mathjax" / "es5"


def copy_mathjax(target: Path, source: Path | None = None) -> None:
    """Copy the component and the folders it loads from into ``target``."""
    source = source or mathjax_source()
    target.mkdir(parents=True, exist_ok=True)
    shutil.copy2(source / COMPONENT, target / COMPONENT)
    for folder in FOLDERS:
        shutil.copytree(source / folder, target / folder, dirs_exist_ok=True)


def _local_folder(app) -> str | None:
    """The folder under ``_static`` that ``mathjax_path`` names, or None for a URL."""
    path = str(app.config.mathjax_path)
    if "://" in path or path.startswith("/"):
        return None
    if Path(path).name != COMPONENT:
        raise RuntimeError(f"mathjax_path must name {COMPONENT}; got {path!r}")
    return str(Path(path).parent)


def _check(app, config) -> None:
    if _local_folder(app) is not None:
        mathjax_source()  # fail at the start of the build, not after every page is written


def _copy(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    folder = _local_folder(app)
    if folder is not None:
        copy_mathjax(Path(app.outdir) / "_static" / folder)


def setup(app):
    app.connect("config-inited", _check)
    app.connect("build-finished", _copy)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
