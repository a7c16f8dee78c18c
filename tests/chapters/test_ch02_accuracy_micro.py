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
