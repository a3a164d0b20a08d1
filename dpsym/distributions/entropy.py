r"""The entropy of a noise, from its numeric description (:mod:`dpsym.symbolic.noise`).

A piece of constant level :math:`c` and width :math:`w` contributes :math:`w\,c \log c`;
a geometric tail (period scaled by :math:`q`) sums in closed form,
:math:`\sum_k q^k (a + m\,k \log q) = a/(1-q) + m \log q \; q/(1-q)^2` for a period with
:math:`\int f \log f = a` and mass :math:`m`; other pieces are integrated (summed on a
lattice) by mpmath at the working precision.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from dpsym.errors import UnsupportedError
from dpsym.symbolic.noise import SymmetricNoise
from dpsym.symbols import u, x


def piece_entropy(lo: mpmath.mpf, hi: mpmath.mpf, expr: sp.Expr, var: sp.Symbol,
                   lattice: bool) -> tuple[mpmath.mpf, mpmath.mpf]:
    r"""(:math:`\int f \log f`, :math:`\int f`) over one piece (lattice: sums)."""
    expr = sp.sympify(expr)
    if var not in expr.free_symbols:
        level = mpmath.mpmathify(sp.N(expr, mpmath.mp.dps + 5))
        count = hi - lo
        if level == 0:
            return mpmath.mpf(0), mpmath.mpf(0)
        return count * level * mpmath.log(level), count * level
    f = sp.lambdify(var, expr, "mpmath")

    def term(t: mpmath.mpf) -> mpmath.mpf:
        value = f(t)
        return value * mpmath.log(value) if value > 0 else mpmath.mpf(0)

    if lattice:
        span = [lo, hi - 1]
        return mpmath.nsum(term, span), mpmath.nsum(f, span)
    return mpmath.quad(term, [lo, hi]), mpmath.quad(f, [lo, hi])


#: Why a law with a point mass at 0 and a density has no entropy.
MIXED_LAW = ("the noise is a mixed law (a point mass at 0 and a density): a mixed law has "
             "no differential entropy (and, having a density, no Shannon entropy)")


def noise_entropy(noise: SymmetricNoise) -> mpmath.mpf:
    r"""The entropy (nats) of a numeric noise description, at the working precision:
    :math:`-\int f \log f` of a density, :math:`-\sum p \log p` of a mass function.

    Raises
    ------
    UnsupportedError
        For a mixed law (:data:`MIXED_LAW`).
    """
    if not noise.lattice and sp.sympify(noise.atom) != 0:
        raise UnsupportedError(MIXED_LAW)

    def num(e: sp.Expr) -> mpmath.mpf:
        e = sp.sympify(e)
        return mpmath.inf if e == sp.oo else mpmath.mpmathify(sp.N(e, mpmath.mp.dps + 5))

    half = mpmath.mpf(0)
    for pc in noise.head:
        half += piece_entropy(num(pc.lo), num(pc.hi), pc.expr, x, noise.lattice)[0]
    if noise.tail is not None:
        t = noise.tail
        q = num(t.ratio)
        for pc in t.pieces:
            a, mass = piece_entropy(num(pc.lo), num(pc.hi), pc.expr, u, noise.lattice)
            # sum over k of q^k (a + mass k log q)
            half += a / (1 - q) + mass * mpmath.log(q) * q / (1 - q) ** 2
    total = 2 * half
    if noise.lattice:
        p0 = num(noise.mass_at_zero())
        total -= p0 * mpmath.log(p0) if p0 > 0 else 0
    return -total


__all__ = ["MIXED_LAW", "noise_entropy", "piece_entropy"]
