"""What the scoring fork server (:mod:`.scoring`) imports once, before it forks any score.

Otter's test runner (its package imports otter's whole API), numpy and the library, with
:data:`.isolated.UNUSED` kept out as in every grading process.
"""

import sys

from . import isolated

for _name in isolated.UNUSED:
    sys.modules.setdefault(_name, None)

import otter.test_files.ok_test  # noqa: E402, F401

import clfmetrics  # noqa: E402, F401
