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
# claim; these steps are statements about every symmetric monotone law, so each is
# registered with the reason the engine cannot decide it in general and decided exactly on
# random step laws (exact rationals) — and the main result on the whole class of step laws
# on a grid by a linear program. Step 1 (discretise) is a figure only: nothing to check.


# %%
from fractions import Fraction

from dpsym.claims import verify_step as step
from dpsym.claims.poster_002 import (
    _central,
    _law_cost,
    _rearrange_centre,
    _rearrange_tail,
    _step_law,
    _tv,
)

# %% [markdown]
# ## The condition: $\sup_{|d|\le\Delta,\,S}\mathcal P(S) - \mathcal P(S+d) = \mathcal
# P([-\frac\Delta2, \frac\Delta2])$ for symmetric monotone $\mathcal P$
#
# So $(0,\delta)$-DP $\iff \mathcal P([-\Delta/2,\Delta/2]) \le \delta$ (both directions); a
# non-monotone law shows the hypothesis is needed.


# %%
step("002.main.s1")
step("002.condition")


# %%
# one law of the family, shown: the total variation at each shift equals the central mass
atom, pieces = _step_law(3)
for k in (4, 8, 16):
    d = Fraction(k, 16)
    print(f"d = {d}: TV = {_tv(atom, pieces, d)}")
assert _tv(atom, pieces, Fraction(1)) == _central(atom, pieces)


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
atom, pieces = _rearrange_tail(*_step_law(5))
new = _rearrange_centre(atom, pieces)
print("before:", float(_law_cost(atom, pieces, 1)), "after:", float(_law_cost(*new, 1)))
print("the rearranged law: atom", new[0], "steps", [(lo, hi, h) for lo, hi, h in new[1]])
assert _law_cost(*new, 1) <= _law_cost(atom, pieces, 1) and len(new[1]) <= 2


# %% [markdown]
# ## Main result: $\inf_{\mathcal P\in\mathcal{SP}} V(\mathcal P) = \inf_{\alpha\in[0,\delta)}
# V(\mathcal P_\alpha)$
#
# Decided on the class of step laws on the grid $\Delta/16$ (an LP under the condition above),
# for $|x|$ and $x^2$ on both sides of the threshold $p/(p+1)$.


# %%
step("002.main")
