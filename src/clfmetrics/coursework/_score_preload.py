"""What the scoring fork server (:mod:`.scoring`) imports once, before it forks any score.

Otter's test runner (its package imports otter's whole API) and the trusted packages
(:data:`.values.TRUSTED`) every chapter binds names from, imported by name as the scorer
imports them; the others (scipy, sklearn, sympy) are imported by the scores that need them.
"""

import importlib

import otter.test_files.ok_test  # noqa: F401

from . import values

#: The trusted packages imported before any score.
COMMON = ("numpy", "clfmetrics")

for _name in COMMON:
    if _name in values.TRUSTED:
        importlib.import_module(_name)
