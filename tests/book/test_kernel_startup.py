"""What every chapter's kernel pays before its first cell: no parser built at import time.

Each chapter glues its numbers with ``clfbook.tooling.glue.glue``, that is ``myst_nb.glue``,
which imports nbformat and so jsonschema. jsonschema 4.25+ imports rfc3987-syntax when it is
installed, which builds an Earley parser at import (slow, in every kernel); requirements.txt
pins jsonschema 4.24.1, which does not. The check is on the modules loaded, not on a time.
"""

import subprocess
import sys

GLUE = (
    "import sys; from clfbook.tooling.glue import glue; glue('x', 1, display=False); "
    "print(sorted(m for m in ('rfc3987_syntax', 'lark') if m in sys.modules))"
)


def test_glue_in_a_fresh_kernel_builds_no_iri_parser():
    out = subprocess.run(
        [sys.executable, "-c", GLUE], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]", f"myst_nb.glue loads {out.strip()} at import"
