"""Interactive explorers (ipywidgets 8) for teaching with the library.

Each factory returns an object whose ``.view`` is the ipywidgets container
(the object displays itself in Jupyter) and whose plain methods drive it
without a browser, so tests and teachers can script it. The logic behind
every readout is a plain function in the widget's module (numbers in, dicts
or arrays out); the widgets only set widget values. Convention everywhere:
``m[i, j]`` = mass predicted as class ``i`` whose true class is ``j``.
"""

from .chance import chance_baseline_simulator
from .chooser import metric_chooser
from .confusion import confusion_matrix_explorer
from .costs import cost_curve_explorer
from .judge import judge_explorer
from .macro_f1 import macro_f1_explorer
from .nonmonotonicity import nonmonotonicity_explorer
from .paradox import f_measure_paradox_explorer
from .prevalence import prevalence_explorer
from .problem import problem_chooser
from .threshold import threshold_explorer

__all__ = [
    "chance_baseline_simulator",
    "confusion_matrix_explorer",
    "cost_curve_explorer",
    "f_measure_paradox_explorer",
    "judge_explorer",
    "macro_f1_explorer",
    "metric_chooser",
    "nonmonotonicity_explorer",
    "prevalence_explorer",
    "problem_chooser",
    "threshold_explorer",
]
