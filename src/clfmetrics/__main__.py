"""``python -m clfmetrics report FILE.csv --truth COL --pred COL [--pred COL] [--json]``."""

import sys

from .cli import run

if __name__ == "__main__":
    sys.exit(run())
