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
# # Optimal $(0, \delta)$ noise for a real-valued query: proof checks
#
# Source: the poster (seed `002`), the definition of $\mathcal{P}_\alpha$ (Figure 1),
# Theorem 3 and its two corollaries; and the integer-valued uniform mechanism of the thesis
# slides (seed `000`, Part Three). The engine builds $\mathcal{P}_\alpha$ from its shape (a
# point mass $\alpha$ and a constant density on $[-L, L]$) and two conditions (total mass one,
# mass $\delta$ on $[-\Delta/2, \Delta/2]$), and minimises the cost over $\alpha$ for a
# symbolic exponent $p$. Every claim cell ends in an `assert`.

# %% tags=["hide-input"]
import matplotlib
import matplotlib.pyplot as plt
import mpmath
import numpy as np
import sympy as sp

from dpsym.core.costs import Cost
from dpsym.mechanisms import DiscreteUniform, UniformMass
from dpsym.mechanisms.uniform_mass import L, alpha
from dpsym.notebook import show_figure
from dpsym.symbols import Delta, delta, p

if "inline" not in matplotlib.get_backend():
    matplotlib.use("Agg")

U = UniformMass

# %% [markdown]
# ## 1. The density of $\mathcal{P}_\alpha$ (Figure 1)
#
# The poster: density $(\delta - \alpha)/\Delta$ on $[-L, L]$ with
# $L = \frac{1-\alpha}{\delta-\alpha}\frac{\Delta}{2}$.

# %%
solved = U.engine.calibration()
print(solved)
assert sp.simplify(U.normalisation() - (delta - alpha) / Delta) == 0
assert sp.simplify(solved[L] - (1 - alpha) / (delta - alpha) * Delta / 2) == 0

# %% [markdown]
# ## 2. Theorem 3: $\alpha^*$ and the minimum cost for every $p > 0$
#
# $\mathbb{E}|X|^p = (1 - \alpha) L^p/(p+1)$; the engine's minimiser over $\alpha \in [0, \delta)$
# is a `Piecewise`: $\alpha^* = 0$ for $\delta \le p/(p+1)$, else $(p+1)\delta - p$.

# %%
cost_p = U.cost_function(Cost(p))
alpha_star = U.optimal_parameter(Cost(p))
v_star = U.optimal_cost(Cost(p))
print(alpha_star)
print(v_star)
(low_a, low_cond), (high_a, _) = alpha_star.args
assert low_a == 0 and sp.simplify(high_a - ((p + 1) * delta - p)) == 0
threshold = sp.solve(sp.Eq(low_cond.lhs, low_cond.rhs), delta)[0]
assert sp.simplify(threshold - p / (p + 1)) == 0
(low_v, _), (high_v, _) = v_star.args
assert sp.simplify(low_v - Delta**p / (2**p * (p + 1) * delta**p)) == 0
poster_high = (p + 1) ** p / (2**p * p**p) * (1 - delta) * Delta**p
for pv in (sp.Rational(1, 2), 1, 2, sp.Rational(7, 3)):
    for dv in (sp.Rational(9, 10), sp.Rational(99, 100)):
        point = {p: pv, delta: dv, Delta: 3}
        assert abs(sp.N(high_v.subs(point) - poster_high.subs(point), 30)) < 1e-25

# %% [markdown]
# The minimiser is confirmed by a direct high-precision search at a few points (the
# optimum on the grid of $\alpha$ values is where the engine says).

# %%
for pv, dv in ((1, "0.3"), (1, "0.8"), (2, "0.9"), (sp.Rational(1, 2), "0.5")):
    m = U(delta=dv, Delta="1")
    cost = f"moment:{pv}"
    a_star = m.value("alpha", cost, 30).number
    f = sp.lambdify(alpha, cost_p.subs({p: pv, delta: sp.Rational(dv), Delta: 1}), "mpmath")
    with mpmath.workdps(40):
        grid = [mpmath.mpf(dv) * j / 1000 for j in range(1000)]
        best = min(grid, key=f)
        assert abs(best - a_star) <= mpmath.mpf(dv) / 1000

# %% [markdown]
# ## 3. The corollaries: amplitude and power

# %%
amp, pw = U.formula("cost", "amplitude"), U.formula("cost", "power")
print(amp, "\n", pw)
assert amp.args[0][0] == Delta / (4 * delta)
assert sp.simplify(amp.args[1][0] - (1 - delta) * Delta) == 0
assert amp.args[0][1] == (delta <= sp.Rational(1, 2))
assert sp.simplify(pw.args[0][0] - Delta**2 / (12 * delta**2)) == 0
assert sp.simplify(pw.args[1][0] - sp.Rational(9, 16) * (1 - delta) * Delta**2) == 0
assert pw.args[0][1] == (delta <= sp.Rational(2, 3))

# %% [markdown]
# ## 4. The integer-valued uniform mechanism (slides, Part Three)
#
# For $\Delta/(2\delta)$ an integer the slides give $V_{UB} = \Delta/(4\delta)$ for $|i|$ and
# $\Delta^2/(12\delta^2) + 1/6$ for $|i|^2$ (their sum's upper limit is printed as
# $\delta/(2\Delta) - 1$, a typo for $\Delta/(2\delta) - 1$; see the errata).

# %%
for dv, sv in (("0.1", 1), ("0.05", 3), ("0.125", 2)):
    m = DiscreteUniform(delta=dv, Delta=sv)
    d_ = sp.Rational(dv)
    assert sp.Rational(m.value("cost", "amplitude", 30).text) == sv / (4 * d_)
    exact = sp.Integer(sv) ** 2 / (12 * d_**2) + sp.Rational(1, 6)
    assert abs(sp.Rational(m.value("cost", "power", 30).text) - exact) < sp.Rational(1, 10**25)

# %% [markdown]
# ## 5. Cost against $\delta$

# %%
ds = np.linspace(0.02, 0.98, 97)
amp_f = sp.lambdify(delta, amp.subs(Delta, 1), "numpy")
plt.plot(ds, [amp_f(d) for d in ds], label="E|X| of P_alpha*")
plt.yscale("log")
plt.xlabel("delta")
plt.legend()
show_figure()
assert all(np.diff([amp_f(d) for d in ds]) < 0)
