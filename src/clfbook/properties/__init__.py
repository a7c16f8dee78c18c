"""The five metric properties of Opitz (2024) as executable probes.

A *probe* takes any metric with the library's calling convention (a matrix
``(n, n)`` or a stack ``(..., n, n)`` in, a float or an array ``(...)`` out;
``m[i, j]`` = mass predicted as class ``i`` whose true class is ``j``) and
returns a :class:`ProbeResult`: truthy when the property holds, falsy when it
does not, carrying the evidence (a counterexample, a witness, or how many
cases were tried) and printing itself as text or HTML.

What a probe can and cannot prove
---------------------------------
* PI (monotonicity), PIV (prevalence invariance) and the "data-set free"
  part of PV are universal claims: a probe *refutes* them with a
  counterexample; "holds" means "no counterexample among the cases tried".
* PII (class sensitivity) is an existence claim: a probe *proves* it with a
  witness; "fails" means "no witness among the cases tried".
* PIII (class decomposability) asks whether a function ``g`` and an exponent
  ``p`` exist; the probe tests a necessary condition (zero mixed differences
  between cells that no class shares, after the transform ``x -> x**p``) for a
  grid of ``p``. It can refute PIII for every ``p`` on the grid; it cannot
  construct ``g``, so a pass is confirmed only by the metric's algebraic form.

Every probe is seeded and vectorised: one metric call evaluates thousands of
matrices.

Layout: :mod:`~clfbook.properties.cases` (the shared cases and the metric
harness), one module per probe (:mod:`~clfbook.properties.monotonicity`,
:mod:`~clfbook.properties.sensitivity`,
:mod:`~clfbook.properties.decomposability`,
:mod:`~clfbook.properties.invariance`, :mod:`~clfbook.properties.chance`),
their :mod:`~clfbook.properties.results`, the computed
:mod:`~clfbook.properties.table`, the printed :mod:`~clfbook.properties.paper`
table, the :mod:`~clfbook.properties.compare` between them, the
chooser's filter in :mod:`~clfbook.properties.choose`, and the fingerprint chooser
(questions about the problem, a pool of metrics, a metric plan) in
:mod:`~clfbook.properties.chooser`.
"""

from .cases import CALIBRATED_SUFFIX, PROPERTIES, TABLE_METRICS, calibrated
from .chance import expected_random_matrix, is_chance_corrected
from .choose import is_calibrated_row, metrics_with
from .compare import Disagreement, compare_with_paper, disagreement_table
from .decomposability import EXPONENT_RANGE, is_decomposable
from .invariance import is_prevalence_invariant
from .monotonicity import is_monotonic
from .paper import PAPER_M7, PAPER_NAMES, PAPER_TABLE_5
from .results import ChanceResult, ProbeResult
from .sensitivity import is_class_sensitive
from .table import PaperTable, PropertyTable, probe_all, property_table

__all__ = [
    "CALIBRATED_SUFFIX",
    "EXPONENT_RANGE",
    "PAPER_M7",
    "PAPER_NAMES",
    "PAPER_TABLE_5",
    "PROPERTIES",
    "TABLE_METRICS",
    "ChanceResult",
    "Disagreement",
    "PaperTable",
    "ProbeResult",
    "PropertyTable",
    "calibrated",
    "compare_with_paper",
    "disagreement_table",
    "expected_random_matrix",
    "is_calibrated_row",
    "is_chance_corrected",
    "is_class_sensitive",
    "is_decomposable",
    "is_monotonic",
    "is_prevalence_invariant",
    "metrics_with",
    "probe_all",
    "property_table",
]
