r"""Geometric sums over the period index :math:`k \ge 0`.

The staircase family repeats a fixed shape on every period, scaled by
:math:`r^k` (:math:`r = e^{-\varepsilon}` for the staircase). Every moment is therefore a
sum :math:`\sum_k r^k F(k)`; when :math:`F` is a polynomial in :math:`k` the sum is a
rational function of :math:`r`, obtained from

.. math:: \sum_{k \ge 0} k^j r^k = \Bigl(r \frac{d}{dr}\Bigr)^j \frac{1}{1 - r},
          \qquad 0 < r < 1,

and otherwise (non-integer moments) it is a Lerch transcendent
:math:`\Phi(r, s, a) = \sum_{k \ge 0} r^k (k + a)^{-s}`.
"""

from __future__ import annotations

import math
from functools import cache, lru_cache

import flint
import mpmath
import sympy as sp
from mpmath.libmp import from_man_exp
from sympy.core.function import ArgumentIndexError

from dpsym.precision import arb_workprec, workprec
from dpsym.symbols import k

_R = sp.Symbol("R", positive=True)


@cache
def _eulerian(j: int) -> sp.Expr:
    r""":math:`(R\,d/dR)^j \frac{1}{1 - R}`, factored: each step on the numerator and
    denominator polynomials (reduced by their gcd), one factorisation at the end."""
    if j == 0:
        return 1 / (1 - _R)
    num, den, r_poly = sp.Poly(1, _R), sp.Poly(1 - _R, _R), sp.Poly(_R, _R)
    for _ in range(j):  # R d/dR (num/den) = R (num' den - num den') / den^2
        num, den = r_poly * (num.diff(_R) * den - num * den.diff(_R)), den**2
        common = num.gcd(den)
        num, den = num.quo(common), den.quo(common)
    return sp.factor(num.as_expr() / den.as_expr())


def geometric_moment(j: int, ratio: sp.Expr) -> sp.Expr:
    r"""Return :math:`\sum_{k \ge 0} k^j r^k` for ``ratio`` :math:`= r \in (0, 1)`.

    Parameters
    ----------
    j : int
        A nonnegative integer power (:math:`0^0 = 1`).
    ratio : sympy.Expr
        The common ratio, assumed to lie in :math:`(0, 1)`.
    """
    if j < 0:
        raise ValueError("j must be a nonnegative integer")
    return _eulerian(int(j)).subs(_R, ratio)


def polynomial_geometric_sum(poly_in_k: sp.Expr, ratio: sp.Expr) -> sp.Expr:
    r"""Return :math:`\sum_{k \ge 0} r^k F(k)` for a polynomial :math:`F` in ``k``.

    Raises
    ------
    sympy.PolynomialError
        If ``poly_in_k`` is not a polynomial in :data:`dpsym.symbols.k`.
    """
    poly = sp.Poly(sp.expand(poly_in_k), k)
    return sp.Add(*[c * geometric_moment(m[0], ratio)
                    for m, c in zip(poly.monoms(), poly.coeffs(), strict=True)])


class LerchSum(sp.Function):
    r"""The Lerch sum :math:`L(r, s, a) = \sum_{k \ge 0} r^k (k + a)^s`, :math:`0 < r < 1`.

    This is the Lerch transcendent :math:`\Phi(r, -s, a)` (with :math:`0^s = 0`). Its
    derivatives are again such sums,

    .. math:: \partial_a L = s\,L(r, s - 1, a), \qquad
              \partial_r L = \bigl(L(r, s + 1, a) - a\,L(r, s, a)\bigr) / r,

    so that optimality conditions stay in closed form; numerically it is evaluated by
    :func:`mp_lerch_sum` (mpmath), and enclosed rigorously, with proven remainders, by
    :func:`dpsym.certified.lerch.balls.lerch_sum_ball` (the ball path of
    :mod:`dpsym.certified.balls`).

    An integer offset :math:`a = n \ge 1` is shifted to :math:`a = 0` on construction
    (:math:`s > 0`),

    .. math:: L(r, s, n) = r^{-n} \Bigl(L(r, s, 0) - \sum_{j < n} r^j j^s\Bigr),

    so that sums over adjacent periods of a staircase cancel symbolically instead of
    numerically: the staircase's :math:`b\,L(b, s, 1) - L(b, s, 0)` is exactly zero, where
    its two terms are each about :math:`\varepsilon^{-s-1}` times the difference.
    """

    nargs = 3

    @classmethod
    def eval(cls, z: sp.Expr, s: sp.Expr, a: sp.Expr) -> sp.Expr | None:
        if a.is_Integer and a >= 1 and s.is_positive:
            n = int(a)
            head = sp.Add(*[z**j * sp.Integer(j) ** s for j in range(1, n)])
            return (cls(z, s, sp.Integer(0)) - head) / z**n
        return None

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        z, s, a = self.args
        if argindex == 3:
            return s * LerchSum(z, s - 1, a)
        if argindex == 1:
            return (LerchSum(z, s + 1, a) - a * LerchSum(z, s, a)) / z
        raise ArgumentIndexError(self, argindex)

    def _eval_evalf(self, prec: int) -> sp.Float:
        with workprec(prec + 20):
            z, s, a = (mpmath.mpf(sp.N(v, mpmath.mp.dps)) for v in self.args)
            return sp.Float(mp_lerch_sum(z, s, a), precision=prec)


def mp_lerch_sum(z, s, a):
    """Cached front end of :func:`_mp_lerch_sum` (the same sums recur in a minimisation)."""
    return _mp_lerch_cached(mpmath.mpf(z), mpmath.mpf(s), mpmath.mpf(a), mpmath.mp.prec)


@lru_cache(maxsize=4096)
def _mp_lerch_cached(z, s, a, prec):
    with workprec(prec):
        return _mp_lerch_sum(z, s, a)


#: Scale of the number of terms summed directly (see :func:`_direct_limit`).
DIRECT_TERMS = 8_000


def _mp_lerch_sum(z, s, a):
    r"""Evaluate :math:`\sum_{k \ge 0} z^k (k + a)^s` with mpmath at the working precision.

    When few terms reach the working precision (:math:`t = -\log z` not too small,
    :func:`_direct_limit`) the terms are summed directly; closer to :math:`z = 1` by
    Euler--Maclaurin summation (:func:`_euler_maclaurin`). The expansion in Hurwitz zeta
    functions

    .. math:: \sum_{k \ge 0} e^{-kt} (k + a)^s = e^{at} \Bigl[\Gamma(1 + s)\, t^{-1-s}
              + \sum_{n \ge 0} \zeta(-s - n, a) \frac{(-t)^n}{n!}\Bigr],
              \qquad 0 < t < 2\pi,

    (:func:`_hurwitz_expansion`, convergent like :math:`(t / 2\pi)^n`) is kept as an
    independent reference for the tests: each zeta value costs milliseconds, tens of
    them at a thousand digits.
    """
    z, s, a = mpmath.mpf(z), mpmath.mpf(s), mpmath.mpf(a)
    if a == 0:
        return z * _mp_lerch_sum(z, s, 1) if s > 0 else mpmath.lerchphi(z, -s, a)
    t = -mpmath.log(z)
    tiny = mpmath.mpf(2) ** (-mpmath.mp.prec - 10)
    terms = ((mpmath.mp.prec + 10) * mpmath.ln2 + s * mpmath.log(1 + s / t)) / t + s / t
    if terms <= _direct_limit(t, s) or (mpmath.isint(s) and s <= 0):
        total = mpmath.mpf(0)
        kk = 0
        zk = mpmath.mpf(1)
        while True:
            term = zk * (kk + a) ** s
            total += term
            if kk * t > s and abs(term) <= tiny * abs(total):
                return total
            kk += 1
            zk *= z
    return _euler_maclaurin(t, s, a)


def _euler_maclaurin(t: mpmath.mpf, s: mpmath.mpf, a: mpmath.mpf) -> mpmath.mpf:
    r""":math:`\sum_{k \ge 0} g(k)`, :math:`g(x) = e^{-xt} (x + a)^s`, by Euler--Maclaurin
    summation from :math:`N`:

    .. math:: \sum_{k < N} g(k) + e^{at} t^{-s-1}\,\Gamma(s + 1, (N + a) t)
              + \frac{g(N)}{2} - \sum_{j=1}^{J} \frac{B_{2j}}{2j}\,c_{2j-1},

    with :math:`c_m = g^{(m)}(N)/m!` the Taylor coefficients of :math:`g` at :math:`N`
    (one power series exponential and logarithm in Arb). The :math:`j`-th correction is
    about :math:`(2j)!/(2\pi(N + a))^{2j} + (t/2\pi)^{2j}` relative to :math:`g(N)`; with
    :math:`N \approx p/5` at :math:`p` bits its smallest term is far below
    :math:`2^{-p}`, and :math:`J` is taken where both parts are. For :math:`0 < t < 2\pi`;
    the caller's two-precision agreement certifies the digits."""
    prec = mpmath.mp.prec + 30
    big_n = int(prec / 5) + 20
    ft = float(t)
    # the smallest J with (2J)!/(2 pi N)^(2J) and (t/2 pi)^(2J) both below 2^-prec
    j_max = 1
    limit = -prec * math.log(2) - 20
    while True:
        two_j = 2 * j_max
        first = math.lgamma(two_j + 1) - two_j * math.log(2 * math.pi * (big_n + float(a)))
        second = two_j * math.log(ft / (2 * math.pi)) if ft > 0 else -math.inf
        if max(first, second) < limit or j_max > 20 * prec:
            break
        j_max += 1
    length = 2 * j_max + 1
    with arb_workprec(prec):
        ta, sa, aa = _to_arb(t), _to_arb(s), _to_arb(a)
        total = flint.arb(0)
        decay = (-ta).exp()
        zk = flint.arb(1)
        # an integer exponent is a few exact multiplications, not an exponential and a
        # logarithm per term (20x faster at thousands of digits)
        power = int(s) if mpmath.isint(s) else sa
        for kk in range(big_n):
            total += zk * (aa + kk) ** power
            zk *= decay
        shift = aa + big_n
        tail = (aa * ta).exp() * ta ** (-sa - 1) * (shift * ta).gamma_upper(sa + 1)
        if isinstance(power, int):
            coeffs = _integer_power_coefficients(shift, power, ta, length, big_n)
        else:
            cap = flint.ctx.cap  # python-flint's series length, process-wide like its
            flint.ctx.cap = length  # precision: changed and restored under the lock
            try:
                # one exponential of s log(N + a + h) - t h (a product of two series whose
                # coefficients span very different magnitudes is slow in Arb)
                series = (sa * flint.arb_series([shift, 1], prec=length).log()
                          + flint.arb_series([0, -ta], prec=length)).exp() \
                    * (-ta * big_n).exp()
            finally:
                flint.ctx.cap = cap
            coeffs = series.coeffs()
        tail += coeffs[0] / 2
        for j in range(1, j_max + 1):
            if 2 * j - 1 < len(coeffs):
                tail -= flint.arb(flint.fmpq.bernoulli(2 * j)) / (2 * j) * coeffs[2 * j - 1]
        result = total + tail
    return _from_arb(result)


def _integer_power_coefficients(shift: flint.arb, s: int, t: flint.arb, length: int,
                                 big_n: int) -> list[flint.arb]:
    r"""The Taylor coefficients :math:`c_m`, :math:`m < \mathrm{length}`, of
    :math:`g(N + h) = (N + a + h)^s e^{-t(N + h)}` in :math:`h` for an integer
    :math:`s \ge 0`: the product of the polynomial :math:`\sum_i \binom{s}{i}
    (N + a)^{s - i} h^i` and :math:`e^{-tN} \sum_k (-t)^k h^k / k!`, term by term
    (exact binomials; no series exponential or logarithm). Only the coefficients the
    Euler--Maclaurin corrections use (:math:`c_0` and odd :math:`m`) are formed; the
    others are zero placeholders."""
    scale = (-t * big_n).exp()
    ex = [scale]
    for j in range(1, length):
        ex.append(ex[-1] * (-t) / j)
    poly = [flint.arb(math.comb(s, i)) * shift ** (s - i) for i in range(s + 1)]
    coeffs = []
    for m in range(length):
        if m and m % 2 == 0:
            coeffs.append(flint.arb(0))
            continue
        total = flint.arb(0)
        for i in range(min(s, m) + 1):
            total += poly[i] * ex[m - i]
        coeffs.append(total)
    return coeffs


def _direct_limit(t: mpmath.mpf, s: mpmath.mpf) -> float:
    r"""The most terms summed directly before Euler--Maclaurin summation
    (:func:`_euler_maclaurin`) takes over: about what that costs (:math:`p/5` terms and
    a power series at :math:`p` bits), at least :data:`DIRECT_TERMS` / 40."""
    if t >= 2 * mpmath.pi:
        return math.inf
    return max(DIRECT_TERMS / 40, mpmath.mp.prec / 2 + 100)


def _to_arb(x: mpmath.mpf) -> flint.arb:
    """An mpf as an exact Arb ball (python-flint converts an mpf through a float)."""
    sign, man, exp, _ = mpmath.mpf(x)._mpf_
    if not man:
        return flint.arb(0)
    value = flint.arb(flint.fmpz(int(man))) * flint.arb(2) ** int(exp)
    return -value if sign else value


def _from_arb(x: flint.arb) -> mpmath.mpf:
    """An Arb ball's midpoint as an mpf (exact), rounded to the working precision."""
    man, exp = x.mid().man_exp()
    return +mpmath.mp.make_mpf(from_man_exp(int(man), int(exp)))


@lru_cache(maxsize=8192)
def _arb_hurwitz(s: mpmath.mpf, a: mpmath.mpf, prec: int) -> flint.arb:
    r""":math:`\zeta(-s, a)` as an Arb ball at ``prec`` bits (cached: the sums
    :math:`L(r, s, a)` and :math:`L(r, s + 1, a)` of a cost and its slope share all but one
    of their zeta values)."""
    with arb_workprec(prec):
        return (-_to_arb(s)).zeta(_to_arb(a))


def _hurwitz_expansion(t: mpmath.mpf, s: mpmath.mpf, a: mpmath.mpf) -> mpmath.mpf:
    r""":math:`\sum_{k \ge 0} e^{-kt} (k + a)^s` for :math:`0 < t < 2\pi` by the
    expansion in Hurwitz zeta functions (see :func:`_mp_lerch_sum`), each
    :math:`\zeta(-s - n, a)` one call of Arb's Hurwitz zeta (fast at any precision, where
    mpmath's Euler--Maclaurin summation takes milliseconds to seconds per term). The
    balls' midpoints are summed; the caller's two-precision agreement (or its own error
    analysis) certifies the digits."""
    prec = mpmath.mp.prec + 30
    with arb_workprec(prec):
        ta, sa, aa = _to_arb(t), _to_arb(s), _to_arb(a)
        lead = (sa + 1).gamma() * ta ** (-1 - sa)
        tiny = flint.arb(2) ** (-prec - 10)
        total = lead
        factor = flint.arb(1)
        n = 0
        while True:
            term = _arb_hurwitz(s + n, a, prec) * factor
            total += term
            if n > s + 2 and abs(term.mid()) <= tiny * abs(total.mid()):
                break
            n += 1
            factor *= -ta / n
        result = (aa * ta).exp() * total
    return _from_arb(result)


def lerch_sum(ratio: sp.Expr, s: sp.Expr, a: sp.Expr) -> sp.Expr:
    r"""Return :math:`\sum_{k \ge 0} r^k (k + a)^{s}` for :math:`s > 0`, :math:`a \ge 0`."""
    return LerchSum(ratio, s, a)


class LowerGammaStar(sp.Function):
    r"""Tricomi's entire incomplete gamma function
    :math:`\gamma^*(a, z) = z^{-a} \gamma(a, z) / \Gamma(a)`.

    .. math:: \gamma^*(a, z) = \frac{1}{\Gamma(a)} \sum_{n \ge 0}
              \frac{(-z)^n}{n!\,(a + n)} = \frac{{}_1F_1(a; a + 1; -z)}{\Gamma(a + 1)},

    positive and free of cancellation for :math:`z \ge 0` (it tends to
    :math:`1/\Gamma(a + 1)` as :math:`z \to 0`, where :math:`\gamma(a, z)` written with
    elementary functions and ``erf`` cancels catastrophically). A truncated moment is
    :math:`\int_0^A x^p e^{-x/\lambda}\,dx = A^{p+1}\,\Gamma(p + 1)\,\gamma^*(p + 1, A/\lambda)`.
    It is never expanded on construction; numerically it is Arb's ``gamma_lower`` with
    ``regularized=2`` in ball arithmetic and ``hyp1f1`` in mpmath
    (:func:`mp_lower_gamma_star`). Its derivative in :math:`z` is
    :math:`-a\,\gamma^*(a + 1, z)`.
    """

    nargs = 2

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        a, z = self.args
        if argindex == 2:
            return -a * LowerGammaStar(a + 1, z)
        raise ArgumentIndexError(self, argindex)

    def _eval_rewrite_as_lowergamma(self, a: sp.Expr, z: sp.Expr, **kwargs: object) -> sp.Expr:
        return sp.lowergamma(a, z) * z ** (-a) / sp.gamma(a)

    def _eval_nseries(self, x: sp.Symbol, n: int, logx: object, cdir: int = 0) -> sp.Expr:
        a, z = self.args
        if x in a.free_symbols or sp.sympify(z).subs(x, 0) != 0:
            return self.rewrite(sp.lowergamma)._eval_nseries(x, n, logx, cdir)
        # z -> 0: the power series of the entire function, to as many terms as z's order
        poly = sp.Add(*[(-z) ** j / (sp.factorial(j) * (a + j)) for j in range(n + 1)])
        return (poly / sp.gamma(a)).nseries(x, n=n, logx=logx, cdir=cdir)

    def _eval_is_positive(self) -> bool | None:
        a, z = self.args
        if a.is_positive and z.is_nonnegative:
            return True
        return None

    def _eval_evalf(self, prec: int) -> sp.Float:
        with workprec(prec + 20):
            a, z = (mpmath.mpf(sp.N(v, mpmath.mp.dps)) for v in self.args)
            return sp.Float(mp_lower_gamma_star(a, z), precision=prec)


def mp_lower_gamma_star(a, z):
    r""":math:`\gamma^*(a, z)` (:class:`LowerGammaStar`) with mpmath at the working
    precision: :math:`{}_1F_1(a; a + 1; -z)/\Gamma(a + 1)` (mpmath's hypergeometric sum
    adds the precision its own cancellation needs)."""
    a, z = mpmath.mpf(a), mpmath.mpf(z)
    return mpmath.hyp1f1(a, a + 1, -z) / mpmath.gamma(a + 1)


def arb_lower_gamma_star(a: flint.arb, z: flint.arb) -> flint.arb:
    r""":math:`\gamma^*(a, z)` as an Arb ball (``gamma_lower(a, regularized=2)``)."""
    z = z if isinstance(z, flint.arb) else flint.arb(z)
    return z.gamma_lower(a, regularized=2)


#: Extra names for ``sympy.lambdify(..., modules=[NUMERIC_FUNCTIONS, "mpmath"])``.
NUMERIC_FUNCTIONS = {"LerchSum": mp_lerch_sum, "LowerGammaStar": mp_lower_gamma_star}
