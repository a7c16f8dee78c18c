"""What reproduces the source papers: their experiments, searches and counterexamples.

* :mod:`~clfmetrics.sources.experiments` -- the simulations of Opitz & Burst (2019);
* :mod:`~clfmetrics.sources.search` -- exhaustive and random searches over count matrices;
* :mod:`~clfmetrics.sources.nonmonotonic` -- one more error that raises a score;
* :mod:`~clfmetrics.sources.paradox` -- the F-measure paradox of vor der Brück (2020);
* :mod:`~clfmetrics.sources.shared_task` and :mod:`~clfmetrics.sources.ranking` -- the
  SemEval-2017 Task 4 scores of Opitz (2024), Table 6 (shipped in ``data/``), and rankings.

These modules use the library (``clfmetrics``); the library never imports them.
"""
