"""Real data sets and fitted models for the chapter "A real classifier, end to end".

This subpackage needs scikit-learn (the library's top level does not); it uses
data that ship inside scikit-learn, so nothing is downloaded at run time.
"""

from .digits import DigitsTask, ScoredModel, fit_logistic, imbalanced_digits, seeded_matrices

__all__ = ["DigitsTask", "ScoredModel", "fit_logistic", "imbalanced_digits", "seeded_matrices"]
