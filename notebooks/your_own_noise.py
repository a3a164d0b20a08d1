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
# # Your own noise
#
# A noise of your own design gets everything a catalogue entry gets: declare its density
# (pieces on intervals, an optional geometric tail, an optional point mass) with its
# parameters, in Python (`dpsym.mechanisms.declared.declare_noise`) or in a TOML or JSON
# file (`dpsym ... --noise FILE`), and the engine derives its normalisation, its costs, the
# optimal value of a free parameter, certified values, its privacy profile, its Rényi
# curve, its sampler and its place in `compare` — exactly as for the catalogue, whose
# Laplace, staircase and truncated Laplacian are declarations of the same kind
# (`docs/noise.md`).
#
# Two noises here: a Laplace density **clipped** to $[-A, A]$ and renormalised, and a
# **two-level staircase** whose second level is half the first, not $b$ times it
# ($b = e^{-\varepsilon}$). Every result is checked independently (sympy, mpmath quadrature,
# exact sums written out here); every claim cell ends in an `assert`.

# %%
import functools
import itertools
import math
import tomllib
from statistics import NormalDist

import mpmath
import numpy as np
import sympy as sp

from dpsym.accounting.renyi import renyi
from dpsym.mechanisms import registered
from dpsym.mechanisms.declared import declare_noise, noise_from_mapping
from dpsym.notebook import show
from dpsym.reports.selection import compare, compare_inputs
from dpsym.symbols import b, gamma, x

# %% [markdown]
# ## 1. A clipped Laplace density
#
# The density $f(x) = c\, e^{-|x|/\lambda}$ on $[-A, A]$, with the constant $c$ left to
# the engine (`normalise = true`). As a noise file:

# %%
CLIPPED = """
name = "clipped-laplace"
title = "Laplace noise clipped to [-A, A] and renormalised"
normalise = true
guarantee = "eps,delta"

[params.lam]
domain = "(0, oo)"
default = "1"
description = "Laplace scale"

[params.A]
domain = "(0, oo)"
default = "8"
description = "clipping bound"

[[pieces]]
lo = "0"
hi = "A"
density = "exp(-x/lam)"
"""
Clipped = noise_from_mapping(tomllib.loads(CLIPPED))
lam, A = (prm.symbol for prm in Clipped.params[:2])
show("c", Clipped.normalisation())
# independently: the density integrates to one
mass = 2 * sp.integrate(Clipped.normalisation() * sp.exp(-x / lam), (x, 0, A), conds="none")
assert sp.simplify(mass - 1) == 0

# %% [markdown]
# The costs are the engine's closed forms; their certified values agree with an mpmath
# quadrature of the density to every printed digit.

# %%
show(r"\mathbb{E}X^2", Clipped.formula("cost", "power"))
m = Clipped(lam=1, A=2)
digits = 30
with mpmath.workdps(60):
    norm = 1 / (2 * -mpmath.expm1(-2))
    for cost, power in (("amplitude", 1), ("power", 2), ("moment:1/2", mpmath.mpf(1) / 2)):
        value = m.value("cost", cost, digits)
        exact = 2 * mpmath.quad(lambda t, q=power: t**q * norm * mpmath.exp(-t), [0, 2])
        assert value.certificate in ("exact", "enclosure")
        assert mpmath.nstr(exact, digits, strip_zeros=False) == value.text, (cost, value)
        print(f"{cost:12} {value.text}  ({value.certificate})")

# %% [markdown]
# **Privacy profile.** $\delta(\varepsilon^{\prime}) = \sup_{|d| \le \Delta} \int (f(x) -
# e^{\varepsilon^{\prime}} f(x + d))_+ dx$ at sensitivity $\Delta$: the clipped Laplace is a
# truncated Laplace density, whose profile has a closed form with its cases decided exactly (an Arb
# enclosure). Independently: the integral at the worst shift $d = \Delta$ (the density is
# log-concave), by quadrature split where the integrand changes sign.

# %%
def clipped_hockey(lam_: mpmath.mpf, a: mpmath.mpf, sens: mpmath.mpf, e: mpmath.mpf
                   ) -> mpmath.mpf:
    norm = 1 / (2 * lam_ * -mpmath.expm1(-a / lam_))

    def f(t):
        return norm * mpmath.exp(-abs(t) / lam_) if abs(t) <= a else mpmath.mpf(0)

    def gap(t):
        return f(t) - mpmath.exp(e) * f(t + sens)

    # the loss (|t + sens| - |t|)/lam exceeds e where 2t + sens > e lam (t in [-sens, 0])
    cut = (e * lam_ - sens) / 2
    points = sorted({max(-a, min(a, t)) for t in (-a, -sens, cut, mpmath.mpf(0), a - sens, a)})
    return mpmath.fsum(mpmath.quad(lambda t: max(gap(t), 0), [p, q])
                       for p, q in itertools.pairwise(points))


with mpmath.workdps(40):
    for e in ("1/2", "1", "2"):
        profile = m.privacy_profile(e, digits=20)
        exact = clipped_hockey(mpmath.mpf(1), mpmath.mpf(2), mpmath.mpf(1),
                               mpmath.mpf(sp.Rational(e)))
        assert profile.certificate == "enclosure"
        assert abs(mpmath.mpf(profile.text) - exact) < mpmath.mpf(10) ** -19 * exact
        print(f"delta({e}) = {profile.text}")
# at eps = 1 the profile is e^-2 (e - 1) / (2 (1 - e^-2)) = 0.1345...: (1, 0.2)-DP, not (1, 0.1)
assert m.is_private(1, "0.2").private and not m.is_private(1, "0.1").private

# %% [markdown]
# **Rényi divergence.** A bounded support puts mass where the shifted noise has none:
# every Rényi divergence is infinite, and dpsym says why.

# %%
result = renyi(m, 2)
print(result.text, "-", result.reason)
assert result.infinite and "bounded support" in result.reason

# %% [markdown]
# **Sampler.** The vectorised sampler draws the clipped density by inversion. Its
# empirical moments $\mathbb{E}|X|^k$, $k = 1, 2, 4$, are z-tested against the exact
# moments with the exact variances $m_{2k} - m_k^2$, each at level $10^{-8}$ (three tests:
# a correct sampler fails with probability below $3 \cdot 10^{-8}$; the seed is fixed).

# %%
Z_CRIT = -NormalDist().inv_cdf(1e-8 / 2)  # two-sided level 1e-8


def moment_z_scores(mechanism, n: int, seed: int, cost: str = "amplitude") -> list[float]:
    draws = np.abs(mechanism.sample(np.random.default_rng(seed), n, cost))
    exact = {k: float(mechanism.law(cost).moment_value(k, 17)) for k in (1, 2, 4, 8)}
    return [float((np.mean(draws**k) - exact[k]) / math.sqrt((exact[2 * k] - exact[k]**2) / n))
            for k in (1, 2, 4)]


scores = moment_z_scores(m, 200_000, 2024)
print("z-scores:", [round(z, 2) for z in scores])
assert all(abs(z) < Z_CRIT for z in scores)

# %% [markdown]
# ## 2. A two-level staircase with another ratio
#
# The staircase's density takes two levels on each period of length $\Delta$, $a$ on
# $[0, \gamma\Delta)$ and $ab$ on $[\gamma\Delta, \Delta)$, and decays by $b$ per period.
# Here the second level is $a/2$ instead, and $\gamma$ stays free: the engine finds its
# optimum for each cost, as for the staircase. For the amplitude it is $\sqrt 2 - 1$,
# whatever $\varepsilon$.

# %%
TwoLevel = declare_noise(
    "two-level", normalise=True, params=["eps", "Delta"],
    free={"name": "gamma", "lower": "0", "upper": "1"},
    tail={"period": "Delta", "ratio": "b",
          "pieces": [["0", "gamma*Delta", "1"], ["gamma*Delta", "Delta", "1/2"]]})
best = TwoLevel.formula("gamma", "amplitude")
show(r"\gamma^*_{\mathrm{amplitude}}", best)
assert best == sp.sqrt(2) - 1
# independently: the expected |X| summed over the periods by sympy, minimised by mpmath
k = sp.Symbol("k", integer=True, nonnegative=True)
level = (1 - b) / (2 * (gamma + (1 - gamma) / 2))  # the two levels integrate to 1
period_mass = sp.integrate(x, (x, k, k + gamma)) + sp.integrate(x, (x, k + gamma, k + 1)) / 2
indep_cost = 2 * level * sp.summation(sp.expand(period_mass) * b**k, (k, 0, sp.oo))
# sympy's geometric sums are Piecewise in |b| < 1: take that branch (0 < b < 1)
indep_cost = sp.simplify(indep_cost.replace(lambda e: isinstance(e, sp.Piecewise),
                                            lambda e: e.args[0][0]))
engine_cost = TwoLevel.cost_function("amplitude").subs(sp.Symbol("Delta", positive=True), 1)
assert sp.simplify(indep_cost - engine_cost) == 0
with mpmath.workdps(40):
    at = sp.lambdify(gamma, indep_cost.subs(b, sp.exp(-1)), "mpmath")
    g_star = mpmath.findroot(lambda g: mpmath.diff(at, g), mpmath.mpf("0.45"))
    s2 = TwoLevel(eps=1)
    assert abs(g_star - mpmath.mpf(s2.value("gamma", "amplitude", 30).text)) < 1e-28
    assert abs(at(g_star) - mpmath.mpf(s2.value("cost", "amplitude", 30).text)) < 1e-28
    print("gamma* =", s2.value("gamma", "amplitude", 20).text, " cost =",
          s2.value("cost", "amplitude", 20).text)
    assert abs(mpmath.sqrt(2) - 1 - g_star) < 1e-30

# %% [markdown]
# **Privacy.** The density is piecewise constant: its profile is summed exactly, run by
# run, each sign decided exactly (`dpsym.privacy.lattice`). Over a shift of at most
# $\Delta$ the density changes by the factors $2$, $1/(2b)$ or, over a whole period,
# $1/b = e^{\varepsilon}$: the noise is $\varepsilon$-DP exactly when $2 \le e^{\varepsilon}$,
# $\varepsilon \ge \log 2$ (at $\varepsilon = 1$ yes, and not $\varepsilon^{\prime}$-DP for
# $\varepsilon^{\prime} < 1$; at $\varepsilon = 1/2$ no). Independently: the hockey-stick
# integral of the piecewise-constant density summed interval by interval at every
# breakpoint difference below $\Delta$ (where its supremum over the shift lies).

# %%
def two_level(g: mpmath.mpf, bb: mpmath.mpf, periods: int = 120):
    """The density (written out here) and its breakpoints on [-periods, periods]: built
    once per density and working precision (every shift below reuses them)."""
    return _two_level(g, bb, periods, mpmath.mp.prec)


@functools.cache
def _two_level(g: mpmath.mpf, bb: mpmath.mpf, periods: int, prec: int):
    a = (1 - bb) / (2 * (g + (1 - g) / 2))

    @functools.cache  # the same midpoints recur for every eps' and order below
    def f(t):
        t = abs(t)
        kk = mpmath.floor(t)
        return a * bb**kk * (1 if t - kk < g else mpmath.mpf(1) / 2)
    cuts = tuple(sorted({s * (kk + off) for kk in range(periods) for off in (0, g)
                         for s in (1, -1)}))
    return f, cuts


def elementary(cuts: tuple, d: mpmath.mpf) -> list:
    """The intervals on which the density and its shift by d are both constant (once per
    shift and working precision)."""
    return _elementary(cuts, d, mpmath.mp.prec)


@functools.cache
def _elementary(cuts: tuple, d: mpmath.mpf, prec: int) -> list:
    points = sorted(set(cuts) | {c - d for c in cuts})
    return list(itertools.pairwise(points))


def staircase_hockey(g, bb, e, d):
    f, cuts = two_level(g, bb)
    scale = mpmath.exp(e)
    return mpmath.fsum((q - p) * max(f((p + q) / 2) - scale * f((p + q) / 2 + d), 0)
                       for p, q in elementary(cuts, d))


with mpmath.workdps(30):
    g = mpmath.mpf(s2.value("gamma", "amplitude", 25).text)
    _, cuts = two_level(g, mpmath.exp(-1), 3)
    # the supremum over the shift lies at 1 or a difference of breakpoints below 1
    shifts = sorted({q - p for p in cuts for q in cuts if 0 < q - p <= 1})
    for e in ("1/2", "0"):
        profile = s2.privacy_profile(e, digits=15)
        exact = max(staircase_hockey(g, mpmath.exp(-1), mpmath.mpf(sp.Rational(e)), d)
                    for d in shifts)
        assert abs(mpmath.mpf(profile.text) - exact) < 1e-13, (e, profile.text, exact)
        print(f"delta({e}) = {profile.text}")
assert s2.is_private(1, 0).private and not s2.is_private("9/10", 0).private
assert not TwoLevel(eps="1/2").is_private("1/2", 0).private

# %% [markdown]
# **Rényi divergence of order 2**, certified, and independently the sum
# $\frac{1}{\alpha - 1}\log \int f^\alpha f(\cdot + d)^{1 - \alpha}$ over the same
# intervals at the candidate shifts.

# %%
def staircase_renyi(g, bb, alpha, d):
    f, cuts = two_level(g, bb)
    total = mpmath.fsum((q - p) * f((p + q) / 2) ** alpha * f((p + q) / 2 + d) ** (1 - alpha)
                        for p, q in elementary(cuts, d))
    return mpmath.log(total) / (alpha - 1)


with mpmath.workdps(30):
    found = renyi(s2, 2, digits=15)
    exact = max(staircase_renyi(g, mpmath.exp(-1), 2, d) for d in shifts)
    print("D_2 =", found.text, "at the shift", found.shift)
    assert abs(mpmath.mpf(found.text) - exact) < 1e-13
    assert renyi(s2, "inf", digits=15).text == "1.00000000000000"  # the largest loss: eps

# %% [markdown]
# **Sampler**, z-tested as above (three tests at level $10^{-8}$), at the optimal
# $\gamma$ for the amplitude cost.

# %%
scores = moment_z_scores(s2, 200_000, 7)
print("z-scores:", [round(z, 2) for z in scores])
assert all(abs(z) < Z_CRIT for z in scores)

# %% [markdown]
# ## 3. `compare`
#
# Registered, both noises join the comparison: each is ranked only once its privacy at
# the compared $(\varepsilon, \delta)$ is decided from its certified profile (a declared
# guarantee is a claim, not an assumption). At $\varepsilon = 1$, $\delta = 10^{-3}$ the
# two-level staircase ($\varepsilon$-DP) costs more than the staircase and less than
# Laplace noise, and the clipped Laplace with its defaults $\lambda = 1$,
# $A = 8$ is private (its profile at $\varepsilon = 1$ is $2.9 \cdot 10^{-4}$) and ranked;
# clipped at $A = 4$ it would not be ($1.6 \cdot 10^{-2} > 10^{-3}$).

# %%
with registered(Clipped), registered(TwoLevel):
    table = compare(compare_inputs("1", "0.001", "1", "amplitude", 8))
ranked = {row.name: row for row in table.rows if row.kind == "mechanism"}
for row in table.rows:
    if row.query == "real":
        print(f"{row.rank or '-':>3}  {row.name:20} {row.cost}")
assert "two-level" in ranked and "clipped-laplace" in ranked
assert ranked["staircase"].number < ranked["two-level"].number < ranked["laplace"].number
assert not Clipped(lam=1, A=4).is_private(1, "0.001").private
