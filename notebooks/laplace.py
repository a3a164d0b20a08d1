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
# # The Laplace mechanism: proof checks
#
# Sources: lecture notes on the Laplace and exponential mechanisms (seed `004`: counting
# and histogram queries, the Laplace tail bound, the union bound and the first-names
# example) and the thesis slides (seed `000`: the Laplace mechanism
# $\mathrm{Lap}(\Delta/\varepsilon)$
# with costs $\Delta/\varepsilon$ and $2\Delta^2/\varepsilon^2$; the discrete Laplace mechanism).
#
# Each result is derived by the dpsym engine (`dpsym.Laplace`, `dpsym.DiscreteLaplace`,
# `dpsym.privacy.profiles`, `dpsym.sampling.samplers`) and independently with plain sympy / mpmath
# in this
# notebook; every claim cell ends in an `assert`. Statements of the sources found wrong or
# imprecise are asserted in their corrected form and recorded in `docs/errata.md`.

# %% tags=["hide-input"]
import itertools

import matplotlib
import matplotlib.pyplot as plt
import mpmath
import numpy as np
import sympy as sp

from dpsym import DiscreteLaplace, Laplace
from dpsym.claims import verify_step
from dpsym.notebook import show, show_figure
from dpsym.privacy.profiles import privacy_loss_bound
from dpsym.sampling.samplers import cdf_mp
from dpsym.symbols import Delta, eps, x

if "inline" not in matplotlib.get_backend():  # plain `python notebook.py`: no display
    matplotlib.use("Agg")


lam = sp.Symbol("lambda", positive=True)  # the Laplace scale
t = sp.Symbol("t", positive=True)

# %% [markdown]
# ## 1. Definition, normalisation and costs
#
# $\mathrm{Lap}(\lambda)$ has density $f(x) = \frac{1}{2\lambda} e^{-|x|/\lambda}$; the Laplace
# mechanism adds $\mathrm{Lap}(\Delta/\varepsilon)$. The engine is given only the shape
# $a\, e^{-|x|/\lambda}$ and solves for $a$; independently, sympy integrates the density.
# Then $\mathbb{E}|X| = \Delta/\varepsilon$, $\mathbb{E}X^2 = 2\Delta^2/\varepsilon^2$, and in
# general
# $\mathbb{E}|X|^p = \Gamma(p+1)(\Delta/\varepsilon)^p$.

# %%
density = sp.exp(-sp.Abs(x) / lam) / (2 * lam)
assert sp.integrate(density, (x, -sp.oo, sp.oo)) == 1
show("a", Laplace.normalisation())
assert sp.simplify(Laplace.normalisation() - 1 / (2 * lam)).subs(lam, Delta / eps) == 0

on_mech = {lam: Delta / eps}
for p_, cost, expected in ((1, "amplitude", Delta / eps), (2, "power", 2 * Delta**2 / eps**2)):
    indep = sp.integrate(sp.Abs(x) ** p_ * density, (x, -sp.oo, sp.oo)).subs(on_mech)
    engine = Laplace.cost_function(cost)
    show(rf"\mathbb{{E}}|X|^{p_}", engine)
    assert sp.simplify(indep - expected) == 0 and sp.simplify(engine - expected) == 0

p_sym = sp.Symbol("p", positive=True)
indep_p = 2 * sp.integrate(x**p_sym * density.subs(sp.Abs(x), x), (x, 0, sp.oo), conds="none")
assert sp.simplify(indep_p.subs(on_mech) - sp.gamma(p_sym + 1) * (Delta / eps) ** p_sym) == 0
for p_ in (sp.Rational(1, 2), sp.Integer(3)):
    assert sp.simplify(Laplace.engine.moment(p_) - sp.gamma(p_ + 1) * (Delta / eps) ** p_) == 0

# %% [markdown]
# The Laplace mechanism is $\varepsilon$-DP, exactly: the engine's privacy profile vanishes at
# $\varepsilon$ and the privacy loss $\sup_x \log f(x)/f(x+\Delta)$ is $\varepsilon$.
#
# Its whole privacy profile has a closed form: for $\varepsilon^{\prime} \le \varepsilon$ the set
# where
# $f(x) > e^{\varepsilon^{\prime}} f(x - \Delta)$ is the half-line
# $x < x_0 = (\Delta - \lambda\varepsilon^{\prime})/2$, so
# $\delta(\varepsilon^{\prime}) = F(x_0) - e^{\varepsilon^{\prime}}F(x_0 - \Delta) = 1 -
# e^{(\varepsilon^{\prime} - \varepsilon)/2}$.

# %%
ep = sp.Symbol(r"\varepsilon^{\prime}", positive=True)  # named as it is typeset
x0 = (Delta - lam * ep) / 2
cdf_left = sp.integrate(density.subs(sp.Abs(x), -x), (x, -sp.oo, t))  # F(t) for t <= 0
cdf_any = sp.Piecewise((cdf_left, t <= 0), (1 - cdf_left.subs(t, -t), True))
# 0 < x0 < Delta for 0 < eps' < eps:
assert sp.simplify(x0.subs(on_mech) - Delta * (eps - ep) / (2 * eps)) == 0
delta_prof = (1 - cdf_left.subs(t, -x0)) - sp.exp(ep) * cdf_left.subs(t, x0 - Delta)
delta_prof = sp.simplify(delta_prof.subs(on_mech))
show(r"\delta(\varepsilon^{\prime})", delta_prof)
assert sp.simplify(delta_prof - (1 - sp.exp((ep - eps) / 2))) == 0

with mpmath.workdps(30):
    for eps_text, delta_text in (("1", "1"), ("0.5", "3")):
        inst = Laplace(eps=eps_text, Delta=delta_text)
        assert inst.is_private(eps_text, 0).delta == 0
        noise, sens = inst.numeric_noise(), inst.values["Delta"]
        assert abs(privacy_loss_bound(noise, sens) - mpmath.mpf(eps_text)) < 1e-25
        for e_prime in ("0", "0.1", "0.25"):
            engine = inst.privacy_profile(e_prime, digits=20).number
            exact = 1 - mpmath.exp((mpmath.mpf(e_prime) - mpmath.mpf(eps_text)) / 2)
            assert abs(engine - exact) < mpmath.mpf(10) ** -19

# %% [markdown]
# ## 2. The tail bound (notes 004, "REMARK")
#
# The notes: if $Y \sim \mathrm{Lap}(b)$ then $\Pr[|Y| > b\,t] \le e^{-t}$. It is an
# **equality**: $\Pr[|Y| > b\,t] = 2\int_{bt}^\infty \frac{1}{2b}e^{-y/b}\,dy = e^{-t}$ for every
# $t \ge 0$. Checked symbolically, and with the engine's exact distribution function
# (`dpsym.sampling.samplers.cdf_mp`) at 30 digits.

# %%
scale = sp.Symbol("b_scale", positive=True)
tail = 2 * sp.integrate(density.subs(lam, scale).subs(sp.Abs(x), x), (x, scale * t, sp.oo))
assert sp.simplify(tail - sp.exp(-t)) == 0

with mpmath.workdps(30):
    inst = Laplace(eps="0.5", Delta="2")  # scale b = Delta/eps = 4
    noise = inst.numeric_noise()
    for t_val in ("0.1", "1", "5", "20"):
        tt = mpmath.mpf(t_val)
        prob = 1 - cdf_mp(noise, 4 * tt) + cdf_mp(noise, -4 * tt)
        assert abs(prob - mpmath.exp(-tt)) < mpmath.mpf(10) ** -25

# %% [markdown]
# ## 3. Counting and histogram queries: sensitivities
#
# $\ell^1$ sensitivity $\max \|f(x) - f(x^{\prime})\|_1$ over neighbouring datasets, by brute force
# over every dataset of size $n \le 3$ over a small universe, under the two usual
# neighbour relations: **replace-one** (same $n$, one record changed; the notes' $f: X^n \to
# \mathbb{R}^k$ suggests this one) and **add/remove** (one record added or deleted).
#
# * $k$ counting queries (a record is a vector of $k$ bits): sensitivity exactly $k$ under
#   both relations (a record with all $k$ properties). The notes' "sensitivity $\le k$",
#   hence $\mathrm{Lap}(k/\varepsilon)$ gives $\varepsilon$-DP, is correct.
# * histogram with $k \ge 2$ buckets (a record is one category): sensitivity exactly $2$
#   under replace-one, exactly $1$ under add/remove. The notes' "$\le 2$" is correct (and
#   tight) for replace-one; under add/remove $\mathrm{Lap}(1/\varepsilon)$ suffices.

# %%
def sensitivity(records, query, relation, n_max=3):
    best = 0
    for n in range(1, n_max + 1):
        for data in itertools.product(records, repeat=n):
            fx = query(data)
            neighbours = []
            if relation == "replace-one":
                neighbours = [(*data[:i], rec, *data[i + 1:]) for i in range(n) for rec in records]
            else:  # add/remove
                neighbours = [data[:i] + data[i + 1:] for i in range(n)]
                neighbours += [(*data, rec) for rec in records]
            for other in neighbours:
                best = max(best, sum(abs(p - q) for p, q in zip(fx, query(other), strict=True)))
    return best


for kq in (1, 2, 3):
    bits = list(itertools.product((0, 1), repeat=kq))
    counting = lambda data, kq=kq: [sum(rec[i] for rec in data) for i in range(kq)]  # noqa: E731
    categories = list(range(kq + 1))  # a histogram with kq + 1 >= 2 buckets
    histogram = lambda data, kq=kq: [sum(rec == c for rec in data) for c in range(kq + 1)]  # noqa: E731
    assert sensitivity(bits, counting, "replace-one") == kq
    assert sensitivity(bits, counting, "add/remove") == kq
    assert sensitivity(categories, histogram, "replace-one") == 2
    assert sensitivity(categories, histogram, "add/remove") == 1
print("counting: k under both relations; histogram: 2 (replace-one), 1 (add/remove)")

# %% [markdown]
# **The notes' example buckets "ages 1-10, 10-20, 20-30, ...".** As printed the closed
# ranges share their end points: a person aged 10 (or 20, ...) is in two buckets, so the
# histogram is not "each person in one of $k$ categories", and adding or removing one
# person changes two counts: the add/remove sensitivity is 2, not 1 (erratum N10). With
# half-open buckets $[0, 10), [10, 20), \dots$ it is 1 again (brute force over every dataset
# of at most three people aged 0 to 30).

# %%
printed_buckets = [(1, 10), (10, 20), (20, 30)]   # closed ranges, as printed
half_open = [(0, 10), (10, 20), (20, 31)]         # [lo, hi)
ages = range(31)


def age_histogram(data, buckets, closed):
    return [sum((lo <= a_ <= hi) if closed else (lo <= a_ < hi) for a_ in data)
            for lo, hi in buckets]


def add_remove_sensitivity(buckets, closed):
    best = 0
    for n in range(3):
        for data in itertools.product(ages, repeat=n):
            fx = age_histogram(data, buckets, closed)
            for rec in ages:
                fy = age_histogram((*data, rec), buckets, closed)
                best = max(best, sum(abs(p - q) for p, q in zip(fx, fy, strict=True)))
    return best


in_two = [a_ for a_ in ages if sum(lo <= a_ <= hi for lo, hi in printed_buckets) == 2]
print("ages in two printed buckets:", in_two)
sens_printed = add_remove_sensitivity(printed_buckets, True)
sens_half_open = add_remove_sensitivity(half_open, False)
print("add/remove sensitivity: printed buckets", sens_printed, "; half-open buckets",
      sens_half_open)
assert in_two == [10, 20]
assert sens_printed == 2
assert sens_half_open == 1

# %%
verify_step("004.histogram.ages")

# %% [markdown]
# **$\mathrm{Lap}(k/\varepsilon)$ on $k$ counting queries is $\varepsilon$-DP, exactly.** The noise
# is a
# product, so the privacy loss at a shift $d$ is the sum of the coordinates' losses,
# $\sum_i |d_i|\,\varepsilon/k \le \varepsilon$ for $\|d\|_1 \le k$ — with equality at
# $d = (1, \dots, 1)$, so no smaller $\varepsilon$ holds. Per coordinate, the engine gives
# the loss $\varepsilon/k$ of $\mathrm{Lap}(k/\varepsilon)$ at shift 1.

# %%
with mpmath.workdps(30):
    e_total = mpmath.mpf("0.7")
    for kq in (1, 2, 5, 10):
        coordinate = Laplace(eps=sp.Rational(7, 10) / kq, Delta=1)  # scale Delta/eps = k/0.7
        noise = coordinate.numeric_noise()
        loss = privacy_loss_bound(noise, 1)
        assert abs(loss - e_total / kq) < 1e-25
        assert abs(kq * loss - e_total) < 1e-25  # d = (1, ..., 1): the bound is attained

# %% [markdown]
# ## 4. Accuracy of a histogram: per-bucket error and the union bound
#
# The notes: "Pr[count in bucket $i$ is off by more than $t/\varepsilon$] $\le e^{-t}$" and
# "Pr[some bucket is off by more than $t/\varepsilon$] $\le k e^{-t}$", right after prescribing
# $\mathrm{Lap}(2/\varepsilon)$ for histograms.
#
# * With $\mathrm{Lap}(1/\varepsilon)$ (add/remove neighbours) the first is an equality:
#   $\Pr[|Y| > t/\varepsilon] = e^{-t}$.
# * With the notes' $\mathrm{Lap}(2/\varepsilon)$ (replace-one) it is **false**:
#   $\Pr[|Y| > t/\varepsilon] = e^{-t/2} > e^{-t}$; the correct threshold is $2t/\varepsilon$.
# * Union bound: with independent noise the exact probability is
#   $1 - (1 - e^{-t})^k \le k e^{-t}$ (Bernoulli's inequality).

# %%
Y_tail = lambda s_: sp.exp(-s_)  # noqa: E731  Pr[|Y| > scale * s] (section 2)
e_sym = sp.Symbol("epsilon", positive=True)
assert sp.simplify(Y_tail((t / e_sym) / (1 / e_sym)) - sp.exp(-t)) == 0       # Lap(1/eps)
assert sp.simplify(Y_tail((t / e_sym) / (2 / e_sym)) - sp.exp(-t / 2)) == 0   # Lap(2/eps)
assert sp.simplify(Y_tail((2 * t / e_sym) / (2 / e_sym)) - sp.exp(-t)) == 0   # threshold 2t/eps

# Bernoulli, for every k >= 1: slack(q) = k q - (1 - (1 - q)^k) vanishes at q = 0 and has
# derivative k (1 - (1 - q)^(k - 1)) >= 0 on (0, 1), so slack >= 0.
w = sp.Symbol("w", positive=True)  # w = 1 - q = 1 - e^{-t} in (0, 1)
kk = sp.Symbol("k", integer=True, positive=True)
slack = kk * (1 - w) - (1 - w**kk)  # k e^{-t} - Pr[some bucket off]
assert slack.subs(w, 1) == 0
assert sp.simplify(-sp.diff(slack, w) - kk * (1 - w ** (kk - 1))) == 0  # d/dq = -d/dw
with mpmath.workdps(30):
    for kq in (1, 2, 6, 100, 10_000):
        for q_val in (mpmath.mpf(j) / 50 for j in range(1, 50)):
            assert kq * q_val >= 1 - (1 - q_val) ** kq - mpmath.mpf(10) ** -25

# %% [markdown]
# **"If $t \gg 10 + \log k$ ..." and the first-names example.** With $\mathrm{Lap}(1/\varepsilon)$,
# taking exactly $t = 10 + \ln k$ gives $k e^{-t} = e^{-10}$: no "$\gg$" is needed, and $\log$
# is the natural logarithm. In the example ($k = 10\,000$, $\varepsilon = 0.1$) the notes write
# "$\ln(10{,}000) \approx 9.2$" and then "$t = (10 + \ln 10\,000)/\varepsilon = 20/0.1 = 200$":
# $10 + \ln 10\,000 = 19.21$ is rounded **up** to $20$, so $200$ lies above the exact
# $192.10$ and is a valid, conservative threshold (at $t = 20$ the union bound is
# $10^4 e^{-20} \le e^{-10}$). The quantity computed is the error threshold $t/\varepsilon$ in
# counts, not the dimensionless $t$ of the bound (erratum N5). With the notes' own
# $\mathrm{Lap}(2/\varepsilon)$ for histograms, the threshold $192.1$ is exceeded by some bucket
# with probability $\approx 0.49$, not $\le e^{-10}$ (N3, N4).


# %%
with mpmath.workdps(30):
    kb, e_val = 10_000, mpmath.mpf("0.1")
    t_star = 10 + mpmath.log(kb)
    print("10 + ln 10000 =", mpmath.nstr(t_star, 12), "; threshold (10 + ln k)/eps =",
          mpmath.nstr(t_star / e_val, 12))
    assert abs(mpmath.log(kb) - mpmath.mpf("9.21034037197618")) < 1e-13
    assert abs(t_star / e_val - mpmath.mpf("192.103403719762")) < 1e-11
    assert t_star / e_val < 200 and abs(t_star - 20) > mpmath.mpf("0.78")
    bound = kb * mpmath.exp(-t_star)
    assert abs(bound - mpmath.exp(-10)) < mpmath.mpf(10) ** -28
    exact_lap1 = 1 - (1 - mpmath.exp(-t_star)) ** kb          # Lap(1/eps)
    exact_lap2 = 1 - (1 - mpmath.exp(-t_star / 2)) ** kb      # Lap(2/eps), same threshold
    exact_lap2_double = 1 - (1 - mpmath.exp(-t_star)) ** kb   # Lap(2/eps), threshold doubled
    at_200 = kb * mpmath.exp(-20)                             # the notes' 200 read as t/eps
    print("Lap(1/eps): Pr[some bucket off by > 192.1] =", mpmath.nstr(exact_lap1, 10),
          "<= e^-10 =", mpmath.nstr(mpmath.exp(-10), 10))
    print("Lap(2/eps): Pr[some bucket off by > 192.1] =", mpmath.nstr(exact_lap2, 10))
    print("threshold 200 with Lap(1/eps): union bound", mpmath.nstr(at_200, 10))
    assert exact_lap1 <= mpmath.exp(-10)
    assert at_200 <= mpmath.exp(-10)  # the rounded-up threshold 200 is valid
    assert mpmath.mpf("0.48") < exact_lap2 < mpmath.mpf("0.50")
    assert exact_lap2_double == exact_lap1

# %% [markdown]
# The registered claims of this section, decided by the claim engine (the badge says how):
# the per-bucket tail and the union bound as the notes print them (with their
# $\mathrm{Lap}(2/\varepsilon)$) and corrected, the "$t \gg 10 + \log k$" remark and the
# first-names threshold.

# %%
for cid in ("004.bucket", "004.bucket.some", "004.union.t", "004.first_names.ln",
            "004.first_names"):
    verify_step(cid)

# %% tags=["hide-input"]
ts = np.linspace(0.05, 25, 400)
fig, ax = plt.subplots(figsize=(7, 3.5))
kb = 10_000
ax.semilogy(ts, np.minimum(1, kb * np.exp(-ts)), label=r"union bound $k e^{-t}$")
ax.semilogy(ts, -np.expm1(kb * np.log1p(-np.exp(-ts))), "--",
            label=r"exact, $\mathrm{Lap}(1/\varepsilon)$: $1-(1-e^{-t})^k$")
ax.semilogy(ts, -np.expm1(kb * np.log1p(-np.exp(-ts / 2))), ":",
            label=r"exact, $\mathrm{Lap}(2/\varepsilon)$")
ax.axvline(10 + np.log(kb), color="gray", lw=0.8)
ax.axhline(np.exp(-10), color="gray", lw=0.8)
ax.set(xlabel=r"$t$ (error threshold $t/\varepsilon$)", ylabel="Pr[some bucket off]",
       title=r"Histogram with $k = 10^4$ buckets", ylim=(1e-8, 2))
ax.legend(fontsize=8)
show_figure()

# %% [markdown]
# ## 5. The discrete Laplace (geometric) mechanism
#
# For an integer-valued query with integer sensitivity $\Delta$ (slides 000, Part Three):
# $P(i) = \frac{1 - \lambda}{1 + \lambda}\lambda^{|i|}$, $\lambda = e^{-\varepsilon/\Delta}$.
# The engine solves the normalisation (printed in some equivalent form, e.g.
# $\tanh(\varepsilon/2\Delta)$); independently sympy sums the geometric series. Moments:
# $\mathbb{E}|X| = \frac{2\lambda}{1-\lambda^2} = \frac{1}{\sinh(\varepsilon/\Delta)}$ and
# $\mathbb{E}X^2 = \frac{2\lambda}{(1-\lambda)^2} = \frac{1}{2\sinh^2(\varepsilon/2\Delta)}$, both
# below the continuous Laplace costs $\Delta/\varepsilon$, $2\Delta^2/\varepsilon^2$.

# %%
L = sp.Symbol("L", positive=True)  # lambda in (0, 1)
i = sp.Symbol("i", integer=True, nonnegative=True)
a = sp.Symbol("a", positive=True)


def geometric_sum(poly):
    r"""$\sum_{i \ge 0} \mathrm{poly}(i) L^i$ with sympy.summation, convergent branch (L < 1)."""
    total = 0
    for (j,), c in sp.Poly(poly, i).terms():
        s_ = sp.summation(i**j * L**i, (i, 0, sp.oo))
        if isinstance(s_, sp.Piecewise):
            (s_, cond), *_ = s_.args
            assert cond.subs(L, sp.Rational(1, 2)) is sp.true
        total += c * s_
    return total


(a_indep,) = sp.solve(sp.Eq(2 * geometric_sum(a) - a, 1), a)
assert sp.simplify(a_indep - (1 - L) / (1 + L)) == 0
lam_of = {L: sp.exp(-eps / Delta)}
show("a", DiscreteLaplace.normalisation())
assert sp.simplify((DiscreteLaplace.normalisation() - a_indep.subs(lam_of)).rewrite(sp.exp)) == 0

m1 = 2 * a_indep * geometric_sum(i)
m2 = 2 * a_indep * geometric_sum(i**2)
assert sp.simplify(m1 - 2 * L / (1 - L**2)) == 0
assert sp.simplify(m2 - 2 * L / (1 - L) ** 2) == 0
for m_, cost, hyper in ((m1, "amplitude", 1 / sp.sinh(eps / Delta)),
                        (m2, "power", 1 / (2 * sp.sinh(eps / (2 * Delta)) ** 2))):
    engine = DiscreteLaplace.cost_function(cost)
    show(rf"\mathbb{{E}}\,\mathrm{{{cost}}}", engine)
    assert sp.simplify((engine - m_.subs(lam_of)).rewrite(sp.exp)) == 0
    assert sp.simplify((hyper - m_.subs(lam_of)).rewrite(sp.exp)) == 0

with mpmath.workdps(30):
    for e_text in ("0.01", "1", "5"):
        for D in (1, 3):
            z = mpmath.mpf(e_text) / D
            v1 = DiscreteLaplace(eps=e_text, Delta=D).value("cost", "amplitude", digits=25).number
            v2 = DiscreteLaplace(eps=e_text, Delta=D).value("cost", "power", digits=25).number
            assert abs(v1 - 1 / mpmath.sinh(z)) < mpmath.mpf(10) ** -22 * v1
            assert abs(v2 - 1 / (2 * mpmath.sinh(z / 2) ** 2)) < mpmath.mpf(10) ** -22 * v2
            assert v1 < 1 / z and v2 < 2 / z**2  # below the continuous Laplace costs
            assert DiscreteLaplace(eps=e_text, Delta=D).is_private(e_text, 0, digits=20).private

# %% tags=["hide-input"]
fig, axes = plt.subplots(1, 2, figsize=(10, 3.5))
ii = np.arange(-12, 13)
for e_val in (0.5, 1.0, 2.0):
    lam_v = np.exp(-e_val)
    axes[0].plot(ii, (1 - lam_v) / (1 + lam_v) * lam_v ** np.abs(ii), "o-", ms=3,
                 label=rf"$\varepsilon = {e_val}$")
axes[0].set(xlabel="i", ylabel="P(i)", title=r"Discrete Laplace, $\Delta = 1$")
axes[0].legend()
es = np.logspace(-2, 1, 200)
axes[1].semilogx(es, es / np.sinh(es), label=r"$\mathbb{E}|X|$ / $(\Delta/\varepsilon)$")
axes[1].semilogx(es, es**2 / (4 * np.sinh(es / 2) ** 2),
                 label=r"$\mathbb{E}X^2$ / $(2\Delta^2/\varepsilon^2)$")
axes[1].set(xlabel=r"$\varepsilon/\Delta$", ylabel="discrete / continuous", title="Cost ratio")
axes[1].legend()
plt.tight_layout()
show_figure()
