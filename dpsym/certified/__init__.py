"""Certified values: rigorous enclosures (Arb balls through python-flint) and exact
rationals, rounded correctly, and what proves each printed digit.

Modules: :mod:`~dpsym.certified.balls` (closed forms evaluated in ball arithmetic),
:mod:`~dpsym.certified.ball_texts` (balls as certified decimal texts),
:mod:`~dpsym.certified.lerch` (Lerch sums with proven remainders),
:mod:`~dpsym.certified.intervals` and :mod:`~dpsym.certified.interval_plans` (interval
Newton minimisers and their sign coverings), :mod:`~dpsym.certified.integer_argmin`
(proven integer minimisers), :mod:`~dpsym.certified.evaluation` (:class:`Value` and the
choice of path).
"""
