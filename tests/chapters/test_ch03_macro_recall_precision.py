"""Chapter 3 (03-macro-recall-precision.md): each claim the text makes, computed or read."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from chapter_text import chapter

import clfmetrics as cm
from clfbook.sources.search import bookmaker_net_win


def test_item9_balanced_accuracy_and_calibrated_accuracy_differ_for_an_absent_class():
    from sklearn.metrics import balanced_accuracy_score

    m = np.array([[5, 1, 0], [1, 4, 0], [1, 0, 0]])  # the third class never occurs
    y_true, y_pred = cm.to_labels(m)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sk = balanced_accuracy_score(y_true, y_pred)
    assert np.isclose(sk, (5 / 7 + 4 / 5) / 2) and abs(sk - cm.macro_recall(m)) > 0.1
    with pytest.raises(ValueError, match="never occurs"):
        cm.prevalence_calibrate(m)
    full = np.array([[5, 1, 1], [1, 4, 0], [1, 0, 2]])
    y_true, y_pred = cm.to_labels(full)
    assert np.isclose(
        balanced_accuracy_score(y_true, y_pred), cm.accuracy(cm.prevalence_calibrate(full))
    )
    text = chapter("03-macro-recall-precision")
    assert "They cannot differ (up to rounding)" not in text
    assert "but no $prevalence(i)$-normalised recall" not in text
    assert "When a class never occurs in the test set they are no longer the same" in text


def test_the_bettor_wins_and_the_fair_bookmaker_loses_when_macro_recall_beats_chance():
    """03 ~172, ~26, ~478: |S|(n macR - 1) is the bettor's net win."""
    y_true = ["a", "a", "b", "b", "c", "c"]
    y_pred = ["a", "a", "b", "c", "c", "a"]  # macR = (1 + 1/2 + 1/2)/3 > 1/3
    win = bookmaker_net_win(y_true, y_pred)
    m = cm.confusion_matrix(y_true, y_pred)
    assert cm.macro_recall(m) > 1 / 3 and win > 0
    # the stakes paid in minus the payouts: what the bookmaker keeps is the negative
    stakes = len(y_true)
    payouts = sum(6 / 2 for t, p in zip(y_true, y_pred, strict=True) if t == p)
    assert stakes - payouts == -win
    text = chapter("03-macro-recall-precision")
    assert "The bookmaker profits exactly when" not in text
    assert "fair bookmaker's win" not in text and "a fair bookmaker's net win" not in text
    assert "The bettor profits, and the fair bookmaker loses, exactly when" in text


def test_d5_a_random_guesser_breaks_even_only_in_expectation():
    """03 ~173, ~455: averaged over every prediction vector of a guesser, the net win is 0,
    yet some outcomes win and some lose."""
    import itertools

    y_true = ["a", "a", "a", "b", "c"]
    z = {"a": 0.5, "b": 0.3, "c": 0.2}
    expected, outcomes = 0.0, []
    for y_pred in itertools.product("abc", repeat=len(y_true)):
        weight = np.prod([z[label] for label in y_pred])
        win = bookmaker_net_win(y_true, list(y_pred))
        expected += weight * win
        outcomes.append(win)
    assert abs(expected) < 1e-12
    assert max(outcomes) > 0 > min(outcomes)
    text = chapter("03-macro-recall-precision")
    assert "cannot beat fair odds *in expectation*" in text
    assert "cannot buy a better macro score in expectation" in text


def test_the_bookmaker_view_is_credited_to_powers_as_the_source_does():
    """03 ~131: for bookmaker-inspired metrics the source (footnote 6) points to Powers."""
    from chapter_text import ROOT
    from pybtex.database import parse_file

    entries = parse_file(ROOT / "references.bib").entries
    assert entries["powers2003bookmaker"].fields["year"] == "2003"
    assert entries["powers2011evaluation"].fields["year"] == "2011"
    text = chapter("03-macro-recall-precision")
    assert "{cite:t}`powers2003bookmaker,powers2011evaluation`" in text
