r"""Constant sympy expressions as Arb balls.

:func:`arb_of` encloses a constant sympy expression (elementary nodes exactly, special
functions through :func:`dpsym.certified.balls.enclosure`); :func:`exact_sym` turns an
exact number into a sympy number; :func:`sort_key` orders constants (breakpoints). Shared
by the privacy-loss laws (:mod:`dpsym.privacy.loss`), the Rényi divergences and
composition; their balls are rounded by :mod:`dpsym.certified.kernel`.
"""

from __future__ import annotations

from fractions import Fraction

import flint
import mpmath
import sympy as sp

from dpsym.certified.balls import enclosure
from dpsym.core.expressions import exact_ball
from dpsym.errors import DomainError, UnsupportedError
from dpsym.precision import workdps


def arb_of(expr: object) -> flint.arb:
    """A ball containing the constant sympy expression ``expr`` at the current Arb
    precision: the elementary nodes by :func:`dpsym.core.expressions.exact_ball`, anything
    else (special functions) by :func:`dpsym.certified.balls.enclosure`."""
    e = sp.sympify(expr)
    try:
        return exact_ball(e)
    except DomainError:
        pass
    ball = enclosure(e, {}, flint.ctx.prec)
    if ball is None:
        raise UnsupportedError(f"cannot evaluate {str(e)[:60]} in ball arithmetic")
    return ball


def exact_sym(value: object) -> sp.Expr:
    """An exact number (Fraction, int or constant sympy expression) as a sympy number."""
    if isinstance(value, Fraction):
        return sp.Rational(value.numerator, value.denominator)
    return sp.sympify(value)


def sort_key(expr: sp.Expr) -> mpmath.mpf:
    """A 60-digit value of a constant (for ordering breakpoints)."""
    if expr is sp.oo:
        return mpmath.inf
    if expr is -sp.oo:
        return -mpmath.inf
    with workdps(60):
        return +mpmath.mpf(sp.N(expr, 60))


__all__ = ["arb_of", "exact_sym", "sort_key"]
