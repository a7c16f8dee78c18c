"""The theme's icon fonts cut down to the icons the book shows.

The pages draw the theme's icons (search, menu, theme switch, download, GitHub, ...) with the
Font Awesome fonts its stylesheet declares (``page_head.py`` drops ``fontawesome.js``). Those
fonts hold every Font Awesome icon: ``fa-solid-900.woff2`` 156 kB and ``fa-brands-400.woff2``
118 kB, for about twenty icons, and a page asks for both as soon as it lays out its header.
On a phone's connection (Lighthouse's slow 4G, 1.6 Mbit/s) they were the largest files a
chapter loads before it is complete, larger than the chapter's own HTML.

When the HTML build ends, this extension collects every ``fa-NAME`` class of the built
pages' elements and of the site's scripts, looks each up in the theme's stylesheet
(``.fa-NAME:before{content:"\\f185"}``, aliases included) and rewrites each font of
``_static`` with fontTools' subsetter (``pyftsubset``'s library; WOFF2 through ``brotli``),
keeping those glyphs only.
An icon missing from the stylesheet is an error, not a blank square: the build stops.
"""

from __future__ import annotations

import re
from pathlib import Path

#: Where the theme's fonts and stylesheet are in the built site.
WEBFONTS = Path("_static") / "vendor" / "fontawesome" / "webfonts"
STYLESHEET = Path("_static") / "styles" / "pydata-sphinx-theme.css"
#: A Font Awesome class that names an icon (not a style such as fa-solid or a size).
ICON_CLASS = re.compile(r"\bfa-([a-z0-9]+(?:-[a-z0-9]+)*)\b")
#: Classes that change how an icon is drawn, not which: they have no glyph.
NOT_ICONS = frozenset(
    {"solid", "regular", "brands", "lg", "xs", "sm", "xl", "2xl", "1x", "2x", "3x", "fw",
     "spin", "pulse", "border", "inverse", "pull-left", "pull-right", "stack", "ul", "li"}
)  # fmt: skip
#: ``.fa-a:before,.fa-b:before{content:"\f185"}`` in the theme's stylesheet.
RULE = re.compile(r"((?:\.fa-[a-z0-9-]+:{1,2}before,?)+)\{content:\"\\([0-9a-f]+)\"\}")


class IconError(RuntimeError):
    pass


def icon_codepoints(css: str) -> dict[str, int]:
    """Each icon name of the stylesheet (``sun``) and its code point (0xF185)."""
    found = {}
    for selectors, hexcode in RULE.findall(css):
        for name in re.findall(r"\.fa-([a-z0-9-]+):{1,2}before", selectors):
            found[name] = int(hexcode, 16)
    return found


#: An element's ``class`` attribute in a page.
CLASS_ATTRIBUTE = re.compile(r"""\bclass=["']([^"']*)["']""")


def icons_named(texts) -> set[str]:
    """The icon names (``fa-NAME`` classes but the drawing ones) in the given texts."""
    return {n for text in texts for n in ICON_CLASS.findall(text)} - NOT_ICONS


def icons_of_page(html: str) -> set[str]:
    """The icon names in the ``class`` attributes of a page (not in its prose or code)."""
    return icons_named(CLASS_ATTRIBUTE.findall(html))


def subset_fonts(site: Path) -> dict[str, tuple[int, int]]:
    """Every Font Awesome font of the built ``site`` cut to the icons its pages name; each
    font's size before and after, in bytes."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    fonts = sorted((site / WEBFONTS).glob("fa-*.*"))
    if not fonts:
        return {}
    codepoints = icon_codepoints((site / STYLESHEET).read_text(encoding="utf-8"))
    names = set()
    for page in site.rglob("*.html"):
        names |= icons_of_page(page.read_text(encoding="utf-8", errors="replace"))
    unknown = sorted(names - codepoints.keys())
    if unknown:
        raise IconError(f"icons the theme's stylesheet does not define: {', '.join(unknown)}")
    # An icon a script adds names its class in a string; any such name the stylesheet draws
    # is kept (fontawesome.js, the theme's copy of every icon, is not on the pages).
    for script in (site / "_static").rglob("*.js"):
        if script.name != "fontawesome.js":
            text = script.read_text(encoding="utf-8", errors="replace")
            names |= icons_named([text]) & codepoints.keys()
    wanted = sorted({codepoints[name] for name in names})
    sizes = {}
    for font_path in fonts:
        before = font_path.stat().st_size
        flavor = "woff2" if font_path.suffix == ".woff2" else None
        options = subset.Options()
        options.layout_features = ["*"]
        options.name_IDs = ["*"]
        options.notdef_outline = True
        font = TTFont(font_path)
        # A font holds only some of the icons (solid ones or brands): keep those it has.
        present = set(font.getBestCmap())
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=[c for c in wanted if c in present])
        subsetter.subset(font)
        font.flavor = flavor
        font.save(font_path)
        sizes[font_path.name] = (before, font_path.stat().st_size)
    return sizes


def _finish(app, exception) -> None:
    if exception is None and app.builder.format == "html":
        subset_fonts(Path(app.outdir))


def setup(app):
    app.connect("build-finished", _finish)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
