r"""The discrete uniform mechanism: near-optimal :math:`(0, \delta)`-DP noise for an
integer-valued query with integer sensitivity :math:`\Delta`.

Source: thesis slides (000), Part Three ("Upper bound: uniform noise mechanism"). The
slides take the uniform distribution on the :math:`n = \Delta/\delta` integers
:math:`-\Delta/(2\delta), \dots, \Delta/(2\delta) - 1`, assuming :math:`\Delta/(2\delta)`
is an integer. For every :math:`\delta \in (0, 1)`, a uniform distribution on :math:`n`
consecutive integers is :math:`(0, \delta)`-DP exactly when :math:`n \ge \Delta/\delta`
(its total variation from a shift by :math:`|d| \le \Delta` is :math:`\min(|d|, n)/n`),
so :math:`n = \lceil \Delta/\delta \rceil`. For even :math:`n` the uniform law is not
symmetric; dpsym uses its symmetrisation (the average with its mirror image), which has
the same cost for every symmetric cost and is :math:`(0, \delta)`-DP by the joint
convexity of the total variation:

.. math::

   P(i) = \begin{cases} 1/n & |i| < n/2 \\ 1/(2n) & |i| = n/2 \\ 0 & |i| > n/2.
          \end{cases}

The pieces are written with :math:`\lfloor \cdot \rfloor` so that one description covers
odd and even :math:`n`; the engine derives :math:`P` from normalisation and the costs
(for :math:`n = \Delta/\delta` even: :math:`\mathbb{E}|X| = \Delta/(4\delta)` and
:math:`\mathbb{E}X^2 = \Delta^2/(12\delta^2) + 1/6`, the slides' :math:`V_{UB}`).
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from dpsym.core.params import Derived, Guarantee, delta_param, sensitivity_param
from dpsym.errors import DomainError
from dpsym.mechanisms.declared import DeclaredNoise
from dpsym.symbolic.noise import Piece, SymmetricNoise
from dpsym.symbols import NORM, Delta, delta

#: The number of support points :math:`n = \lceil \Delta/\delta \rceil`.
n = sp.Symbol("n", positive=True, integer=True)

#: Largest support size accepted (the symbolic sums are exact; the limit keeps values
#: of Delta/delta sane for the integer samplers).
MAX_SUPPORT = 10**15


class DiscreteUniform(DeclaredNoise):
    r"""Uniform noise on :math:`\lceil \Delta/\delta \rceil` integers (symmetrised)."""

    name = "discrete-uniform"
    title = "Discrete uniform mechanism ((0, delta)-DP, integer query)"
    source = "000 Part Three (upper bound: uniform noise mechanism)"
    guarantee = Guarantee.ZERO_EPS
    lattice = True
    params = (delta_param(Fraction(1)), sensitivity_param(integer=True, upper=10**6))
    #: Joint limit of the parameters (shown by ``dpsym list``), checked by
    #: :meth:`check_joint`.
    limits = (f"Delta/delta <= {MAX_SUPPORT:.0e}",)
    derived = (Derived("n", n, "number of support points"),
               Derived("P0", NORM, "mass of each interior point"))
    _private_by_theorem = True
    #: Mass :math:`P_0` on :math:`0, \dots, \lfloor (n+1)/2 \rfloor - 1` and
    #: :math:`P_0/2` up to :math:`\lfloor n/2 \rfloor`.
    density = SymmetricNoise(lattice=True, head=(
        Piece(0, sp.floor((n + 1) / 2), NORM),
        Piece(sp.floor((n + 1) / 2), sp.floor(n / 2) + 1, NORM / 2)))

    @classmethod
    def _conditions(cls) -> tuple[tuple[sp.Symbol, sp.Expr, sp.Expr], ...]:
        return ((n, n, sp.ceiling(Delta / delta)),)

    @classmethod
    def _check_joint(cls, values) -> None:
        super()._check_joint(values)
        if "delta" in values and "Delta" in values:
            if values["Delta"] / values["delta"] > MAX_SUPPORT:
                raise DomainError("delta", f"Delta/delta must be at most {MAX_SUPPORT:.0e} "
                                  f"(got {float(values['Delta'] / values['delta']):.3g})")
