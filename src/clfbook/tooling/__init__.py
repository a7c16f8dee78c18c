"""Tools for the book and the benchmarks rather than for evaluating a classifier.

* :mod:`~clfbook.tooling.timing` -- timing a metric on stacks of matrices (the chapter
  "How fast is this?" and ``make bench``).
* :mod:`~clfbook.tooling.auc_coverage_table` -- writes the library's simulated table of the
  ROC AUC (and AP) intervals' coverage, ``clfmetrics/inference/_auc_coverage_table.py``.
* :mod:`~clfbook.tooling.lab_markup`, :mod:`~clfbook.tooling.lab_contents` -- chapters
  in JupyterLab: their Sphinx-only markup rewritten for ``jupyterlab-myst``, and the Jupyter
  server's contents manager that does it when a chapter opens (``binder/jupyter``).
* :mod:`~clfbook.tooling.glue` -- the chapters' ``glue``: myst-nb's, keeping each value in
  the kernel, where JupyterLab's inline expressions read it.
* :mod:`~clfbook.tooling.pdf` -- the whole book as one PDF (``make pdf``): the HTML build's
  pages joined into one, printed by Debian's Chromium.
"""
