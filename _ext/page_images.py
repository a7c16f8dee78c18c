"""Images that cost a phone nothing before they are needed.

Once the pages are written, every local ``<img>`` gets its intrinsic ``width`` and
``height`` (read from the file: PNG header, SVG size or view box, else Pillow), so the
browser reserves its box before the image arrives and nothing shifts as it loads
(``book.css`` keeps ``height: auto`` so the box scales with the column). Every figure
(``_images/``) after the first of a page also gets ``loading="lazy"`` and
``decoding="async"``: the first may be the largest thing on screen and loads at once; the
rest, far below it, load as the reader scrolls to them. The theme's small icons keep their
default loading.
"""

from __future__ import annotations

import re
import struct
from pathlib import Path
from urllib.parse import unquote, urlsplit

IMG = re.compile(r"<img\b[^>]*>", re.IGNORECASE)
ATTR = re.compile(r'\s([a-zA-Z-]+)="([^"]*)"')
LENGTH = re.compile(r"^\s*([0-9.]+)\s*(px|pt)?\s*$")


def _svg_size(data: bytes) -> tuple[int, int] | None:
    head = data[:4000].decode("utf-8", "replace")
    tag = re.search(r"<svg\b[^>]*>", head)
    if not tag:
        return None
    attrs = dict(ATTR.findall(" " + tag.group(0)[4:]))
    width, height = (LENGTH.match(attrs.get(k, "")) for k in ("width", "height"))
    if width and height:
        scale = [4 / 3 if m.group(2) == "pt" else 1 for m in (width, height)]
        return round(float(width.group(1)) * scale[0]), round(float(height.group(1)) * scale[1])
    box = attrs.get("viewBox", "").replace(",", " ").split()
    if len(box) == 4:
        return round(float(box[2])), round(float(box[3]))
    return None


def image_size(path: Path) -> tuple[int, int] | None:
    """Intrinsic (width, height) in CSS pixels of a PNG, SVG or any image Pillow reads."""
    data = path.read_bytes()
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
        return struct.unpack(">II", data[16:24])
    if path.suffix.lower() == ".svg":
        return _svg_size(data)
    try:
        from PIL import Image

        with Image.open(path) as image:
            return image.size
    except Exception:  # not an image Pillow knows: leave the tag as it is
        return None


def sized_and_lazy(page_html: str, page_dir: Path) -> str:
    """``page_html`` with width, height and (after the first image) lazy loading added."""
    seen = 0

    def fix(match: re.Match) -> str:
        nonlocal seen
        tag = match.group(0)
        attrs = dict((k.lower(), v) for k, v in ATTR.findall(tag))
        src = attrs.get("src", "")
        if urlsplit(src).scheme or src.startswith(("//", "data:")):
            return tag
        figure = "_images/" in src  # the theme's icons (_static/) are not the page's figures
        seen += figure
        extra = []
        if "width" not in attrs and "height" not in attrs:
            file = (page_dir / unquote(urlsplit(src).path)).resolve()
            size = image_size(file) if file.is_file() else None
            if size:
                extra.append(f'width="{size[0]}" height="{size[1]}"')
        if figure and seen > 1 and "loading" not in attrs:
            extra.append('loading="lazy" decoding="async"')
        if not extra:
            return tag
        end = -2 if tag.endswith("/>") else -1
        return tag[:end].rstrip() + " " + " ".join(extra) + (" />" if end == -2 else ">")

    return IMG.sub(fix, page_html)


def _fix_images(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    for page in Path(app.outdir).rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        if "<img" not in text:
            continue
        fixed = sized_and_lazy(text, page.parent)
        if fixed != text:
            page.write_text(fixed, encoding="utf-8")


def setup(app):
    app.connect("build-finished", _fix_images)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
