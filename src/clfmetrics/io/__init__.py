"""Input and output: the command line, its file readers, and counts from data engines."""

from ._cli import run
from ._engines import dask_counts, duckdb_counts, spark_counts
from ._file import InputError

__all__ = [
    "InputError",
    "dask_counts",
    "duckdb_counts",
    "run",
    "spark_counts",
]
