r"""Tests of :mod:`dpsym.symbolic.powerseries`: exact truncated power series over
:math:`\mathbb{Q}`,
:math:`\mathbb{Q}(c)` and algebraic extensions, and the numeric helpers of Puiseux
expansions.

The series are compared coefficient by coefficient with sympy's own expansions
(``sympy.series``) of the same functions; the field extensions by the defining relations
of the adjoined root; the Newton iteration with the known expansion of
:math:`(\sqrt{1 + 4s} - 1)/2` (signed Catalan numbers).
"""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from dpsym.errors import UnsupportedError
from dpsym.symbolic.powerseries import (
    Field,
    adjoin_root,
    bisect_polynomial_root,
    lower_hull,
    mp_coeffs,
    mp_rational,
    numeric,
    numeric_coeffs,
    numeric_element,
    pad,
    real_roots,
    series_horner,
    series_inv,
    series_mul,
    series_root,
    valuation,
)

QQ = sp.QQ
Q = Field(QQ)
s, x = sp.symbols("s x")
c = sp.Symbol("c", positive=True)
N = 10


def coefficients(expr: sp.Expr, n: int = N) -> list:
    """The first ``n`` Taylor coefficients of ``expr`` in ``s``, as elements of QQ."""
    poly = sp.series(expr, s, 0, n).removeO()
    return [QQ.from_sympy(poly.coeff(s, i)) for i in range(n)]


# ---------------------------------------------------------------------- fields
def test_rational_field() -> None:
    a, b = QQ(2, 3), QQ(-5, 7)
    assert Q.add(a, b) == QQ(-1, 21) and Q.sub(a, b) == QQ(29, 21)
    assert Q.mul(a, b) == QQ(-10, 21) and Q.neg(a) == QQ(-2, 3)
    assert Q.inv(b) == QQ(-7, 5) and Q.embed(a) == a
    assert Q.is_zero(Q.zero) and not Q.is_zero(Q.one)
    assert Q.to_sympy(a) == sp.Rational(2, 3)
    with pytest.raises(ZeroDivisionError):
        Q.inv(Q.zero)


def test_quadratic_extension() -> None:
    K, theta = adjoin_root(QQ, sp.Poly(x**2 - 2, x), mpmath.mpf("1.4"), {})
    assert K.ext and K.generator == sp.sqrt(2) and K.to_sympy(theta) == sp.sqrt(2)
    assert K.mul(theta, theta) == K.embed(QQ(2))
    assert K.to_sympy(K.inv(theta)) == sp.sqrt(2) / 2
    one_plus = K.add(K.one, theta)  # (1 + sqrt 2)(sqrt 2 - 1) = 1
    assert K.mul(one_plus, K.sub(theta, K.one)) == K.one
    assert K.to_sympy(K.inv(one_plus)) == sp.sqrt(2) - 1
    assert K.is_zero(K.sub(theta, theta)) and K.mul(K.zero, theta) == K.zero
    assert K.to_sympy(K.neg(theta)) == -sp.sqrt(2)
    minus, _ = adjoin_root(QQ, sp.Poly(x**2 - 2, x), mpmath.mpf("-1.4"), {})
    assert minus.generator == -sp.sqrt(2)


def test_extensions_of_higher_degree() -> None:
    K, theta = adjoin_root(QQ, sp.Poly(x**3 - 2, x), mpmath.mpf("1.26"), {})
    assert K.generator == sp.cbrt(2)
    assert K.mul(K.mul(theta, theta), theta) == K.embed(QQ(2))
    # x^5 - x - 1 has no expression in radicals: a CRootOf
    K, theta = adjoin_root(QQ, sp.Poly(x**5 - x - 1, x), mpmath.mpf("1.2"), {})
    assert isinstance(K.generator, sp.CRootOf)
    fifth = theta
    for _ in range(4):
        fifth = K.mul(fifth, theta)
    assert K.is_zero(K.sub(K.sub(fifth, theta), K.one))
    # three real roots of a cubic (casus irreducibilis): the one nearest the target
    K, theta = adjoin_root(QQ, sp.Poly(x**3 - 3 * x + 1, x), mpmath.mpf("0.35"), {})
    with mpmath.workdps(30):
        assert abs(numeric_element(K, theta, {}) - 2 * mpmath.cos(4 * mpmath.pi / 9)) < 1e-25


def test_extension_with_parameters() -> None:
    F = QQ.frac_field(c)
    K, theta = adjoin_root(F, sp.Poly(x**2 - c, x, domain=F), mpmath.mpf("1.4"), {c: 2})
    assert K.generator == sp.sqrt(c) and K.to_sympy(K.mul(theta, theta)) == c
    with mpmath.workdps(30):
        assert abs(numeric_element(K, theta, {c: 3}) - mpmath.sqrt(3)) < 1e-25


def test_linear_and_impossible_roots() -> None:
    K, root = adjoin_root(QQ, sp.Poly(3 * x - 2, x), mpmath.mpf(0), {})
    assert not K.ext and root == QQ(2, 3)
    with pytest.raises(UnsupportedError, match="no exact expression"):
        adjoin_root(QQ, sp.Poly(x**2 + 1, x), mpmath.mpf(0), {})


# ---------------------------------------------------------------------- series
def test_valuation_and_pad() -> None:
    assert valuation(Q, [QQ(0), QQ(0), QQ(3)]) == 2
    assert valuation(Q, [QQ(0)] * 4) is None and valuation(Q, []) is None
    assert pad(Q, [QQ(1), QQ(2)], 4) == [QQ(1), QQ(2), QQ(0), QQ(0)]
    assert pad(Q, [QQ(1), QQ(2), QQ(3)], 2) == [QQ(1), QQ(2)]


def test_product_and_inverse_against_sympy() -> None:
    exp_s, geo = coefficients(sp.exp(s)), coefficients(1 / (1 - 2 * s))
    assert series_mul(Q, exp_s, geo, N) == coefficients(sp.exp(s) / (1 - 2 * s))
    assert series_inv(Q, exp_s, N) == coefficients(sp.exp(-s))
    assert series_inv(Q, [QQ(1), QQ(-1)], N) == [QQ(1)] * N
    cos_s = coefficients(sp.cos(s))
    assert series_inv(Q, cos_s, N) == coefficients(1 / sp.cos(s))
    assert series_mul(Q, cos_s, series_inv(Q, cos_s, N), N) == [QQ(1)] + [QQ(0)] * (N - 1)
    assert series_mul(Q, exp_s, geo, 3) == coefficients(sp.exp(s) / (1 - 2 * s), 3)


def test_horner_composition_against_sympy() -> None:
    r""":math:`\sum_i c_i(s) x(s)^i` with :math:`c_0 = 1`, :math:`c_1 = e^s`,
    :math:`c_2 = 3` and :math:`x = \sin s`."""
    cs = [[QQ(1)], coefficients(sp.exp(s)), [QQ(3)]]
    out = series_horner(Q, cs, coefficients(sp.sin(s)), N)
    assert out == coefficients(1 + sp.exp(s) * sp.sin(s) + 3 * sp.sin(s) ** 2)


def test_series_over_an_extension() -> None:
    K, theta = adjoin_root(QQ, sp.Poly(x**2 - 2, x), mpmath.mpf("1.4"), {})
    a = [K.one, theta]  # 1 + sqrt(2) s
    inv = series_inv(K, a, 6)
    assert [K.to_sympy(v) for v in inv] == [sp.expand((-sp.sqrt(2)) ** i) for i in range(6)]
    square = series_mul(K, a, a, 4)
    assert [K.to_sympy(v) for v in square] == [1, 2 * sp.sqrt(2), 2, 0]


def test_newton_root_catalan() -> None:
    r""":math:`z^2 + z - s = 0`, :math:`z(0) = 0`: :math:`z = (\sqrt{1 + 4s} - 1)/2`."""
    h = [[QQ(0), QQ(-1)], [QQ(1)], [QQ(1)]]
    z = series_root(Q, [pad(Q, row, 12) for row in h], 12)
    assert z == coefficients((sp.sqrt(1 + 4 * s) - 1) / 2, 12)
    assert z[:6] == [QQ(0), QQ(1), QQ(-1), QQ(2), QQ(-5), QQ(14)]


def test_newton_root_over_an_extension() -> None:
    r""":math:`z + z^3 = w`, :math:`w = \sqrt 2 s`: the reversion
    :math:`z = \sum_k (-1)^k \binom{3k}{k} w^{2k+1} / (2k + 1)
    = w - w^3 + 3 w^5 - 12 w^7 + \dots`."""
    K, theta = adjoin_root(QQ, sp.Poly(x**2 - 2, x), mpmath.mpf("1.4"), {})
    n = 8
    h = [pad(K, [K.zero, K.neg(theta)], n), pad(K, [K.one], n), pad(K, [], n),
         pad(K, [K.one], n)]
    z = [K.to_sympy(v) for v in series_root(K, h, n)]
    r2 = sp.sqrt(2)
    assert z == [0, r2, 0, -2 * r2, 0, 12 * r2, 0, -96 * r2]


# ---------------------------------------------------------------------- Newton polygon
def test_lower_hull() -> None:
    assert lower_hull([(0, 3), (1, 1), (2, 2), (3, 0)]) == [(0, 3), (1, 1), (3, 0)]
    assert lower_hull([(0, 2), (1, 1), (2, 0)]) == [(0, 2), (2, 0)]  # collinear
    assert lower_hull([(0, 0), (1, 5), (2, 0)]) == [(0, 0), (2, 0)]
    assert lower_hull([(0, 1)]) == [(0, 1)]


# ---------------------------------------------------------------------- numerics
def test_real_roots() -> None:
    with mpmath.workdps(40):
        roots = sorted(real_roots([mpmath.mpf(1), 0, -2]))
        assert abs(roots[0] + mpmath.sqrt(2)) < 1e-35 and abs(roots[1] - mpmath.sqrt(2)) < 1e-35
        assert real_roots([1, 0, 1]) == []
        assert real_roots([0, 0, 3]) == [] and real_roots([]) == []
        (only,) = real_roots([0, 1, 0, 0, -2])  # leading zeros; x^3 = 2
        assert abs(only - mpmath.cbrt(2)) < 1e-35


def test_bisect_polynomial_root() -> None:
    with mpmath.workdps(50):
        one, two = mpmath.mpf(1), mpmath.mpf(2)
        root = bisect_polynomial_root([one, 0, -2], one, two)
        assert abs(root - mpmath.sqrt(2)) < mpmath.mpf(10) ** -48
        assert bisect_polynomial_root([one, -1], one, two) == one  # root at an end
        assert bisect_polynomial_root([one, -2], one, two) == two
        assert bisect_polynomial_root([one, 0, -2], two, two) == two


def test_numeric_conversions() -> None:
    with mpmath.workdps(40):
        assert mp_rational(sp.Rational(1, 3)) == mpmath.mpf(1) / 3
        assert mp_coeffs(sp.Poly(3 * x**2 - sp.Rational(1, 2), x)) == [3, 0, -0.5]
        assert abs(numeric(sp.sqrt(c) + 1, {c: 2}) - 1 - mpmath.sqrt(2)) < 1e-38
        values = numeric_coeffs(sp.Poly(x**2 + c * x, x), {c: sp.Rational(1, 3)})
        assert values[0] == 1 and abs(values[1] - mpmath.mpf(1) / 3) < 1e-38
        assert abs(numeric_element(Q, QQ(2, 7), {}) - mpmath.mpf(2) / 7) < 1e-38
