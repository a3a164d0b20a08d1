r"""The truncated Laplacian mechanism (Geng, Ding, Guo and Kumar), optimal for
:math:`(\varepsilon, \delta)`-DP in the high-privacy regimes.

Source: paper (003), Definition 3, Theorems 1–3. With :math:`\lambda = \Delta/\varepsilon`
the density is

.. math::

   f(x) = \begin{cases} B\, e^{-|x|/\lambda} & |x| \le A \\ 0 & \text{otherwise,}
          \end{cases}

a Laplace density cut at :math:`\pm A`. The definition fixes :math:`B` and :math:`A` by two
conditions: total mass one, and mass :math:`\delta` on the last interval
:math:`[A - \Delta, A]` of length :math:`\Delta`. The engine solves them,

.. math::

   A = \frac{\Delta}{\varepsilon}\log\Bigl(1 + \frac{e^\varepsilon - 1}{2\delta}\Bigr),
   \qquad B = \frac{1}{2\lambda (1 - e^{-A/\lambda})},

and derives the costs (:math:`\mathbb{E}|X| = \lambda - A/(e^{A/\lambda} - 1)`, ...). The
support reaches one full interval of length :math:`\Delta` (:math:`A \ge \Delta`) exactly
when :math:`\delta \le 1/2`; the paper's domain :math:`0 < \delta < 1/2` is enforced.
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from dpsym.core.params import Derived, Guarantee, delta_param, eps_param, sensitivity_param
from dpsym.mechanisms.declared import DeclaredNoise
from dpsym.mechanisms.laplace import Laplace
from dpsym.symbolic.noise import Piece, SymmetricNoise
from dpsym.symbols import NORM, Delta, delta, x

#: The truncation point :math:`A`.
A = sp.Symbol("A", positive=True)


class TruncatedLaplace(DeclaredNoise):
    r"""Laplace noise of scale :math:`\Delta/\varepsilon` truncated to :math:`[-A, A]`."""

    name = "truncated-laplace"
    title = "Truncated Laplacian mechanism"
    source = "003 Definition 3, Theorems 1-3"
    guarantee = Guarantee.APPROXIMATE
    params = (eps_param(), delta_param(Fraction(1, 2)), sensitivity_param())
    derived = (Derived("A", A, "truncation point"),
               Derived("B", NORM, "density at the origin"))
    _private_by_theorem = True
    #: :math:`B\, e^{-x/\lambda}` on :math:`[0, A)`.
    density = SymmetricNoise(lattice=False,
                             head=(Piece(0, A, NORM * sp.exp(-x / Laplace.scale())),))

    #: :math:`\lambda = \Delta/\varepsilon`, the Laplace scale.
    scale = Laplace.scale

    @classmethod
    def _conditions(cls) -> tuple[tuple[sp.Symbol, sp.Expr, sp.Expr], ...]:
        (piece,) = cls.engine.noise_shape().head
        last = sp.integrate(piece.expr, (x, A - Delta, A), conds="none")
        return ((A, last, delta),)
