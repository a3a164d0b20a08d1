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
# # Slides 000: the proof steps (Part Two, multi-dimensional staircase; Part Three, LP duality)
#
# Source: the thesis slides (seed `000`). Each step is a registered claim (`kind="proof-step"`);
# each cell states the step, runs its check (sympy identities on symbolic masses, exact dual
# certificates, LPs solved with HiGHS) and asserts that the verdict is the registered one.
# Errata: B9, B10, B17.
#
# Each checked step is shown with its text as printed in the source, its reading, the
# engine's derivation and a verdict badge saying how the verdict was reached: `proof`
# (decided over the whole stated domain), `instances` (checked at the listed points, shown
# with it) or `undecided` (with the reason); a step that fails is badged `fails`.


# %%
from fractions import Fraction

from dpsym.claims import verify_step as step
from dpsym.claims.slides_000_proofs import eps_constraint, slides_zero_delta_lp

# %% [markdown]
# ## Part Two: optimality of the staircase for $d = 2$
#
# **Step 1 (averaging preserves DP).** From $P_i \le e^\varepsilon P_j$ ($i \le 4 < j$):
# $\frac{1}{4}\sum_{i\le4}P_i \le e^\varepsilon\frac{1}{12}\sum_{j\ge5}P_j$ — the 48 hypotheses
# with weight $\frac1{48}$ sum to it (a dual certificate).


# %%
step("000.p2.theorem.s1")


# %% [markdown]
# **Step 2 (monotonicity).** Only the title is on the slides: registered as not decidable,
# the printed $f_\gamma$ is checked to be nonincreasing in $\|x\|_1$.


# %%
step("000.p2.theorem.s2")


# %% [markdown]
# **Step 3 (geometric decay).** $f(r + \Delta) = e^{-\varepsilon}f(r)$ for the printed $f_\gamma$.


# %%
step("000.p2.theorem.s3")


# %% [markdown]
# **Step 4 (staircase shape).** Two levels per period.


# %%
step("000.p2.theorem.s4")


# %% [markdown]
# ## Part Three: $(0,\delta)$, $\Delta = 1$
#
# Proof idea: $S_k = \{l \ge k\}$ gives $P(S_k) - P(S_k + 1) = P(k) \le \delta$; minimising the
# cost
# under $0 \le P(k) \le \delta$ gives the uniform law.


# %%
step("000.p3.0d.optimal.s1")


# %% [markdown]
# ## $(0,\delta)$, general $\Delta$: lower bound by LP duality
#
# $S_k$ gives $\sum_{i=k}^{k+\Delta-1}P(i) \le \delta$ for every $k$.


# %%
step("000.p3.0d.lb.s1")


# %% [markdown]
# The LP $\min 2\sum_{k\ge1}L(k)P_k$ s.t. $\frac{P_0}{2} + \sum_{k\ge1}P_k \ge \frac12$,
# $\sum_{l<\Delta}P_{k+l} \le \delta$: printed optimum
# $V_{LB} = 2\delta\sum_{i=0}^{1/(2\delta)-1}L(1 + i\Delta)$ — right for $\Delta \ge 2$, not at
# $\Delta = 1$ (the LP puts the
# free mass $\delta$ at 0; erratum B9).


# %%
step("000.p3.0d.lb.s2")


# %%
# the LP at Delta = 1, delta = 1/10, L = |i|: 5/2 = 1/(4 delta), not the printed 3
value = slides_zero_delta_lp(1, Fraction(1, 10), 1)
print(value)
assert abs(value - 2.5) < 1e-9


# %% [markdown]
# The threshold-set LP behind $V_{LB}$ is a relaxation, not the exact optimum $V^*$ of the
# integer $(0,\delta)$ problem (a registered failing step; erratum B10).


# %%
step("000.p3.0d.vstar")


# %% [markdown]
# ## $(\varepsilon,\delta)$: the LP's constraints
#
# $S = \{l \ge 0\}$: $P_0\frac{1 + e^\varepsilon}{2} + e^\varepsilon\sum_{k=1}^{\Delta-1}P_k \le
# \delta + \frac{e^\varepsilon-1}{2}$ (printed $\frac{1 + \varepsilon^\varepsilon}{2}$, a typo;
# B17).


# %%
step("000.p3.ratio.l1.s1")


# %% [markdown]
# $S = \{l \ge 1\}$: $P_0\frac{e^\varepsilon - 1}{2} + e^\varepsilon\sum_{k=1}^{\Delta}P_k \le
# \delta + \frac{e^\varepsilon-1}{2}$.


# %%
step("000.p3.ratio.l1.s2")


# %% [markdown]
# $S = \{l \ge i\}$, $i \ge 2$: the last sum must start at $k = i$, not $k = 1$ (B17): the printed
# constraint excludes the 1-DP discrete Laplace.


# %%
step("000.p3.ratio.l1.s3")


# %%
print("P(S_2) - e^eps P(S_2 + 2) - delta =", eps_constraint(2, 2), "(E = e^eps)")
assert "P1" in str(eps_constraint(2, 2))
