"""``python -m clfmetrics report FILE.csv --truth COL --pred COL [--pred COL] [--json]``."""

import sys

from .io import run

if __name__ == "__main__":
    sys.exit(run())
