r"""The tail-recursion proofs of the lower bounds of paper 003 (Lemma 2, Theorems 4, 5) and
of the slides 000 (multi-dimensional :math:`(0, \delta)`), as symbolic closed forms that
hold for *every* admissible measure; the claim checks decide the printed bounds against
them over the whole parameter domain (:mod:`dpsym.claims.decide`).

**The chain** (real noise, sensitivity :math:`\Delta`). Noise may be taken symmetric (the
mixture of :math:`X` and :math:`-X` is :math:`(\varepsilon, \delta)`-DP and costs the same,
the cost being symmetric). The set :math:`S = [s - \Delta, \infty)` in the definition gives
:math:`U(s) \ge b\,(U(s - \Delta) - \delta)` for the tail :math:`U(s) = P(X \ge s)`,
:math:`b = e^{-\varepsilon}`; with :math:`U(s) \ge 1/2` for :math:`s \le 0` and the map
:math:`x \mapsto b(x - \delta)` increasing, :math:`U(k\Delta) \ge u_k` where
:math:`u_0 = 1/2`, :math:`u_{k+1} = b(u_k - \delta)`. Under the paper's hypothesis
:math:`\sum_{k<n} a b^k = 1/2`, :math:`u_k = a(b^k - b^n)/(1 - b)` (:func:`chain_u`,
so :math:`u_n = 0`, :math:`u_k \ge 0` for :math:`k \le n`, :math:`a b^k = u_k - u_{k+1}`),
and the layer-cake formula :math:`E|X|^p = 2\int_0^\infty p s^{p-1} U(s)\,ds \ge
2\Delta^p\sum_{k \ge 1}(k^p - (k-1)^p)\,U(k\Delta)` (:math:`U` nonincreasing) gives
:func:`theorem_bound`.

**Lemma 2 with** :math:`L(i) = |i|` (integer noise, sensitivity :math:`N`). For symmetric
:math:`P` on :math:`\mathbb{Z}`, :math:`U(t) = 1 - U(1 - t)`, so the sets
:math:`[s - N, \infty)`, :math:`1 \le s \le N`, give :math:`U(s) + b\,U(N + 1 - s) \ge
b(1 - \delta)`; summed over the block, :math:`B_1 = \sum_{s=1}^N U(s) \ge N v_1`,
:math:`v_1 = b(1-\delta)/(1+b)`; the blocks :math:`B_k = \sum_{s=(k-1)N+1}^{kN} U(s)`
satisfy :math:`B_{k+1} \ge b(B_k - N\delta)`, so :math:`B_k \ge N v_k` with
:math:`v_{k+1} = b(v_k - \delta)`, and :math:`E|X| = 2\sum_{s \ge 1} U(s) \ge
2N\sum_{k=1}^{n} v_k` (:func:`lemma2_bound`; :math:`v_k \ge u_k \ge 0` for :math:`k \le n`).
"""

from __future__ import annotations

import functools
from typing import Any

import sympy as sp

from dpsym.bounds.real import convergent_branch
from dpsym.claims.decide import sign_certificate, vanishes
from dpsym.symbolic.tidy import simplified
from dpsym.symbols import Delta, b

#: The paper's a, the summation index, n of the hypothesis, the discrete sensitivity N.
a = sp.Symbol("a", positive=True)
k = sp.Symbol("k", integer=True, nonnegative=True)
n = sp.Symbol("n", integer=True, positive=True)
N = sp.Symbol("Delta_t", positive=True)
#: Domain parameters ranging over (0, oo): b = 1/(1 + beta), b^(n-1) = 1/(1 + g),
#: N = N_9 + t (t >= 0).
beta, g, t = sp.symbols("beta g t", positive=True)

#: The paper's delta in a and b (the definition of a solved for delta).
DELTA_OF_A = a / b - (1 - b) / (2 * b)
#: The hypothesis sum_{k<n} a b^k = 1/2 solved for a.
A_HYP = (1 - b) / (2 * (1 - b**n))


def _sum(term: sp.Expr, lo: sp.Expr, hi: sp.Expr) -> sp.Expr:
    """sum_{k=lo}^{hi} term (sympy's generic branch b != 1)."""
    return sp.Add(*[convergent_branch(sp.summation(tt, (k, lo, hi)))
                    for tt in sp.Add.make_args(sp.expand(term))])


def chain_u(kk: sp.Expr = k) -> sp.Expr:
    """The chain's lower bound u_k = a (b^k - b^n)/(1 - b) on U(k Delta)."""
    return a * (b**kk - b**n) / (1 - b)


@functools.cache
def chain_facts() -> dict[str, bool]:
    """The chain's identities, decided symbolically (k, n symbolic integers, a, b free;
    the hypothesis substituted where it is used)."""
    u = chain_u
    hyp = {a: A_HYP}
    return {
        "u_0 = 1/2 under the hypothesis":
            vanishes(u(0).subs(hyp) - sp.Rational(1, 2)),
        "u_{k+1} = b (u_k - delta)":
            vanishes((u(k + 1) - b * (u(k) - DELTA_OF_A)).subs(hyp)),
        "a b^k = u_k - u_{k+1}": vanishes(u(k) - u(k + 1) - a * b**k),
        "u_n = 0": u(n) == 0,
        "v_1 = b(1 - delta)/(1 + b) = u_1 + a b/(1 + b)":
            simplified(b * (1 - DELTA_OF_A) / (1 + b) - u(1) - a * b / (1 + b)).subs(hyp)
            .simplify() == 0,
    }


@functools.cache
def theorem_bound(p: int) -> sp.Expr:
    r""":math:`2\Delta^p\sum_{k=1}^{n-1}(k^p - (k-1)^p)\,u_k`, in a, b, n, Delta."""
    return simplified(2 * Delta**p * _sum(sp.expand(k**p - (k - 1) ** p) * chain_u(),
                                           1, n - 1))


def chain_v(kk: sp.Expr = k) -> sp.Expr:
    """v_k = u_k + a b^k/(1 + b): the block chain of Lemma 2 (v_{k+1} = b(v_k - delta))."""
    return chain_u(kk) + a * b**kk / (1 + b)


@functools.cache
def lemma2_bound() -> sp.Expr:
    r""":math:`2N\sum_{k=1}^{n} v_k`: the lower bound on :math:`\sum_i |i| P(i)`."""
    return 2 * N * _sum(chain_v(), 1, n)


@functools.cache
def condition9_threshold() -> sp.Expr:
    r"""The least :math:`N` with condition (9) for :math:`L = |i|`: (9) reads
    :math:`(N - 2)\sum_{i=1}^{n-1} b^i \ge 1`."""
    return 2 + 1 / _sum(b**k, 1, n - 1)


@functools.cache
def condition9_lhs() -> sp.Expr:
    r""":math:`\sum_{i=1}^{n-1} b^i \bigl(2L(iN) - L(1 + (i-1)N) - L(1 + iN)\bigr) - L(1)` with
    :math:`L(i) = |i|` (every argument is :math:`\ge 1`, so :math:`L` is the identity there)."""
    def L(x: sp.Expr) -> sp.Expr:
        return x
    return _sum(b**k * (2 * L(k * N) - L(1 + (k - 1) * N) - L(1 + k * N)), 1, n - 1) - 1


def to_domain(expr: sp.Expr) -> sp.Expr:
    r"""``expr`` in the positive parameters: :math:`b^{n+s} = b^{s+1} c`,
    :math:`c = b^{n-1} = 1/(1+g)` (:math:`n \ge 2`), :math:`b = 1/(1 + \beta)`."""
    c = 1 / (1 + g)

    def split(e: sp.Pow) -> sp.Expr:
        shift = sp.expand(e.exp - (n - 1))
        if shift.has(n):
            raise ValueError(f"not of the form b**(n + s): {e}")
        return c * b**shift

    out = sp.sympify(expr).replace(lambda e: isinstance(e, sp.Pow) and e.base == b
                                   and e.exp.has(n), split)
    return out.subs(b, 1 / (1 + beta))


__all__ = ["A_HYP", "DELTA_OF_A", "N", "a", "beta", "chain_facts", "chain_u", "chain_v",
           "condition9_lhs", "condition9_threshold", "g", "k", "lemma2_bound", "n", "t",
           "theorem_bound", "to_domain"]


# ----------------------------------------------------------------------------- (0, delta)

#: u = 1/(2 delta) (an integer), the half-sensitivity h (Delta = 2h or 2h + 1), the class j.
uu = sp.Symbol("u", integer=True, positive=True)
h = sp.Symbol("h", integer=True, nonnegative=True)
j = sp.Symbol("j", integer=True, nonnegative=True)


def polynomial_sum(expr: sp.Expr, var: sp.Symbol, count: sp.Expr) -> sp.Expr:
    r""":math:`\sum_{v=0}^{N-1}` ``expr`` for a polynomial ``expr`` in ``var`` and
    :math:`N` = ``count``, by Faulhaber's formula :math:`\sum_{v=0}^{N-1} v^i =
    (B_{i+1}(N) - B_{i+1}(0))/(i + 1)` (Bernoulli polynomials; exact, for a symbolic
    ``count``)."""
    poly = sp.Poly(sp.expand(expr), var)
    return sp.expand(sp.Add(*[coeff * (sp.bernoulli(i + 1, count) - sp.bernoulli(i + 1, 0))
                              / (i + 1) for (i,), coeff in poly.terms()]))


def _class_cost(power: int, jj: sp.Expr, m: sp.Expr, D: sp.Expr) -> sp.Expr:
    r""":math:`F_j(m\delta) = \sum_{k=0}^{m-1} w(j + kD)(m - k)\delta`, :math:`w(i) = L(i+1) -
    L(i)`: the least tail cost of residue class ``jj`` when :math:`P(X > j) = m\delta`."""
    w = (jj + k * D + 1) ** power - (jj + k * D) ** power
    return sp.expand(polynomial_sum(w * (m - k), k, m) / (2 * uu))


@functools.cache
def pair_window_bound(power: int) -> dict[str, Any]:
    r"""The least cost of symmetric :math:`(0, \delta)`-DP noise on :math:`\mathbb{Z}`
    (sensitivity :math:`\Delta`, :math:`\delta = 1/(2u)`, :math:`L = |i|^p`), bounded below
    for every :math:`\Delta` and :math:`u`.

    :math:`E\,L(X) = 2\sum_{i \ge 0} w(i)\,P(X > i)`. The sets :math:`\{l \le j\}` give the
    pairs :math:`x_j + x_{\Delta-1-j} \ge 1 - \delta = (2u-1)\delta` for :math:`x_j = P(X > j)`,
    :math:`0 \le j < \Delta`; the sets :math:`\{l > i\}` give the windows :math:`P(X > j + k
    \Delta) \ge (x_j - k\delta)_+`. The cost of a pair is then at least :math:`G_j(m) =
    F_j(m\delta) + F_{\Delta-1-j}((2u-1-m)\delta)`, convex and piecewise linear in
    :math:`x_j = m\delta` with breakpoints at multiples of :math:`\delta`, so minimal at an
    integer :math:`m`; for :math:`j \le (\Delta-1)/2` it is minimal at :math:`m = u`
    (:math:`G_j(u+1) - G_j(u) \ge 0 \ge G_j(u) - G_j(u-1)`, certified). For odd
    :math:`\Delta` the middle class is its own pair, :math:`2F_j((u - 1/2)\delta) =
    G_j(u)` (linear between breakpoints).

    Returns ``{"even": bound at Delta = 2h, "odd": bound at Delta = 2h + 1, "argmin": the
    certificates hold}``.
    """
    out: dict[str, Any] = {}  # the two bounds (sympy) and the certificates' verdict
    ok = True
    r, s = sp.symbols("r s", positive=True)
    for name, D in (("even", 2 * h), ("odd", 2 * h + 1)):
        def G(jj: sp.Expr, m: sp.Expr, D: sp.Expr = D) -> sp.Expr:
            return _class_cost(power, jj, m, D) + _class_cost(power, D - 1 - jj, 2 * uu - 1 - m, D)
        # the pairs j <= h - 1: j = s, h = s + 1 + r, u = 1 + t (s, r, t >= 0)
        dom = {j: s, h: s + 1 + r}
        up = sp.expand(G(j, uu + 1) - G(j, uu)).subs(dom).subs(uu, 1 + t)
        down = sp.expand(G(j, uu - 1) - G(j, uu)).subs(dom).subs(uu, 1 + t)
        ok &= sign_certificate(up, (s, r, t)) in ("positive", "zero") \
            and sign_certificate(down, (s, r, t)) in ("positive", "zero")
        pairs = 2 * polynomial_sum(G(j, uu), j, h)
        mid = G(h, uu) if name == "odd" else 0
        out[name] = sp.factor(sp.expand(pairs + mid))
    out["argmin"] = ok
    return out
