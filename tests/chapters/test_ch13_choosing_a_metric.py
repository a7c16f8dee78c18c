"""Chapter 13 (13-choosing-a-metric.md): each claim the text makes, computed or read."""

from __future__ import annotations

import numpy as np
from chapter_text import chapter

from clfbook.theory import supremum


def test_item17_the_macro_f1_gap_is_a_supremum_and_the_survey_asks_for_sensible_arguments():
    assert np.isclose(float(supremum.delta_supremum(2)), 0.5)
    text = chapter("13-choosing-a-metric")
    assert "can differ by up to {glue:text}`ch13-delta-sup" not in text
    assert "can differ by almost {glue:text}`ch13-delta-sup" in text
    assert "fewer still give a *sensible* argument" in text


def test_d9_the_flooded_class_is_named_by_its_label():
    """13 ~200: the labels are a and b, and a is the class predicted 10100 times."""
    import clfmetrics as cm

    m = np.array([[100, 10000], [0, 100]])
    assert cm.bias(m)[0] == 10100 and cm.correct(m)[0] == 100
    text = chapter("13-choosing-a-metric")
    assert "floods class 0" not in text
    assert "where the classifier floods class a:" in text


def test_the_capstone_names_what_the_chooser_leaves_out_and_why():
    """13, "From the problem to a plan": the screening answers leave out accuracy (PII),
    MCC, kappa and weighted F1 (PI) and macro F1 (PIV), as the text says."""
    from clfbook.properties import property_table
    from clfbook.properties.chooser import choose

    answers = {"classes": "two", "costs": "unequal", "prevalence": "known",
               "imbalance": "yes", "output": "threshold", "calibration": "yes"}  # fmt: skip
    choice = choose(answers, property_table().as_dict())
    out = {e.metric: e.reason for e in choice.left_out}
    assert "PII (class sensitivity)" in out["accuracy"]
    for name in ("mcc", "kappa", "weighted_f1"):
        assert "PI (monotonicity)" in out[name]
    assert out["macro_f1"] == "lacks PIV (prevalence invariance)"
    names = [e.metric for e in choice.pool]
    assert {"roc_auc", "sensitivity", "brier_score", "log_loss", "net_benefit"} <= set(names)
    text = " ".join(chapter("13-choosing-a-metric").split())
    assert "Accuracy is out because it lacks class sensitivity" in text
    assert "MCC and kappa are out because they are not monotone" in text
    assert "Macro F1 is out because it moves with the prevalence" in text
