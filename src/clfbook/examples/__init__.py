"""Data sets and fitted models for the evaluation chapters.

``digits``: scikit-learn's handwritten digits as an imbalanced task with training,
validation, test and deployment parts ("A real classifier, end to end"); it needs
scikit-learn (the library's top level does not) and uses data that ship inside it, so
nothing is downloaded at run time. ``screening``: a simulated one-measurement screening
task cut into training, validation and test parts ("Scores and thresholds"; numpy only).
"""

from .digits import DigitsTask, ScoredModel, fit_logistic, imbalanced_digits, seeded_matrices

__all__ = ["DigitsTask", "ScoredModel", "fit_logistic", "imbalanced_digits", "seeded_matrices"]
