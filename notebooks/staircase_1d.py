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
# # The 1-D staircase mechanism: proof checks
#
# Source: thesis slides (seed `000`), *Part One: the optimal mechanism in
# $\varepsilon$-differential privacy, single dimensional setting*, and its "Extension to
# discrete setting".
#
# Every result below is derived twice from the definition: once by the dpsym engine
# (`dpsym.Staircase`, `dpsym.DiscreteStaircase`) and once independently in this notebook
# with plain sympy / mpmath / numpy. Every claim cell ends in an `assert`. The slides'
# statements are treated as claims: each one is checked against the derivation, and
# where the slides are imprecise the notebook asserts the precise statement (recorded in
# `docs/errata.md`).
#
# Notation: $b = e^{-\varepsilon} \in (0, 1)$, sensitivity $\Delta > 0$, step fraction
# $\gamma \in [0, 1]$.

# %% tags=["hide-input"]
import functools
import itertools
from math import comb

import matplotlib
import matplotlib.pyplot as plt
import mpmath
import numpy as np
import sympy as sp
from scipy.optimize import minimize_scalar

from dpsym import DiscreteLaplace, DiscreteStaircase, Laplace, Staircase
from dpsym.notebook import show, show_figure
from dpsym.privacy.profiles import is_private
from dpsym.symbols import Delta, b, eps, gamma, k, u
from dpsym.symbols import r as r_sym

if "inline" not in matplotlib.get_backend():  # plain `python notebook.py`: no display
    matplotlib.use("Agg")


def convergent(s):
    """The convergent branch of a sympy geometric sum (checked to be the branch b < 1)."""
    if isinstance(s, sp.Piecewise):
        (expr, cond), *_ = s.args
        assert cond.subs(b, sp.Rational(1, 2)) is sp.true, cond
        return expr
    return s


@functools.cache
def geometric_moment(j):
    r"""$\sum_{k \ge 0} k^j b^k$: the geometric series by sympy.summation (its convergent
    branch), then $b\,\frac{d}{db}$ per power of $k$ (termwise differentiation of a power
    series inside its disc of convergence)."""
    if j == 0:
        return convergent(sp.summation(b**k, (k, 0, sp.oo)))
    return sp.factor(b * sp.diff(geometric_moment(j - 1), b))


def sum_over_periods(expr):
    r"""$\sum_{k \ge 0}$ of ``expr`` = $b^k \times$ (a polynomial in $k$), with sympy.summation."""
    poly = sp.Poly(sp.expand(sp.powsimp(sp.expand(expr / b**k))), k)
    return sp.Add(*[c * geometric_moment(j) for (j,), c in poly.terms()])


def is_zero_rational(expr):
    """Whether ``expr`` (a rational function, radicals of the symbols allowed) is zero: the
    numerator of its normal form over one denominator expands to 0."""
    return sp.expand(sp.numer(sp.together(expr))) == 0


B_OF_EPS = {b: sp.exp(-eps)}

# %% [markdown]
# ## 1. The staircase density
#
# For $x \ge 0$ and $k = 0, 1, 2, \dots$ (and symmetric, $f_\gamma(-x) = f_\gamma(x)$):
#
# $$
# f_\gamma(x) = \begin{cases}
#   a(\gamma)\, b^{k}   & x \in [k\Delta, (k+\gamma)\Delta) \\
#   a(\gamma)\, b^{k+1} & x \in [(k+\gamma)\Delta, (k+1)\Delta).
# \end{cases}
# $$
#
# Each period $[k\Delta, (k+1)\Delta)$ is the previous one scaled by $b$: a high step of
# width $\gamma\Delta$ followed by a low step of width $(1-\gamma)\Delta$. The engine
# stores exactly this: one period and a geometric ratio.

# %%
shape = Staircase.engine.noise_shape()
print(shape.tail)
assert shape.tail.ratio == b and shape.tail.period == Delta and not shape.head
assert [(pc.lo, pc.hi) for pc in shape.tail.pieces] == [(0, gamma * Delta), (gamma * Delta, Delta)]

# %% [markdown]
# ## 2. The normalisation $a(\gamma)$
#
# Independent derivation: integrate the piecewise density over one period
# $x = k\Delta + u$, $u \in [0, \Delta)$ (sympy returns $\min(\Delta, \gamma\Delta)$, which is
# $\gamma\Delta$ because $\gamma \le 1$), sum the periods with `sympy.summation` (the
# geometric series; its moments $\sum_k k^j b^k$ by termwise differentiation, $b\,d/db$),
# double for the negative half-line, and solve total mass $= 1$.

# %%
a = sp.Symbol("a", positive=True)


def period_integral(weight):
    r"""$\int_0^\Delta$ weight $\cdot f_\gamma(k\Delta + u)\,du$ with the piecewise density."""
    density = sp.Piecewise((a * b**k, u < gamma * Delta), (a * b ** (k + 1), True))
    integral = sp.integrate(weight * density, (u, 0, Delta))
    return integral.subs(sp.Min(Delta, Delta * gamma), Delta * gamma)  # gamma <= 1


mass = 2 * sum_over_periods(period_integral(1))
(a_indep,) = sp.solve(sp.Eq(mass, 1), a)
a_engine = Staircase.normalisation()
show(r"a(\gamma)", sp.factor(a_engine))
assert sp.simplify(a_indep - a_engine) == 0
assert sp.simplify(a_engine - (1 - b) / (2 * Delta * (gamma + b * (1 - gamma)))) == 0

# %% [markdown]
# The density for a few $\gamma$ at $\varepsilon = 1$, $\Delta = 1$, with the Laplace density
# of the same $\varepsilon$ (dashed). Every staircase is $\varepsilon$-DP:
# $f(x)/f(x+d) \le e^{\varepsilon}$
# for $|d| \le \Delta$.

# %%
def staircase_pdf(x, g, bb, D=1.0):
    """The staircase density (numpy), straight from the definition."""
    ax = np.abs(x) / D
    kk = np.floor(ax)
    high = (ax - kk) < g
    a_val = (1 - bb) / (2 * D * (g + bb * (1 - g)))
    return a_val * bb**kk * np.where(high, 1.0, bb)


xs = np.linspace(-3, 3, 3001)
b1 = np.exp(-1.0)
g_l1_at_1 = 1 / (1 + np.exp(0.5))
fig, ax = plt.subplots(figsize=(8, 3.5))
for g in (0.1, 0.3, g_l1_at_1, 0.8):
    ax.plot(xs, staircase_pdf(xs, g, b1), lw=1.2, label=rf"$\gamma = {g:.3f}$")
ax.plot(xs, 0.5 * np.exp(-np.abs(xs)), "k--", lw=1, label="Laplace")
ax.set(xlabel="x", ylabel="density", title=r"Staircase densities, $\varepsilon = 1$, $\Delta = 1$")
ax.legend()
show_figure()

# the numeric density integrates to one (independent check of a(gamma))
# (midpoint rule on a grid aligned with the breakpoints: exact up to the truncation at |x| = 40)
for g in (0.1, 0.5, 0.9):
    h = 1e-3
    mids = np.arange(-40, 40, h) + h / 2
    assert abs(np.sum(staircase_pdf(mids, g, b1)) * h - 1) < 1e-10

# %% [markdown]
# ## 3. The expected cost $V(\gamma)$ for $|x|$ and $x^2$ (and $|x|^3$)
#
# $V_p(\gamma) = \mathbb{E}|X|^p = 2\sum_k \int_0^\Delta (k\Delta + u)^p f_\gamma(k\Delta+u)\,du$,
# derived again independently and compared with the engine's `cost_function`.

# %%
V = {}
for p_ in (1, 2, 3):
    indep = 2 * sum_over_periods(period_integral((k * Delta + u) ** p_)).subs(a, a_indep)
    V[p_] = Staircase.cost_function(f"moment:{p_}")
    assert is_zero_rational(indep - V[p_]), p_
show(r"V_1(\gamma)", V[1])
show(r"V_2(\gamma)", V[2])

# %% [markdown]
# ## 4. The optimal $\gamma^*$
#
# **$\ell^1$.** Write $s = \gamma + \frac{b}{1-b}$. The numerator of $V_1^{\prime}(\gamma)$ is, up
# to a
# positive factor, $(1-b)^2 s^2 - b$: a single stationary point
# $s^* = \sqrt b/(1-b)$, i.e.
# $\gamma^* = \frac{\sqrt b - b}{1 - b} = \frac{1}{1 + e^{\varepsilon/2}}$,
# and $V_1$ decreases before it and increases after it.
#
# **$\ell^2$.** The numerator of $V_2^{\prime}(\gamma)$ is, up to a positive factor,
# $2(1-b)^3 s^3 - b(1+b)$: a single real stationary point
# $s^* = \bigl(b(1+b)/2\bigr)^{1/3}/(1-b)$, i.e.
# $\gamma^* = \frac{(b(1+b)/2)^{1/3} - b}{1-b}$, again a global minimum on the line.
#
# Both lie in $[0, 1]$: $s^* \ge b/(1-b)$ and $s^* \le 1/(1-b)$ reduce to
# $b \ge b^2$, $(1+b)/2 \ge b^2$ and $b \le 1$, $b(1+b)/2 \le 1$.

# %%
s = sp.Symbol("s", positive=True)
beta = sp.Symbol("beta", positive=True)  # beta = sqrt(b)
gstar = {1: Staircase.optimal_parameter("amplitude"), 2: Staircase.optimal_parameter("power")}
show(r"\gamma^*_{\ell^1}", gstar[1])
show(r"\gamma^*_{\ell^2}", gstar[2])

pos = {b: sp.Rational(1, 3), Delta: sp.Rational(5, 2)}  # a point to check signs of factors
target = {1: (1 - b) ** 2 * s**2 - b, 2: 2 * (1 - b) ** 3 * s**3 - b * (1 + b)}
for p_ in (1, 2):
    numerator, denominator = sp.fraction(sp.factor(sp.diff(V[p_], gamma)))
    in_s = sp.expand(numerator.subs(gamma, s - b / (1 - b)))
    ratio = sp.factor(in_s / target[p_])
    assert not ratio.has(s) and ratio.subs(pos) > 0, ratio  # numerator = positive * target
    assert sp.factor(denominator).subs(pos).subs(gamma, sp.Rational(1, 2)) > 0
    assert denominator.subs(pos).subs(gamma, sp.Rational(1, 7)) > 0
    # the engine's gamma* is the root of the target polynomial
    assert is_zero_rational(target[p_].subs(s, gstar[p_] + b / (1 - b)))
    # ... and the derivative vanishes there
    assert is_zero_rational(sp.diff(V[p_], gamma).subs(gamma, gstar[p_]))

assert is_zero_rational(gstar[1].subs(b, beta**2) - beta / (1 + beta))  # = 1/(1 + e^{eps/2})
assert is_zero_rational(gstar[2] - ((b * (1 + b) / 2) ** sp.Rational(1, 3) - b) / (1 - b))
# gamma* in [0, 1]: the inequalities of the markdown, as polynomial facts on (0, 1)
for cond in (b - b**2, (1 + b) / 2 - b**2, 1 - b, 1 - b * (1 + b) / 2):
    poly = sp.Poly(cond, b)  # no real root inside (0, 1) and positive at 1/2
    assert all(not 0 < root < 1 for root in poly.real_roots())
    assert poly.eval(sp.Rational(1, 2)) > 0

# %% [markdown]
# Numerically at several $\varepsilon$ (30 digits): the derivative vanishes at $\gamma^*$, and
# $V(\gamma^*)$ is below $V$ on a grid of 2001 points of $[0, 1]$ (endpoints included); the
# engine's certified `value("gamma", ...)` agrees with the closed form.

# %%
grid_g = [mpmath.mpf(j) / 2000 for j in range(2001)]
# V at Delta = 1 is a ratio of two polynomials in gamma: their coefficients (functions of b),
# V', and gamma* are compiled once; the grid is evaluated by Horner's rule
compiled = {}
for p_ in (1, 2):
    num, den = sp.fraction(sp.together(V[p_].subs(Delta, 1)))
    compiled[p_] = (sp.lambdify(b, sp.Poly(num, gamma).all_coeffs(), "mpmath"),
                    sp.lambdify(b, sp.Poly(den, gamma).all_coeffs(), "mpmath"),
                    sp.lambdify((gamma, b), sp.diff(V[p_], gamma).subs(Delta, 1), "mpmath"),
                    sp.lambdify(b, gstar[p_], "mpmath"))
with mpmath.workdps(30):
    for eps_text in ("0.05", "0.5", "1", "3", "10"):
        bb = mpmath.exp(-mpmath.mpf(eps_text))
        for p_, cost in ((1, "amplitude"), (2, "power")):
            num_of_b, den_of_b, df_num, g_of_b = compiled[p_]
            cn, cd = num_of_b(bb), den_of_b(bb)

            def f_num(t, cn=cn, cd=cd):
                return mpmath.polyval(cn, t) / mpmath.polyval(cd, t)

            g_num = g_of_b(bb)
            assert 0 <= g_num <= 1
            assert abs(df_num(g_num, bb)) < mpmath.mpf(10) ** -25 * max(1, abs(f_num(g_num)))
            best = f_num(g_num)
            assert all(best <= f_num(t) for t in grid_g)
            engine = Staircase(eps=eps_text).value("gamma", cost, digits=20)
            assert abs(engine.number - g_num) < mpmath.mpf(10) ** -18

# %% [markdown]
# $V(\gamma)$ relative to the Laplace cost, for a few $\varepsilon$; dots at $\gamma^*$.

# %% tags=["hide-input"]
fig, axes = plt.subplots(1, 2, figsize=(10, 3.5))
gs = np.linspace(0, 1, 401)
for ax, p_, lap, name in ((axes[0], 1, lambda e: 1 / e, r"$|x|$"),
                          (axes[1], 2, lambda e: 2 / e**2, r"$x^2$")):
    fv = sp.lambdify((gamma, b), V[p_].subs(Delta, 1), "numpy")
    gv = sp.lambdify(b, gstar[p_], "numpy")
    for e in (0.5, 1, 2, 4):
        line, = ax.plot(gs, fv(gs, np.exp(-e)) / lap(e), label=rf"$\varepsilon = {e}$")
        g_opt = gv(np.exp(-e))
        ax.plot(g_opt, fv(g_opt, np.exp(-e)) / lap(e), "o", color=line.get_color())
    ax.set(xlabel=r"$\gamma$", ylabel=r"$V(\gamma) / V_{\mathrm{Lap}}$", title=f"cost {name}")
    ax.legend()
plt.tight_layout()
show_figure()

# %% [markdown]
# ## 5. The optimal costs against the slides
#
# Slides, "Recap of Part One: Applications":
#
# * $\ell^1$: $V(P_{\gamma^*}) = \Delta \frac{e^{\varepsilon/2}}{e^{\varepsilon} - 1}$;
# * $\ell^2$: $V(P_{\gamma^*}) = \Delta^2 \frac{2^{-2/3} b^{2/3} (1+b)^{2/3} + b}{(1-b)^2}$.
#
# Both are confirmed exactly (the engine's closed forms, and $V$ of section 3 evaluated at
# $\gamma^*$), and at $\varepsilon = 2$ to 40 digits against an independent mpmath evaluation
# of the slides' formulas.

# %%
C = {1: Staircase.optimal_cost("amplitude"), 2: Staircase.optimal_cost("power")}
slide = {
    1: Delta * sp.exp(eps / 2) / (sp.exp(eps) - 1),
    2: Delta**2 * (2 ** sp.Rational(-2, 3) * b ** sp.Rational(2, 3) * (1 + b) ** sp.Rational(2, 3)
                   + b) / (1 - b) ** 2,
}
show(r"V_{\ell^1}^*", C[1])
show(r"V_{\ell^2}^*", C[2])
assert sp.simplify(C[1].subs(B_OF_EPS) - slide[1]) == 0
assert sp.simplify(C[2] - slide[2]) == 0
for p_ in (1, 2):
    assert is_zero_rational(V[p_].subs(gamma, gstar[p_]) - C[p_])

with mpmath.workdps(50):
    e = mpmath.mpf(2)
    bb = mpmath.exp(-e)
    mine = {1: mpmath.exp(e / 2) / mpmath.expm1(e),
            2: (mpmath.cbrt(bb * (1 + bb) / 2) ** 2 + bb) / (1 - bb) ** 2}
    for p_, cost in ((1, "amplitude"), (2, "power")):
        val = Staircase(eps="2", Delta=1).value("cost", cost, digits=40)
        print(cost, val.text)
        assert val.text == mpmath.nstr(mine[p_], 40, strip_zeros=False)

# %% [markdown]
# ## 6. $\varepsilon \to 0$: the additive gap to Laplace
#
# Laplace costs $\Delta/\varepsilon$ and $2\Delta^2/\varepsilon^2$ (derived in `laplace.py`). The
# slides say "the additive gap $\to 0$" ($\ell^1$) and "the additive gap $\le c\Delta^2$"
# ($\ell^2$). Exactly:
#
# $$V^*_{\ell^1} - \frac{\Delta}{\varepsilon} = -\frac{\Delta\varepsilon}{24} + O(\varepsilon^3) \to
# 0,
# \qquad
# V^*_{\ell^2} - \frac{2\Delta^2}{\varepsilon^2}
# = -\frac{\Delta^2}{12} + \frac{\Delta^2\varepsilon^2}{720} +
# O(\varepsilon^3) \to -\frac{\Delta^2}{12}.$$
#
# So for $\ell^2$ the gap does **not** vanish: the staircase saves exactly $\Delta^2/12$ in
# the limit, and numerically $-\Delta^2/12 < V^*_{\ell^2} - 2\Delta^2/\varepsilon^2 < 0$ for every
# $\varepsilon$ on a grid from $10^{-4}$ to $50$: the sharp constant is $c = 1/12$.

# %%
lap = {1: Laplace.optimal_cost("amplitude"), 2: Laplace.optimal_cost("power")}
assert lap[1] == Delta / eps and lap[2] == 2 * Delta**2 / eps**2

gap_series = {p_: Staircase.series("cost", c_, "eps->0", 3) - lap[p_]
              for p_, c_ in ((1, "amplitude"), (2, "power"))}
show(r"V^*_{\ell^1} - \Delta/\varepsilon", gap_series[1])
show(r"V^*_{\ell^2} - 2\Delta^2/\varepsilon^2", gap_series[2])
assert sp.expand(gap_series[1].removeO()) == -Delta * eps / 24
assert sp.expand(gap_series[2].removeO()) == -Delta**2 / 12 + Delta**2 * eps**2 / 720

# independent: sympy series of the slides' formulas, the factor Delta^p taken out (the limits
# are the constant terms)
gap1 = slide[1] / Delta - 1 / eps
gap2 = (slide[2] / Delta**2).subs(B_OF_EPS) - 2 / eps**2
assert sp.expand(Delta * sp.series(gap1, eps, 0, 2).removeO()) == -Delta * eps / 24
gap2_series = Delta**2 * sp.series(gap2, eps, 0, 3).removeO()
assert sp.expand(gap2_series - (-Delta**2 / 12 + Delta**2 * eps**2 / 720)) == 0

with mpmath.workdps(40):
    for e in [mpmath.mpf(10) ** j for j in np.linspace(-4, np.log10(50), 60)]:
        bb = mpmath.exp(-e)
        g2 = (mpmath.cbrt(bb * (1 + bb) / 2) ** 2 + bb) / (-mpmath.expm1(-e)) ** 2 - 2 / e**2
        assert -mpmath.mpf(1) / 12 < g2 < 0, (e, g2)

# %% [markdown]
# ## 7. $\varepsilon \to \infty$: the $\Theta$-statements with their constants
#
# Expanded in $b = e^{-\varepsilon} \to 0^+$:
# $V^*_{\ell^1} = \Delta\sqrt b + O(b^{3/2})$ and
# $V^*_{\ell^2} = 2^{-2/3}\Delta^2 b^{2/3} + O(b)$, i.e.
# $V^*_{\ell^1} \sim \Delta e^{-\varepsilon/2}$ and
# $V^*_{\ell^2} \sim 2^{-2/3}\Delta^2 e^{-2\varepsilon/3}$:
# the slides' $\Theta(\Delta e^{-\varepsilon/2})$ and $\Theta(\Delta^2 e^{-2\varepsilon/3})$ hold,
# with
# leading constants $1$ and $2^{-2/3} \approx 0.630$. Against Laplace the ratio tends to
# $0$ ("huge improvement in the low privacy regime").

# %%
ser1 = Staircase.series("cost", "amplitude", "eps->oo", 2)
ser2 = Staircase.series("cost", "power", "eps->oo", 1)
show(r"V^*_{\ell^1}", ser1)
show(r"V^*_{\ell^2}", ser2)
assert sp.simplify(ser1.removeO() - Delta * sp.sqrt(b) - Delta * b ** sp.Rational(3, 2)) == 0
lead2 = 2 ** sp.Rational(-2, 3) * Delta**2 * b ** sp.Rational(2, 3)
assert sp.simplify(ser2.removeO() - lead2) == 0

assert sp.limit(slide[1] * sp.exp(eps / 2), eps, sp.oo) == Delta
assert sp.simplify(sp.limit(slide[2].subs(B_OF_EPS) * sp.exp(2 * eps / 3), eps, sp.oo)
                   - 2 ** sp.Rational(-2, 3) * Delta**2) == 0
assert sp.limit(slide[1] / (Delta / eps), eps, sp.oo) == 0
assert sp.limit(slide[2].subs(B_OF_EPS) / (2 * Delta**2 / eps**2), eps, sp.oo) == 0

# %% [markdown]
# The ratio of the optimal staircase cost to the Laplace cost, with the $\varepsilon \to \infty$
# asymptotes $\varepsilon e^{-\varepsilon/2}$ and $2^{-5/3}\varepsilon^2 e^{-2\varepsilon/3}$.

# %%
es = np.logspace(-2, np.log10(30), 300)
bs = np.exp(-es)
r1 = np.exp(es / 2) / np.expm1(es) / (1 / es)
r2 = (np.cbrt(bs * (1 + bs) / 2) ** 2 + bs) / (-np.expm1(-es)) ** 2 / (2 / es**2)
fig, ax = plt.subplots(figsize=(7, 3.5))
ax.loglog(es, r1, label=r"$\ell^1$")
ax.loglog(es, r2, label=r"$\ell^2$")
ax.loglog(es[es > 3], (es * np.exp(-es / 2))[es > 3], "C0:",
          label=r"$\varepsilon e^{-\varepsilon/2}$")
ax.loglog(es[es > 3], (2 ** (-5 / 3) * es**2 * np.exp(-2 * es / 3))[es > 3], "C1:",
          label=r"$2^{-5/3}\varepsilon^2 e^{-2\varepsilon/3}$")
ax.set(xlabel=r"$\varepsilon$", ylabel="staircase / Laplace", title="Optimal cost ratio")
ax.legend()
show_figure()
assert np.all(r1 < 1) and np.all(r2 < 1)
assert np.all(np.diff(r1) < 0) and np.all(np.diff(r2) < 0)

# %% [markdown]
# ## 8. $\gamma^* \to 1/2$ as $\varepsilon \to 0$ and $\gamma^* \to 0$ as $\varepsilon \to \infty$
#
# For $m = 1, 2$ from the closed forms: the expansions (the engine's series, whose constant
# term is the limit $\tfrac12$) are
# $\gamma^*_{\ell^1} = \tfrac12 - \tfrac{\varepsilon}{8} + O(\varepsilon^3)$,
# $\gamma^*_{\ell^2} = \tfrac12 - \tfrac{\varepsilon}{12} + O(\varepsilon^3)$, and as
# $b = e^{-\varepsilon} \to 0^+$ (symbolic limits) $\gamma^* \to 0$ with
# $\gamma^*_{\ell^1} \sim \sqrt b$, $\gamma^*_{\ell^2} \sim 2^{-1/3} b^{1/3}$.

# %%
for p_, c_, slope, lead in ((1, "amplitude", sp.Rational(1, 8), sp.sqrt(b)),
                            (2, "power", sp.Rational(1, 12),
                             2 ** sp.Rational(-1, 3) * b ** sp.Rational(1, 3))):
    assert sp.limit(gstar[p_], b, 0, "+") == 0
    assert sp.simplify(sp.limit(gstar[p_] / lead, b, 0, "+") - 1) == 0
    ser = Staircase.series("gamma", c_, "eps->0", 3)
    assert sp.expand(ser.removeO()) == sp.Rational(1, 2) - slope * eps
    show(rf"\gamma^*_{{\ell^{p_}}}", ser)

# %% [markdown]
# For $m = 3$ and $m = 1/2$ there is no closed form; the engine's certified numeric
# minimiser (`Staircase(eps=...).value("gamma", "moment:m")`) is compared with an
# independent computation of $\mathbb{E}|X|^m$ summed period by period ($\Delta = 1$),
#
# $$\mathbb{E}|X|^m = \frac{C(\gamma)}{m+1} S(\gamma), \quad C = \frac{1-b}{\gamma + b - b\gamma},
# \quad S = \sum_{k \ge 0} b^k \bigl[(1-b)(k+\gamma)^{m+1} - k^{m+1} + b(k+1)^{m+1}\bigr],$$
#
# whose stationarity condition is $(\gamma + b - b\gamma)\,S^{\prime}(\gamma) = (1-b)\,S(\gamma)$
# with
# $S^{\prime}(\gamma) = (1-b)(m+1)\sum_k b^k (k+\gamma)^m$: its root in $(0, 1)$ is found with
# mpmath
# at 30 digits (direct summation of the series; for integer $m$ the power sums
# $\sum_k b^k k^j$ are summed once and $S$, $S^{\prime}$ are then polynomials in $\gamma$ by the
# binomial theorem; otherwise the terms free of $\gamma$ are summed once), bracketed by a
# sign change around the float64 root, and agrees with the engine to 12 digits. (The
# float64 version also draws the curves of the figure.)

# %%
def gamma_mp(eps_text, m, dps=30):
    """gamma* for |x|^m: root of the stationarity condition, series summed directly."""
    with mpmath.workdps(dps):
        e_, m_ = mpmath.mpf(eps_text), mpmath.mpf(m)
        bb = mpmath.exp(-e_)
        n_terms = int((dps * 2.4 + 3 * m_ * mpmath.log(1 + 100 / e_)) / e_) + 10
        with mpmath.workdps(dps + 10):  # b^k by repeated products: relative error
            weights = [mpmath.mpf(1)]  # below n_terms * 10^-(dps + 10), far below 10^-dps
            for _ in range(n_terms - 1):
                weights.append(weights[-1] * bb)
        if m == int(m):  # the power sums P_j = sum_k b^k k^j, summed once
            n = int(m)
            P = [mpmath.fdot(weights, [kk**j for kk in range(n_terms)]) for j in range(n + 2)]

            def sums(g):  # (k + g)^i and (k + 1)^i expanded by the binomial theorem
                return ((1 - bb) * sum(comb(n + 1, j) * g ** (n + 1 - j) * P[j]
                                       for j in range(n + 2))
                        - P[n + 1] + bb * sum(comb(n + 1, j) * P[j] for j in range(n + 2)),
                        sum(comb(n, j) * g ** (n - j) * P[j] for j in range(n + 1)))
        else:  # the terms free of gamma summed once; (k + g)^(m+1) = (k + g)^m (k + g)
            rest = mpmath.fdot(weights, [bb * (kk + 1) ** (m_ + 1) - kk ** (m_ + 1)
                                         for kk in range(n_terms)])

            def sums(g):
                powers = [(kk + g) ** m_ for kk in range(n_terms)]
                return ((1 - bb) * mpmath.fdot(weights, [pw * (kk + g) for kk, pw
                                                         in enumerate(powers)]) + rest,
                        mpmath.fdot(weights, powers))

        def stationarity(g):
            s_val, ds_sum = sums(g)
            ds_val = (1 - bb) * (m_ + 1) * ds_sum
            return ds_val * (g + bb - bb * g) / (s_val * (1 - bb)) - 1  # scaled to O(1)

        # a bracket around the float64 root (gamma_float below), widened until the sign
        # changes (at worst (0, 1))
        guess = mpmath.mpf(gamma_float(float(e_), float(m)))
        for rel in (mpmath.mpf(10) ** -6, mpmath.mpf(10) ** -3, None):
            lo, hi = ((guess * (1 - rel), min(guess * (1 + rel), 1)) if rel
                      else (mpmath.mpf(0), mpmath.mpf(1)))
            if stationarity(lo) < 0 < stationarity(hi):
                return mpmath.findroot(stationarity, (lo, hi), solver="illinois")
        raise AssertionError("no sign change of the stationarity condition in [0, 1]")


def moment_float(g, e, m):
    """float64 E|X|^m (Delta = 1) for the figure."""
    bb = np.exp(-e)
    n_terms = int(np.ceil((60 + 3 * m * np.log1p(60 / e)) / e)) + 10
    kk = np.arange(n_terms, dtype=float)
    high = (kk + g) ** (m + 1) - kk ** (m + 1)
    low = (kk + 1) ** (m + 1) - (kk + g) ** (m + 1)
    return (1 - bb) / ((m + 1) * (g + bb - bb * g)) * np.sum(bb**kk * (high + bb * low))


def gamma_float(e, m):
    res = minimize_scalar(lambda g: moment_float(g, e, m), bounds=(0, 1), method="bounded",
                          options={"xatol": 1e-12})
    return res.x


engine_eps = {3: ("0.01", "0.1", "1", "5", "10", "20"),
              0.5: ("0.1", "0.3", "1", "5", "10", "20")}
gamma_engine = {}
for m, eps_list in engine_eps.items():
    cost = "moment:3" if m == 3 else "moment:1/2"
    for eps_text in eps_list:
        g_eng = Staircase(eps=eps_text).value("gamma", cost, digits=12).number
        g_ind = gamma_mp(eps_text, m)
        gamma_engine[m, float(eps_text)] = float(g_eng)
        print(f"m={m:<4} eps={eps_text:>5}  engine {mpmath.nstr(g_eng, 12):>16}  "
              f"independent {mpmath.nstr(g_ind, 12):>16}")
        assert abs(g_eng - g_ind) <= mpmath.mpf(10) ** -11 * g_ind, (m, eps_text)
    values = [gamma_engine[m, float(t)] for t in eps_list]
    assert all(x > y for x, y in itertools.pairwise(values))  # decreasing in eps

# the limits: gamma* -> 1/2 (eps -> 0), -> 0 (eps -> oo). For m = 1/2 the approach to 1/2
# is slow (about 0.08 sqrt(eps)), so one more engine value at eps = 0.001:
g_half_small = Staircase(eps="0.001").value("gamma", "moment:1/2", digits=12).number
print("m=1/2, eps=0.001: engine", mpmath.nstr(g_half_small, 12))
assert abs(g_half_small - gamma_float(1e-3, 0.5)) < 2e-5  # float64 is good to ~1e-5 here
assert gamma_engine[0.5, 0.1] < g_half_small < 0.5 and 0.5 - g_half_small < 0.003
assert abs(gamma_engine[3, 0.01] - 0.5) < 1e-3
assert gamma_engine[3, 20.0] < 0.01 and gamma_engine[0.5, 20.0] < 1e-5

# %% tags=["hide-input"]
es = np.logspace(-2, np.log10(20), 60)
fig, ax = plt.subplots(figsize=(7, 3.5))
ax.semilogx(es, 1 / (1 + np.exp(es / 2)), label="m = 1 (closed form)")
gl2 = sp.lambdify(b, gstar[2], "numpy")
ax.semilogx(es, gl2(np.exp(-es)), label="m = 2 (closed form)")
for m, color in ((3, "C2"), (0.5, "C3")):
    ax.semilogx(es, [gamma_float(e, m) for e in es], color=color, label=f"m = {m} (numeric)")
    pts = sorted((e, g) for (mm, e), g in gamma_engine.items() if mm == m)
    ax.semilogx([e_ for e_, _ in pts], [g_ for _, g_ in pts], "o", color=color, mfc="none",
                label=f"m = {m} (engine)")
ax.set(xlabel=r"$\varepsilon$", ylabel=r"$\gamma^*$", title=r"Optimal $\gamma^*$ for $|x|^m$")
ax.legend(fontsize=8)
show_figure()

# %% [markdown]
# ## 9. The discrete staircase (integer-valued query, integer $\Delta$)
#
# For $i \ge 0$ written $i = k\Delta + j$ with $0 \le j < \Delta$, and an integer
# $r \in \{1, \dots, \Delta\}$, $P_r(-i) = P_r(i)$ and
#
# $$P_r(i) = \begin{cases} a(r)\, b^k & 0 \le j < r \\
#                          a(r)\, b^{k+1} & r \le j < \Delta.\end{cases}$$
#
# Independently: one period has mass $a(r)\,b^k\,(r + (\Delta - r) b)$; summing the periods
# and counting $i = 0$ once, $a(r) = \frac{1 - b}{2r + 2(\Delta - r)b - (1 - b)}$.

# %%
j = sp.Symbol("j", integer=True, nonnegative=True)


def lattice_period_sum(weight):
    r"""$\sum_{j=0}^{\Delta-1}$ weight(j) $P_r(k\Delta + j)$, from the definition."""
    return (sp.summation(weight * a * b**k, (j, 0, r_sym - 1))
            + sp.summation(weight * a * b ** (k + 1), (j, r_sym, Delta - 1)))


half = sum_over_periods(lattice_period_sum(1))
(a_r_indep,) = sp.solve(sp.Eq(2 * half - a, 1), a)  # i = 0 counted once
a_r_engine = DiscreteStaircase.normalisation()
show("a(r)", sp.factor(a_r_engine))
assert is_zero_rational(a_r_indep - a_r_engine)
assert is_zero_rational(a_r_engine - (1 - b) / (2 * r_sym + 2 * (Delta - r_sym) * b - (1 - b)))

Vd = {}
for p_ in (1, 2):
    indep = 2 * sum_over_periods(lattice_period_sum((k * Delta + j) ** p_)).subs(a, a_r_indep)
    Vd[p_] = DiscreteStaircase.cost_function(f"moment:{p_}")
    assert is_zero_rational(indep - Vd[p_]), p_

# %% [markdown]
# The optimal $r^*$ (an integer minimisation, which the engine does by scanning
# $r = 1, \dots, \Delta$) for a few $\Delta$ at $\varepsilon = 1$, against an independent scan of
# the independently derived cost. For large $\Delta$, $r^*/\Delta$ approaches the continuous
# $\gamma^*$: observed $|r^* - \gamma^*\Delta| \le 1$ for every $\Delta$ below.

# %%
with mpmath.workdps(30):
    for cost, p_ in (("amplitude", 1), ("power", 2)):
        g_cont = float(sp.lambdify(b, gstar[p_], "mpmath")(mpmath.exp(-1)))
        cost_rD = sp.lambdify((r_sym, Delta), Vd[p_].subs(b, sp.exp(-1)), "mpmath")
        for D in (1, 2, 3, 5, 10, 50, 100):
            r_eng = int(DiscreteStaircase(eps=1, Delta=D).value("r", cost, digits=15).text)
            r_ind = min(range(1, D + 1), key=functools.partial(cost_rD, Delta=D))
            print(f"{cost:9} Delta={D:3}  r* engine {r_eng:3}  independent {r_ind:3}  "
                  f"gamma* Delta = {g_cont * D:7.3f}")
            assert r_eng == r_ind
            assert abs(r_eng - g_cont * D) <= 1

# %% [markdown]
# **$\Delta = 1$: the discrete staircase is the discrete Laplace (geometric) mechanism.**
# With $\Delta = 1$ the only step is $r = 1$, every $i = k$ has $j = 0 < r$, and
# $P_1(i) = a(1)\, b^{|i|}$ with $a(1) = (1-b)/(1+b)$: the geometric mechanism
# $\frac{1-\lambda}{1+\lambda}\lambda^{|i|}$ with $\lambda = e^{-\varepsilon/\Delta} = b$.

# %%
lam = sp.exp(-eps / Delta)
i_sym = sp.Symbol("i", integer=True)
geometric = (1 - lam) / (1 + lam) * lam ** sp.Abs(i_sym)
staircase_delta1 = (a_r_engine * b ** sp.Abs(i_sym)).subs({Delta: 1, r_sym: 1})
assert sp.simplify(staircase_delta1.subs(B_OF_EPS) - geometric.subs(Delta, 1)) == 0
assert sp.simplify((DiscreteStaircase.normalisation().subs({Delta: 1, r_sym: 1}).subs(B_OF_EPS)
                    - DiscreteLaplace.normalisation().subs(Delta, 1)).rewrite(sp.exp)) == 0
tail = DiscreteStaircase.engine.noise_shape().tail
assert tail.ratio.subs(B_OF_EPS) == DiscreteLaplace.engine.noise_shape().tail.ratio.subs(Delta, 1)
for p_ in (1, 2):
    stair_cost = DiscreteStaircase.cost_function(f"moment:{p_}").subs({Delta: 1, r_sym: 1})
    diff = stair_cost.subs(B_OF_EPS) - DiscreteLaplace.cost_function(f"moment:{p_}").subs(Delta, 1)
    assert sp.simplify(diff.rewrite(sp.exp)) == 0

# %%
D, e_val = 5, 1.0
r_star = int(DiscreteStaircase(eps=1, Delta=D).value("r", "amplitude", digits=15).text)
ii = np.arange(-3 * D, 3 * D + 1)
a_num = float(a_r_engine.subs({b: sp.exp(-1), Delta: D, r_sym: r_star}))
kk, jj = np.abs(ii) // D, np.abs(ii) % D
pmf = a_num * np.exp(-e_val) ** kk * np.where(jj < r_star, 1.0, np.exp(-e_val))
lam_num = np.exp(-e_val / D)
geo = (1 - lam_num) / (1 + lam_num) * lam_num ** np.abs(ii)
fig, ax = plt.subplots(figsize=(8, 3.2))
ax.bar(ii, pmf, width=0.6, label=rf"discrete staircase, $r^* = {r_star}$")
ax.plot(ii, geo, "k.--", lw=0.8, label=r"discrete Laplace, $\lambda = e^{-\varepsilon/\Delta}$")
ax.set(xlabel="i", ylabel="mass", title=rf"$\varepsilon = 1$, $\Delta = {D}$")
ax.legend()
show_figure()
i_pos = np.arange(4000)  # total mass: 2 * sum over i >= 0, minus the mass at 0 counted twice
half_mass = np.sum(a_num * np.exp(-e_val) ** (i_pos // D)
                   * np.where(i_pos % D < r_star, 1.0, np.exp(-e_val)))
assert abs(2 * half_mass - a_num - 1) < 1e-12

# %% [markdown]
# ## 10. Privacy of the staircase at $\gamma^*$
#
# `dpsym.privacy.profiles` computes the exact privacy profile
# $\delta(\varepsilon^{\prime}) = \sup_{|d| \le \Delta} \int (f(x) - e^{\varepsilon^{\prime}}
# f(x+d))_+\,dx$.
# At the design $\varepsilon$ it is $0$ (pure $\varepsilon$-DP), and it is positive for every
# $\varepsilon^{\prime} < \varepsilon$: $\varepsilon$ is the exact privacy level. Independently, the
# hockey-stick
# integral of the piecewise-constant density is summed interval by interval between all
# breakpoints of $f$ and $f(\cdot + d)$, for the engine's worst shift and for a grid of
# shifts.

# %%
def hockey_numeric(g, e, d, e_prime, D=1.0, periods=80):
    bb = np.exp(-e)
    ks = np.arange(periods + 1)
    pts = np.concatenate([ks * D, (ks + g) * D])
    pts = np.concatenate([pts, -pts])
    pts = np.unique(np.concatenate([pts, pts - d]))
    mids = (pts[1:] + pts[:-1]) / 2
    integrand = staircase_pdf(mids, g, bb, D) - np.exp(e_prime) * staircase_pdf(mids + d, g, bb, D)
    return float(np.sum(np.diff(pts) * np.clip(integrand, 0, None)))


profile_pts = {}
for D_text, D_val in (("1", 1.0), ("2", 2.0)):
    inst = Staircase(eps="1", Delta=D_text)
    for cost, p_ in (("amplitude", 1), ("power", 2)):
        g_val = float(sp.lambdify(b, gstar[p_], "mpmath")(mpmath.exp(-1)))
        check = inst.is_private("1", 0, cost=cost, digits=20)
        assert check.private and check.delta == 0
        assert is_private(inst.numeric_noise(cost, digits=30), "1", 0, 20,
                          sensitivity=D_val).delta == 0
        for ep in ("0.25", "0.5", "0.9", "0.99"):
            chk = inst.is_private(ep, 0, cost=cost, digits=15)
            assert not chk.private and chk.delta > 0
            mine = hockey_numeric(g_val, 1.0, float(chk.shift), float(ep), D_val)
            grid_max = max(hockey_numeric(g_val, 1.0, d, float(ep), D_val)
                           for d in np.linspace(0, D_val, 101)[1:])
            assert abs(float(chk.delta) - mine) < 1e-9, (ep, chk.delta, mine)
            assert grid_max <= float(chk.delta) + 1e-9
            profile_pts[D_text, cost, float(ep)] = float(chk.delta)
            print(f"Delta={D_text} {cost:9} eps'={ep:5} delta={chk.text}  shift={chk.shift}")

# %% [markdown]
# The privacy profile of the $\ell^1$-optimal staircase against Laplace, both designed for
# $\varepsilon = 1$, $\Delta = 1$ (curves: independent computation; dots: engine). For
# Laplace, $\delta(\varepsilon^{\prime}) = 1 - e^{(\varepsilon^{\prime} - \varepsilon)/2}$ (derived
# in `laplace.py`).

# %%
eps_primes = np.linspace(0, 1, 51)
g1_val = 1 / (1 + np.exp(0.5))
stair_curve = [max(hockey_numeric(g1_val, 1.0, d, ep) for d in np.linspace(0, 1, 41)[1:])
               for ep in eps_primes]
fig, ax = plt.subplots(figsize=(7, 3.5))
ax.plot(eps_primes, stair_curve, label=r"staircase $\gamma^*_{\ell^1}$")
ax.plot(eps_primes, 1 - np.exp((eps_primes - 1) / 2), label="Laplace")
engine_x = [0.25, 0.5, 0.9, 0.99]
ax.plot(engine_x, [profile_pts["1", "amplitude", x] for x in engine_x], "ko", mfc="none",
        label="engine")
for x in (0.0, 0.5):
    lap_val = Laplace(eps="1").privacy_profile(str(x), digits=15).number
    assert abs(lap_val - (1 - mpmath.exp((x - 1) / mpmath.mpf(2)))) < 1e-14
ax.set(xlabel=r"$\varepsilon^{\prime}$", ylabel=r"$\delta(\varepsilon^{\prime})$",
       title=r"Privacy profiles, $\varepsilon = 1$")
ax.legend()
show_figure()
assert stair_curve[-1] < 1e-12 and all(v > 0 for v in stair_curve[:-1])
