"""Chapter 2 (02-accuracy-micro.md): each claim the text makes, computed or read."""

from __future__ import annotations

from chapter_text import ROOT, chapter, seed
from pybtex.database import parse_file

import clfmetrics as cm


def test_item16_the_blog_prose_miscounts_fn_of_a():
    blog, talk = seed("004"), seed("003")
    if blog is not None and talk is not None:
        prose = "rows where A was not predicted but was the true class, that is, 1 (the third row)"
        assert prose in " ".join(blog.split()) and "A | 2 | 1 | 2 |" in blog
        assert talk.index("Banach-Tarski") < talk.index("Accuracy Paradox")
    pred = ["A", "A", "B", "C", "A", "B", "B", "C", "C"]
    true = ["A", "A", "A", "A", "B", "B", "C", "C", "C"]
    m = cm.confusion_matrix(true, pred, labels=["A", "B", "C"])
    assert cm.prevalence(m)[0] - cm.correct(m)[0] == 2
    text = chapter("02-accuracy-micro")
    assert "The note's prose miscounts one entry" in text
    assert "opens with the accuracy paradox" not in text


def test_item18_the_microaveraging_post_is_cited_with_its_address():
    entry = parse_file(ROOT / "references.bib").entries["microaveraging"]
    assert entry.fields["url"] == "https://geekyisawesome.blogspot.com/2021/02/"
    assert entry.fields["year"] == "2021" and "Geeky is Awesome" in entry.fields["howpublished"]


def test_d7_the_symbolic_sign_proof_is_for_three_by_three_and_the_lemma_covers_every_n():
    """02 ~302: gradient_signs("accuracy", 3) proves 3 x 3 only; the signs hold for 4 x 4 too."""
    from clfbook.theory import derivations as sym

    for n in (3, 4):
        signs = sym.gradient_signs("accuracy", n)
        assert all(signs[i][j] == ("+" if i == j else "-") for i in range(n) for j in range(n))
    text = chapter("02-accuracy-micro")
    assert "it proves the signs for every positive matrix" not in text
    assert "it proves the signs for every positive $3 \\times 3$ matrix" in text


def test_d8_under_imbalance_accuracy_is_mostly_the_dominant_classs_recall():
    """02 ~391: accuracy = sum_i prevalence(i)/|S| * R_i; the talk's n has weight 0.999."""
    import numpy as np

    model = cm.from_sklearn(np.array([[8, 2], [12, 9978]]))
    weights = cm.prevalence(model) / model.sum()
    assert np.isclose(cm.accuracy(model), weights @ cm.recall(model))
    assert weights[1] > 0.99 and abs(cm.accuracy(model) - cm.recall(model)[1]) < 0.001
    text = chapter("02-accuracy-micro")
    assert "accuracy mostly measures how often the dominant class is predicted" not in text
    assert "accuracy mostly measures the recall of the dominant class" in text


DEFINITIONS = (
    "monotonicity",
    "class-sensitivity",
    "decomposability",
    "prevalence-invariance",
    "chance-correction",
)


def test_the_five_properties_are_previewed_where_they_are_first_used():
    """Teaching (review turn5): chapter 2 previews PI-PV, linked to chapter 10's definitions,
    before its first use of one; chapters 3, 6, 7 and 8 point back to the preview."""
    text = chapter("02-accuracy-micro")
    preview = text.index("(sec-ch02-five-properties)=")
    assert preview < text.index("## Accuracy is monotone") < text.index("Property I (PI)")
    for name in ("PI", "PII", "PIII", "PIV", "PV"):
        assert f"**{name}, " in text[preview:]
    ch10 = chapter("10-metric-properties")
    for label in DEFINITIONS:
        assert f"{{prf:ref}}`def-ch10-{label}`" in text and f":label: def-ch10-{label}" in ch10
    for stem in (
        "03-macro-recall-precision",
        "06-weighted-f1",
        "07-kappa-mcc",
        "08-recall-variants",
    ):
        assert "{ref}`sec-ch02-five-properties`" in chapter(stem), stem
