"""What the scoring fork server (:mod:`.scoring`) imports once, before it forks any score.

Otter's test runner (``otter.test_files.ok_test``, otter's own code that runs its test files)
and the trusted packages (:data:`.values.TRUSTED`) every chapter binds names from, imported
by name as the scorer imports them; the others (scipy, sklearn, sympy) are imported by the
scores that need them. The ``otter`` package is set up without running its ``__init__``,
which imports otter's whole API (pandas, nbconvert, ...: a slow import of many modules more)
that scoring never calls; ``otter.test_files`` and everything it imports are
otter's own modules, loaded as usual (and fingerprinted, :func:`.runner.fingerprint`).
"""

import importlib
import importlib.util
import sys

from . import values

#: The trusted packages imported before any score.
COMMON = ("numpy", "clfmetrics")


def _otter_package() -> None:
    """``otter`` as a package whose submodules import as usual, its ``__init__`` not run."""
    if "otter" not in sys.modules:
        spec = importlib.util.find_spec("otter")
        sys.modules["otter"] = importlib.util.module_from_spec(spec)


_otter_package()
importlib.import_module("otter.test_files.ok_test")

for _name in COMMON:
    if _name in values.TRUSTED:
        importlib.import_module(_name)
