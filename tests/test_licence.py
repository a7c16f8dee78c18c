"""The licences and the citation file agree with each other and with the package (no build).

The code is MIT (LICENSE, what ``pyproject.toml`` declares and the wheel carries), the book's
text and figures CC BY 4.0 (LICENSE-text); CITATION.cff is valid CFF 1.2.0 with the
package's version and both licences, and every page's footer names them.
"""

from __future__ import annotations

import re

import yaml
from chapter_runner import ROOT

CFF_REQUIRED = {"cff-version", "message", "title", "authors"}


def project_field(key: str) -> str:
    """A top-level value of ``[project]`` in pyproject.toml, as written (tomllib is 3.11+)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    table = text.split("[project]\n", 1)[1].split("\n[", 1)[0]
    found = re.search(rf"^{re.escape(key)} = (.+)$", table, re.M)
    assert found, f"pyproject.toml's [project] has no {key}"
    return found.group(1)


def test_license_is_mit_and_license_text_is_cc_by():
    code = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert code.startswith("MIT License\n")
    assert "Copyright (c) 2026 The clfmetrics authors" in code
    assert 'THE SOFTWARE IS PROVIDED "AS IS"' in code
    text = (ROOT / "LICENSE-text").read_text(encoding="utf-8")
    assert "Creative Commons Attribution" in text and "4.0" in text
    assert "creativecommons.org/licenses/by/4.0/legalcode" in text
    assert "MIT licence in LICENSE" in text


def test_pyproject_ships_the_code_licence_alone():
    assert project_field("license") == '"MIT"'
    assert project_field("license-files") == '["LICENSE"]'


def test_citation_cff_is_valid_and_matches_the_package():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert CFF_REQUIRED <= set(cff), CFF_REQUIRED - set(cff)
    assert cff["cff-version"] == "1.2.0"
    assert cff["authors"] == [{"name": "The clfmetrics authors"}]
    assert f'"{cff["version"]}"' == project_field("version")
    assert cff["license"] == ["MIT", "CC-BY-4.0"]
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    assert cff["repository-code"] == config["repository"]["url"]
    assert config["author"] == "The clfmetrics authors"


def test_every_page_footer_states_the_licences():
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    footer = config["html"]["extra_footer"]
    licence = "https://creativecommons.org/licenses/by/4.0/"
    assert f'<a href="{licence}">CC BY 4.0</a>' in footer
    assert "MIT licence" in footer
