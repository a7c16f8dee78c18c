"""The tiers: a test that uses a heavy fixture carries its marker, or fails (support/tiers.py)."""

from __future__ import annotations

import pytest
from tiers import NEEDS, TIERS

#: A suite of its own: each heavy fixture stands in by its name, so nothing heavy starts.
SUITE = """
import pytest

{fixtures}

def test_by_argument(browser, built_html):
    pass

@pytest.fixture
def page(browser):
    return browser

def test_through_another_fixture(page):
    pass

def test_by_name_unmarked(request):
    request.getfixturevalue("browser")

@pytest.mark.browser
def test_by_name_marked(request):
    request.getfixturevalue("browser")

def test_light():
    pass
"""
STAND_INS = "\n".join(
    f"@pytest.fixture\ndef {fixture}():\n    return {fixture!r}\n" for fixture in NEEDS
)


@pytest.fixture
def suite(pytester, monkeypatch):
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")  # the inner runs need no plugin
    pytester.makeconftest('pytest_plugins = ["tiers"]')
    pytester.makeini("[pytest]\nmarkers =\n" + "".join(f"    {t}: a tier\n" for t in TIERS))
    pytester.makepyfile(test_suite=SUITE.format(fixtures=STAND_INS))
    return pytester


def test_every_fixture_marker_is_a_tier():
    assert set(NEEDS.values()) <= set(TIERS)


def test_a_fixture_marks_the_tests_that_use_it(suite):
    result = suite.runpytest("-m", "browser", "--collect-only", "-q", "-p", "no:cacheprovider")
    listed = {line.split("::")[1] for line in result.outlines if "::" in line}
    assert listed == {"test_by_argument", "test_through_another_fixture", "test_by_name_marked"}


def test_a_test_that_asks_for_a_heavy_fixture_by_name_fails_without_its_marker(suite):
    """Left in by ``-m "not (...)"``, as ``make check`` selects: it runs, then fails."""
    result = suite.runpytest("-m", f"not ({' or '.join(TIERS)})", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2, errors=1)  # test_light; test_by_name_unmarked, then its error
    result.stdout.fnmatch_lines(["*test_by_name_unmarked uses what @pytest.mark.browser marks*"])
