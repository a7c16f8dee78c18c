"""The theory the chapters derive, exactly, with sympy.

* :mod:`~clfbook.theory.lemma` -- the Δ lemma of Opitz & Burst (2019) and when the two
  macro F1s agree;
* :mod:`~clfbook.theory.supremum` -- how far apart they can be, and matrices that get there;
* :mod:`~clfbook.theory.derivations` -- accuracy, micro and macro averages, weighted F1 and
  their gradients, step by step;
* :mod:`~clfbook.theory.calibration` -- the prevalence-calibration identities of Opitz (2024);
* :mod:`~clfbook.theory.scoring` -- the Brier score and log loss are strictly proper, exactly;
  accuracy is not;
* :mod:`~clfbook.theory.corrections` -- kappa, MCC and both macro F1s exactly, and the
  derivatives Opitz (2024) misprints (appendices D.1, E.1, G.1), corrected.

Every module here imports sympy; ``import clfmetrics`` loads none of them.
"""
