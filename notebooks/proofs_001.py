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
# # Notes 001: the proofs, step by step
#
# Source: the lecture notes on approximate DP (seed `001`): the recipe after Remark 4, the
# proof of the Gaussian mechanism's theorem, the name-and-shame claim, group privacy. Each
# step is a registered claim (`kind="proof-step"`); each cell states the step in LaTeX, runs
# its check (the engine's derivation), shows the verdict and asserts it. Steps about every
# pair of distributions and every event are decided by an exact reduction: the event $A$
# and the bad set split the output space into four cells, every mass of the chain is a sum
# of cell masses (generic sympy sums), and each link is certified as a nonnegative
# combination of nonnegative quantities (masses, the termwise bound $p \le e^\varepsilon q$
# summed over the good cells, the hypothesis $\delta - M_D(\mathrm{Bad}) \ge 0$). The
# name-and-shame step reduces, for every $n$, to three slice probabilities in $[0, 1]$.
# Errata: G7 (the bad set and its mass), G2, G6.
#
# Each checked step is shown with its text as printed in the source, its reading, the
# engine's derivation and a verdict badge saying how the verdict was reached: `proof`
# (decided over the whole stated domain), `instances` (checked at the listed points, shown
# with it) or `undecided` (with the reason); a step that fails is badged `fails`.


# %%
import mpmath
import sympy as sp

from dpsym.claims import get_claim
from dpsym.claims import verify_step as step
from dpsym.symbols import Delta, delta, eps

# %% [markdown]
# ## Remark 4: the recipe (Step 1 + Step 2 $\Rightarrow$ $(\varepsilon,\delta)$-DP)
#
# $M_D(A) = M_D(A\cap \mathrm{Bad}) + M_D(A \cap \mathrm{Bad}^c) \le M_D(A\cap\mathrm{Bad}^c) +
# M_D(\mathrm{Bad}) \le M_D(A\cap\mathrm{Bad}^c) + \delta \le e^\varepsilon
# M_{D^{\prime}}(A\cap\mathrm{Bad}^c) + \delta \le e^\varepsilon M_{D^{\prime}}(A) + \delta$.


# %% [markdown]
# The engine's derivation, for every pair of distributions and every event: with the cells
# $A\cap\mathrm{Good}$, $A\cap\mathrm{Bad}$, $\mathrm{Bad}\setminus A$ and the rest as
# consecutive blocks of a countable output space, each difference of consecutive links is
# printed as its certificate (a nonnegative combination of a cell mass, the termwise sum
# $\sum_{A\cap\mathrm{Good}}(e^\varepsilon q - p)$ and the hypothesis
# $\delta - M_D(\mathrm{Bad})$).


# %%
step("001.catastrophic.s1")


# %%
# the check decides the chain it is given: a link that halves delta is not certified
recipe = get_claim("001.catastrophic.s1")
halved = {**recipe.formula, "l3": recipe.formula["l3"] - delta / 2}
print(recipe.run(halved).detail.split("; ")[-3:])
assert not recipe.run(halved).printed


# %% [markdown]
# ## Theorem (Gaussian mechanism, $\sigma^2 \ge 2\Delta^2\log(1/\delta)/\varepsilon^2$): the proof
#
# **Step 1.** $M_D(A) = M_D(A\cap\mathrm{Good}) + M_D(A\cap\mathrm{Bad}) \le e^\varepsilon
# M_{D^{\prime}}(A\cap\mathrm{Good}) + M_D(\mathrm{Bad}) \le e^\varepsilon M_{D^{\prime}}(A) +
# \delta$ if
# $M_D(\mathrm{Bad}) \le \delta$.


# %%
step("001.gaussian.classic.s1")


# %% [markdown]
# **Step 2 (the privacy loss).** With $L = \log(1/\delta)$, $q_D = 0$, $q_{D^{\prime}} = \Delta$
# (the notes
# print "$q_D = 0 \ge q_{D^{\prime}} = \Delta$"): $\log\frac{f_D(z)}{f_{D^{\prime}}(z)} =
# \frac{\varepsilon^2}{4L} -
# \frac{z\varepsilon^2}{2\Delta L}$.


# %%
step("001.gaussian.classic.s2")


# %% [markdown]
# **Step 3 (the bad set).** Printed: $\mathrm{Bad} \subseteq \{z \le -2\Delta L/\varepsilon\}$.
# Solving
# $\frac{\varepsilon^2}{4L} - \frac{z\varepsilon^2}{2\Delta L} \ge \varepsilon$: $\mathrm{Bad} =
# \{z \le \frac{\Delta}{2} - \frac{2\Delta L}{\varepsilon}\}$, which is
# larger than the printed set (erratum G7).


# %%
step("001.gaussian.classic.s3")


# %%
# the engine's derivation of step 3
z, L = sp.symbols("z L", real=True)
loss = eps**2 / (4 * L) - z * eps**2 / (2 * Delta * L)
edge = sp.solve(sp.Eq(loss, eps), z)[0]
print("Bad = {z <=", sp.simplify(edge), "}; printed edge", -2 * Delta * L / eps)
assert sp.simplify(edge - (-2 * Delta * L / eps)) == Delta / 2


# %% [markdown]
# **Step 4 ("straightforward, but messy").** With the true bad set,
# $M_D(\mathrm{Bad}) = \Phi\bigl(\frac{\varepsilon}{2x} - x\bigr)$, $x = \sqrt{2\log(1/\delta)}$.
# For $\varepsilon \le 1$ and
# $\delta \le \frac12$ Mills' ratio gives $\Phi(-y) \le \varphi(y)/y \le \delta$ ($y = x -
# \frac1{2x} \ge 0.7527 > e^{1/2}/\sqrt{2\pi}$);
# an Arb covering extends it to $\delta \le 0.97$; at $\varepsilon = 1$ the step fails for
# $\delta > \delta^* = 0.97381$ — inside the printed range $\delta \in (0, 1)$ (erratum G7; the
# theorem itself, G2, fails there too).


# %%
step("001.gaussian.classic.s4")


# %%
# M_D(Bad) - delta at eps = 1 across delta: negative up to delta* = 0.9738, then positive
for d in ("0.5", "0.9", "0.97", "0.975", "0.99"):
    x = mpmath.sqrt(2 * mpmath.log(1 / mpmath.mpf(d)))
    print(d, mpmath.nstr(mpmath.ncdf(1 / (2 * x) - x) - mpmath.mpf(d), 6))
assert mpmath.ncdf(1 / (2 * mpmath.sqrt(2 * mpmath.log(1 / mpmath.mpf("0.99"))))
                   - mpmath.sqrt(2 * mpmath.log(1 / mpmath.mpf("0.99")))) > mpmath.mpf("0.99")


# %% [markdown]
# ## Claim (name-and-shame is $(0,\delta)$-DP): the proof
#
# $\Pr(Z_D\in E) = \Pr(Z_D \in E, B_i = 0) + \delta\Pr(Z_D\in E \mid B_i = 1) \le
# \Pr(Z_{D^{\prime}}\in E) +
# \delta$
# (under $B_i = 0$, $Z_D = Z_{D^{\prime}}$).


# %% [markdown]
# For every $n$: $Z = (Y_i, Y_{-i})$ with $Y_{-i}$ independent of $Y_i$ and of the same law
# $R$ under $D$ and $D^{\prime}$, so (Fubini) $\Pr(Z_D\in E) = (1-\delta)R(E_\bot) + \delta
# R(E_{x_i})$ and $\Pr(Z_{D^{\prime}} \in E) = (1-\delta)R(E_\bot) + \delta R(E_{x^{\prime}_i})$.
# With
# $r_0, r_1, r_2 \in [0, 1]$ the three slice probabilities, the step's gap is
# $\delta(1 - r_1 + r_2) \ge 0$, multilinear, decided at the 8 vertices of $[0, 1]^3$.


# %%
step("001.name_and_shame.s1")


# %% [markdown]
# $1 - (1-\delta)^n \approx n\delta$ (and $\le n\delta$).


# %%
step("001.name_and_shame.s2")


# %% [markdown]
# ## Theorem (group privacy): the proof
#
# Along $D = D_0 \sim D_1 \sim \dots \sim D_K = D^{\prime}$: $M_D(A) \le
# e^{K\varepsilon}M_{D^{\prime}}(A) +
# \delta\sum_{j<K}e^{j\varepsilon}$, and
# $\sum_{j<K} e^{j\varepsilon} = \frac{e^{K\varepsilon}-1}{e^\varepsilon - 1} \le
# Ke^{(K-1)\varepsilon}$. The truncated Laplacian attains the
# geometric sum (the chain is tight).


# %%
step("001.group.s1")


# %% [markdown]
# ## Remark 3: a privacy loss bounded by $\varepsilon$ $\iff$ $\varepsilon$-DP
#
# $\Pr(|Z_{D,D^{\prime}}| \le \varepsilon) = 1$ for all $D\sim D^{\prime}$ $\iff$
# $\varepsilon$-DP.
#
# Decided exactly on every pair of laws of a finite family (both directions), plus Laplace,
# the truncated Laplacian and the Gaussian.


# %%
step("001.pure_iff")


# %% [markdown]
# ## Remark 3: "a necessary condition" — the displayed implication is a sufficient one (G6)


# %%
step("001.sufficient")
