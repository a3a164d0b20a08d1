r"""Accounting for repeated releases: Rényi divergences, tight composition of privacy
profiles, and the export to Google's ``dp_accounting``.

Modules: :mod:`~dpsym.accounting.renyi` (the exact Rényi curve of every mechanism),
:mod:`~dpsym.accounting.composition` (:math:`\delta(\varepsilon^{\prime})` after
:math:`k`-fold composition, exact or bracketed), :mod:`~dpsym.accounting.pld` (a mechanism
as a ``dp_accounting`` privacy-loss distribution; the ``dpsym[accounting]`` extra).
"""
