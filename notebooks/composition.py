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
# tight $k$-fold composition (`dpsym.accounting.composition`, `dpsym renyi`, `dpsym compose`) and
# compares the staircase, Laplace and Gaussian mechanisms for $k = 1, \dots, 1000$
# releases: the composed $\varepsilon(\delta)$, and the cost of each release at a fixed
# composed budget, with the asymptotic regime derived.
#
# Every result computed by the engine is checked by an independent route (sympy or plain
# mpmath in this notebook); every claim cell ends in an `assert`.

# %% tags=["hide-input"]
import functools
import itertools
import math

import matplotlib
import matplotlib.pyplot as plt
import mpmath
import sympy as sp

from dpsym import AnalyticGaussian, Laplace, Staircase
from dpsym.accounting.composition import Component, component, compose, compose_epsilon
from dpsym.accounting.renyi import renyi
from dpsym.notebook import show, show_figure
from dpsym.precision import arb_workprec, workdps

if "inline" not in matplotlib.get_backend():  # plain `python notebook.py`: no display
    matplotlib.use("Agg")


def law_of(comp):
    """The atoms {loss: mass} of a lattice privacy-loss law, as mpf (40 digits)."""
    with arb_workprec(160), workdps(40):
        return {sp.nsimplify(k): mpmath.mpf(v.str(40, radius=False))
                for k, v in comp.law.atom_masses()}


def fmt(values, digits=6):
    """Numbers as one line of text (no numpy reprs)."""
    return ", ".join(f"{float(v):.{digits}g}" for v in values)


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
eps_s, g_s, D_s = sp.symbols("varepsilon gamma Delta", positive=True)
b_s = sp.exp(-eps_s)
a_s = (1 - b_s) / (2 * D_s * (g_s + b_s * (1 - g_s)))
p_plus = sp.Rational(1, 2) + a_s * g_s * D_s
p_zero = a_s * b_s * (1 - 2 * g_s) * D_s
show(r"P(\ell = \varepsilon)", sp.simplify(p_plus))
assert sp.cancel(p_plus + p_zero + b_s * p_plus - 1) == 0  # a probability law (exactly)

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
# The composed $\delta(\varepsilon^{\prime}) = E[(1 - e^{\varepsilon^{\prime} - L})_+]$ for the sum
# $L$ of
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
# ## 3. Laplace's privacy-loss law and rigorous grid bounds
#
# For Laplace noise of scale $\Delta/\varepsilon$ at the shift $\Delta$ the loss
# $\ell(x) = (|x + \Delta| - |x|)\varepsilon/\Delta$ is $\varepsilon$ for $x \ge 0$ (mass
# $\frac12$), $-\varepsilon$ for $x \le -\Delta$ (mass $\frac12 e^{-\varepsilon}$) and
# $s = \varepsilon(2x + \Delta)/\Delta$ in between, where $X$ has density
# $e^{\varepsilon x/\Delta}\varepsilon/(2\Delta)$: the loss has the density
# $\frac14 e^{(s - \varepsilon)/2}$ on $(-\varepsilon, \varepsilon)$. Its $k$-fold sum is
# not on a lattice, so dpsym bounds $\delta(\varepsilon^{\prime})$ on a grid $h\mathbb{Z}$ by two
# pairs on the grid: one that dominates Laplace's pair (each loss bin
# $[jh, (j+1)h]$ split between its ends with the same $P$- and $Q$-masses, "connect the
# dots": the bin is a post-processing of the two atoms) and one dominated by it (the
# outcomes of each bin merged into one atom, a post-processing). Merging is exact on the
# grid for Laplace: the merged loss of the outcomes with loss in $[u, v]$ is
# $\log P/Q = (u + v)/2$, derived here, so bins centred on $jh$ merge onto $jh$. Both
# errors are of second order in $h$, for every $k$: no loss is rounded.

# %%
s_, u_, v_ = sp.symbols("s u v", real=True)
p_density = sp.exp((s_ - eps_s) / 2) / 4  # P-density of the loss on (-eps, eps)
q_density = sp.exp(-s_) * p_density  # Q = e^{-loss} P
total = sp.integrate(p_density, (s_, -eps_s, eps_s)) + sp.Rational(1, 2) \
    + sp.exp(-eps_s) / 2
assert sp.simplify(total - 1) == 0
ratio_uv = sp.integrate(p_density, (s_, u_, v_)) / sp.integrate(q_density, (s_, u_, v_))
assert sp.simplify(ratio_uv * sp.exp(-(u_ + v_) / 2)) == 1  # log P/Q = (u + v)/2
show(r"\log \frac{P(u < \ell < v)}{Q(u < \ell < v)}", (u_ + v_) / 2)

lap = component(Laplace(eps=1))
with arb_workprec(128):
    atoms = {int(k): float(m.mid()) for k, m in lap.law.atom_masses()}
(piece,) = lap.law.pieces
assert atoms == {1: 0.5, -1: math.exp(-1) / 2}
assert (piece.loss_exact(piece.a), piece.loss_exact(piece.c)) == (-1, 1)

# %% [markdown]
# **Independently**, the exact $k$-fold profile. Write the loss law as
# $P_\ell = e^{s/2}\, c\,\nu$ with $c = e^{-\varepsilon/2}/2$ and
# $\nu = \delta_\varepsilon + \delta_{-\varepsilon} + \frac12\,\mathrm{Leb}(-\varepsilon,
# \varepsilon)$ (each part checked above); then $P_L = e^{s/2} c^k \nu^{*k}$ and
# $\nu^{*k} = \sum_m \binom{k}{m} (\delta_\varepsilon + \delta_{-\varepsilon})^{*(k-m)} *
# (\tfrac12 \mathrm{Leb})^{*m}$, where $(\frac12\mathrm{Leb})^{*m}$ is $\varepsilon^m$
# times the law of $\varepsilon(2V - m)$, $V$ Irwin-Hall of order $m$. So
# $\delta_k(\varepsilon^{\prime}) = c^k \sum_{m, i} \binom{k}{m}\binom{k-m}{i}\varepsilon^m\,
# \mathbb{E}\,\bigl(e^{L/2} - e^{\varepsilon^{\prime}} e^{-L/2}\bigr)_+$ at
# $L = (2i - k + m)\varepsilon + \varepsilon(2V - m)$, by quadrature on each polynomial
# piece of the Irwin-Hall density. The engine's bounds must bracket it, and shrink as
# $h^2$.

# %%
def laplace_kfold(e0, k, e_target):
    """The exact k-fold Laplace profile (mpmath quadrature of the formula above)."""
    e0, target = mpmath.mpf(e0), mpmath.mpf(e_target)

    def hinge(t):
        return max(mpmath.mpf(0), mpmath.exp(t / 2) - mpmath.exp(target - t / 2))

    def irwin_hall(m, v):
        return mpmath.fsum((-1) ** j * math.comb(m, j) * (v - j) ** (m - 1)
                           for j in range(int(v) + 1)) / mpmath.factorial(m - 1)

    total = mpmath.mpf(0)
    for m in range(k + 1):
        for i in range(k - m + 1):
            shift = (2 * i - k + m) * e0
            weight = math.comb(k, m) * math.comb(k - m, i) * e0**m
            if m == 0:
                total += weight * hinge(shift)
                continue
            start = (target - shift) / (2 * e0) + mpmath.mpf(m) / 2  # the hinge's kink
            ends = sorted({mpmath.mpf(j) for j in range(m + 1) if j > start}
                          | {min(max(start, mpmath.mpf(0)), mpmath.mpf(m))})
            if len(ends) > 1:
                total += weight * mpmath.quad(
                    lambda v, m=m, shift=shift: hinge(shift + e0 * (2 * v - m))
                    * irwin_hall(m, v), ends)
    return (mpmath.exp(-e0 / 2) / 2) ** k * total


with workdps(30):
    exact5 = laplace_kfold(1, 5, 2)
gaps = []
for h in ("1/20", "1/40"):
    got = compose([(lap, 5)], 2, 15, interval=h)
    assert mpmath.mpf(got.lower) <= exact5 <= mpmath.mpf(got.upper)
    gaps.append(mpmath.mpf(got.upper) - mpmath.mpf(got.lower))
print("delta_5(2) =", mpmath.nstr(exact5, 15), "; bound gaps at h = 1/20, 1/40:", fmt(gaps, 3))
assert 3 < gaps[0] / gaps[1] < 5  # second order in h

# %% [markdown]
# ## 4. $\varepsilon(\delta)$ after $k$ releases
#
# Three mechanisms at sensitivity 1, $\delta = 10^{-6}$: the staircase and Laplace with
# $\varepsilon_0 = 1$ per release, and a Gaussian with the same expected $|X|$ as Laplace
# ($\sigma = \sqrt{\pi/2}$). The staircase (exact lattice convolution) and the Gaussian
# (closed form: $k$ releases are one Gaussian of $\sigma/\sqrt{k}$) are exact; Laplace gets
# the rigorous bounds of section 3 for every $k \le 1000$ (the engine keeps the composed
# grid within $2^{17}$ points by coarsening $h = \varepsilon_0/N$ with $k$, and trims tails
# of negligible mass, moved the safe way). Every $\varepsilon$ is rounded up (the lower
# bound of Laplace's down).

# %%
DELTA = "1e-6"
ks = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]
eps_stair = [float(compose_epsilon([(comp, k_)], DELTA, 8).text) for k_ in ks]

# the Gaussian's loss law: N(mu, 2 mu) with mu = Delta^2 / (2 sigma^2) = 1/pi
gauss_comp = Component("gaussian", sp.Integer(1), mu=1 / sp.pi)
eps_gauss = [float(compose_epsilon([(gauss_comp, k_)], DELTA, 8).text) for k_ in ks]

lap_bounds = [compose_epsilon([(lap, k_)], DELTA, 8) for k_ in ks]
lap_lower = [float(r.lower) for r in lap_bounds]
lap_upper = [float(r.upper) for r in lap_bounds]
print("Laplace grids:", ", ".join(f"k={k_}: h={r.interval}" for k_, r in zip(ks, lap_bounds,
                                                                            strict=True)))

fig, ax = plt.subplots(figsize=(7, 4))
ax.loglog(ks, eps_stair, "o-", label=r"staircase, $\varepsilon_0 = 1$ (exact)")
ax.loglog(ks, lap_upper, "^-", label=r"Laplace, $\varepsilon_0 = 1$ (upper bound)")
ax.loglog(ks, eps_gauss, "s-", label=r"Gaussian, $\sigma = \sqrt{\pi/2}$ (exact)")
ax.loglog(ks, ks, ":", color="grey", label=r"$k\varepsilon_0$ (basic composition)")
ax.set(xlabel="k", ylabel=r"$\varepsilon(\delta = 10^{-6})$", title="Composed epsilon")
ax.legend()
show_figure(fig)

# no mechanism beats the pure bound k * eps0 by less than its loss law allows, and the
# exact curves are far below it for large k; Laplace's bounds are tight at every k
assert all(e <= k_ * 1.0 + 1e-12 for e, k_ in zip(eps_stair, ks, strict=True))
assert all(e <= k_ * 1.0 + 1e-12 for e, k_ in zip(lap_upper, ks, strict=True))
assert eps_stair[-1] < 0.6 * ks[-1] and lap_upper[-1] < 0.5 * ks[-1]
for lo, up in zip(lap_lower, lap_upper, strict=True):
    assert lo <= up and up - lo < 1e-4 * up
# at equal eps0 the staircase leaks more than Laplace (the next cell), for every k
assert all(s_ >= up for s_, up in zip(eps_stair, lap_upper, strict=True))

# %% [markdown]
# The whole curve $\varepsilon(\delta)$ after $k = 20$ releases. At the same
# $\varepsilon_0$ the staircase composes *worse* than Laplace: its loss sits at
# $\pm\varepsilon_0$ with probability $p + bp$ (here $p \approx 0.70$ against Laplace's
# $1/2$), the price of its smaller noise; section 6 compares them at equal composed
# budgets instead.

# %%
deltas = ["1e-10", "1e-7", "1e-4", "1e-2", "1e-1"]
curve_stair = [float(compose_epsilon([(comp, 20)], d, 8).text) for d in deltas]
curve_lap = [compose_epsilon([(lap, 20)], d, 8) for d in deltas]
curve_gauss = [float(compose_epsilon([(gauss_comp, 20)], d, 8).text) for d in deltas]

fig, ax = plt.subplots(figsize=(7, 4))
xs_d = [float(d) for d in deltas]
ax.semilogx(xs_d, curve_stair, "o-", label="staircase (exact)")
ax.semilogx(xs_d, [float(r.upper) for r in curve_lap], "^-", label="Laplace (upper bound)")
ax.semilogx(xs_d, curve_gauss, "s-", label="Gaussian (exact)")
ax.set(xlabel=r"$\delta$", ylabel=r"$\varepsilon$",
       title=r"$\varepsilon(\delta)$ after 20 releases")
ax.legend()
show_figure(fig)

for i in range(len(deltas)):
    assert curve_stair[i] <= 20 and float(curve_lap[i].upper) <= 20 + 1e-9
    assert curve_stair[i] >= float(curve_lap[i].upper)  # equal eps0: the staircase leaks more
    if i:
        assert curve_stair[i] <= curve_stair[i - 1] and curve_gauss[i] < curve_gauss[i - 1]
        assert float(curve_lap[i].upper) < float(curve_lap[i - 1].lower)

# %% [markdown]
# **The Gaussian, independently.** $k$ releases of $N(0, \sigma^2)$ are one release of
# $N(0, \sigma^2/k)$, whose profile is
# $\Phi(\frac{1}{2s} - \varepsilon s) - e^{\varepsilon}\Phi(-\frac{1}{2s} - \varepsilon s)$,
# $s = \sigma/\sqrt{k}$; at the computed $\varepsilon$ (rounded up) it must be at most
# $10^{-6}$, and equal to it within the rounding.

# %%
with workdps(30):
    for k_, e in zip(ks, eps_gauss, strict=True):
        s = mpmath.sqrt(mpmath.pi / 2 / k_)
        e = mpmath.mpf(e)
        d = mpmath.ncdf(1 / (2 * s) - e * s) - mpmath.exp(e) * mpmath.ncdf(-1 / (2 * s) - e * s)
        assert d <= mpmath.mpf(DELTA) and abs(d / mpmath.mpf(DELTA) - 1) < 1e-5

# %% [markdown]
# ## 5. The asymptotic regime
#
# The composed loss is a sum of $k$ i.i.d. losses of mean $\mu$ and variance $v$; by the
# central limit theorem $\delta(\varepsilon^{\prime}) \approx P(L > \varepsilon^{\prime})$ to
# leading order,
# so
# $$\varepsilon_k(\delta) = k\mu + \sqrt{k v}\; z_\delta + O(1), \qquad z_\delta \approx
# \Phi^{-1}(1 - \delta) \text{ (corrected by the } e^{\varepsilon^{\prime}} \text{ term)}.$$
# In particular $\varepsilon_k/k \to \mu$ (the KL divergence per release), much below the
# pure bound $\varepsilon_0$. For small $k$, as long as $P(L = k\varepsilon_0) = p^k$
# exceeds $\delta$, the composed $\varepsilon$ is $k\varepsilon_0$ up to an exponentially
# small amount: composition gains nothing until $k > \log\delta / \log p$. For a
# Gaussian pair $v = 2\mu$ and the formula is exact in its own variable ($\mu$-GDP with
# $\mu_G = \sqrt{2k\mu}$).
#
# For Laplace, from the law of section 3: $\mu = \varepsilon + e^{-\varepsilon} - 1$
# (its KL divergence, computed by the engine's Rényi curve at order 1) and $p = \frac12$.

# %%
with workdps(30):
    mu_num = float(sp.N(mu_s.subs(point), 20))
    ratios = [e / (k_ * mu_num) for e, k_ in zip(eps_stair, ks, strict=True)]
mu_lap_s = sp.integrate(s_ * p_density, (s_, -eps_s, eps_s)) + eps_s / 2 \
    - eps_s * sp.exp(-eps_s) / 2
show(r"\mu_{\mathrm{Laplace}}", sp.simplify(mu_lap_s))
assert sp.simplify(mu_lap_s - (eps_s + sp.exp(-eps_s) - 1)) == 0
mu_lap = float(sp.N(mu_lap_s.subs(eps_s, 1), 20))
assert abs(mu_lap - float(renyi(Laplace(eps=1), 1, digits=20).text)) < 1e-15
ratios_lap = [up / (k_ * mu_lap) for up, k_ in zip(lap_upper, ks, strict=True)]
print("staircase eps_k / (k mu):", fmt(ratios))
print("Laplace   eps_k / (k mu):", fmt(ratios_lap))
# while p^k > delta the k-fold mechanism costs its full k eps0 (up to an exponentially
# small amount): the ratio is 1/mu there; past that it decreases towards 1
p_num = float(law[1])
for k_, r in zip(ks, ratios, strict=True):
    if p_num**k_ > 2e-6:
        assert abs(r * mu_num - 1) < 1e-3
for k_, r in zip(ks, ratios_lap, strict=True):
    if 0.5**k_ > 2e-6:
        assert abs(r * mu_lap - 1) < 1e-3
for series in (ratios, ratios_lap):
    big = [r for k_, r in zip(ks, series, strict=True) if k_ >= 50]
    assert all(r1 > r2 for r1, r2 in itertools.pairwise(big))
    assert 1 < series[-1] < 1.5

# %% [markdown]
# ## 6. The cost at a fixed composed budget
#
# Fix the composed budget $(\varepsilon, \delta) = (4, 10^{-6})$ after $k$ releases and
# calibrate each mechanism per release: the staircase's $\varepsilon_0$ by bisection on the
# exact composed $\varepsilon(\delta)$; Laplace's $\varepsilon_0$ by the secant method on
# the *upper* bound of its composed $\varepsilon(\delta)$ (so the calibrated Laplace
# certainly meets the budget); the Gaussian's $\sigma$ as $\sqrt{k}$ times the analytic
# calibration of one release (the $k$-fold Gaussian is one Gaussian). The cost is the
# expected $|X|$ of one release ($1/\varepsilon_0$ for Laplace).
#
# **Asymptotics.** As $k \to \infty$ the per-release $\varepsilon_0 \to 0$ and every
# mechanism's loss becomes Gaussian: Laplace's loss has $\mu \approx \varepsilon_0^2/2$,
# $v \approx \varepsilon_0^2$, i.e. $\mu_G = \sqrt{k}\,\varepsilon_0$, and the staircase's
# law tends to Laplace's ($\gamma^* \to 1/2$); the Gaussian has $\mu_G = \sqrt{k}/\sigma$.
# At equal $\mu_G$, $\sigma = 1/\varepsilon_0$ = Laplace's scale, so the costs compare as
# $\mathbb{E}|X|$ of Laplace ($1/\varepsilon_0$) to the Gaussian's
# ($\sigma\sqrt{2/\pi}$):
# $$\frac{\text{cost}_{\text{Laplace}}}{\text{cost}_{\text{Gaussian}}} \to
# \sqrt{\pi/2} \approx 1.2533, \qquad
# \frac{\text{cost}_{\text{staircase}}}{\text{cost}_{\text{Laplace}}} \to 1,$$
# while for $k = 1$ the staircase (pure DP, exponentially small noise in $\varepsilon$) is
# far cheaper than the Gaussian and about half as costly as Laplace. (In between, near
# $k = 100$, the staircase is even slightly costlier than Laplace: its $\gamma^*$ is
# optimal for one release, not for the composed budget.)

# %%
BUDGET, DELTA_B = 4, "1e-6"
cost_ks = [1, 10, 100, 1000]


def staircase_eps0(k_):
    lo, hi = BUDGET / k_, max(BUDGET / k_, 1e-3) * 40  # k * eps0 <= budget is enough
    for _ in range(14):
        mid = (lo + hi) / 2
        c = component(Staircase(eps=repr(mid)), digits=15)
        if float(compose_epsilon([(c, k_)], DELTA_B, 6).text) <= BUDGET:
            lo = mid
        else:
            hi = mid
    return lo


@functools.cache
def laplace_upper(e0, k_):
    """The upper bound of Laplace's composed eps(delta) at eps0 per release (kept: the
    calibration's last evaluation is the point checked below)."""
    got = compose_epsilon([(component(Laplace(eps=repr(e0))), k_)], DELTA_B, 10,
                          interval="1/300")
    return float(got.upper)


def laplace_eps0(k_, guess):
    """Laplace's eps0 meeting the budget: the secant method on log(eps_k) in log(eps0),
    then the largest of a few points just below whose upper bound is within budget."""
    x0, x1 = math.log(guess), math.log(guess * 1.1)
    f0 = math.log(laplace_upper(math.exp(x0), k_) / BUDGET)
    f1 = math.log(laplace_upper(math.exp(x1), k_) / BUDGET)
    for _ in range(10):
        if abs(f1) < 1e-9 or f1 == f0:
            break
        x0, x1, f0 = x1, x1 - f1 * (x1 - x0) / (f1 - f0), f1
        f1 = math.log(laplace_upper(math.exp(x1), k_) / BUDGET)
    e0 = math.exp(x1)
    while laplace_upper(e0, k_) > BUDGET:
        e0 *= 1 - 1e-9
    return e0


sigma1 = float(AnalyticGaussian(eps=BUDGET, delta=DELTA_B).value("sigma", digits=20).text)
cost_stair, cost_lap, cost_gauss = [], [], []
for k_ in cost_ks:
    e0 = staircase_eps0(k_)
    cost_stair.append(float(Staircase(eps=repr(e0)).value("cost", digits=12).text))
    # first guess: the Gaussian regime's eps0 = mu_G / sqrt(k) = 1 / (sigma1 sqrt(k))
    lap_e0 = laplace_eps0(k_, BUDGET if k_ == 1 else 1 / (sigma1 * math.sqrt(k_)))
    assert laplace_upper(lap_e0, k_) <= BUDGET  # the calibrated Laplace meets the budget
    cost_lap.append(1 / lap_e0)
    cost_gauss.append(math.sqrt(k_) * sigma1 * math.sqrt(2 / math.pi))

fig, ax = plt.subplots(figsize=(7, 4))
ax.loglog(cost_ks, cost_stair, "o-", label="staircase")
ax.loglog(cost_ks, cost_lap, "^-", label="Laplace")
ax.loglog(cost_ks, cost_gauss, "s-", label="Gaussian")
ax.set(xlabel="k", ylabel=r"$\mathbb{E}|X|$ per release",
       title=r"Cost at composed $(\varepsilon, \delta) = (4, 10^{-6})$")
ax.legend()
show_figure(fig)

ratio = [s_ / g_ for s_, g_ in zip(cost_stair, cost_gauss, strict=True)]
ratio_lap = [lap_ / g_ for lap_, g_ in zip(cost_lap, cost_gauss, strict=True)]
ratio_sl = [s_ / lap_ for s_, lap_ in zip(cost_stair, cost_lap, strict=True)]
print("staircase / Gaussian:", fmt(ratio))
print("Laplace / Gaussian:  ", fmt(ratio_lap))
print("staircase / Laplace: ", fmt(ratio_sl))
root = math.sqrt(math.pi / 2)
# one release: the staircase is much cheaper than the Gaussian, about half Laplace's cost
assert ratio[0] < 0.2 and 0.5 < ratio_sl[0] < 0.6
assert ratio[-1] > 1 and ratio_lap[-1] > 1  # many releases: the Gaussian wins
for series in (ratio, ratio_lap):  # both tend to sqrt(pi/2)
    assert abs(series[-1] - root) < abs(series[1] - root)
    assert abs(series[-1] - root) < 0.1
assert abs(ratio_sl[-1] - 1) < abs(ratio_sl[1] - 1) and abs(ratio_sl[-1] - 1) < 0.05
