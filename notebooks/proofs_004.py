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
# # Notes 004: the proof that the exponential mechanism is $2\varepsilon$-DP, step by step
#
# Source: the lecture notes (seed `004`), "CLAIM: Exponential Mechanism is $2\varepsilon$-DP" and
# its PROOF. Each step is a registered claim (`kind="proof-step"`) with the printed step as a
# sympy formula, decided **for every utility function**: the utilities are free symbols,
# $u(x^{\prime}, r) = u(x, r) + \Delta u\,\theta_r$ with $\theta_r \in [-1, 1]$ (exactly the pairs
# with $|u(x, r) - u(x^{\prime}, r)| \le \Delta u$), and the range has a symbolic number $m$ of
# outputs (the normalisers are generic sympy sums). Inequalities between exponentials are
# decided on their logarithms ($\exp$ is increasing), which are affine in $(u, \theta)$: an
# affine function of $\theta \in [-1, 1]$ has its extremes at the ends. The bound
# $e^{2\varepsilon}$ is approached but not attained (erratum N7).
#
# Each checked step is shown with its text as printed in the source, its reading, the
# engine's derivation and a verdict badge saying how the verdict was reached: `proof`
# (decided over the whole stated domain), `instances` (checked at the listed points, shown
# with it) or `undecided` (with the reason); a step that fails is badged `fails`.


# %%
import sympy as sp

from dpsym.claims import get_claim
from dpsym.claims import verify_step as step
from dpsym.claims.generic import affine_range, log_gap
from dpsym.symbols import Delta, eps

u, theta, w = sp.symbols("u theta w", real=True)

# %% [markdown]
# **Step 1.** $|u(x,s) - u(x^{\prime},s)| \le \Delta u \Rightarrow
# \exp(\frac{\varepsilon u(x^{\prime},s)}{\Delta u}) \le \exp(\frac{\varepsilon(u(x,s) + \Delta
# u)}{\Delta u}) = e^\varepsilon\exp(\frac{\varepsilon u(x,s)}{\Delta u})$.
# The engine's derivation: the log-gap
# $\frac{\varepsilon(u + \Delta u)}{\Delta u} - \frac{\varepsilon(u + \Delta u\,\theta)}{\Delta u}
# = \varepsilon(1 - \theta)$ ranges over $[0, 2\varepsilon]$: the step holds for every utility,
# with equality at $u(x^{\prime}, s) = u(x, s) + \Delta u$.


# %%
gap = log_gap(sp.exp(eps * (u + Delta * theta) / Delta), sp.exp(eps * (u + Delta) / Delta))
print("log-gap:", gap, " range over u real, theta in [-1, 1]:",
      affine_range(gap, [u], [theta], [eps, Delta]))
step("004.exp.privacy.s1")


# %% [markdown]
# The check decides the statement it is given: with the standard weight
# $\exp(\varepsilon u/(2\Delta u))$ the printed rate $e^\varepsilon$ and bound are rejected
# (the rate is $e^{\varepsilon/2}$), and the correctly rescaled step is accepted.


# %%
s1 = get_claim("004.exp.privacy.s1")
half = {"weight": sp.exp(eps * w / (2 * Delta)), "bound": eps * (w + Delta) / Delta,
        "rate": sp.exp(eps)}
half_fixed = {"weight": sp.exp(eps * w / (2 * Delta)),
              "bound": eps * (w + Delta) / (2 * Delta), "rate": sp.exp(eps / 2)}
print("weight eps/(2 Du), printed rate:", s1.run(half).printed)
print("weight eps/(2 Du), rate e^(eps/2):", s1.run(half_fixed).printed)
assert not s1.run(half).printed and s1.run(half_fixed).printed


# %% [markdown]
# **Step 2.** $\frac{\Pr[M(x) = s]}{\Pr[M(x^{\prime}) = s]} = \frac{\exp(\varepsilon u(x,s)/\Delta
# u)}{\exp(\varepsilon u(x^{\prime},s)/\Delta u)}\cdot\frac{\sum_s\exp(\varepsilon
# u(x^{\prime},s)/\Delta
# u)}{\sum_s \exp(\varepsilon u(x,s)/\Delta u)}$ -- an identity of rational expressions in the
# generic sums $\sum_{r=1}^m$ (sympy `cancel`).


# %%
step("004.exp.privacy.s2")


# %% [markdown]
# **Step 3.** $\le e^\varepsilon\exp(\varepsilon(u(x,s) - u(x^{\prime},s))/\Delta u)$. The ratio of
# the
# sums by the lemma "a termwise bound $a_r \le c\,b_r$ with $b_r > 0$ gives $\sum_r a_r \le
# c\sum_r b_r$": step 1 at every $r$ gives $c = e^\varepsilon$, each term of $\sum_{r=1}^m
# (c\,b_r - a_r)$ is $\ge 0$, and linearity of the generic sums. Equality when
# $u(x^{\prime}, \cdot) = u(x, \cdot) + \Delta u$.


# %%
step("004.exp.privacy.s3")


# %% [markdown]
# **Step 4.** $\le e^{2\varepsilon}$: $\varepsilon - \varepsilon\theta \le 2\varepsilon$ on
# $[-1, 1]$, attained at $\theta = -1$ (the previous line's supremum; the privacy loss itself
# only approaches $2\varepsilon$, erratum N7).


# %%
step("004.exp.privacy.s4")
