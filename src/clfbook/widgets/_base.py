"""Shared pieces of the widgets: input checks, the matrix editor, HTML tables, figure images.

The widgets keep their logic in plain functions (in each widget's module) and
use these helpers only to show results. Convention: ``m[i, j]`` = mass
predicted as class ``i`` whose true class is ``j`` (rows = predicted,
columns = true).
"""

from __future__ import annotations

import html
import io
import math

import ipywidgets as w
import numpy as np
from PIL import Image

from clfmetrics._base.numbers import fixed

#: Largest count a matrix cell accepts in the editors.
MAX_COUNT = 10**7


def check_counts(m, *, n_min: int = 2, n_max: int = 6, name: str = "m") -> np.ndarray:
    """Return ``m`` as an ``(n, n)`` int64 array of non-negative whole counts.

    Unlike :func:`clfmetrics._base.checks.as_confusion` this accepts a matrix of
    total mass 0 (a user may clear every cell on the way to a new matrix);
    the readouts report that state instead of failing.

    Raises
    ------
    ValueError
        If ``m`` is not a square 2-d array of numbers, ``n`` lies outside
        ``n_min..n_max``, or an entry is negative, not whole, not finite or
        larger than :data:`MAX_COUNT`.
    """
    try:
        arr = np.asarray(m, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a square array of counts; got {m!r}") from None
    if arr.ndim != 2 or arr.shape[0] != arr.shape[1]:
        raise ValueError(
            f"{name} must be a square (n, n) matrix (rows = predicted, columns = true); "
            f"got shape {arr.shape}"
        )
    n = arr.shape[0]
    if not n_min <= n <= n_max:
        raise ValueError(f"{name} must have between {n_min} and {n_max} classes; got n = {n}")
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} must hold finite counts; got {arr.tolist()}")
    if (arr < 0).any():
        i, j = np.argwhere(arr < 0)[0]
        raise ValueError(f"{name}[{i}, {j}] = {arr[i, j]:g} is negative; counts must be >= 0")
    if (arr != np.round(arr)).any():
        i, j = np.argwhere(arr != np.round(arr))[0]
        raise ValueError(f"{name}[{i}, {j}] = {arr[i, j]:g} is not a whole count")
    if (arr > MAX_COUNT).any():
        raise ValueError(f"{name} has a count above the editor's maximum {MAX_COUNT}")
    return arr.astype(np.int64)


def check_count(value, name: str) -> int:
    """Return ``value`` as a non-negative int, or raise ValueError naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer, float, np.floating)):
        raise ValueError(f"{name} must be a whole number >= 0; got {value!r}")
    if not math.isfinite(value) or value != int(value) or value < 0:
        raise ValueError(f"{name} must be a whole number >= 0; got {value!r}")
    if value > MAX_COUNT:
        raise ValueError(f"{name} must be at most {MAX_COUNT}; got {value!r}")
    return int(value)


def class_names(labels, n: int) -> list[str]:
    """``labels`` as ``n`` strings (class indices when ``labels`` is None)."""
    if labels is None:
        return [str(k) for k in range(n)]
    names = [str(x) for x in labels]
    if len(names) != n:
        raise ValueError(f"labels must name {n} classes; got {len(names)}: {names}")
    return names


def fmt(x) -> str:
    """A score for a readout: 4 decimals, 'nan' for undefined, 'n/a' for None."""
    if x is None:
        return "n/a"
    x = float(x)
    return "nan" if math.isnan(x) else fixed(x, 4)


def html_table(header, rows, *, caption: str | None = None) -> str:
    """A small HTML table; every cell is escaped except the ones wrapped in :class:`Raw`."""

    def cell(x, tag):
        text = x.text if isinstance(x, Raw) else html.escape(str(x))
        return f"<{tag} style='padding:1px 8px;text-align:right'>{text}</{tag}>"

    head = "".join(cell(h, "th") for h in header)
    body = "".join("<tr>" + "".join(cell(c, "td") for c in row) + "</tr>" for row in rows)
    cap = f"<caption style='caption-side:top'>{html.escape(caption)}</caption>" if caption else ""
    return f"<table style='border-collapse:collapse'>{cap}<tr>{head}</tr>{body}</table>"


class Raw:
    """Mark a table cell as trusted HTML (used for the ✓/✗ marks we build ourselves)."""

    def __init__(self, text: str):
        self.text = text


def mark(flag: bool) -> Raw:
    """A ✓ or ✗ that does not rely on colour alone."""
    return Raw("<b>&#10003;</b>" if flag else "&#10007;")


def png_bytes(fig) -> bytes:
    """Encode the canvas of ``fig`` as it was last drawn (fast PNG, low compression)."""
    width, height = fig.canvas.get_width_height()
    image = Image.frombuffer("RGBA", (width, height), fig.canvas.buffer_rgba())
    buf = io.BytesIO()
    image.save(buf, format="png", compress_level=1)
    return buf.getvalue()


class FigureImage:
    """A matplotlib figure shown as an ``ipywidgets.Image`` and redrawn by blitting.

    ``update(*args)`` (from a ``clfbook.plots.widgets.live_*`` function)
    moves the figure's *animated* artists to new data and returns True when
    something static (an axis range) changed too. Otherwise only the animated
    artists are drawn over a cached background, which is several times
    faster than a full draw. The PNG is rendered only when ``live`` is true and
    the image has been shown (:meth:`show`, called when the explorer's ``view``
    is taken): an explorer built for its static figure or its page version
    (the book) never encodes an image nobody sees. ``live=False`` lets scripts
    and benchmarks switch rendering off altogether; :meth:`current` brings a
    stale image up to date. The layout is computed once and then frozen so a
    redraw never re-runs the layout engine.
    """

    def __init__(self, fig, update, *, live: bool = True, dpi: int = 72):
        self.image = w.Image(format="png", layout=w.Layout(max_width="100%"))
        self.live = live
        self.shown = False
        self.dpi = dpi
        self.attach(fig, update)

    @property
    def rendering(self) -> bool:
        """Whether a change re-renders the PNG now: live, and shown."""
        return self.live and self.shown

    def show(self) -> None:
        """The image is about to be seen: from now on a live figure renders every change."""
        self.shown = True
        if self.live and self.stale:
            self.current()

    def attach(self, fig, update) -> None:
        """Show a new figure (e.g. after the number of classes changed)."""
        self.fig = fig
        self._update = update
        self._pending = False
        self._background = None
        self._animated = None
        fig.set_dpi(self.dpi)
        self.stale = True
        if self.rendering:
            self._render(full=True)

    def _prepare(self) -> None:
        # The first full draw runs the layout engine; freezing it afterwards keeps every
        # later draw from re-running it. Done lazily: a figure that is never shown live
        # never pays for it. That draw is the background too: the frozen layout puts every
        # artist where it just drew it.
        self.fig.canvas.draw()
        self.fig.set_layout_engine("none")
        self._animated = [a for a in self.fig.findobj() if a.get_animated()]
        self._background = self.fig.canvas.copy_from_bbox(self.fig.bbox)

    def _render(self, full: bool) -> None:
        canvas = self.fig.canvas
        if self._animated is None:
            self._prepare()
        elif full or self._background is None:
            canvas.draw()  # draws everything except the animated artists
            self._background = canvas.copy_from_bbox(self.fig.bbox)
        else:
            canvas.restore_region(self._background)
        for artist in self._animated:
            (artist.axes or self.fig).draw_artist(artist)
        self.image.value = png_bytes(self.fig)
        self.stale = False

    def redraw(self, *args) -> None:
        """Move the artists to new data, and re-render the image if live."""
        full = bool(self._update(*args))
        self.stale = True
        if self.rendering:
            self._render(full=full or self._pending)
            self._pending = False
        else:
            self._pending = self._pending or full

    def current(self):
        """The figure, with its image brought up to date if edits happened while not live."""
        if self.stale:
            self._render(full=True)
            self._pending = False
        return self.fig


class Explorer:
    """Base of every widget: ``.view`` is the ipywidgets container shown in Jupyter.

    Taking ``.view`` (as Jupyter does to show the explorer) brings its figure's image
    (``_figure``, a :class:`FigureImage`, where it has one) up to date and live.
    """

    @property
    def view(self) -> w.Widget:
        figure = getattr(self, "_figure", None)
        if figure is not None:
            figure.show()
        return self._view

    @view.setter
    def view(self, widget: w.Widget) -> None:
        self._view = widget

    def _repr_mimebundle_(self, **kwargs):
        return self.view._repr_mimebundle_(**kwargs)


def row(children) -> w.HBox:
    """Widgets side by side that wrap onto the next line where the notebook is too narrow.

    A plain ``HBox`` keeps its children on one line: a readout beside a figure is wider than
    a notebook's output area next to JupyterLab's open file browser, and the area clips it.
    """
    return w.HBox(children, layout=w.Layout(flex_flow="row wrap", align_items="flex-start"))


class MatrixEditor:
    """An ``n x n`` grid of ``BoundedIntText`` boxes with class names on both axes.

    ``on_edit(i, j, value)`` is called when the user changes a box; values set
    by the program with :meth:`show` do not call it.
    """

    def __init__(self, m: np.ndarray, names: list[str], on_edit):
        self._on_edit = on_edit
        self._muted = False
        # max-content: the grid and its columns as wide as their content (a box and its
        # margins), where an "auto" column would take the whole output area's width and
        # push the count boxes to its right edge, and a 90px one would clip their borders
        self.box = w.GridBox(
            layout=w.Layout(grid_gap="2px 4px", width="max-content", max_width="100%")
        )
        self.boxes: list[list[w.BoundedIntText]] = []
        self.rebuild(m, names)

    def rebuild(self, m: np.ndarray, names: list[str]) -> None:
        """Make a fresh grid for a matrix of another size (or other class names)."""
        n = m.shape[0]
        header = [w.HTML("<b>pred \\ true</b>")] + [
            w.HTML(f"<b>{html.escape(s)}</b>") for s in names
        ]
        cells = list(header)
        self.boxes = []
        for i in range(n):
            row = []
            cells.append(w.HTML(f"<b>{html.escape(names[i])}</b>"))
            for j in range(n):
                box = w.BoundedIntText(
                    value=int(m[i, j]),
                    min=0,
                    max=MAX_COUNT,
                    layout=w.Layout(width="90px"),
                    description_allow_html=False,
                )
                box.observe(self._handler(i, j), names="value")
                row.append(box)
                cells.append(box)
            self.boxes.append(row)
        self.box.layout.grid_template_columns = f"repeat({n + 1}, max-content)"
        self.box.children = cells

    def _handler(self, i: int, j: int):
        def handle(change):
            if not self._muted:
                self._on_edit(i, j, int(change["new"]))

        return handle

    def show(self, m: np.ndarray) -> None:
        """Put the values of ``m`` into the boxes without triggering ``on_edit``."""
        self._muted = True
        try:
            for i, row in enumerate(self.boxes):
                for j, box in enumerate(row):
                    box.value = int(m[i, j])
        finally:
            self._muted = False
