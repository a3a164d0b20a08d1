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
# # Composition: the staircase against Laplace and the Gaussian
#
# A mechanism is rarely used once. This notebook checks dpsym's privacy-loss laws and its
# tight $k$-fold composition (`dpsym.composition`, `dpsym renyi`, `dpsym compose`) and
# compares the staircase, Laplace and Gaussian mechanisms for $k = 1, \dots, 1000$
# releases: the composed $\varepsilon(\delta)$, and the cost of each release at a fixed
# composed budget, with the asymptotic regime derived.
#
# Every result computed by the engine is checked by an independent route (sympy or plain
# mpmath in this notebook); every claim cell ends in an `assert`.

# %%
import itertools

import matplotlib
import matplotlib.pyplot as plt
import mpmath
import numpy as np
import sympy as sp
from IPython.display import Math, display

from dpsym import AnalyticGaussian, Laplace, Staircase
from dpsym.composition import Component, component, compose, compose_epsilon
from dpsym.precision import arb_workprec, workdps
from dpsym.renyi import renyi

if "inline" not in matplotlib.get_backend():  # plain `python notebook.py`: no display
    matplotlib.use("Agg")


def show(label, expr):
    """Display ``label = expr`` as LaTeX."""
    display(Math(label + " = " + sp.latex(expr)))


def law_of(comp):
    """The atoms {loss: mass} of a lattice privacy-loss law, as mpf (40 digits)."""
    with arb_workprec(160), workdps(40):
        return {sp.nsimplify(k): mpmath.mpf(v.str(40, radius=False))
                for k, v in comp.law.atom_masses()}


# %% [markdown]
# ## 1. The staircase's privacy-loss law
#
# With $b = e^{-\varepsilon}$ and $\gamma \le 1/2$, at the shift $d = \Delta$ the loss
# $\ell(x) = \log f(x)/f(x + \Delta)$ is $\varepsilon$ for $x \ge 0$ (mass $1/2$),
# $-\varepsilon$ for $x \le -\Delta$ (mass $b/2$), and on $(-\Delta, 0)$, with $y = -x$:
# $\varepsilon$ on $y < \gamma\Delta$ (density $a$), $0$ on the middle (density $ab$), and
# $-\varepsilon$ on $y > (1-\gamma)\Delta$ (density $ab$). Hence
# $$P(\ell = \varepsilon) = \tfrac12 + a\gamma\Delta, \qquad
#   P(\ell = 0) = ab(1 - 2\gamma)\Delta, \qquad P(\ell = -\varepsilon) = b\,P(\ell = \varepsilon),$$
# a mixture of randomised response and the identity. The engine's law (at its worst shift
# under composition) must be this one.

# %%
eps_s, g_s, D_s = sp.symbols("epsilon gamma Delta", positive=True)
b_s = sp.exp(-eps_s)
a_s = (1 - b_s) / (2 * D_s * (g_s + b_s * (1 - g_s)))
p_plus = sp.Rational(1, 2) + a_s * g_s * D_s
p_zero = a_s * b_s * (1 - 2 * g_s) * D_s
show(r"P(\ell = \varepsilon)", sp.simplify(p_plus))
assert sp.simplify(p_plus + p_zero + b_s * p_plus - 1) == 0  # a probability law

stair = Staircase(eps=1)
comp = component(stair, digits=30)
law = law_of(comp)
gamma_star = sp.Rational(stair.value("gamma", digits=40).text)
point = {eps_s: 1, g_s: gamma_star, D_s: 1}
with workdps(40):
    assert str(comp.shift) == "1" and set(law) == {-1, 0, 1}
    assert abs(law[1] - mpmath.mpf(sp.N(p_plus.subs(point), 40))) < 1e-35
    assert abs(law[0] - mpmath.mpf(sp.N(p_zero.subs(point), 40))) < 1e-35
    assert abs(law[-1] - mpmath.exp(-1) * law[1]) < 1e-35

# %% [markdown]
# Its mean is the Kullback-Leibler divergence, $\mu = E\,\ell = p\,\varepsilon(1 - b)$ with
# $p = P(\ell = \varepsilon)$, and its variance $v = \varepsilon^2 p (1 + b) - \mu^2$. The
# KL divergence is also the order-1 point of the Rényi curve, computed by a different path
# of the engine (the integral of $f \log(f/f(\cdot + \Delta))$ over the pieces).

# %%
mu_s = p_plus * eps_s * (1 - b_s)
v_s = eps_s**2 * p_plus * (1 + b_s) - mu_s**2
kl = renyi(stair, 1, digits=30)
with workdps(40):
    mean = sum(k * m for k, m in law.items())
    assert abs(mean - mpmath.mpf(kl.text)) < 1e-28
    assert abs(mean - mpmath.mpf(sp.N(mu_s.subs(point), 40))) < 1e-30

# %% [markdown]
# ## 2. Exact $k$-fold composition
#
# The composed $\delta(\varepsilon') = E[(1 - e^{\varepsilon' - L})_+]$ for the sum $L$ of
# $k$ independent losses. For the staircase the sum lives on $\varepsilon\mathbb{Z}$ and
# dpsym convolves exactly. Independently: the trinomial law of the numbers of $+\varepsilon$
# and $-\varepsilon$ steps.

# %%
def trinomial_delta(law, k, e_target):
    total = mpmath.mpf(0)
    for i in range(k + 1):
        for j in range(k - i + 1):
            loss = i - j
            if loss > e_target:
                weight = mpmath.factorial(k) / (mpmath.factorial(i) * mpmath.factorial(j)
                                                * mpmath.factorial(k - i - j))
                total += (weight * law[1] ** i * law[-1] ** j * law[0] ** (k - i - j)
                          * (1 - mpmath.exp(e_target - loss)))
    return total


for k_, e_target in ((5, 2), (12, 3)):
    got = compose([(comp, k_)], e_target, 25)
    with workdps(40):
        assert got.exact and abs(trinomial_delta(law, k_, e_target) - mpmath.mpf(got.text)) \
            < 1e-22 * mpmath.mpf(got.text)

# %% [markdown]
# ## 3. $\varepsilon(\delta)$ after $k$ releases
#
# Three mechanisms at sensitivity 1, $\delta = 10^{-6}$: the staircase and Laplace with
# $\varepsilon_0 = 1$ per release, and a Gaussian with the same expected $|X|$ as Laplace
# ($\sigma = \sqrt{\pi/2}$). The staircase (exact lattice convolution) and the Gaussian
# (closed form: $k$ releases are one Gaussian of $\sigma/\sqrt{k}$) are exact; Laplace's
# loss is continuous and gets rigorous lower and upper bounds (loss rounded down and up to
# multiples of $h$), computed here for $k \le 20$.

# %%
DELTA = "1e-6"
ks = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]
eps_stair = [float(compose_epsilon([(comp, k_)], DELTA, 8).text) for k_ in ks]

# the Gaussian's loss law: N(mu, 2 mu) with mu = Delta^2 / (2 sigma^2) = 1/pi
gauss_comp = Component("gaussian", sp.Integer(1), mu=1 / sp.pi)
eps_gauss = [float(compose_epsilon([(gauss_comp, k_)], DELTA, 8).text) for k_ in ks]

lap = component(Laplace(eps=1))
lap_k = [1, 2, 5, 10, 20]
lap_bounds = [compose_epsilon([(lap, k_)], DELTA, 8, interval="1/500") for k_ in lap_k]

fig, ax = plt.subplots(figsize=(7, 4))
ax.loglog(ks, eps_stair, "o-", label=r"staircase, $\varepsilon_0 = 1$ (exact)")
ax.loglog(ks, eps_gauss, "s-", label=r"Gaussian, $\sigma = \sqrt{\pi/2}$ (exact)")
ax.fill_between(lap_k, [float(r.lower) for r in lap_bounds],
                [float(r.upper) for r in lap_bounds], color="C2", alpha=0.5,
                label=r"Laplace, $\varepsilon_0 = 1$ (bounds)")
ax.set(xlabel="k", ylabel=r"$\varepsilon(\delta = 10^{-6})$", title="Composed epsilon")
ax.legend()
plt.show()

# the pure bound k * eps0 is never beaten by less than the loss law allows, and the exact
# curve is far below it for large k
assert all(e <= k_ * 1.0 + 1e-12 for e, k_ in zip(eps_stair, ks, strict=True))
assert eps_stair[-1] < 0.6 * ks[-1]
for r in lap_bounds:
    assert float(r.lower) <= float(r.upper)

# %% [markdown]
# The whole curve $\varepsilon(\delta)$ after $k = 20$ releases. At the same
# $\varepsilon_0$ the staircase composes *worse* than Laplace: its loss sits at
# $\pm\varepsilon_0$ with probability $p + bp$ (here $p \approx 0.70$ against Laplace's
# $1/2$), the price of its smaller noise; section 5 compares them at equal composed
# budgets instead.

# %%
deltas = ["1e-10", "1e-7", "1e-4", "1e-2", "1e-1"]
curve_stair = [float(compose_epsilon([(comp, 20)], d, 8).text) for d in deltas]
curve_lap = [compose_epsilon([(lap, 20)], d, 8, interval="1/500") for d in deltas]
curve_gauss = [float(compose_epsilon([(gauss_comp, 20)], d, 8).text) for d in deltas]

fig, ax = plt.subplots(figsize=(7, 4))
xs_d = [float(d) for d in deltas]
ax.semilogx(xs_d, curve_stair, "o-", label="staircase (exact)")
ax.fill_between(xs_d, [float(r.lower) for r in curve_lap], [float(r.upper) for r in curve_lap],
                color="C2", alpha=0.5, label="Laplace (bounds)")
ax.semilogx(xs_d, curve_gauss, "s-", label="Gaussian (exact)")
ax.set(xlabel=r"$\delta$", ylabel=r"$\varepsilon$",
       title=r"$\varepsilon(\delta)$ after 20 releases")
ax.legend()
plt.show()

for i in range(len(deltas)):
    assert curve_stair[i] <= 20 and float(curve_lap[i].upper) <= 20 + 1e-9
    assert curve_stair[i] >= float(curve_lap[i].upper)  # equal eps0: the staircase leaks more
    if i:
        assert curve_stair[i] <= curve_stair[i - 1] and curve_gauss[i] < curve_gauss[i - 1]

# %% [markdown]
# **The Gaussian, independently.** $k$ releases of $N(0, \sigma^2)$ are one release of
# $N(0, \sigma^2/k)$, whose profile is
# $\Phi(\frac{1}{2s} - \varepsilon s) - e^{\varepsilon}\Phi(-\frac{1}{2s} - \varepsilon s)$,
# $s = \sigma/\sqrt{k}$; it must equal $10^{-6}$ at the computed $\varepsilon$.

# %%
with workdps(30):
    for k_, e in zip(ks, eps_gauss, strict=True):
        s = mpmath.sqrt(mpmath.pi / 2 / k_)
        e = mpmath.mpf(e)
        d = mpmath.ncdf(1 / (2 * s) - e * s) - mpmath.exp(e) * mpmath.ncdf(-1 / (2 * s) - e * s)
        assert abs(d / mpmath.mpf(DELTA) - 1) < 1e-6

# %% [markdown]
# ## 4. The asymptotic regime
#
# The composed loss is a sum of $k$ i.i.d. losses of mean $\mu$ and variance $v$; by the
# central limit theorem $\delta(\varepsilon') \approx P(L > \varepsilon')$ to leading order,
# so
# $$\varepsilon_k(\delta) = k\mu + \sqrt{k v}\; z_\delta + O(1), \qquad z_\delta \approx
# \Phi^{-1}(1 - \delta) \text{ (corrected by the } e^{\varepsilon'} \text{ term)}.$$
# In particular $\varepsilon_k/k \to \mu$ (the KL divergence per release), much below the
# pure bound $\varepsilon_0$. For small $k$, as long as $P(L = k\varepsilon_0) = p^k$
# exceeds $\delta$, the composed $\varepsilon$ is $k\varepsilon_0$ up to an exponentially
# small amount: composition gains nothing until $k > \log\delta / \log p$. For a
# Gaussian pair $v = 2\mu$ and the formula is exact in its own variable ($\mu$-GDP with
# $\mu_G = \sqrt{2k\mu}$).

# %%
with workdps(30):
    mu_num = float(sp.N(mu_s.subs(point), 20))
    ratios = [e / (k_ * mu_num) for e, k_ in zip(eps_stair, ks, strict=True)]
# epsilon_k / (k mu) -> 1 from above, monotonically on this grid
print(ratios)
# while p^k > delta the k-fold staircase costs its full k eps0 (up to an exponentially
# small amount): the ratio is 1/mu there; past that it decreases towards 1
p_num = float(law[1])
for k_, r in zip(ks, ratios, strict=True):
    if p_num**k_ > 2e-6:
        assert abs(r * mu_num - 1) < 1e-3
big = [r for k_, r in zip(ks, ratios, strict=True) if k_ >= 50]
assert all(r1 > r2 for r1, r2 in itertools.pairwise(big))
assert 1 < ratios[-1] < 1.5

# %% [markdown]
# ## 5. The cost at a fixed composed budget
#
# Fix the composed budget $(\varepsilon, \delta) = (4, 10^{-6})$ after $k$ releases and
# calibrate each mechanism per release: the staircase's $\varepsilon_0$ by bisection on the
# exact composed $\varepsilon(\delta)$, the Gaussian's $\sigma$ as $\sqrt{k}$ times the
# analytic calibration of one release (the $k$-fold Gaussian is one Gaussian). The cost is
# the expected $|X|$ of one release.
#
# **Asymptotics.** As $k \to \infty$ the per-release $\varepsilon_0 \to 0$ and every
# mechanism's loss becomes Gaussian: the staircase's law tends to Laplace's
# ($\gamma^* \to 1/2$), whose loss has $\mu \approx \varepsilon_0^2/2$,
# $v \approx \varepsilon_0^2$, i.e. $\mu_G = \sqrt{k}\,\varepsilon_0$; the Gaussian has
# $\mu_G = \sqrt{k}/\sigma$. At equal $\mu_G$, $\sigma = 1/\varepsilon_0$ = Laplace's
# scale, so the costs compare as $\mathbb{E}|X|$ of Laplace ($1/\varepsilon_0$) to the
# Gaussian's ($\sigma\sqrt{2/\pi}$):
# $$\frac{\text{cost}_{\text{staircase}}}{\text{cost}_{\text{Gaussian}}} \to \sqrt{\pi/2}
# \approx 1.2533,$$
# while for $k = 1$ the staircase (pure DP, exponentially small noise in $\varepsilon$) is
# far cheaper.

# %%
BUDGET, DELTA_B = 4, "1e-6"
cost_ks = [1, 10, 100, 1000]


def staircase_eps0(k_):
    lo, hi = 0.0, float(BUDGET)  # k * eps0 <= budget is always enough
    hi = max(hi / k_, 1e-3) * 40
    lo = BUDGET / k_
    for _ in range(14):
        mid = (lo + hi) / 2
        c = component(Staircase(eps=repr(mid)), digits=15)
        if float(compose_epsilon([(c, k_)], DELTA_B, 6).text) <= BUDGET:
            lo = mid
        else:
            hi = mid
    return lo


sigma1 = float(AnalyticGaussian(eps=BUDGET, delta=DELTA_B).value("sigma", digits=20).text)
cost_stair, cost_gauss = [], []
for k_ in cost_ks:
    e0 = staircase_eps0(k_)
    cost_stair.append(float(Staircase(eps=repr(e0)).value("cost", digits=12).text))
    cost_gauss.append(np.sqrt(k_) * sigma1 * np.sqrt(2 / np.pi))

fig, ax = plt.subplots(figsize=(7, 4))
ax.loglog(cost_ks, cost_stair, "o-", label="staircase")
ax.loglog(cost_ks, cost_gauss, "s-", label="Gaussian")
ax.set(xlabel="k", ylabel=r"$\mathbb{E}|X|$ per release",
       title=r"Cost at composed $(\varepsilon, \delta) = (4, 10^{-6})$")
ax.legend()
plt.show()

ratio = [s_ / g_ for s_, g_ in zip(cost_stair, cost_gauss, strict=True)]
print(ratio)
assert ratio[0] < 0.5  # one release: the staircase is much cheaper
assert ratio[-1] > 1  # many releases: the Gaussian wins
assert abs(ratio[-1] - np.sqrt(np.pi / 2)) < abs(ratio[1] - np.sqrt(np.pi / 2))
assert abs(ratio[-1] - np.sqrt(np.pi / 2)) < 0.1
