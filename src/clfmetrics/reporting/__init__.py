"""The report that explains itself, and the paired comparison of two systems."""

from ._comparison import Comparison, compare, compare_from_counts
from ._report import Report, report, report_from_counts

__all__ = [
    "Comparison",
    "Report",
    "compare",
    "compare_from_counts",
    "report",
    "report_from_counts",
]
