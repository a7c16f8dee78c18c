"""What reproduces the source papers: their experiments, searches and counterexamples.

* :mod:`~clfbook.sources.experiments` -- the simulations of Opitz & Burst (2019);
* :mod:`~clfbook.sources.search` -- exhaustive and random searches over count matrices;
* :mod:`~clfbook.sources.nonmonotonic` -- one more error that raises a score;
* :mod:`~clfbook.sources.paradox` -- the F-measure paradox of vor der Brück (2020);
* :mod:`~clfbook.sources.shared_task` and :mod:`~clfbook.sources.ranking` -- the
  SemEval-2017 Task 4 scores of Opitz (2024), Table 6 (shipped in ``data/``), and rankings.

These modules use the library (``clfmetrics``); the library never imports them.
"""
