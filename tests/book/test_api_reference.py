"""The API reference documents every public object once, where the chapters point (no build).

Each name of ``clfmetrics.__all__`` is documented on exactly one page of ``chapters/api/``,
at the path of the concern that exports it (``clfmetrics.metrics.macro_f1``), by one
``auto...`` directive under a ``currentmodule``; no page documents a whole module's members
(that documented the shared names twice). Every ``{py:...}`` role of the book points at a
module or object the reference documents, and the command line's page renders its options
from the parser the command runs.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from collections import Counter

from chapter_runner import ROOT
from chapter_text import command_lines

import clfmetrics

sys.path.insert(0, str(ROOT / "_ext"))
from api_data import defining_comment  # the book's extension (_ext/api_data.py)

API = ROOT / "chapters" / "api"
CONCERNS = ["metrics", "scores", "inference", "probabilities", "reporting", "io"]
DIRECTIVE = re.compile(
    r"^\.\. (currentmodule|automodule|auto(?:function|class|exception|data)|py:exception)::"
    r" *(\S+)((?:\n   .*)*)",
    re.M,
)
ROLE = re.compile(r"\{py:\w+\}`(?:[^`<]*<([^>`]+)>|~?([^`]+))`")


def documented() -> tuple[list[tuple[str, str]], set[str]]:
    """The objects documented on the API pages, as (page, full name), and the modules."""
    objects, modules = [], set()
    for page in sorted(API.glob("*.md")):
        module = None
        for kind, name, options in DIRECTIVE.findall(page.read_text(encoding="utf-8")):
            if kind == "automodule":
                assert ":members:" not in options, f"{page.name}: automodule {name} :members:"
                modules.add(name)
            if kind in ("currentmodule", "automodule"):
                module = name
                continue
            given = re.search(r":module: *(\S+)", options)
            owner = given.group(1) if given else module
            assert owner, f"{page.name}: {name} documented before any currentmodule"
            objects.append((page.name, f"{owner}.{name}"))
    return objects, modules


def concern_of(name: str) -> str:
    """The module whose ``__all__`` exports ``name``: its concern, else the package."""
    owners = [
        f"clfmetrics.{c}"
        for c in CONCERNS
        if name in importlib.import_module(f"clfmetrics.{c}").__all__
    ]
    assert len(owners) <= 1, f"{name} is exported by {owners}"
    return owners[0] if owners else "clfmetrics"


def test_every_public_name_is_documented_once_at_its_concern():
    objects, _ = documented()
    counts = Counter(full for _, full in objects)
    twice = sorted(full for full, n in counts.items() if n > 1)
    assert not twice, f"documented more than once: {twice}"
    expected = {f"{concern_of(name)}.{name}" for name in clfmetrics.__all__}
    missing = sorted(expected - set(counts))
    assert not missing, f"public names the API reference does not document: {missing}"
    stray = sorted(set(counts) - expected)
    assert not stray, f"documented at another path than their concern's, or not public: {stray}"
    for full in counts:
        module, _, name = full.rpartition(".")
        assert getattr(importlib.import_module(module), name) is getattr(clfmetrics, name)


def test_every_py_role_of_the_book_has_a_documented_target():
    objects, modules = documented()
    targets = modules | {full for _, full in objects}
    pages = sorted((ROOT / "chapters").rglob("*.md"))
    missing = []
    for page in pages:
        for labelled, plain in ROLE.findall(page.read_text(encoding="utf-8")):
            target = (labelled or plain).lstrip("~")
            owner, _, attribute = target.rpartition(".")
            if target in targets:
                continue
            if owner in targets and not owner.split(".")[-1].islower():
                module, _, cls = owner.rpartition(".")
                if hasattr(getattr(importlib.import_module(module), cls), attribute):
                    continue  # a member of a documented class
            missing.append(f"{page.relative_to(ROOT)}: {target}")
    assert not missing, missing
    assert len(pages) > 20


def test_the_command_line_page_renders_the_parser_the_command_runs():
    text = (API / "cli.md").read_text(encoding="utf-8")
    directive = re.search(r"\.\. argparse::\n((?:   .*\n)+)", text)
    assert directive, "chapters/api/cli.md has no argparse directive"
    options = dict(re.findall(r":(\w+): *(.*)", directive.group(1)))
    module = importlib.import_module(options["module"])
    parser = getattr(module, options["func"])()
    assert isinstance(parser, argparse.ArgumentParser)
    assert parser.prog == options["prog"] == "python -m clfmetrics"
    assert options["path"] == "report"
    from clfmetrics.io import _cli

    assert module is _cli  # the parser that `run` parses with


def test_the_command_line_pages_examples_are_accepted_by_the_parser():
    from clfmetrics.io._cli import _parser

    lines = command_lines((API / "cli.md").read_text(encoding="utf-8"))
    assert len(lines) >= 5
    for args in lines:
        assert _parser().parse_args(args).command == "report"


def test_every_documented_constant_has_the_comment_the_build_shows():
    """``_ext/api_data.py`` documents a constant by its ``#:`` comment where it is defined."""
    constants = [
        full
        for page in sorted(API.glob("*.md"))
        for full in re.findall(r"^\.\. autodata:: *(\S+)", page.read_text(encoding="utf-8"), re.M)
    ]
    assert {"METRICS", "CLASSWISE", "RANGES", "AUC_COVERAGE"} <= set(constants)
    for name in constants:
        module = concern_of(name)
        comment = defining_comment(f"{module}.{name}", getattr(clfmetrics, name))
        assert comment and comment[0].strip(), f"{module}.{name} has no '#:' comment"
    comment = defining_comment("clfmetrics.metrics.METRICS", clfmetrics.METRICS)
    assert comment[0].startswith("The single-number metrics of the library, by name")
