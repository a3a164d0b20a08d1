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
# # Poster 002: the optimality of $\mathcal P_\alpha$, step by step
#
# Source: the poster (seed `002`), "Main Result" and "Proof Ideas": the sufficient and
# necessary condition, Step 2 (re-arrange the tail to a step) and Step 3 (re-arrange
# $(0, \Delta/2)$ to uniform with the extra mass at the origin). Each step is a registered
# claim. The steps are statements about every symmetric law with a density nonincreasing on
# $[0, \infty)$ (and an atom at 0); each is decided for the whole class by an exact reduction
# (`dpsym.claims.unimodal`): the condition by the sign pattern of $f(x) - f(x - d)$ (a
# half-line maximises $\mathcal P(S) - \mathcal P_d(S)$ for every law of the class), the
# rearrangements by certified cost bookkeeping, and the main result by weak LP duality over
# the mixing measure of uniform laws $U_a$ (every law of the class is such a mixture) with a
# closed-form dual certificate. Exact computations on random step laws (and an LP over the
# step laws on a grid) remain as evidence. Step 1 (discretise) is a figure only.
#
# Each checked step is shown with its text as printed in the source, its reading, the
# engine's derivation and a verdict badge saying how the verdict was reached: `proof`
# (decided over the whole stated domain), `instances` (checked at the listed points, shown
# with it) or `undecided` (with the reason); a step that fails is badged `fails`.


# %%
from fractions import Fraction

import sympy as sp

from dpsym.claims import verify_step as step
from dpsym.claims.poster_002 import (
    central,
    law_cost,
    rearrange_centre,
    rearrange_tail,
    step_law,
    tv,
)
from dpsym.claims.unimodal import CERTIFICATES
from dpsym.symbols import Delta, delta

# %% [markdown]
# ## Problem formulation
#
# "Query sensitivity $\Delta := \max_{D_1,D_2 \in \mathcal{D}} |q(D_1) - q(D_2)|$": as
# printed the maximum runs over every pair of datasets, which is the range of $q$ (for a
# count over at most 5 records, 5); the privacy definition above it is about neighbours
# $D_1, D_2$ differing by one element, over which the count moves by 1 (erratum T8). The
# constraint "$\mathcal P(S) \le \mathcal P(S+d) + \delta$ for all $|d| \le \Delta$ and
# measurable $S$" is two-sided: the reverse inequality is the same constraint at the set
# $S + d$ and the shift $-d$.


# %%
step("002.def.sensitivity")
step("002.def.constraint")


# %% [markdown]
# **Symmetrisation** ("as the loss function $L$ is symmetric, without loss of generality,
# assume $\mathcal P$ is symmetric"): the mixture $(\mathcal P + \mathcal P(-\cdot))/2$ has the
# same cost for a symmetric $L$ and keeps the constraint (each of its halves does).


# %%
step("002.main.s0")


# %% [markdown]
# ## The condition for symmetric monotone $\mathcal P$
#
# $\sup_{|d|\le\Delta,\,S}\mathcal P(S) - \mathcal P(S+d) = \mathcal
# P([-\frac\Delta2, \frac\Delta2])$ for symmetric monotone $\mathcal P$.
#
# So $(0,\delta)$-DP $\iff \mathcal P([-\Delta/2,\Delta/2]) \le \delta$ (both directions); a
# non-monotone law shows the hypothesis is needed.


# %%
step("002.main.s1")
step("002.condition")


# %%
# one law of the family, shown: the total variation at each shift equals the central mass
atom, pieces = step_law(3)
for k in (4, 8, 16):
    d = Fraction(k, 16)
    print(f"d = {d}: TV = {tv(atom, pieces, d)}")
assert tv(atom, pieces, Fraction(1)) == central(atom, pieces)


# %% [markdown]
# ## Step 2: re-arrange $[\Delta/2, \infty)$ to one step (Figure 3)


# %%
step("002.main.s2")


# %% [markdown]
# ## Step 3: re-arrange $(0, \Delta/2)$ to uniform, extra mass at the origin (Figure 4)
#
# The result is $\mathcal P_\alpha$: mass $\alpha$ at 0, density $\frac{\delta - \alpha}{\Delta}$
# on
# $[-\frac{1-\alpha}{\delta-\alpha}\frac\Delta2, \frac{1-\alpha}{\delta-\alpha}\frac\Delta2]$.


# %%
step("002.main.s3")


# %%
atom, pieces = rearrange_tail(*step_law(5))
new = rearrange_centre(atom, pieces)
print("before:", float(law_cost(atom, pieces, 1)), "after:", float(law_cost(*new, 1)))
print("the rearranged law: atom", new[0], "steps", [(lo, hi, h) for lo, hi, h in new[1]])
assert law_cost(*new, 1) <= law_cost(atom, pieces, 1) and len(new[1]) <= 2


# %% [markdown]
# ## Main result: the optimum over $\mathcal{SP}$ is attained in the family $\mathcal P_\alpha$
#
# $\inf_{\mathcal P\in\mathcal{SP}} V(\mathcal P) = \inf_{\alpha\in[0,\delta)}
# V(\mathcal P_\alpha)$.
#
# Every law of the class is a mixture of the uniform laws $U_a$ on $[-a, a]$; cost and central
# mass are linear in the mixing measure ($c(a) = a^p/(p+1)$, $m(a) = \min(1, \Delta/(2a))$).
# A dual certificate $(\lambda, \nu)$ with $c(a) + \lambda m(a) \ge \nu$ for all $a \ge 0$
# gives $V(\mathcal P) \ge \nu - \lambda\delta$ for every law with central mass $\le
# \delta$, and $\nu - \lambda\delta$ is the cost of $\mathcal P_{\alpha^*}$: for $|x|$,
# $\delta \le \frac12$: $\lambda = \frac{\Delta}{4\delta^2}$, $\nu = \frac{\Delta}{2\delta}$
# (tangent at $a = \frac{\Delta}{2\delta}$); $\delta \ge \frac12$: $\lambda = \nu = \Delta$.
# The LP over step laws on the grid $\Delta/16$ is extra evidence.


# %%
step("002.main")


# %%
# the certificate for x^2, delta <= 2/3: c(a) + lambda m(a) - nu on a grid of a (Delta = 1)
lam, nu, L, _ = CERTIFICATES[("power", "low")]
a = sp.Symbol("a", positive=True)
pt = {delta: sp.Rational(1, 2), Delta: 1}
for av in map(sp.nsimplify, (0, sp.Rational(1, 4), sp.Rational(1, 2), 1, L.subs(pt), 2)):
    m = 1 if av <= sp.Rational(1, 2) else sp.Integer(1) / (2 * av)
    slack = (av**2 / 3 + lam * m - nu).subs(pt)
    print(f"a = {av}: c + lambda m - nu = {slack}")
    assert slack >= 0
