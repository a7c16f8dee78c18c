"""Tools for the book and the benchmarks rather than for evaluating a classifier.

* :mod:`~clfmetrics.tooling.timing` -- timing a metric on stacks of matrices (the chapter
  "How fast is this?" and ``make bench``).
"""
