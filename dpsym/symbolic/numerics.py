r"""From sympy expressions to mpmath values at the current working precision.

:func:`evaluate` compiles an expression with ``sympy.lambdify`` (the special functions of
:mod:`dpsym.symbolic.sums` included) and evaluates it at exact parameter values, integer
parts of exactly known arguments decided exactly first; :func:`to_mpf` turns an exact
number into an mpf. These values are approximations: what proves a digit is in
:mod:`dpsym.certified`.

Precision is only ever scoped, and under the precision lock (:mod:`dpsym.precision`:
``workdps``, ``arb_workprec``); nothing here assigns ``mp.dps``.

Threads: mpmath's and python-flint's working precisions are process-wide. Every change
of precision in dpsym holds one process-wide re-entrant lock, and every public entry point
that computes (``Mechanism.value``, ``privacy_profile``, ``series``, the bounds' ``value``,
the Gaussian calibration, :func:`evaluate`...) holds it for the whole computation
(:func:`dpsym.precision.exclusive`), so that any number of threads get the digits of a
serial run. The limit: code outside dpsym that changes mpmath's precision in another
thread during a dpsym computation (assigning ``mpmath.mp.dps``, ``mpmath.workdps``,
sympy's numeric evaluation of special functions) is outside dpsym's control; scope it with
:func:`dpsym.precision.workdps`, or run it inside ``with dpsym.precision.exclusive():``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import lru_cache

import mpmath
import sympy as sp

from dpsym.errors import CertificationError
from dpsym.precision import exclusive
from dpsym.symbolic.sums import NUMERIC_FUNCTIONS
from dpsym.symbols import b, eps


@exclusive
def to_mpf(value: Fraction | int | sp.Expr) -> mpmath.mpf:
    """An exact number (rational, or a constant sympy expression) as an mpf at the
    current working precision."""
    if isinstance(value, sp.Rational):
        value = Fraction(int(value.p), int(value.q))
    elif isinstance(value, sp.Expr):
        if not value.is_number:
            raise ValueError(f"not a number: {value}")
        return _real(mpmath.mpmathify(value.evalf(mpmath.mp.dps + 10)))
    value = Fraction(value)
    return mpmath.mpf(value.numerator) / value.denominator


def _exact_integer_parts(expr: sp.Expr, values: Mapping[sp.Symbol, object]) -> sp.Expr:
    """``expr`` with every floor/ceiling whose arguments are exactly known evaluated."""
    exact = {}
    for s, v in values.items():
        if isinstance(v, (int, Fraction)) and not isinstance(v, bool):
            exact[s] = sp.Rational(Fraction(v).numerator, Fraction(v).denominator)
        elif isinstance(v, sp.Rational):
            exact[s] = v
    parts = {}
    for atom in expr.atoms(sp.floor, sp.ceiling):
        value = atom.xreplace(exact)
        if value.is_Integer:
            parts[atom] = value
    return expr.xreplace(parts) if parts else expr


@lru_cache(maxsize=512)
def _lambdified(expr: sp.Expr, symbols: tuple[sp.Symbol, ...]) -> Callable:
    return sp.lambdify(symbols, expr, modules=[NUMERIC_FUNCTIONS, "mpmath"])


@lru_cache(maxsize=1024)
def _symbols(expr: sp.Expr) -> tuple[sp.Symbol, ...]:
    """The free symbols of ``expr`` sorted by name (an expression is evaluated at many
    points: its tree is walked once)."""
    return tuple(sorted(expr.free_symbols, key=str))


@exclusive
def evaluate(expr: sp.Expr, values: Mapping[sp.Symbol, object]) -> mpmath.mpf:
    r"""Evaluate ``expr`` with mpmath at the current working precision.

    ``values`` maps symbols to exact rationals (or mpf); when :math:`\varepsilon` is given
    and :math:`b` is not, :math:`b = e^{-\varepsilon}` is supplied. Integer parts
    (``floor``, ``ceiling``) of exactly given arguments are evaluated exactly first: in
    binary floating point :math:`\lceil 1/0.01 \rceil` would be 101.
    """
    expr = sp.sympify(expr)
    if expr.has(sp.floor, sp.ceiling):
        expr = _exact_integer_parts(expr, values)
    vals = {s: (v if isinstance(v, mpmath.mpf) else to_mpf(v)) for s, v in values.items()}
    if eps in vals and b not in vals:
        vals[b] = mpmath.exp(-vals[eps])
    symbols = _symbols(expr)
    missing = [s for s in symbols if s not in vals]
    if missing:
        raise ValueError(f"no value for {', '.join(map(str, missing))}")
    result = _lambdified(expr, symbols)(*(vals[s] for s in symbols))
    return _real(result)


def _real(value: object) -> mpmath.mpf:
    if isinstance(value, mpmath.mpc):
        if abs(value.imag) > abs(value.real) * mpmath.mpf(2) ** (-mpmath.mp.prec + 20) + \
                mpmath.mpf(2) ** (-mpmath.mp.prec * 2):
            raise CertificationError(f"expected a real value, got {value}")
        value = value.real
    return mpmath.mpf(value)


