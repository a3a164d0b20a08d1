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
# # Your own cost: the optimal noise for the loss you write down
#
# The sources pose one problem for a **symmetric cost $L$ non-decreasing in $|x|$**: the
# slides' Part One (seed `000`) prove the staircase optimal among $\varepsilon$-DP noises
# for such an $L$; the poster (seed `002`) says that the optimal $\alpha$ of
# $\mathcal{P}_\alpha$ "depends on $\delta$ and the loss function $L$"; Lemma 2 of the paper
# (seed `003`) is stated for a symmetric cost with a condition (9). This notebook writes a
# cost as an expression in `x`, lets dpsym decide the hypotheses, derives the staircase's
# cost for a general $L$ and checks it, follows the optimal $\gamma^*$ as $\varepsilon$
# varies for three costs, and finds the $(0, \delta)$ optimum for the indicator cost
# $L = \mathbf{1}\{|x| > T\}$, whose cost is flat or kinked. Every claim cell ends in an
# `assert`.

# %%
from fractions import Fraction

import matplotlib
import matplotlib.pyplot as plt
import mpmath
import numpy as np

from dpsym.bounds import LowerBound
from dpsym.bounds.integer import lemma2
from dpsym.certified.evaluation import cost_balls
from dpsym.certified.expectation import expectation
from dpsym.core.costs import AMPLITUDE, POWER, parse_cost
from dpsym.errors import DomainError, UnsupportedError
from dpsym.mechanisms import Laplace, Staircase, TruncatedLaplace, UniformMass
from dpsym.mechanisms.staircase import StaircaseSlope
from dpsym.notebook import show_figure
from dpsym.precision import arb_workprec

if "inline" not in matplotlib.get_backend():
    matplotlib.use("Agg")

# %% [markdown]
# ## 1. A cost is an expression in `x`; its hypotheses are decided
#
# The grammar is that of dpsym's exact numbers plus `x`, `abs`, `min`, `max` and the
# indicators `abs(x) > T`, `abs(x) >= T`. A power $|x|^p$ is the named cost (the same
# object: `abs(x)` *is* `amplitude`). Every other cost is cut where an `abs`, `min`, `max`
# or indicator switches, and each piece is decided non-decreasing by the calculus of
# monotone functions or exact polynomial arithmetic; a cost that fails a hypothesis is
# refused with the hypothesis named.

# %%
assert parse_cost("abs(x)") is AMPLITUDE and parse_cost("x^2") is POWER
clipped = parse_cost("min(abs(x), 3)")
print(clipped.name, clipped.shape.cuts, [str(pc.expr) for pc in clipped.shape.pieces])
assert clipped.shape.cuts == (0, 3) and clipped.shape.bounded
for text, hypothesis in (("exp(-abs(x))", "non-decreasing"), ("abs(x) + x", "symmetric"),
                         ("abs(x) - 1", "non-negative"), ("x^2 - abs(x)", "non-decreasing")):
    try:
        parse_cost(text)
    except DomainError as err:
        print(err)
        assert hypothesis in str(err)
    else:
        raise AssertionError(f"{text} was accepted")

# %% [markdown]
# That $\mathbb{E}\,L(X)$ is finite depends on the noise: $e^{|x|}$ under Laplace noise of
# scale $\Delta/\varepsilon$ has a finite expectation exactly when $\varepsilon > \Delta$.

# %%
assert Laplace(eps=2).value("cost", "exp(abs(x))", 20).text.startswith("2.0000")
try:
    Laplace(eps="1/2").value("cost", "exp(abs(x))", 20)
except DomainError as err:
    print(err)
    assert "infinite" in str(err)

# %% [markdown]
# ## 2. The staircase theorem for a general $L$
#
# With $b = e^{-\varepsilon}$, $D(\gamma) = b + (1 - b)\gamma$, $F(y) = \int_0^y L$ and
# $\Phi(\gamma) = \sum_{k \ge 0} b^k F((k + \gamma)\Delta)$, the staircase's cost telescopes
# to
#
# $$\mathbb{E}\,L(X) = \frac{(1 - b)^2\,\Phi(\gamma)}{\Delta\,D(\gamma)},$$
#
# and its slope has the sign of
# $N(\gamma) = \Delta D(\gamma)\sum_k b^k L((k + \gamma)\Delta) - (1 - b)\Phi(\gamma)$,
# with $N^{\prime}(\gamma) = \Delta^2 D(\gamma)\sum_k b^k L^{\prime}((k + \gamma)\Delta) \ge 0$:
# the cost
# decreases, then increases, for **every** non-decreasing $L$ (a unique minimiser, a kink,
# or a flat stretch). We check the reduction against the expectation over the noise
# description at exact $\gamma$, and the monotonicity of $N$ on a grid.

# %%
costs = ("min(abs(x), 5/2)", "log(1 + abs(x))", "abs(x) + x^2")
for text in costs:
    balls = cost_balls(parse_cost(text))
    problem = StaircaseSlope(Fraction(3, 2), Fraction(1), balls)
    with arb_workprec(160):
        for g in (Fraction(1, 5), Fraction(1, 2), Fraction(4, 5)):
            noise = Staircase(eps="3/2", gamma=g).numeric_noise("amplitude", g)
            assert (problem.cost(g) - expectation(noise, balls)).contains(0)
        slopes = [problem.slope(Fraction(j, 20), 1) for j in range(21)]
    assert all(slopes[j] <= slopes[j + 1] for j in range(20)), text
    print(text, "N(0) =", slopes[0].str(6), " N(1) =", slopes[-1].str(6))

# %% [markdown]
# For $L = |x|$ the certified minimiser is the known closed form
# $\gamma^* = 1/(1 + e^{\varepsilon/2})$, whichever way the cost is written.

# %%
for e in ("1/3", "2", "7"):
    written = Staircase(eps=e).value("gamma", "2*abs(x)", 30)  # the same minimiser
    with mpmath.workdps(40):
        closed = 1 / (1 + mpmath.exp(mpmath.mpf(Fraction(e).numerator)
                                     / Fraction(e).denominator / 2))
        assert written.text == mpmath.nstr(closed, 30, strip_zeros=False)

# %% [markdown]
# ## 3. $\gamma^*$ as a function of $\varepsilon$ for three costs
#
# The mixed cost $|x| + x^2$ sits between the amplitude's and the power's optimum; the log
# cost puts more weight on small noise than $|x|$ does and takes a smaller step; the
# clipped cost $\min(|x|, 5/2)$ stops charging the far periods.
#
# A clipped cost whose clip is a multiple of $\Delta$ has exactly the minimiser of $|x|$:
# for $T = m\Delta$, $(y - T)_+$ shifts the sums by $m$ periods, so
# $N_{\min(|x|, T)} = N_{|x|} - N_{(|x| - T)_+} = (1 - b^m) N_{|x|}$, the same root.

# %%
for e in ("1/4", "1", "3"):
    assert Staircase(eps=e).value("gamma", "min(abs(x), 3)", 30).text == \
        Staircase(eps=e).value("gamma", "amplitude", 30).text
eps_grid = [Fraction(1, 4), Fraction(1, 2), Fraction(1), Fraction(2), Fraction(3),
            Fraction(4), Fraction(6)]
curves = {}
for text in (*costs, "amplitude", "power"):
    curves[text] = [float(Staircase(eps=e).value("gamma", text, 10).number)
                    for e in eps_grid]
for j, e in enumerate(eps_grid):
    low, high = sorted((curves["amplitude"][j], curves["power"][j]))
    assert low <= curves["abs(x) + x^2"][j] <= high, e
    assert 0 < curves["log(1 + abs(x))"][j] < curves["amplitude"][j], e

fig, ax = plt.subplots(figsize=(6, 4))
for text in costs:
    ax.plot([float(e) for e in eps_grid], curves[text], marker="o", label=text)
ax.plot([float(e) for e in eps_grid], curves["amplitude"], "k--", lw=1, label="abs(x)")
ax.set_xlabel(r"$\varepsilon$")
ax.set_ylabel(r"$\gamma^*$")
ax.set_title("The staircase's optimal step for three costs")
ax.legend()
show_figure(fig)

# %% [markdown]
# The optimal cost relative to Laplace noise (the staircase's gain) for the same costs:

# %%
ratios = {text: [float(Staircase(eps=e).value("cost", text, 10).number)
                 / float(Laplace(eps=e).value("cost", text, 10).number) for e in eps_grid]
          for text in costs}
for text, row in ratios.items():
    assert all(r <= 1 + 1e-12 for r in row), text  # the staircase is optimal
fig, ax = plt.subplots(figsize=(6, 4))
for text, row in ratios.items():
    ax.plot([float(e) for e in eps_grid], row, marker="o", label=text)
ax.set_xlabel(r"$\varepsilon$")
ax.set_ylabel("staircase / Laplace")
ax.legend()
show_figure(fig)

# %% [markdown]
# ## 4. The $(0, \delta)$ optimum for the indicator cost
#
# For $L = \mathbf{1}\{|x| > T\}$ the cost of $\mathcal{P}_\alpha$ is the mass beyond $T$:
# with $W = \frac{(1-\alpha)\Delta}{2(\delta - \alpha)}$ and $h = (\delta - \alpha)/\Delta$,
# it is $2h(W - T) = 1 - \alpha - 2(\delta - \alpha)T/\Delta$ while $W > T$ and $0$
# otherwise. Linear in $\alpha$: the optimum is $\alpha^* = 0$ when $2T > \Delta$, is
# attained on the whole range when $2T = \Delta$ (a flat cost), and is approached as
# $\alpha \to \delta$ without being attained when $2T < \Delta$; if $W(0) = \Delta/(2\delta)
# \le T$ the cost is zero up to $\alpha_T = \frac{2T\delta - \Delta}{2T - \Delta}$. dpsym
# decides which, exactly (rational costs give rational values).

# %%
m = UniformMass(delta="0.1", Delta=1)
cases = {"abs(x) > 2": ("0.6", "0"), "abs(x) > 1/2": ("0.9", "flat"),
         "abs(x) > 1/4": ("0.9", "not attained"), "abs(x) >= 6": ("0", "flat")}
for text, (cost, where) in cases.items():
    value = m.value("cost", text, 20)
    assert value.certificate == "exact" and float(value.text) == float(cost)
    try:
        alpha = m.value("alpha", text, 20).text
    except UnsupportedError as err:
        alpha = str(err).split(": ", 1)[1]
        assert ("every alpha" in alpha) == (where == "flat")
        assert ("not attained" in alpha) == (where == "not attained")
    else:
        assert alpha == where
    print(f"{text:>14}: cost {value.text}; alpha* {alpha}")

fig, ax = plt.subplots(figsize=(6, 4))
grid = np.linspace(0, 0.0999, 200)
for T in (Fraction(2), Fraction(1, 2), Fraction(1, 4)):
    w = (1 - grid) / (2 * (0.1 - grid))
    ax.plot(grid, np.where(w > float(T), 1 - grid - 2 * (0.1 - grid) * float(T), 0),
            label=f"T = {T}")
ax.set_xlabel(r"$\alpha$")
ax.set_ylabel(r"$P(|X| > T)$ under $\mathcal{P}_\alpha$")
ax.legend()
show_figure(fig)

# %% [markdown]
# ## 5. Lower bounds for a general $L$
#
# The paper's lower bound rests on the tail recursion $U(s + \Delta) \ge b(U(s) - \delta)$,
# which holds whatever the cost: $V_L^* \ge L(0) + 2\sum_{k \ge 1} x_k (L(k\Delta) -
# L((k-1)\Delta))$. It stays below the best mechanism for every cost, and Lemma 2 (integer
# noise) applies where its condition (9) holds, which dpsym decides for the given $L$.

# %%
for text in costs:
    bound = float(LowerBound(eps=1, delta="0.05").value("cost", text, 12).text)
    best = float(TruncatedLaplace(eps=1, delta="0.05").value("cost", text, 12).text)
    print(f"{text:>16}: bound {bound:.6g} <= truncated Laplacian {best:.6g}")
    assert bound <= best
found = lemma2("1/2", 3, 10, "min(abs(x), 30)")
print("Lemma 2, min(|i|, 30):", found.value(12).text, " condition (9) margin:",
      mpmath.nstr(mpmath.mpf(str(found.condition.evalf(20))), 6))
try:
    lemma2(1, 3, 4, "abs(x) >= 1")
except DomainError as err:
    assert "condition (9)" in str(err)
