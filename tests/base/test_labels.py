"""clfmetrics._base.labels: which labels the library accepts, refuses or warns about."""

from __future__ import annotations

import pytest

import clfmetrics as cm
from clfmetrics._base.labels import LabelWarning


def test_near_duplicate_labels_warn_in_the_python_api():
    with pytest.warns(LabelWarning, match="'Spam' and 'spam'"):
        cm.confusion_matrix(["Spam", "spam", "ham"], ["spam", "spam", "ham"])
    with pytest.warns(LabelWarning, match="' ham' and 'ham'"):
        r = cm.report([" ham", "ham", "spam"] * 10, ["ham", "ham", "spam"] * 10, size=50)
    assert any("' ham' and 'ham'" in w for w in r.warnings)
