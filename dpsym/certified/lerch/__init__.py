r"""Lerch sums :math:`\sum_{k \ge 0} z^k (k + a)^s` enclosed in Arb with proven remainders.

Modules: :mod:`~dpsym.certified.lerch.methods` (the three representations and the choice
between them), :mod:`~dpsym.certified.lerch.balls` (enclosures for a point, an interval
or a Taylor series of the offset), :mod:`~dpsym.certified.lerch.intervals` (the sign
covering of a slope proven increasing).
"""
