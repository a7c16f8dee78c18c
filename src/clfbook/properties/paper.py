"""Table 5 of Opitz (2024) as printed, and the paper's matrix of tables 7 and 8.

Pure data: the marks, the row names and the matrix that the probes and the
chapters compare against. Nothing here is computed.
"""

from __future__ import annotations

import numpy as np

#: The marks of Table 5: the metric has the property; has it only after
#: prevalence calibration; has it in neither form.
HAS, AFTER_CALIBRATION, LACKS = "✓", "(✓)", "✗"
_Y, _C, _N = HAS, AFTER_CALIBRATION, LACKS

#: The paper's row labels for the library names.
PAPER_NAMES = {
    "accuracy": "Accuracy (= micro F1)",
    "macro_recall": "macro Recall (macR)",
    "geometric_macro_recall": "GmacR",
    "harmonic_macro_recall": "HmacR",
    "macro_precision": "macro Precision",
    "macro_f1": "macro F1 (macF1)",
    "f1_of_averages": "macro F1' (macF1')",
    "weighted_f1": "weighted F1",
    "kappa": "Kappa",
    "mcc": "MCC",
}

#: Table 5 of Opitz (2024) as printed: "✓" the metric has the property, "(✓)" it
#: has it after prevalence calibration, "✗" neither; "PV_note" is the printed
#: chance-correction annotation. The PDF-to-text extraction kept only the "(✓)"
#: marks and the annotations; the plain marks are restored from the paper's
#: own text (section 4, appendices A-G and the summary in 6.1), and the three
#: "(✓)" of weighted F1 are placed on PIII-PV because PII is a plain ✓ (4.6)
#: and PI is a plain ✗ (F.1). GmacR and HmacR share one printed row.
PAPER_TABLE_5 = {
    "accuracy": {"PI": _Y, "PII": _C, "PIII": _C, "PIV": _C, "PV": _C, "PV_note": ""},
    "macro_recall": {
        "PI": _Y, "PII": _Y, "PIII": _Y, "PIV": _Y, "PV": _Y, "PV_note": "1/n, strict",
    },
    "geometric_macro_recall": {
        "PI": _Y, "PII": _Y, "PIII": _Y, "PIV": _Y, "PV": _Y, "PV_note": "1/n",
    },
    "harmonic_macro_recall": {
        "PI": _Y, "PII": _Y, "PIII": _Y, "PIV": _Y, "PV": _Y, "PV_note": "1/n",
    },
    "macro_precision": {
        "PI": _Y, "PII": _Y, "PIII": _Y, "PIV": _C, "PV": _Y, "PV_note": "1/n, strict",
    },
    "macro_f1": {"PI": _Y, "PII": _Y, "PIII": _Y, "PIV": _C, "PV": _Y, "PV_note": "1/n"},
    "f1_of_averages": {
        "PI": _Y, "PII": _Y, "PIII": _N, "PIV": _C, "PV": _Y, "PV_note": "1/n, strict",
    },
    "weighted_f1": {"PI": _N, "PII": _Y, "PIII": _C, "PIV": _C, "PV": _C, "PV_note": ""},
    "kappa": {"PI": _N, "PII": _Y, "PIII": _N, "PIV": _C, "PV": _Y, "PV_note": "0, complete"},
    "mcc": {"PI": _N, "PII": _Y, "PIII": _N, "PIV": _C, "PV": _Y, "PV_note": "0, complete"},
}  # fmt: skip

#: Opitz (2024), tables 7 and 8: adding 10 errors to m[2, 1] raises MCC and kappa.
PAPER_M7 = np.array([[10.0, 43.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
