"""The theory the chapters derive, exactly, with sympy.

* :mod:`~clfmetrics.theory.lemma` -- the Δ lemma of Opitz & Burst (2019) and when the two
  macro F1s agree;
* :mod:`~clfmetrics.theory.supremum` -- how far apart they can be, and matrices that get there;
* :mod:`~clfmetrics.theory.derivations` -- accuracy, micro and macro averages, weighted F1 and
  their gradients, step by step;
* :mod:`~clfmetrics.theory.calibration` -- the prevalence-calibration identities of Opitz (2024);
* :mod:`~clfmetrics.theory.scoring` -- the Brier score and log loss are strictly proper, exactly;
  accuracy is not;
* :mod:`~clfmetrics.theory.corrections` -- kappa, MCC and both macro F1s exactly, and the
  derivatives Opitz (2024) misprints (appendices D.1, E.1, G.1), corrected.

Every module here imports sympy; ``import clfmetrics`` loads none of them.
"""
