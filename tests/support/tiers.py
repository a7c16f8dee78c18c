"""The suite's tiers: a marker for each heavy thing a test needs (a pytest plugin).

pyproject.toml registers the markers. A test that uses one of the fixtures of ``NEEDS``
(directly or through another fixture) gets that fixture's marker at collection, before ``-m``
selects, so ``make check`` (``-m "not (book or browser or ...)"``) leaves it out. A test that
reaches such a fixture any other way (``request.getfixturevalue``) has not been marked, so it
would run in ``make check`` with the heavy thing: it fails, naming the marker it lacks. A
file whose needs no fixture shows (a sandbox, a fresh virtual environment) marks itself with
``pytestmark``.
"""

from __future__ import annotations

import pytest

#: The fixtures that bring something heavy, and the marker a test using one must carry.
NEEDS = {
    "built_html": "book",
    "built_pdf": "book",
    "browser": "browser",
    "binder_env": "fresh_env",
    "spark": "jvm",
    "dask_dataframe": "dask",
}
#: Every tier's marker; ``make check`` runs the tests that carry none of them.
TIERS = ("book", "browser", "jupyterlab", "sandbox", "jvm", "dask", "fresh_env", "bench")


def missing_marks(item: pytest.Item, fixturenames) -> list[str]:
    """The markers that ``item`` lacks for the fixtures of ``fixturenames`` it uses."""
    return sorted(
        {
            mark
            for fixture, mark in NEEDS.items()
            if fixture in fixturenames and item.get_closest_marker(mark) is None
        }
    )


@pytest.hookimpl(tryfirst=True)  # before the mark plugin deselects by -m
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        for mark in missing_marks(item, getattr(item, "fixturenames", ())):
            item.add_marker(mark)


@pytest.fixture(autouse=True)
def _marked_for_what_it_uses(request):
    """After the test: every heavy fixture it used, even one asked for by name, was marked."""
    yield
    missing = missing_marks(request.node, request.fixturenames)
    if missing:
        marks = ", ".join(f"@pytest.mark.{m}" for m in missing)
        pytest.fail(f"{request.node.nodeid} uses what {marks} marks, without the marker")
