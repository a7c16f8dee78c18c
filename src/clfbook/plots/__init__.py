"""Figures for the chapters, tests and widgets (matplotlib).

Each topic has its own module (``clfbook.plots.basic``, ...); the common
figures are re-exported here. Every function labels its axes, uses a
colour-blind-safe palette and returns the figure. Convention: ``m[i, j]`` =
predicted ``i``, true ``j``.
"""

from .basic import OKABE_ITO, bias_prevalence_bars, classwise_bars, confusion_heatmap

__all__ = ["OKABE_ITO", "bias_prevalence_bars", "classwise_bars", "confusion_heatmap"]
