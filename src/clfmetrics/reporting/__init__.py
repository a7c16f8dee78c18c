"""The report that explains itself, and the paired comparison of two systems."""

from ._comparison import Comparison, compare, compare_from_counts
from ._report import Report, report, report_from_counts

# isort: split
# The interface to the concerns above, not public API (not in __all__): the command line's entry
# to the report, its AUC methods, its decision sections and plans, the sections and their
# renderings.
from ._decisions import parse_thresholds as parse_thresholds
from ._html import document as document
from ._plan import check_plan as check_plan
from ._plan import follow_plan as follow_plan
from ._plan import needs_scores as needs_scores
from ._plan import plan_metrics as plan_metrics
from ._render import Section as Section
from ._render import markdown as markdown
from ._render import plain_values as plain_values
from ._render import text as text
from ._render import to_csv as to_csv
from ._report import report_of_codes as report_of_codes
from ._scores import AUC_METHODS as AUC_METHODS

__all__ = [
    "Comparison",
    "Report",
    "compare",
    "compare_from_counts",
    "report",
    "report_from_counts",
]
