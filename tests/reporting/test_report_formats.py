"""Reports a person can file (issue 26, section 6): every format parses, agrees, escapes.

The labels come from the user's file, so the hostile ones are used throughout: an HTML
tag with a script in an attribute, a Markdown pipe and a line break, and cells that a
spreadsheet would run as formulas.
"""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
from html.parser import HTMLParser

import numpy as np
import pytest

import clfmetrics as cm
from clfmetrics._base.numbers import fixed
from clfmetrics.io import run
from clfmetrics.reporting import _render as _formats

XSS = "<img src=x onerror=alert(1)>"
PIPE = "a|b\nc"
FORMULA = '=HYPERLINK("http://x")'


def _scored(n=300, seed=3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    s = np.clip(0.35 * y + 0.65 * rng.random(n), 0, 1).round(4)
    return y, s, (s >= 0.5).astype(int)


@pytest.fixture(scope="module")
def hostile():
    """A binary report with scores whose two classes are an HTML tag and a pipe with a break."""
    truth, pred, s, pos = _hostile_args()
    return cm.report(truth, pred, scores=s, pos_label=pos, size=300)


def _hostile_args():
    y, s, pred = _scored()
    names = np.array([PIPE, XSS], dtype=object)
    return names[y], names[pred], s, XSS


@pytest.fixture(scope="module")
def hostile_page(hostile):
    return hostile.to_html()


@pytest.fixture(scope="module")
def csv_file(tmp_path_factory):
    y, s, pred = _scored()
    names = {0: FORMULA, 1: XSS}
    path = tmp_path_factory.mktemp("formats") / "scored.csv"
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["gold", "model", "score"])
        w.writerows([names[a], names[b], f"{c:.4f}"] for a, b, c in zip(y, pred, s, strict=True))
    return path


def _cli(path, *extra):
    argv = [sys.executable, "-m", "clfmetrics", "report", str(path), "--truth", "gold"]
    argv += ["--pred", "model", "--scores", "score", "--size", "100", *extra]
    return subprocess.run(argv, capture_output=True, check=False)


def _text_rows(text: str, title: str) -> dict[str, list[str]]:
    """The rows of one table of the text report, by their first cell (a metric's name)."""
    lines = text.splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith(title))
    rows = {}
    for line in lines[start + 3 :]:
        if not line.strip():
            break
        cells = line.split()
        rows[cells[0]] = cells[1:]
    return rows


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.attrs, self.text = [], [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs += [(tag, k, v) for k, v in attrs]

    def handle_data(self, data):
        self.text.append(data)


def _parsed(page: str) -> _Tags:
    parser = _Tags()
    parser.feed(page)
    parser.close()
    return parser


# -- the numbers agree -----------------------------------------------------------------


def test_every_format_gives_the_numbers_of_the_text_report(hostile):
    shown = _text_rows(str(hostile), "Metrics (")
    data = json.loads(hostile.to_json())
    table = list(csv.reader(io.StringIO(hostile.to_csv())))
    assert table[0] == ["section", "row", "column", "value"]
    from_csv = {(r[1], r[2]): r[3] for r in table[1:] if r[0] == "Metrics"}
    md_metrics = next(b for b in hostile.to_markdown().split("\n## ") if b.startswith("Metrics"))
    md_rows = {}
    for line in md_metrics.splitlines():
        if line.startswith("| ") and not line.startswith("| metric"):
            cells = [c.strip().replace("\\_", "_") for c in line.strip("|").split(" | ")]
            md_rows[cells[0]] = cells[1:]
    assert len(shown) == len(cm.METRICS) == len(data["metrics"])
    for name, (estimate, low, high) in shown.items():
        iv = data["metrics"][name]
        assert [fixed(iv["estimate"]), fixed(iv["low"]), fixed(iv["high"])] == [estimate, low, high]
        assert [from_csv[(name, k)] for k in ("estimate", "low", "high")] == [estimate, low, high]
        assert md_rows[name] == [estimate, low, high]
        assert float(from_csv[(name, "estimate")]) == pytest.approx(iv["estimate"], abs=5e-4)


def test_to_frame_holds_the_csv_numbers_as_floats(hostile):
    frame = hostile.to_frame()
    rows = list(csv.DictReader(io.StringIO(hostile.to_csv())))
    assert list(frame.columns) == ["section", "row", "column", "value"] and len(frame) == len(rows)
    metrics = frame[frame.section == "Metrics"].set_index(["row", "column"])["value"]
    assert metrics["accuracy", "estimate"] == float(f"{hostile.intervals['accuracy'].estimate:.3f}")
    per_class = frame[(frame.section == "Per class") & (frame.column == "support")]
    assert sorted(per_class.row) == sorted([PIPE, XSS])  # data, not neutralised or escaped
    assert per_class.value.sum() == hostile.n_items


def test_to_frame_without_pandas_names_the_remedy(hostile, monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now raises ImportError
    with pytest.raises(ImportError, match=r"needs pandas.*pip install pandas"):
        hostile.to_frame()


def test_the_comparison_has_every_format_too():
    y, _, pred = _scored()
    other = np.roll(pred, 5)
    comp = cm.compare(y, pred, other, names=("new|x", XSS), size=200)
    md = comp.to_markdown()
    assert "new\\|x" in md and XSS not in md
    assert XSS not in comp.to_html() and "&lt;img" in comp.to_html()
    rows = list(csv.reader(io.StringIO(comp.to_csv())))
    accuracy = {r[2]: r[3] for r in rows if r[1] == "accuracy"}
    assert accuracy["difference"] == fixed(comp.differences["accuracy"].estimate)


# -- each format parses, and escapes the user's labels ------------------------------


def test_markdown_tables_keep_their_columns_whatever_the_labels(hostile):
    md = hostile.to_markdown()
    assert XSS not in md and "&lt;img src=x onerror=alert(1)&gt;" in md
    assert "a\\|b c" in md  # the pipe escaped, the line break a space
    tables = re.split(r"\n\n", md)
    found = 0
    for block in tables:
        lines = [line for line in block.splitlines() if line.startswith("|")]
        if not lines:
            continue
        found += 1
        widths = {len(re.findall(r"(?<!\\)\|", line)) for line in lines}
        assert len(widths) == 1, f"a row of this table has another number of cells:\n{block}"
    assert found >= 5


def test_markdown_escape_handles_the_special_characters():
    e = _formats.markdown_escape
    assert e("a|b") == "a\\|b" and e("x\ny") == "x y" and e("*b*") == "\\*b\\*"
    assert e("<b>&") == "&lt;b&gt;&amp;" and e("0.875") == "0.875"


def test_csv_round_trips_and_neutralises_formulas():
    y, _, pred = _scored()
    names = np.array(["=1+2", "@SUM(A1)"], dtype=object)
    r = cm.report(names[y], names[pred], size=200)
    rows = list(csv.reader(io.StringIO(r.to_csv())))
    cells = [c for row in rows for c in row]
    assert "'=1+2" in cells and "'@SUM(A1)" in cells
    assert not [
        c
        for c in cells
        if (c[:1] and c[0] in "=+@") or (c[:1] == "-" and not _formats.is_number(c))
    ]
    assert _formats.spreadsheet_safe("-0.012") == "-0.012"  # a negative number stays a number
    assert _formats.spreadsheet_safe("-1+cmd") == "'-1+cmd"
    assert _formats.spreadsheet_safe("\tx") == "'\tx"


def test_csv_quotes_commas_quotes_and_line_breaks():
    labels = np.array(['a,"b"', "c\nd"], dtype=object)
    y, _, pred = _scored()
    r = cm.report(labels[y], labels[pred], size=200)
    rows = list(csv.reader(io.StringIO(r.to_csv())))
    assert {len(row) for row in rows} == {4}
    support = {row[1]: row[3] for row in rows if row[0] == "Per class" and row[2] == "support"}
    assert support == {'a,"b"': str((y == 0).sum()), "c\nd": str((y == 1).sum())}


def test_repeated_column_names_are_qualified_in_the_long_table():
    header = ["class", "ROC AUC", "low", "high", "AP", "low", "high"]
    assert _formats.column_names(header)[1:] == [
        "ROC AUC", "ROC AUC low", "ROC AUC high", "AP", "AP low", "AP high",
    ]  # fmt: skip


def test_html_is_one_file_with_its_labels_as_text(hostile_page):
    page = hostile_page
    parsed = _parsed(page)
    assert "img" not in parsed.tags and "script" not in parsed.tags and "link" not in parsed.tags
    external = [(t, k, v) for t, k, v in parsed.attrs if k in ("src", "href", "xlink:href")]
    assert not external
    assert any(XSS in chunk for chunk in parsed.text)  # shown as text, in a table cell
    assert parsed.tags.count("svg") == 3  # ROC, precision-recall, reliability
    assert "Content-Security-Policy" in page and "default-src 'none'" in page


def test_html_charts_are_labelled_and_follow_the_colour_scheme(hostile_page):
    page = hostile_page
    for ident in ("roc", "pr", "reliability"):
        assert f'aria-labelledby="{ident}-t {ident}-d"' in page
        assert f'<desc id="{ident}-d">' in page
    for label in ("false positive rate", "true positive rate", "recall", "precision"):
        assert f">{label}</text>" in page
    assert "prefers-color-scheme: dark" in page and 'class="band c0"' in page
    assert "seed 0" in page  # the seed, in the metrics' title
    truth, pred, s, pos = _hostile_args()
    again = cm.report(truth, pred, scores=s, pos_label=pos, size=300)
    assert page == again.to_html()  # the same bytes, from a new report with the default seed


def test_multiclass_html_draws_one_curve_per_class():
    rng = np.random.default_rng(1)
    y = rng.choice(3, 300, p=[0.5, 0.3, 0.2])
    logits = rng.normal(0, 1, (300, 3)) + 1.5 * np.eye(3)[y]
    proba = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    page = cm.report(y, proba.argmax(axis=1), scores=proba, size=200).to_html()
    roc = page[page.index('<svg'):page.index("</svg>")]  # fmt: skip
    assert roc.count('class="band') == 3 and roc.count("<polyline") == 3
    assert "top-label confidence" in page


# -- many classes ------------------------------------------------------------------------


def test_many_classes_keep_the_text_readable_and_the_csv_complete():
    n = 36  # above TEXT_CLASSES; small classes keep the exact intervals cheap
    truth = np.repeat(np.arange(n), n)
    pred = np.tile(np.arange(n), n)
    counts = np.where(truth == pred, 3 + truth % 7, 0) + ((pred - truth) % n == 1) * 2
    names = np.array([f"class{k}" for k in range(n)])
    r = cm.report_from_counts(names[truth], names[pred], counts, size=100)
    text = str(r)
    assert max(map(len, text.splitlines())) <= _formats.TEXT_WIDTH
    assert "too wide for a line of text" in text and "--format csv" in text
    assert "the 10 of lowest F1 (of 36 classes)" in text and "the 10 most common" in text
    worst = _text_rows(text, "Per class: the 10 of lowest F1")
    f1 = np.array([float(v[-1]) for v in worst.values()])
    assert len(worst) == 10 and f1.max() <= np.sort(r.per_class["f1"])[9] + 5e-4
    assert f"the first 20 rows of {n + 1}; the other {n + 1 - 20}" in text  # exact intervals
    assert f"The 10 lowest of the {n} class-wise recalls" in r.reporting_block()
    rows = list(csv.reader(io.StringIO(r.to_csv())))
    assert len({row[1] for row in rows if row[0] == "Per class" and row[2] == "F1"}) == n
    exact = {row[1] for row in rows if row[0] == "Exact intervals" and row[1]}
    assert len(exact) == n + 1  # accuracy and every recall
    assert len({row[2] for row in rows if row[0] == "Confusion matrix"} - {"title"}) == n + 1


def test_many_warnings_are_cut_in_the_text_only():
    sections = [cm.report(list("aabb"), list("abab"), size=50)._sections()[-2]]
    sections[0].notes = [f"warning {k}" for k in range(30)]
    shown = _formats.for_text(sections)[0].notes
    assert len(shown) == _formats.TEXT_WARNINGS + 1 and shown[-1].startswith("... and 10 more")


# -- the command line --------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["markdown", "csv", "html"])
def test_the_same_command_writes_the_same_bytes(csv_file, fmt):
    first, second = _cli(csv_file, "--format", fmt), _cli(csv_file, "--format", fmt)
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout and b"seed 0" in first.stdout


def test_output_writes_the_file_and_stdout_stays_empty(csv_file, tmp_path):
    target = tmp_path / "report.html"
    done = _cli(csv_file, "--format", "html", "--output", str(target))
    assert done.returncode == 0 and done.stdout == b""
    note = done.stderr.decode().strip()
    assert "\n" not in note and str(target) in note and note.startswith("clfmetrics: wrote")
    assert target.read_bytes() == _cli(csv_file, "--format", "html").stdout


def test_json_is_an_alias_of_format_json(csv_file, capsys):
    base = ["report", str(csv_file), "--truth", "gold", "--pred", "model", "--size", "200"]
    assert run([*base, "--json"]) == 0
    alias = capsys.readouterr().out
    assert run([*base, "--format", "json"]) == 0
    assert capsys.readouterr().out == alias and json.loads(alias)["seed"] == 0


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--format", "pdf"], "invalid choice: 'pdf'"),
        (["--json", "--format", "csv"], "--json is --format json"),
        (["--output", "/no/such/folder/r.html"], "does not exist"),
        (["--output", "."], "is a folder"),
    ],
)
def test_bad_format_or_output_is_one_line_and_status_2(csv_file, capsys, extra, message):
    base = ["report", str(csv_file), "--truth", "gold", "--pred", "model", "--size", "50"]
    assert run([*base, *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and err.startswith("clfmetrics: error:")


def test_an_output_that_fails_while_writing_is_one_line(csv_file, capsys, monkeypatch, tmp_path):
    import builtins

    real = builtins.open

    def failing(path, mode="r", *args, **kwargs):
        if "w" in mode and str(path).endswith("r.md"):
            raise OSError(28, "No space left on device")
        return real(path, mode, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", failing)
    base = ["report", str(csv_file), "--truth", "gold", "--pred", "model", "--size", "50"]
    assert run([*base, "--format", "markdown", "--output", str(tmp_path / "r.md")]) == 2
    err = capsys.readouterr().err
    assert "No space left on device" in err and err.count("\n") == 1


def test_html_needs_neither_matplotlib_nor_pandas(csv_file):
    code = (
        "import sys, clfmetrics as cm\n"
        "r = cm.report([0, 1, 1, 0, 1, 0], [0, 1, 0, 0, 1, 1],"
        " scores=[0.1, 0.9, 0.4, 0.2, 0.8, 0.6], size=50)\n"
        "assert '<svg' in r.to_html() and r.to_markdown() and r.to_csv()\n"
        "print(sorted(m for m in ('matplotlib', 'pandas', 'scipy') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True)
    assert done.stdout.decode().strip() == "[]"


def test_label_warning_is_exported_at_the_top_level():
    from clfmetrics._base.labels import LabelWarning

    assert cm.LabelWarning is LabelWarning and "LabelWarning" in cm.__all__
    with pytest.warns(cm.LabelWarning, match="'Spam' and 'spam'"):
        cm.report(["Spam", "spam", "ham", "ham"], ["spam", "spam", "ham", "ham"], size=50)


# -- in a browser -------------------------------------------------------------------------


def test_html_in_chromium_runs_nothing_fetches_nothing_and_draws_the_figures(
    browser, csv_file, tmp_path
):
    target = tmp_path / "report.html"
    assert _cli(csv_file, "--format", "html", "--output", str(target)).returncode == 0
    for scheme in ("light", "dark"):
        context = browser.new_context(color_scheme=scheme)
        page = context.new_page()
        dialogs, requests, errors = [], [], []
        page.on("dialog", lambda d, seen=dialogs: (seen.append(d.message), d.dismiss()))
        page.on("request", lambda r, seen=requests: seen.append(r.url))
        page.on("console", lambda m, seen=errors: m.type == "error" and seen.append(m.text))
        page.on("pageerror", lambda e, seen=errors: seen.append(str(e)))
        page.goto(target.as_uri())
        page.wait_for_load_state("load")
        assert page.locator("img").count() == 0 and not dialogs
        assert requests == [target.as_uri()] and not errors
        cells = page.locator("th[scope=row]").all_inner_texts()
        assert XSS in cells and FORMULA in cells  # the labels, as text
        charts = page.locator("svg.chart")
        assert charts.count() == 3
        for k in range(3):
            box = charts.nth(k).bounding_box()
            assert box["width"] > 200 and box["height"] > 200
        colours = page.evaluate(
            "[getComputedStyle(document.body).backgroundColor,"
            " getComputedStyle(document.querySelector('polyline')).stroke]"
        )
        background = "rgb(255, 255, 255)" if scheme == "light" else "rgb(21, 23, 26)"
        line = "rgb(0, 114, 178)" if scheme == "light" else "rgb(86, 180, 233)"
        assert colours == [background, line]
        context.close()


def test_html_leaves_a_huge_confusion_matrix_to_csv_and_json():
    from clfmetrics.reporting._html import MATRIX_CLASSES, document
    from clfmetrics.reporting._render import Section

    def matrix(n):
        header = ["predicted \\ true", *map(str, range(n)), "total"]
        rows = [[str(k), *["1"] * (n + 1)] for k in range(n)] + [["total", *["1"] * (n + 1)]]
        return Section("Confusion matrix", header, rows)

    big = MATRIX_CLASSES + 1
    assert f"{big} classes: the matrix is in --format csv or json" in document(
        [matrix(big)], "r", []
    )
    assert "<table>" not in document([matrix(big)], "r", [])
    assert "<table>" in document([matrix(MATRIX_CLASSES)], "r", [])
