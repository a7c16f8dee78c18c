"""compare() names its systems after pandas Series, and its CSV's sections are stable keys.

``compare(df.gold, df.lr, df.rf)`` printed "A - B"; the Series' names are now the systems'
names wherever ``names`` is not given. The paired CSV's ``section`` column held the whole
title of the metrics table ("120 items, 95% paired percentile intervals ..., seed 0"),
which changes with n, the level and the seed: a script that filters on it broke. It holds
``Metrics`` now, as the report's does, and the whole title is a row of its own.
"""

from __future__ import annotations

import csv
import io

import numpy as np
import pytest

import clfmetrics as cm

pd = pytest.importorskip("pandas")  # in requirements.txt: installed wherever tests run

Y = [0, 1, 2] * 40
GOOD = [0, 1, 2] * 40
WORSE = [0, 1, 1] * 40


def _frame():
    return pd.DataFrame({"gold": Y, "lr": GOOD, "rf": WORSE})


def _sections(text: str) -> list[str]:
    return list(dict.fromkeys(r["section"] for r in csv.DictReader(io.StringIO(text))))


def test_series_names_name_the_systems():
    df = _frame()
    c = cm.compare(df.gold, df.lr, df.rf, size=200)
    assert c.names == ("lr", "rf")
    text = str(c)
    assert text.startswith("Paired comparison: lr - rf\n")
    assert "intervals of lr - rf" in text and "A - B" not in text
    assert c.verdicts()["accuracy"] in ("lr", "undecided")
    assert c.to_dict()["systems"] == ["lr", "rf"]
    counted = cm.compare_from_counts(df.gold, df.lr, df.rf, np.ones(len(df)), size=200)
    assert counted.names == ("lr", "rf")


@pytest.mark.parametrize(
    ("a", "b", "names", "want"),
    [
        ("lr", "rf", ("new", "old"), ("new", "old")),  # given names win
        ("lr", "rf", ("A", "B"), ("A", "B")),  # even A and B, given
        ("lr", "lr", None, ("A", "B")),  # one name twice says nothing
        (None, "rf", None, ("A", "B")),  # an unnamed Series
        ("", "rf", None, ("A", "B")),
    ],
)
def test_names_fall_back_to_a_and_b(a, b, names, want):
    pa, pb = pd.Series(GOOD, name=a), pd.Series(WORSE, name=b)
    kwargs = {} if names is None else {"names": names}
    assert cm.compare(Y, pa, pb, size=100, **kwargs).names == want


def test_lists_and_arrays_are_a_and_b():
    assert cm.compare(Y, GOOD, WORSE, size=100).names == ("A", "B")
    assert cm.compare(np.array(Y), np.array(GOOD), np.array(WORSE), size=100).names == ("A", "B")


def test_the_csv_section_is_a_stable_key():
    one = cm.compare(Y, GOOD, WORSE, size=200, rng=1).to_csv()
    other = cm.compare(Y * 2, GOOD * 2, WORSE * 2, size=300, rng=2, level=0.9).to_csv()
    assert _sections(one) == _sections(other) == ["Metrics", "Notes", "Warnings"]
    rows = list(csv.DictReader(io.StringIO(one)))
    (title,) = [r["value"] for r in rows if r["column"] == "title"]
    assert title == (
        "Metrics (120 items, 95% paired percentile intervals of A - B, 200 resamples and as "
        "many permutations, seed 1)"
    )
    frame = cm.compare(Y, GOOD, WORSE, size=200).to_frame()
    assert set(frame.section) == {"Metrics", "Notes", "Warnings"}
