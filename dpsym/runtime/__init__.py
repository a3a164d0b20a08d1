"""Running a computation: forked workers under time and memory budgets, staged files,
progress on standard error.

Modules: :mod:`~dpsym.runtime.forkrun` (forked worker processes),
:mod:`~dpsym.runtime.budget` (time and memory budgets of a call),
:mod:`~dpsym.runtime.staging` (atomic files and staged directories),
:mod:`~dpsym.runtime.progress` (a progress indicator).
"""
