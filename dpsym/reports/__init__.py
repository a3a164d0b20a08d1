"""What dpsym reports from the mechanisms and bounds: comparisons, audits, sweeps,
figures, printed formulas, and the generated derivation cache.

Modules: :mod:`~dpsym.reports.printing` (formulas, LaTeX and tables as text),
:mod:`~dpsym.reports.selection` (``dpsym compare``), :mod:`~dpsym.reports.audit` (audits of
a calibration made elsewhere), :mod:`~dpsym.reports.sweep` (a quantity over a parameter
grid), :mod:`~dpsym.reports.figures` (Section 6 and the multi-dimensional figures),
:mod:`~dpsym.reports.cachegen` (generation of :mod:`dpsym.symbolic._derived`).
"""
