r"""Lower bounds for an *integer-valued* query (slides 000, Part Three).

The problem: minimise :math:`\sum_i L(i) P(i)` over mass functions on :math:`\mathbb{Z}`
with :math:`P(S) \le e^\varepsilon P(S + d) + \delta` for :math:`|d| \le \Delta`
(:math:`\Delta` an integer; :math:`\varepsilon = 0` is :math:`(0, \delta)`-DP).

* :class:`DiscreteLowerBound` (CLI ``discrete-lower-bound``) is the optimum of the slides'
  linear programme (the threshold sets :math:`S_k = \{l \ge k\}`, symmetric noise),
  certified exactly by LP duality (:func:`dpsym.bounds.lp.certified_lp_lower_bound` with
  ``lattice=True``); every digit is exact and the print is rounded down.
* Closed forms for :math:`(0, \delta)` with :math:`u = 1/(2\delta)`:

  - :func:`pair_bound_amplitude` — for :math:`L = |i|` the constraints at the sets
    :math:`\{l > s\}`, :math:`-\Delta \le s < 0`, give :math:`u_j + u_{\Delta-1-j} \ge 1 -
    \delta` for the tails :math:`u_j = P(X > j)`, and the windows give :math:`u_{j + k\Delta}
    \ge u_j - k\delta`; with the convex :math:`g(\alpha) = \sum_{k \ge 0} (\alpha -
    k\delta)_+` the cost :math:`2\sum_j u_j` is at least :math:`2\Delta\, g((1-\delta)/2)`,
    which is :math:`\Delta/(4\delta)` at integer :math:`u`: the uniform mechanism is optimal
    for every :math:`\Delta`, not only :math:`\Delta = 1`;
  - :func:`chain_bound` — for any nondecreasing :math:`L` with :math:`L(0) = 0`, the tail
    recursion :math:`U(s + \Delta) \ge U(s) - \delta`, :math:`U(-1) \ge 1/2` gives
    :math:`2\delta\sum_{k=1}^{u-1} L(k\Delta)` (integer :math:`u`), whose ratio to the uniform
    mechanism's cost tends to 1 for :math:`L = |i|^m`;
  - :func:`uniform_cost` (the upper bound) and :func:`slides_formula` (the slides' stated
    :math:`2\delta\sum_{i=0}^{u-1} L(1 + i\Delta)`, which is *not* a lower bound at
    :math:`\Delta = 1`: see ``docs/errata.md``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction

import flint
import sympy as sp

from dpsym.bounds.common import BoundObject, enclosed_lower, round_exact
from dpsym.bounds.lp import (
    LP_EPS_MAX,
    MAX_SUPPORT,
    auto_support,
    certified_lp_lower_bound,
    general_lower,
)
from dpsym.certified.constants import arb_of
from dpsym.certified.evaluation import Value
from dpsym.core.costs import Cost, parse_cost
from dpsym.core.expressions import from_sympy
from dpsym.core.expressions import sign as exact_sign
from dpsym.core.params import (
    Guarantee,
    check_quantity,
    delta_param,
    eps_param,
    parse_number,
    require,
    sensitivity_param,
)
from dpsym.errors import DomainError, UnsupportedError
from dpsym.symbols import Delta, delta

#: :math:`u = 1/(2\delta)` (a positive integer in the closed forms) and a summation index.
u = sp.Symbol("u", integer=True, positive=True)
j = sp.Symbol("j", integer=True, nonnegative=True)
#: The exponent of :math:`L(i) = |i|^m`.
m = sp.Symbol("m", integer=True, positive=True)

#: Largest integer sensitivity accepted by the LP.
MAX_DELTA = 64


def _poly_sum(expr: sp.Expr, lo: sp.Expr, hi: sp.Expr) -> sp.Expr:
    return sp.expand(sp.summation(sp.expand(expr), (j, lo, hi)))


@functools.cache
def uniform_cost(power: int) -> sp.Expr:
    r"""Cost of the uniform mechanism :math:`P(i) = \delta/\Delta` on
    :math:`\{-\Delta u + 1, \dots, \Delta u\}` for :math:`L = |i|^{\mathrm{power}}`, in
    :math:`u, \Delta` (a symbolic sum: computed once per power)."""
    mass = 1 / (2 * u * Delta)
    return sp.expand(mass * (2 * _poly_sum(j**power, 1, Delta * u - 1) + (Delta * u) ** power))


@functools.cache
def chain_bound(power: int) -> sp.Expr:
    r""":math:`2\delta\sum_{k=1}^{u-1} (k\Delta)^{\mathrm{power}}` with :math:`\delta =
    1/(2u)`: the tail-recursion lower bound at :math:`\varepsilon = 0`."""
    return sp.expand(_poly_sum((j * Delta) ** power, 1, u - 1) / u)


@functools.cache
def slides_formula(power: int) -> sp.Expr:
    r"""The slides' :math:`V_{LB} = 2\delta\sum_{i=0}^{u-1} L(1 + i\Delta)` (as stated)."""
    return sp.expand(_poly_sum((1 + j * Delta) ** power, 0, u - 1) / u)


def pair_bound_amplitude() -> sp.Expr:
    r""":math:`2\Delta\,g((1-\delta)/2)` with :math:`g(\alpha) = \sum_{k=0}^{r-1}(\alpha -
    k\delta)`, :math:`r = \lceil \alpha/\delta \rceil`, in :math:`\delta, \Delta`
    (valid for every :math:`\delta \in (0, 1/2)`)."""
    alpha = (1 - delta) / 2
    r = sp.ceiling(alpha / delta)
    return 2 * Delta * (r * alpha - delta * r * (r - 1) / 2)


class DiscreteLowerBound(BoundObject):
    r"""Certified lower bound on the minimum cost of :math:`(\varepsilon, \delta)`-DP noise
    for an integer-valued query: the exact optimum of the slides' threshold LP.

    ``value`` is exact (an LP optimum certified by an exact rational dual solution) and
    printed rounded down. There is no closed form for general :math:`(\varepsilon,
    \delta)`; the :math:`(0, \delta)` closed forms are the module functions.
    """

    name = "discrete-lower-bound"
    title = "Lower bound on the (eps, delta)-DP noise cost, integer-valued query"
    source = "000 Part Three: LP duality with threshold sets; (0, delta) closed forms"
    guarantee = Guarantee.APPROXIMATE
    lattice = True
    _max_moment = 4
    params = (eps_param("privacy parameter (0 allowed: (0, delta)-DP)", LP_EPS_MAX, zero=True),
              delta_param(Fraction(1, 2)), sensitivity_param(integer=True, upper=MAX_DELTA))
    #: Joint limit of the parameters (shown by ``dpsym list``), checked by
    #: :meth:`certificate`.
    limits = (f"LP support ceil(1.3 nu Delta) + Delta <= {MAX_SUPPORT} points, "
              "nu = log(1 + (e^eps - 1)/(2 delta))/eps (1/(2 delta) at eps = 0)",)

    @classmethod
    def formula(cls, quantity: str = "cost", cost="amplitude") -> sp.Expr:
        check_quantity(cls, quantity)
        cls._parse_bound_cost(cost)
        raise UnsupportedError(
            f"{cls.name}: the value is an exact LP optimum with no closed form in "
            "(eps, delta); the (0, delta) closed forms are in dpsym.bounds.integer")

    @classmethod
    def series(cls, quantity="cost", cost="amplitude", regime="eps->0", order=3):
        check_quantity(cls, quantity)
        raise UnsupportedError(f"{cls.name}: an LP optimum has no series")

    _general_costs = True

    def _args(self) -> tuple[Fraction, Fraction, int]:
        require(self, "eps", "delta", "Delta")
        e, d, D = self.values["eps"], self.values["delta"], int(self.values["Delta"])
        if auto_support(e, d, D) > MAX_SUPPORT:
            raise DomainError("delta", f"the LP support would exceed {MAX_SUPPORT} points "
                              f"({self.limits[0]}); take a larger delta, eps or a smaller "
                              "Delta")
        return e, d, D

    def certificate(self, cost="amplitude"):
        """The exact dual certificate behind :meth:`value` (a power :math:`|x|^m`)."""
        c = self._parse_bound_cost(cost)
        if not c.is_power:
            raise UnsupportedError(f"{self.name}: the certificate of a cost other than a "
                                   "power is built by value()")
        e, d, D = self._args()
        return certified_lp_lower_bound(e, d, D, D, int(c.power), lattice=True)

    def value(self, quantity: str = "cost", cost="amplitude", digits: int = 30) -> Value:
        r"""The certified LP optimum rounded down; for a cost other than a power (any
        symmetric cost non-decreasing in :math:`|i|`, the hypothesis of the LP's
        objective :math:`\sum_i L(i)P(i) = L(0) + 2\sum_{j \ge 0}(L(j + 1) - L(j))
        P(X > j)`), its steps as exact rationals or certified lower bounds
        (:func:`dpsym.bounds.lp.general_lower`)."""
        check_quantity(self, quantity)
        c = self._parse_bound_cost(cost)
        if not c.is_power:
            e, d, D = self._args()
            return general_lower(e, d, Fraction(D), D, c, digits, lattice=True)
        exact = self.certificate(cost).bound
        number, text = round_exact(exact, digits, down=True)
        return Value.from_exact(exact, number, text, digits)


@dataclass(frozen=True)
class Lemma2:
    r"""Lemma 2 of paper 003 for one cost: the point of its hypothesis, condition (9) and
    the bound (10).

    Attributes
    ----------
    delta : sympy.Expr
        :math:`\delta_n = (e^\varepsilon - 1)/(2(e^{n\varepsilon} - 1))`, the
        :math:`\delta` at which :math:`\sum_{k<n} a b^k = 1/2` (exact).
    condition : sympy.Expr
        The left side of (9) minus its right side,
        :math:`\sum_{i=1}^{n-1} b^i(2L(i\tilde\Delta) - L(1 + (i-1)\tilde\Delta)
        - L(1 + i\tilde\Delta)) - L(1)` (exact; proven :math:`\ge 0`).
    bound : sympy.Expr
        :math:`2\sum_{k=0}^{n-1} a b^k L(1 + k\tilde\Delta)` (exact).
    """

    delta: sp.Expr
    condition: sp.Expr
    bound: sp.Expr

    def value(self, digits: int = 30) -> Value:
        """The bound (10) enclosed and rounded down (certificate ``"enclosure"``)."""
        expr = self.bound

        def enclose(prec: int) -> flint.arb:
            return arb_of(expr)

        return enclosed_lower(enclose, digits)


def lemma2(eps: object, n: int, Delta: int, cost: Cost | str) -> Lemma2:
    r"""Lemma 2 of paper 003 as stated, for a cost :math:`L` (symmetric, non-decreasing in
    :math:`|i|`): every mass function :math:`P` on :math:`\mathbb{Z}` that is
    :math:`(\varepsilon, \delta)`-DP for the shifts :math:`|d| \le \tilde\Delta`
    (sensitivity ``Delta``) has :math:`\sum_i L(i)P(i) \ge 2\sum_{k=0}^{n-1} a b^k
    L(1 + k\tilde\Delta)`, where :math:`b = e^{-\varepsilon}`,
    :math:`a = (\delta + (e^\varepsilon - 1)/2)/e^\varepsilon`, under the paper's
    hypothesis :math:`\sum_{k<n} a b^k = 1/2` (which fixes :math:`\delta = \delta_n` and
    :math:`a = (1 - b)/(2(1 - b^n))`) and its condition (9) on :math:`L`, decided here
    exactly (:func:`dpsym.core.expressions.sign`: Arb balls, then exact simplification).

    Raises
    ------
    DomainError
        For :math:`n < 2`, a non-integer sensitivity, or a cost for which condition (9)
        fails (the message gives its value).
    """
    c = parse_cost(cost)
    e = parse_number(eps, "eps")
    if e <= 0:
        raise DomainError("eps", "must be positive")
    if isinstance(n, bool) or int(n) != n or n < 2:
        raise DomainError("n", f"must be an integer >= 2, got {n!r}")
    if isinstance(Delta, bool) or int(Delta) != Delta or Delta < 1:
        raise DomainError("Delta", f"must be a positive integer, got {Delta!r}")
    n, big = int(n), int(Delta)
    shape = c.shape
    eps_s = sp.Rational(e.numerator, e.denominator)
    bb = sp.exp(-eps_s)
    a = (1 - bb) / (2 * (1 - bb**n))

    def L(i: int) -> sp.Expr:
        return shape.value(sp.Integer(abs(i)))

    condition = sp.Add(*[bb**i * (2 * L(i * big) - L(1 + (i - 1) * big) - L(1 + i * big))
                         for i in range(1, n)]) - L(1)
    if exact_sign(from_sympy(condition), "cost") < 0:
        raise DomainError("cost", f"Lemma 2 needs condition (9), sum_(i=1)^(n-1) b^i "
                          f"(2L(i D) - L(1 + (i-1) D) - L(1 + i D)) >= L(1); for "
                          f"{c.name} at eps = {e}, n = {n}, Delta = {big} it fails (left "
                          f"minus right = {float(condition.evalf(20)):.6g})")
    bound = 2 * sp.Add(*[a * bb**k * L(1 + k * big) for k in range(n)])
    delta_n = (sp.exp(eps_s) - 1) / (2 * (sp.exp(n * eps_s) - 1))
    return Lemma2(delta_n, condition, bound)


__all__ = [
    "DiscreteLowerBound",
    "Lemma2",
    "chain_bound",
    "lemma2",
    "pair_bound_amplitude",
    "slides_formula",
    "u",
    "uniform_cost",
]
