"""A practitioner's CSV file as the judge commands' tests write it, and how they run them.

``agree`` and ``prevalence`` read files messy the usual ways: a byte-order mark, ``;`` as
delimiter, CRLF line ends, blank and ``NA`` cells for what nobody gave. :func:`messy_csv`
writes such a file from a header and rows of cells, :func:`proba_csv` one of a judge's
probabilities (:func:`scored`); :func:`run_cli` and :func:`cli_json` run ``python -m
clfmetrics`` in-process and return what it printed.
"""

from __future__ import annotations

import json

import numpy as np

from clfmetrics.io import run

#: The cells a missing value is written as, in turn: empty, ``NA``, blanks.
MISSING = ("", "NA", " ")


def missing_cell(k: int) -> str:
    """The ``k``-th way of writing a missing value (they take turns)."""
    return MISSING[k % len(MISSING)]


def messy_csv(path, header, rows, *, delimiter=";", bom=True, line_end="\r\n"):
    """Write ``header`` and ``rows`` (sequences of cells, as text) to ``path``, UTF-8."""
    lines = [delimiter.join(header)] + [delimiter.join(map(str, r)) for r in rows]
    text = ("\ufeff" if bom else "") + line_end.join(lines) + line_end
    path.write_bytes(text.encode("utf-8"))
    return path


def scored(n, prevalence, seed, separation=1.5):
    """Truth (ham, spam) and a judge's probabilities, calibrated for equal priors."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < prevalence).astype(int)
    logits = rng.normal(size=(n, 2))
    logits[np.arange(n), y] += separation
    p = np.exp(separation * logits)
    return np.array(["ham", "spam"])[y], p / p.sum(axis=1, keepdims=True)


def proba_csv(path, cal, dep):
    """The calibration sample ``cal`` (truth, probabilities) and the deployment probabilities
    ``dep`` in one messy file: columns gold, p_spam, p_ham (not in class order), full
    precision, the deployment rows' truth missing."""
    (truth, p_cal), rows = cal, []
    rows += [[t, repr(float(p[1])), repr(float(p[0]))] for t, p in zip(truth, p_cal, strict=True)]
    rows += [[missing_cell(i), repr(float(p[1])), repr(float(p[0]))] for i, p in enumerate(dep)]
    return messy_csv(path, ["gold", "p_spam", "p_ham"], rows)


def run_cli(capsys, argv):
    """``python -m clfmetrics ARGV``'s status, stdout and stderr (arguments made text)."""
    status = run([str(a) for a in argv])
    out = capsys.readouterr()
    return status, out.out, out.err


def cli_json(capsys, argv):
    """The JSON ``argv --format json`` prints, asserting the command succeeded."""
    status, out, err = run_cli(capsys, [*argv, "--format", "json"])
    assert status == 0, err
    return json.loads(out)
