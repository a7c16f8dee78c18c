"""The JupyterLab the tests start reads Binder's Jupyter configuration, and no other.

``make setup`` copies ``binder/jupyter`` into the venv's ``etc/jupyter`` (as ``postBuild``
does on Binder), and JupyterLab merges every configuration folder it finds. Had the venv's
copy gone stale, ``test_jupyterlab.py`` would test the old settings, not Binder's: emptying
``binder/jupyter/labconfig/default_setting_overrides.json`` still passed it, because the
venv's copy still made the notebook the default viewer.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from chapter_runner import ROOT

BINDER = ROOT / "binder" / "jupyter"
VENV = Path(sys.prefix) / "etc" / "jupyter"
FILES = sorted(p.relative_to(BINDER) for p in BINDER.rglob("*") if p.is_file())


def test_binder_has_the_settings_the_lab_test_relies_on():
    assert Path("labconfig/default_setting_overrides.json") in FILES
    assert Path("jupyter_server_config.py") in FILES


@pytest.mark.parametrize("name", FILES, ids=str)
def test_the_venvs_jupyter_configuration_is_binders(name):
    installed = VENV / name
    assert installed.exists(), f"{installed} is missing: run make setup"
    assert installed.read_bytes() == (BINDER / name).read_bytes(), (
        f"{installed} differs from binder/jupyter/{name}: make setup copies it again"
    )
