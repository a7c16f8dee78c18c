"""Keep the hidden checks of the exercises out of everything the book publishes.

A graded exercise ends with a code cell tagged ``hidden-check`` and ``remove-cell``: it runs
when the book is built and is not shown on the page. The page is not all that is published,
though: Sphinx copies each chapter's ``.md`` source to ``_sources/`` and the theme copies the
executed ``.ipynb`` there too, both offered by the page's download button. Once the build has
finished, every cell tagged ``hidden-check`` is cut out of those copies (the repository, which
the book links to, still holds them: see ``chapters/teaching.md``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

TAG = "hidden-check"

#: A MyST code cell: its opening fence, its options, its body, its closing fence.
_CODE_CELL = re.compile(
    r"^(?P<fence>`{3,})\{code-cell\}[^\n]*\n(?P<body>.*?)^(?P=fence)[ \t]*\n?",
    re.M | re.S,
)


def _tagged(options: str) -> bool:
    """Whether a code cell's options (``:tags: [...]`` or a YAML block) carry the tag."""
    return re.search(rf"(^|[\s\[,'\"-]){re.escape(TAG)}([\s\],'\"]|$)", options) is not None


def strip_markdown(text: str) -> str:
    """A MyST notebook's text without its ``hidden-check`` code cells."""

    def cut(match: re.Match) -> str:
        body = match["body"]
        if body.startswith("---\n"):
            options = body.split("\n---", 1)[0]
        else:
            options = "\n".join(re.findall(r"^:[\w-]+:.*$", body, re.M))
        return "" if _tagged(options) else match[0]

    return _CODE_CELL.sub(cut, text)


def strip_notebook(text: str) -> str:
    """An ``.ipynb`` file's JSON without the cells tagged ``hidden-check``."""
    nb = json.loads(text)
    nb["cells"] = [
        cell for cell in nb.get("cells", []) if TAG not in cell.get("metadata", {}).get("tags", [])
    ]
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def _is_notebook(text: str) -> bool:
    """A MyST page is a notebook when its front matter declares a kernelspec."""
    return text.startswith("---") and "kernelspec:" in text.split("---", 2)[1]


def strip_published(outdir: Path) -> list[Path]:
    """Cut hidden checks from every ``.md`` and ``.ipynb`` under ``outdir``; the changed files."""
    changed = []
    for path in sorted(Path(outdir).rglob("*")):
        if path.suffix not in (".md", ".ipynb") or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        if TAG not in text:
            continue
        if path.suffix == ".md" and not _is_notebook(text):
            continue  # a page that only shows the markup (teaching.md's example)
        new = strip_notebook(text) if path.suffix == ".ipynb" else strip_markdown(text)
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(path)
    return changed


def _build_finished(app, exception) -> None:
    if exception is None and app.builder.format == "html":
        strip_published(Path(app.outdir))


def setup(app):
    app.connect("build-finished", _build_finished)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
