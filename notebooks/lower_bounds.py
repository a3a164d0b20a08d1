# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Lower bounds and tightness: proof checks
#
# Sources: the paper (seed `003`), Section 4 (Lemma 2, Theorems 4-5, the discretisation
# argument) and Section 5 (Theorems 6-7); the thesis slides (seed `000`), Part Three
# (integer-valued queries, $(0,\delta)$ and $(\varepsilon,\delta)$ bounds).
#
# Everything is derived from the definitions, by the engine (`dpsym.bounds`) and again
# here with plain sympy / mpmath / fractions. Every claim cell ends in an `assert`;
# where a source is wrong or imprecise the cell asserts the precise statement
# (`docs/errata.md`).
#
# Notation: $b = e^{-\varepsilon}$, $a = (\delta + (e^\varepsilon - 1)/2)/e^\varepsilon$,
# $U(t) = P(X > t)$ the tail of a symmetric noise $X$.

# %% tags=["hide-input"]
import itertools
import random
from fractions import Fraction

import matplotlib
import mpmath
import sympy as sp

from dpsym.bounds import LowerBound
from dpsym.bounds.common import round_down
from dpsym.bounds.integer import chain_bound, pair_bound_amplitude, slides_formula, uniform_cost
from dpsym.bounds.integer import u as U_SYM
from dpsym.bounds.lp import (
    PiecewiseConstantNoise,
    certified_lp_lower_bound,
    exp_bracket,
    lp_optimal_mechanism,
)
from dpsym.bounds.real import n, tail_bound
from dpsym.bounds.tightness import PAPER_CLAIMS, ratio_limit, upper_bound
from dpsym.claims import verify_step
from dpsym.notebook import show_figure
from dpsym.symbols import Delta, b, c, delta, eps, k

if "inline" not in matplotlib.get_backend():
    matplotlib.use("Agg")

# %% [markdown]
# ## 1. The tail recursion behind Lemma 2
#
# For $(\varepsilon,\delta)$-DP noise (symmetric w.l.o.g.: the constraint set is convex
# and reflection-invariant, the cost symmetric), the set $S = (s, \infty)$ and the shift
# $d = \Delta$ give $U(s) \le e^\varepsilon U(s + \Delta) + \delta$, i.e.
# $U(s + \Delta) \ge b(U(s) - \delta)$; symmetry gives $U(s) \ge 1/2$ for $s < 0$. Hence
# $U(t) \ge x_k$ for $t < k\Delta$ with $x_0 = 1/2$, $x_{k+1} = b(x_k - \delta)$.
# We solve the recursion with `rsolve` and check that its decrements are the paper's
# masses $a b^k$.

# %%
xk = sp.Function("x")
sol = sp.rsolve(xk(k + 1) - b * (xk(k) - delta), xk(k), {xk(0): sp.Rational(1, 2)})
a_paper = (delta + (1 / b - 1) / 2) * b
assert sp.simplify(sol.subs(k, k + 1) - b * (sol - delta)) == 0
assert sp.simplify(sol - sol.subs(k, k + 1) - a_paper * b**k) == 0
# x_k = delta (e^{eps (nu - k)} - 1)/(e^eps - 1) with e^{eps nu} = 1 + (e^eps - 1)/(2 delta)
W = 1 + (1 / b - 1) / (2 * delta)
assert sp.simplify(sol - delta * (W * b**k - 1) / (1 / b - 1)) == 0
print(sol)

# %% [markdown]
# So $x_k > 0$ exactly for $k < \nu = \log(1 + (e^\varepsilon-1)/(2\delta))/\varepsilon
# = A/\Delta$ ($A$ the truncated Laplacian's truncation point) and, with
# $\mathbb{E}|X|^p = 2\int_0^\infty p t^{p-1} U(t)\,dt$,
#
# $$V_p^* \ge V_p^{low} = 2\Delta^p \sum_{k=1}^{n-1} x_k\,(k^p - (k-1)^p), \qquad
# n = \lceil \nu \rceil .$$
#
# The paper's assumption "$\sum_{k<n} a b^k = 1/2$ for an integer $n$" is $x_n = 0$, i.e.
# $\nu = n$. Summation by parts turns $V_p^{low}$ into the paper's
# $2\sum_{k<n} a b^k (k\Delta)^p$ there; elsewhere the last mass is *fractional*.
# The engine's closed form (sympy summation, symbolic $n$) against the paper's closed
# forms (11) and (12) at the integer-assumption points $\delta_n$, symbolically in $b$:

# %%
def paper_11(nn):
    return 2 * a_paper * ((b - b**nn) / (1 - b) ** 2 - (nn - 1) * b**nn / (1 - b)) * Delta


def paper_12(nn):
    return (2 * a_paper * Delta**2 / (1 - b)
            * (-b + 2 * (b * (1 - b ** (nn - 1)) / (1 - b) ** 2 - (nn - 1) * b**nn / (1 - b))
               - b**2 * (1 - b ** (nn - 2)) / (1 - b) - (nn - 1) ** 2 * b**nn))


def is_zero_rational(expr):
    """Whether the rational function ``expr`` is zero: the numerator of its normal form over
    one denominator expands to 0."""
    return sp.expand(sp.numer(sp.together(expr))) == 0


for nn in (2, 3, 4, 7):
    dn = (1 - b) * b ** (nn - 1) / (2 * (1 - b**nn))  # delta_n: x_n = 0
    assert is_zero_rational(sol.subs({k: nn, delta: dn}))
    for p, paper in ((1, paper_11), (2, paper_12)):
        ours = tail_bound(p).subs({n: nn, delta: dn})
        direct = 2 * Delta**p * sp.summation((a_paper * b**k * k**p).subs(delta, dn),
                                             (k, 0, nn - 1))
        assert is_zero_rational(ours - direct)
        assert is_zero_rational(ours - paper(nn).subs(delta, dn))
print("Theorems 4 and 5 (formulas (11), (12)) confirmed at the integer-assumption points")

# %% [markdown]
# ## 2. Arbitrary $(\varepsilon, \delta)$: what Lemma 2 rigorously gives
#
# At most parameters $\nu$ is not an integer. `LowerBound` uses the fractional last mass
# $x_{n-1}$ (the optimum of the tail relaxation above; continuous in $(\varepsilon,
# \delta)$). Rounding $n$ *up* in the paper's formula is **not** a lower bound: at
# $(\varepsilon,\delta) = (2, 0.45)$ it exceeds the exact cost of an explicit
# $(\varepsilon,\delta)$-DP mechanism (the LP-optimal piecewise-constant density of
# section 5, privacy verified in rational arithmetic).

# %%
def paper_formula_n(e, d, p, nn):
    ee, dd = mpmath.mpf(e), mpmath.mpf(d)
    bb = mpmath.exp(-ee)
    aa = (dd + mpmath.expm1(ee) / 2) / mpmath.exp(ee)
    return 2 * aa * sum(bb**kk * kk**p for kk in range(nn))


with mpmath.workdps(30):
    e, d = "2", "0.45"
    nu = mpmath.log1p(mpmath.expm1(2) / 0.9) / 2
    rounded_up = paper_formula_n(e, d, 2, int(mpmath.ceil(nu)))
    mech = lp_optimal_mechanism(e, d, 1, 16, 2)
    ours = LowerBound(eps=e, delta=d).value("cost", "power", 30).number
    print(f"nu = {nu}, n rounded up: {rounded_up}, achievable: {float(mech.cost)}, ours {ours}")
    achievable = mpmath.mpf(mech.cost.numerator) / mech.cost.denominator
    assert rounded_up > achievable  # not a lower bound
    assert ours <= achievable
# continuity across an integer-assumption point
with mpmath.workdps(50):
    dn = mpmath.expm1(1) / (2 * mpmath.expm1(4))
    below = LowerBound(eps=1, delta=mpmath.nstr(dn * (1 - mpmath.mpf(10) ** -25), 45)).value()
    above = LowerBound(eps=1, delta=mpmath.nstr(dn * (1 + mpmath.mpf(10) ** -25), 45)).value()
    assert abs(below.number - above.number) < mpmath.mpf(10) ** -22

# %% [markdown]
# Printed lower bounds are rounded toward $-\infty$: the 30-digit text never exceeds the
# bound.

# %%
for e, d in (("1", "0.05"), ("0.01", "0.001"), ("3", "0.2")):
    v = LowerBound(eps=e, delta=d).value("cost", "amplitude", 30)
    with mpmath.workdps(80):
        exact = LowerBound(eps=e, delta=d).value("cost", "amplitude", 60).number
        assert mpmath.mpf(v.text) <= exact
        assert v.text == round_down(exact, 30)[1]

# %% [markdown]
# ## 3. Tightness (Theorems 6 and 7)
#
# Upper bounds: the truncated Laplacian's costs integrated from Definition 3
# (`upper_bound`). The six limits of $V_p^{low}/V_p^{upp}$:

# %%
limits = {(p, r): ratio_limit(p, r) for p in (1, 2) for r in ("eps->0", "delta->0")}
limits[(1, "eps=delta->0")] = ratio_limit(1, "eps=delta->0")
for key, val in limits.items():
    print(key, val)

# %% [markdown]
# **$\varepsilon \to 0$, fixed $\delta$.** For small $\varepsilon$, $n = \lceil 1/(2\delta)
# \rceil$. Write $1/(2\delta) = n - f$ with $f \in [0, 1)$: the exact limit minus the
# paper's bound factors with the sign of $f(1-f) \ge 0$. The paper's inequalities hold,
# with equality exactly when $1/(2\delta)$ is an integer.

# %%
f = sp.Symbol("f", nonnegative=True)
for p in (1, 2):
    gap = (limits[(p, "eps->0")] - PAPER_CLAIMS[(p, "eps->0")][1]).subs(delta, 1 / (2 * (n - f)))
    gap = sp.factor(gap)  # a rational function of n, f: factored over one denominator
    print(p, gap)
    for nn, ff in itertools.product(range(2, 30), (sp.Rational(1, 7), sp.Rational(1, 2),
                                                   sp.Rational(9, 10))):
        assert gap.subs({n: nn, f: ff}) > 0
    assert all(gap.subs({n: nn, f: 0}) == 0 for nn in range(2, 10))
# the factorisations: every factor has a fixed sign for 0 <= f < 1 <= n - 1
gaps_expected = {1: f * (1 - f) / (n - f) ** 2,
                 2: f * (1 - f) * (6 * n - 5 - 2 * f) / (2 * (n - f) ** 3)}
for p in (1, 2):
    gap = (limits[(p, "eps->0")] - PAPER_CLAIMS[(p, "eps->0")][1]).subs(delta, 1 / (2 * (n - f)))
    assert is_zero_rational(gap - gaps_expected[p])

# %% [markdown]
# **$\delta \to 0$, fixed $\varepsilon$.** The limits *equal* the paper's bounds
# ($\varepsilon/(e^\varepsilon-1)$ and $\varepsilon^2(1+e^\varepsilon)/(2(e^\varepsilon-1)^2)$):
# the theorems' "$\ge$" is an equality. Their series start $1 - \varepsilon/2$, but the
# next terms differ: $+\varepsilon^2/12$ (amplitude) and $+\varepsilon^2/6$ (power).

# %%
for p in (1, 2):
    assert sp.simplify(limits[(p, "delta->0")] - PAPER_CLAIMS[(p, "delta->0")][1]) == 0
s1 = sp.series(limits[(1, "delta->0")], eps, 0, 3).removeO()
s2 = sp.series(limits[(2, "delta->0")], eps, 0, 3).removeO()
assert s1 == 1 - eps / 2 + eps**2 / 12 and s2 == 1 - eps / 2 + eps**2 / 6

# %% [markdown]
# **$\varepsilon = \delta \to 0$** (here $\delta = c\varepsilon$ for every $c > 0$, and every
# rounding gap $\theta = n - \nu \in [0,1)$): the amplitude ratio tends to 1 symbolically.
# The power limit is also 1 symbolically (`tests/bounds/test_bounds.py`, marked slow: sympy needs
# about two minutes); here it is checked numerically at decreasing $\varepsilon$.

# %%
assert limits[(1, "eps=delta->0")] == 1
for cc in ("1", "0.25", "4"):
    gaps = []
    for e in ("1e-3", "1e-5", "1e-7"):
        d = Fraction(cc) * Fraction(e)
        low = LowerBound(eps=e, delta=d).value("cost", "power", 20).number
        with mpmath.workdps(40):
            up = sp.N(upper_bound(2).subs({eps: sp.Rational(Fraction(e)),
                                           delta: sp.Rational(d), Delta: 1}), 40)
        gaps.append(abs(1 - low / mpmath.mpf(up)))
    print(cc, [mpmath.nstr(g, 3) for g in gaps])
    assert gaps[0] > gaps[1] > gaps[2] and gaps[2] < 1e-5

# %% [markdown]
# ## 4. Integer-valued queries (slides, Part Three)
#
# **$(0,\delta)$, $L = |i|$.** The constraints at $\{l > s\}$, $-\Delta \le s < 0$, give
# $u_j + u_{\Delta - 1 - j} \ge 1 - \delta$ for the tails $u_j = P(X > j)$, and the windows
# give $u_{j + k\Delta} \ge u_j - k\delta$. With the convex increasing
# $g(\alpha) = \sum_k (\alpha - k\delta)_+$, $\mathbb{E}|X| = 2\sum_j u_j \ge
# 2\Delta g((1-\delta)/2)$, which is $\Delta/(4\delta)$ when $u = 1/(2\delta)$ is an integer:
# the uniform mechanism's cost. So the uniform mechanism is optimal for **every** $\Delta$.
# The exact threshold LP agrees for every $\delta$ tried.

# %%
for D in (1, 2, 3, 5):
    for dd in (Fraction(1, 10), Fraction(1, 7), Fraction(2, 45)):
        lp = certified_lp_lower_bound(0, dd, D, D, 1, lattice=True).check()
        pair = pair_bound_amplitude().subs({delta: sp.Rational(dd), Delta: D})
        assert abs(lp - Fraction(str(pair))) < Fraction(1, 10**9)
    assert pair_bound_amplitude().subs({delta: sp.Rational(1, 10), Delta: D}) == \
        uniform_cost(1).subs({U_SYM: 5, Delta: D})
print("V_LB(|i|) =", uniform_cost(1), "(= uniform), slides:", slides_formula(1))

# %% [markdown]
# The slides' $V_{LB} = 2\delta\sum_{i=0}^{u-1} L(1 + i\Delta)$ is **above** the uniform
# mechanism's cost at $\Delta = 1$ (by $1/2$ for $|i|$, by $u/2$... see below for $|i|^2$):
# it cannot be a lower bound there. For $\Delta \ge 2$ it is valid but not sharp.

# %%
for p in (1, 2):
    excess = sp.factor(sp.expand(slides_formula(p) - uniform_cost(p)).subs(Delta, 1))
    print(p, "slides V_LB - V_UB at Delta = 1:", excess)
    assert all(excess.subs(U_SYM, uu) > 0 for uu in range(1, 40))
    for D in (2, 3, 4):
        lp = certified_lp_lower_bound(0, Fraction(1, 12), D, D, p, lattice=True).check()
        slides_value = Fraction(str(slides_formula(p).subs({U_SYM: 6, Delta: D})))
        assert slides_value <= lp + Fraction(1, 10**9)

# %% [markdown]
# **$(0,\delta)$, $L = |i|^2$**: the exact LP value against the uniform mechanism
# ($u = 6$): the additive gap stays bounded (a constant in $\delta$), and for
# $L = |i|^m$ the tail-recursion bound $2\delta\sum_{k<u} L(k\Delta)$ over the uniform
# cost tends to 1 as $\delta \to 0$ (two polynomials in $u$ with the same degree and leading
# coefficient).

# %%
for D in (1, 2, 3, 4):
    lp = certified_lp_lower_bound(0, Fraction(1, 12), D, D, 2, lattice=True).check()
    ub = Fraction(str(uniform_cost(2).subs({U_SYM: 6, Delta: D})))
    print(D, float(lp), float(ub), float(ub - lp))
    assert 0 <= ub - lp <= Fraction(D * D, 6) + Fraction(1, 6)
for mm in range(1, 6):  # polynomials in u of the same degree and leading coefficient
    uc, cb = sp.Poly(uniform_cost(mm), U_SYM), sp.Poly(chain_bound(mm), U_SYM)
    assert uc.degree() == cb.degree() and sp.simplify(uc.LC() - cb.LC()) == 0

# %% [markdown]
# **$(\varepsilon,\delta) \to (0,0)$: the slides' constants 5.29 ($|i|$) and 40 ($|i|^2$)**
# for $\min(V_{Lap}, V_{Uniform})/V_{LB}$. Along $\delta = c\varepsilon$,
# $V_{Lap} \sim \Delta/\varepsilon$ (resp. $2\Delta^2/\varepsilon^2$),
# $V_{Uniform} \sim \Delta/(4\delta)$ (resp. $\Delta^2/(12\delta^2)$), and
# $V^{low} \sim V^{upp}$ (section 3, every $c$), with
# $\varepsilon V_1^{upp} \to \Delta\,g_1(c)$, $\varepsilon^2 V_2^{upp} \to 2\Delta^2 g_2(c)$
# (with $e^\varepsilon - 1 = 2c\varepsilon w$ both are functions of $w$ alone, continuous at
# $\lim w = 1/(2c)$: the limits are their values there).
# The worst direction gives the sharp constants $1/(1 - \tfrac12\log 3) = 2.2188$ at
# $c = 1/4$ and $5.5087$ at $c = 1/\sqrt{24}$: the slides' constants hold but are loose.

# %%
w = sp.Symbol("w", positive=True)  # e^eps - 1 = 2 c eps w


def along_ray(p):
    """eps^p V_p^upp at delta = c eps as a function of w (eps cancels), at lim w."""
    expr = (eps**p * upper_bound(p)).subs(delta, c * eps).subs(sp.exp(eps), 1 + 2 * c * eps * w)
    expr = sp.cancel(expr.replace(sp.log, lambda arg: sp.log(sp.cancel(arg))))
    assert not expr.has(eps)
    return expr.subs(w, sp.limit((sp.exp(eps) - 1) / (2 * c * eps), eps, 0))


g1 = sp.simplify(along_ray(1) / Delta)
g2 = sp.simplify(along_ray(2) / (2 * Delta**2))
print(g1, "|", g2)
L_ = sp.log(1 + 1 / (2 * c))
for cc in (sp.Rational(1, 7), sp.Rational(1, 4), sp.Integer(3)):  # the readable forms
    assert abs(sp.N((g1 - (1 - 2 * c * L_)).subs(c, cc), 30)) < 1e-25
    assert abs(sp.N((g2 - (1 - 2 * c * (L_ + L_**2 / 2))).subs(c, cc), 30)) < 1e-25
g1f, g2f = sp.lambdify(c, g1, "mpmath"), sp.lambdify(c, g2, "mpmath")


def r1(cc):
    return min(1, 1 / (4 * cc)) / g1f(cc)


def r2(cc):
    return min(1, 1 / (24 * cc**2)) / g2f(cc)


with mpmath.workdps(30):
    C1, C2 = r1(mpmath.mpf(1) / 4), r2(1 / mpmath.sqrt(24))
    assert all(r1(mpmath.mpf(1) / 4 * mpmath.mpf("1.02") ** j) <= C1 for j in range(-300, 301))
    assert all(r2(1 / mpmath.sqrt(24) * mpmath.mpf("1.02") ** j) <= C2 for j in range(-300, 301))
    assert abs(C1 - 1 / (1 - mpmath.log(3) / 2)) < mpmath.mpf(10) ** -25
    print("sharp constants:", mpmath.nstr(C1, 6), mpmath.nstr(C2, 6))
assert C1 < 5.29 and C2 < 40

# %% [markdown]
# **$d$-dimensional $(0,\delta)$**, costs $\sum_m |i_m|$ and $\sum_m i_m^2$, sets
# $S^m_k = \{i_m \ge k\}$: the LP decouples into the $d$ marginals, each a 1-D threshold
# LP with sensitivity $\Delta$; so $V_{LB}^{(d)} = d\,V_{LB}^{(1)}$. For $\ell^1$ this is
# $d\Delta/(4\delta) = V_{UB}$ (the slides' $\frac{d\Delta}{4\delta} - \frac{\Delta-1}{2}d$
# is valid but loose); for $\ell^2$ the slides' bound is below $d$ times the exact 1-D LP.

# %%
dd = Fraction(1, 10)
for D in (1, 2, 3, 4):
    for dim in (1, 2, 3):
        l1 = dim * certified_lp_lower_bound(0, dd, D, D, 1, lattice=True).check()
        l2 = dim * certified_lp_lower_bound(0, dd, D, D, 2, lattice=True).check()
        slides_l1 = Fraction(dim * D, 4) / dd - Fraction(D - 1, 2) * dim
        slides_l2 = (Fraction(dim * D * D, 12) / dd**2 + (Fraction(1, D) - 1) * dim * D * D
                     / (4 * dd) + Fraction(1 - D, 2) * dim + Fraction(dim * D * D, 6))
        assert slides_l1 <= l1 + Fraction(1, 10**9) and slides_l2 <= l2 + Fraction(1, 10**9)
        assert abs(l1 - Fraction(dim * D, 4) / dd) < Fraction(1, 10**9)

# %% [markdown]
# ## 5. The LP engine: a certified lower bound and an achievable mechanism
#
# **The mixing lemma.** Spread mass $P(i)$ uniformly over cell $i$ (width $h$). At a real
# shift $\tau = (m + \theta)h$, a point at relative position $\varphi$ of cell $i$ lands in
# cell $i+m$ if $\varphi < 1 - \theta$, else in cell $i + m + 1$; both densities are
# constant on each part, so
# $\int (f(x) - e^\varepsilon f(x+\tau))_+ dx = (1-\theta)H(m) + \theta H(m+1)$ with
# $H(m) = \sum_i (P(i) - e^\varepsilon P(i+m))_+$. Checked in exact rationals on a random
# mass function against an independent piecewise integration:

# %%
rng = random.Random(3)
masses = [Fraction(rng.randrange(1, 50)) for _ in range(6)]
total = masses[0] + 2 * sum(masses[1:])
noise = PiecewiseConstantNoise(Fraction(1, 3), [v / total for v in masses])
E = Fraction(5, 2)


def exact_integral(tau):
    h = noise.step
    edges = {h * (2 * i - 1) / 2 for i in range(-noise.K, noise.K + 2)}
    pts = sorted(edges | {x - tau for x in edges})

    def dens(x):
        i = (x / h + Fraction(1, 2)).__floor__()
        return noise.mass(i) / h

    return sum(max(Fraction(0), dens((lo + hi) / 2) - E * dens((lo + hi) / 2 + tau)) * (hi - lo)
               for lo, hi in itertools.pairwise(pts))


for _ in range(20):
    m_, theta_ = rng.randrange(0, 4), Fraction(rng.randrange(0, 97), 97)
    tau = (m_ + theta_) * noise.step
    lhs = exact_integral(tau)
    rhs = (1 - theta_) * noise.grid_hockey_stick(m_, E) + theta_ * noise.grid_hockey_stick(
        m_ + 1, E)
    assert lhs == rhs

# %% [markdown]
# **The sandwich** at concrete parameters (grid $h = \Delta/16$): certified LP lower bound
# (exact dual certificate) $\le$ LP-optimal mechanism (exact cost, privacy verified
# exactly) $\le$ truncated Laplacian $\le$ Laplace. The closed-form bound of Theorems 4-5
# is far below the LP bound at moderate $\varepsilon$: the finite-parameter gap.

# %%
lp_optimal = {}  # the LP-optimal mechanisms by (eps, delta, p), reused below
for e, d in (("0.1", "0.05"), ("1", "0.05"), ("2", "0.001")):
    for p in (1, 2):
        cert = certified_lp_lower_bound(e, d, 1, 16, p).check()
        up = lp_optimal[e, d, p] = lp_optimal_mechanism(e, d, 1, 16, p)
        closed = LowerBound(eps=e, delta=d).value("cost", p, 15).number
        with mpmath.workdps(30):
            tl = mpmath.mpf(sp.N(upper_bound(p).subs({eps: sp.Rational(e), delta: sp.Rational(d),
                                                      Delta: 1}), 30))
        lap = float((1 / Fraction(e)) ** p * (1 if p == 1 else 2))
        print(e, d, p, float(closed), float(cert), float(up.cost), float(tl), float(lap))
        with mpmath.workdps(30):
            lo_, up_ = (mpmath.mpf(v.numerator) / v.denominator for v in (cert, up.cost))
            assert lo_ <= up_ <= tl <= lap
        assert closed <= tl
        assert up.worst_hockey_stick <= Fraction(d)

# %% [markdown]
# **"Establishing the optimality of the truncated Laplacian mechanism"** (abstract, Sections
# 1 and 7). The sandwich above shows it is not optimal at fixed parameters: at
# $(\varepsilon, \delta) = (1, 0.05)$ the LP-optimal mechanism, whose privacy is verified
# exactly, is cheaper than the truncated Laplacian. What the tightness theorems establish is
# asymptotic optimality — the ratio of the bounds tends to 1 as $\varepsilon = \delta \to 0$
# (Section 5 itself says "near-optimality"); erratum T9.

# %%
up_1 = lp_optimal["1", "0.05", 1]
with mpmath.workdps(30):
    tl_1 = mpmath.mpf(sp.N(upper_bound(1).subs({eps: 1, delta: sp.Rational(1, 20), Delta: 1}), 30))
    lp_1 = mpmath.mpf(up_1.cost.numerator) / up_1.cost.denominator
print("(1, 0.05): LP-optimal mechanism", mpmath.nstr(lp_1, 10), "< truncated Laplacian",
      mpmath.nstr(tl_1, 10), "; worst hockey-stick", up_1.worst_hockey_stick)
assert lp_1 < tl_1 and up_1.worst_hockey_stick <= Fraction(1, 20)
verify_step("003.optimality")

# %%
E_lo, E_hi = exp_bracket(Fraction(1))
with mpmath.workdps(100):
    assert mpmath.mpf(E_lo.numerator) / E_lo.denominator < mpmath.e
    assert mpmath.e < mpmath.mpf(E_hi.numerator) / E_hi.denominator

# %% [markdown]
# The LP-optimal noise next to the truncated Laplacian ($\varepsilon = 1$,
# $\delta = 0.05$, amplitude):

# %%
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

mech = lp_optimal["1", "0.05", 1].noise
xs = np.linspace(-4, 4, 2001)
A = np.log1p(np.expm1(1) / 0.1)
Bn = 1 / (2 * (1 - np.exp(-A)))
plt.step(xs, mech.density(xs), where="mid", label="LP-optimal")
plt.plot(xs, np.where(np.abs(xs) <= A, Bn * np.exp(-np.abs(xs)), 0), label="truncated Laplacian")
plt.legend()
show_figure()
assert abs(np.trapezoid(mech.density(xs), xs) - 1) < 1e-3
