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
# # Report noisy max, the exponential mechanism and $(\varepsilon, \delta)$-DP: proof checks
#
# Source: lecture notes on the Laplace and exponential mechanisms (seed `004`), the
# sections after the histogram example: *differentially private selection* (report noisy
# max), the *exponential mechanism* (its privacy claim, its proof and its utility
# theorem), and *approximate differential privacy* (the definition and its examples).
#
# Each statement is computed exactly (sympy) and cross-checked numerically (mpmath, and
# `dpsym.privacy.profiles` where a noise density is involved); every claim cell ends in an
# `assert`. Statements found wrong or imprecise are asserted in their corrected form and
# recorded in `docs/errata.md`.

# %% tags=["hide-input"]
import collections
import itertools

import matplotlib
import matplotlib.pyplot as plt
import mpmath
import numpy as np
import sympy as sp

from dpsym.notebook import show, show_figure
from dpsym.privacy.profiles import hockey_stick, privacy_profile
from dpsym.symbolic.noise import Piece, SymmetricNoise

if "inline" not in matplotlib.get_backend():  # plain `python notebook.py`: no display
    matplotlib.use("Agg")


e = sp.Symbol("varepsilon", positive=True)
s = sp.Symbol("s", real=True)
M = sp.Symbol("M", positive=True)

# %% [markdown]
# ## 1. Report noisy max with $\mathrm{Lap}(1/\varepsilon)$
#
# The notes: add $\mathrm{Lap}(1/\varepsilon)$ to each count, release the index of the largest;
# "THEOREM: Noisy Max is $\varepsilon$-DP". With $k = 2$ counts $c_1, c_2$ the output is $1$ with
# probability $F_D(c_1 - c_2)$, where $D = Y_2 - Y_1$ is the difference of two independent
# $\mathrm{Lap}(1/\varepsilon)$ (its density is derived below by convolution). For $z \le 0$,
# $F_D(z) = \tfrac14 (2 - \varepsilon z) e^{\varepsilon z}$.
#
# * **Add/remove neighbours** (one person added: each count grows by $0$ or $1$, so
#   $c_1 - c_2$ moves by at most $1$): $\sup_m F_D(m)/F_D(m-1) = e^{\varepsilon}$, the
#   theorem holds.
# * **Replace-one neighbours** (the convention of the notes' $f: X^n \to \mathbb{R}^k$; a
#   patient with disease 1 replaced by a patient with disease 2 moves $c_1 - c_2$ by $2$):
#   $\sup_m F_D(m)/F_D(m-2) = e^{2\varepsilon}$, so the mechanism is $2\varepsilon$-DP and **not**
#   $\varepsilon^{\prime}$-DP for any $\varepsilon^{\prime} < 2\varepsilon$.

# %%
lap = lambda v, sign: e / 2 * sp.exp(-e * sign * v)  # noqa: E731  Lap(1/eps) where sign(v) = sign
zn = sp.Symbol("zn", negative=True)
# density of D = Y2 - Y1 at z < 0: integral of f(s) f(s + z) over s, split where s or s + z
# changes sign: s < 0 (both negative), 0 < s < -z (s + z < 0), s > -z (both positive)
dens_D_neg = (sp.integrate(lap(s, -1) * lap(s + zn, -1), (s, -sp.oo, 0))
              + sp.integrate(lap(s, 1) * lap(s + zn, -1), (s, 0, -zn))
              + sp.integrate(lap(s, 1) * lap(s + zn, 1), (s, -zn, sp.oo)))
dens_D_neg = sp.simplify(dens_D_neg)
assert sp.simplify(dens_D_neg - e / 4 * (1 - e * zn) * sp.exp(e * zn)) == 0
F_D = sp.simplify(sp.integrate(dens_D_neg.subs(zn, s), (s, -sp.oo, zn)))
show(r"F_D(z),\ z \le 0", F_D)
assert sp.simplify(F_D - (2 - e * zn) * sp.exp(e * zn) / 4) == 0
assert F_D.subs(zn, 0) == sp.Rational(1, 2)

for shift, level in ((1, e), (2, 2 * e)):
    ratio = F_D / F_D.subs(zn, zn - shift)
    assert sp.limit(ratio, zn, -sp.oo) == sp.exp(level)
    # the ratio increases towards its limit: the supremum is exp(level), not attained
    assert sp.simplify(ratio - sp.exp(level) * (2 - e * zn) / (2 - e * zn + shift * e)) == 0

with mpmath.workdps(30):
    for ev in ("0.5", "1", "2"):
        evm = mpmath.mpf(ev)

        def F(m, evm=evm):
            m = mpmath.mpf(m)
            if m <= 0:
                return (2 - evm * m) * mpmath.exp(evm * m) / 4
            return 1 - (2 + evm * m) * mpmath.exp(-evm * m) / 4

        Fm = {m: F(m) for m in range(-402, 403)}  # F at every integer used below, once
        losses = {d: max(abs(mpmath.log(Fm[m] / Fm[m - d])) for m in range(-400, 401))
                  for d in (1, 2)}
        # Pr[output 2] = 1 - F_D(m) = F_D(-m) by symmetry (no cancellation)
        losses_other = {d: max(abs(mpmath.log(Fm[-m] / Fm[-(m - d)])) for m in range(-400, 401))
                        for d in (1, 2)}
        assert max(losses[1], losses_other[1]) <= evm  # add/remove: eps-DP
        assert max(losses[2], losses_other[2]) <= 2 * evm
        assert losses[2] > evm * mpmath.mpf("1.99")    # replace-one: not eps-DP

# %% [markdown]
# ## 2. The exponential mechanism as defined in the notes: $2\varepsilon$-DP, and tightly so
#
# The notes define $\Pr[M_\varepsilon(x) = r] \propto \exp(\varepsilon\, u(x, r)/\Delta u)$ and
# claim
# "$2\varepsilon$-differentially private". The proof's bound $e^{\varepsilon}\cdot e^{\varepsilon}$
# is
# correct
# (each factor — the ratio of the weights of $r$ and the ratio of the normalisers — is at most
# $e^{\varepsilon}$), and it is **tight**: with $R = \{s, r\}$, $\Delta u = 1$,
# $u(x) = (0, M)$ and $u(x^{\prime}) = (-1, M+1)$,
#
# $$\frac{\Pr[M(x) = s]}{\Pr[M(x^{\prime}) = s]}
# = e^{\varepsilon}\,\frac{e^{-\varepsilon} + e^{\varepsilon(M+1)}}{1 + e^{\varepsilon M}}
# \xrightarrow[M \to \infty]{} e^{2\varepsilon}.$$
#
# So the mechanism as written is exactly $2\varepsilon$-DP (not better). The standard exponential
# mechanism uses $\exp(\varepsilon u/(2\Delta u))$ and is then $\varepsilon$-DP; with the notes'
# $\exp(\varepsilon u/\Delta u)$ one gets $\varepsilon$-DP only for monotone utilities (all
# $u(\cdot, r)$ move in the same direction between neighbours).

# %%
def em_prob(utilities, index, scale):
    """Pr[output = index] for weights exp(scale * utility)."""
    weights = [sp.exp(scale * u_) for u_ in utilities]
    return weights[index] / sp.Add(*weights)


ratio_notes = sp.simplify(em_prob([0, M], 0, e) / em_prob([-1, M + 1], 0, e))
expected = sp.exp(e) * (sp.exp(-e) + sp.exp(e * (M + 1))) / (1 + sp.exp(e * M))
assert sp.simplify(ratio_notes - expected) == 0
assert sp.limit(ratio_notes, M, sp.oo) == sp.exp(2 * e)
ratio_standard = sp.simplify(em_prob([0, M], 0, e / 2) / em_prob([-1, M + 1], 0, e / 2))
assert sp.limit(ratio_standard, M, sp.oo) == sp.exp(e)

# random search: no pair of neighbouring utility vectors exceeds the bounds
rng = np.random.default_rng(20240601)
with mpmath.workdps(30):
    for ev in (mpmath.mpf("0.5"), mpmath.mpf(2)):
        worst = {"notes": mpmath.mpf(0), "standard": mpmath.mpf(0), "monotone": mpmath.mpf(0)}
        for _ in range(300):
            n_r = int(rng.integers(2, 6))
            u_x = [mpmath.mpf(float(v)) for v in rng.normal(0, 3, n_r)]
            d_u = [mpmath.mpf(float(v)) for v in rng.uniform(-1, 1, n_r)]
            d_mono = [abs(v) for v in d_u]
            for key, scale, shift in (("notes", ev, d_u), ("standard", ev / 2, d_u),
                                      ("monotone", ev, d_mono)):
                w1 = [mpmath.exp(scale * v) for v in u_x]
                w2 = [mpmath.exp(scale * (v + dv)) for v, dv in zip(u_x, shift, strict=True)]
                total1, total2 = sum(w1), sum(w2)
                for j in range(n_r):
                    loss = abs(mpmath.log(w1[j] / total1) - mpmath.log(w2[j] / total2))
                    worst[key] = max(worst[key], loss)
        assert worst["notes"] <= 2 * ev and worst["standard"] <= ev and worst["monotone"] <= ev
        found = {k_: mpmath.nstr(v, 6) for k_, v in worst.items()}
        print(f"eps = {ev}: largest loss found {found}")

# %% tags=["hide-input"]
Ms = np.linspace(0, 8, 200)
fig, ax = plt.subplots(figsize=(7, 3.5))
for ev in (0.5, 1.0):
    f_notes = sp.lambdify(M, ratio_notes.subs(e, ev), "numpy")
    f_std = sp.lambdify(M, ratio_standard.subs(e, ev), "numpy")
    line, = ax.plot(Ms, np.log(f_notes(Ms)) / ev,
                    label=rf"$\exp(\varepsilon u/\Delta u)$, $\varepsilon={ev}$")
    ax.plot(Ms, np.log(f_std(Ms)) / ev, "--", color=line.get_color(),
            label=rf"$\exp(\varepsilon u/2\Delta u)$, $\varepsilon={ev}$")
ax.axhline(2, color="gray", lw=0.8)
ax.axhline(1, color="gray", lw=0.8)
ax.set(xlabel="M", ylabel=r"privacy loss / $\varepsilon$",
       title="Exponential mechanism, worst pair")
ax.legend(fontsize=8)
show_figure()

# %% [markdown]
# ## 3. The utility theorem
#
# The notes:
# $\Pr[u(M_\varepsilon(x)) \le \mathrm{OPT} - \frac{\Delta u}{\varepsilon}(\ln|R| + t)] \le e^{-t}$.
# For the mechanism as defined ($\exp(\varepsilon u/\Delta u)$) this holds: the bad outputs have
# total weight at most $|R|\, e^{\varepsilon(\mathrm{OPT} - c)/\Delta u}$ against at least
# $e^{\varepsilon\,\mathrm{OPT}/\Delta u}$ for the best one. For the $\varepsilon$-DP version
# ($\exp(\varepsilon u/2\Delta u)$) the threshold doubles to
# $\frac{2\Delta u}{\varepsilon}(\ln|R| + t)$:
# with one optimal item and $|R| - 1$ items just below the notes' threshold, the probability
# of a bad output is close to $1$.

# %%
with mpmath.workdps(30):
    for n_r, t_val, ev in ((10, 1, mpmath.mpf(1)), (10_000, 5, mpmath.mpf("0.1"))):
        c = (mpmath.log(n_r) + t_val) / ev  # Delta u = 1
        bad_u = -c  # OPT = 0, every other output at OPT - c (the worst case for the bound)
        for scale, label in ((ev, "as defined"), (ev / 2, "eps-DP version")):
            w_bad = (n_r - 1) * mpmath.exp(scale * bad_u)
            p_bad = w_bad / (1 + w_bad)
            print(f"|R|={n_r:6}, t={t_val}, {label:15}: Pr[bad] = {mpmath.nstr(p_bad, 8)}"
                  f"  (e^-t = {mpmath.nstr(mpmath.exp(-t_val), 8)})")
            if label == "as defined":
                assert p_bad <= mpmath.exp(-t_val)
            else:
                assert p_bad > mpmath.exp(-t_val)
                c2 = 2 * c
                w2 = (n_r - 1) * mpmath.exp(scale * -c2)
                assert w2 / (1 + w2) <= mpmath.exp(-t_val)  # the doubled threshold works
    # random utility vectors: the bound (for the mechanism as defined) is never violated
    for _ in range(200):
        n_r = int(rng.integers(2, 50))
        u_x = [mpmath.mpf(float(v)) for v in rng.normal(0, 5, n_r)]
        ev, t_val = mpmath.mpf(float(rng.uniform(0.1, 2))), mpmath.mpf(float(rng.uniform(0, 5)))
        opt = max(u_x)
        thr = opt - (mpmath.log(n_r) + t_val) / ev
        w = [mpmath.exp(ev * (v - opt)) for v in u_x]
        bad = sum(wi for wi, v in zip(w, u_x, strict=True) if v <= thr)
        assert bad / sum(w) <= mpmath.exp(-t_val)

# %% [markdown]
# ## 4. The definition of $(\varepsilon, \delta)$-DP must quantify over sets
#
# The notes define: $M$ is $(\varepsilon,\delta)$-DP if for all outputs $t$ and neighbours
# $x, x^{\prime}$,
# $\Pr[M(x) = t] \le e^{\varepsilon}\Pr[M(x^{\prime}) = t] + \delta$. With single outcomes this is
# **too
# weak**; the definition needs every measurable set $S$:
# $\Pr[M(x) \in S] \le e^{\varepsilon}\Pr[M(x^{\prime}) \in S] + \delta$, equivalently
# $\delta \ge \sup_S [\Pr[M(x) \in S] - e^{\varepsilon}\Pr[M(x^{\prime}) \in S]]
# = \sum_t (\Pr[M(x)=t] - e^{\varepsilon}\Pr[M(x^{\prime})=t])_+$
# (the hockey-stick divergence).
#
# * **Continuous outputs**: every $\Pr[M(x) = t]$ is $0$, so every continuous mechanism
#   satisfies the pointwise condition with $\varepsilon = \delta = 0$ — including
#   $M(x) = x_1 + U$, $U$ uniform of width $10^{-3}$, which reveals $x_1$. Its true
#   $\delta(\varepsilon)$ for records $1$ apart is $1$ at every $\varepsilon$ (computed by
#   `dpsym.privacy.profiles`).
# * **Discrete outputs**: $M(x) = (x_1, V)$ with $V$ uniform on $\{1, \dots, N\}$ satisfies the
#   pointwise condition with $(0, 1/N)$, but its set-based $\delta(\varepsilon)$ is $1$.
#
# (For pure $\varepsilon$-DP, $\delta = 0$, the pointwise condition on a discrete range *is*
# equivalent to the set condition, by summing over $t \in S$; for densities it must be read
# as a bound on densities.)

# %%
w_unif = sp.Rational(1, 1000)
uniform = SymmetricNoise(lattice=False, head=(Piece(0, w_unif / 2, 1 / w_unif),))
assert uniform.total_mass() == 1
with mpmath.workdps(30):
    for e_prime in ("0", "1", "10"):
        # neighbours whose first records differ by 1: the worst shift is 1 >= the width
        assert hockey_stick(uniform, 1, e_prime) == 1
        assert privacy_profile(uniform, e_prime, sensitivity=1, digits=15).number == 1
# independent: the supports [-w/2, w/2] and [1 - w/2, 1 + w/2] are disjoint, so on the first
# one the integrand (f(y) - e^eps' f(y - 1))_+ is f(y) itself and the integral is its mass 1.
y_ = sp.Symbol("y", real=True)
assert w_unif / 2 < 1 - w_unif / 2
assert sp.integrate(1 / w_unif, (y_, -w_unif / 2, w_unif / 2)) == 1

for N in (10, 1000):
    records = (0, 1)  # x_1 under x and under x'
    P = {rec: {(rec, v): sp.Rational(1, N) for v in range(1, N + 1)} for rec in records}
    outcomes = set(P[0]) | set(P[1])
    # the pairs (P(o), P'(o)) over the outcomes, with their multiplicities: the exact
    # comparisons below are made once per distinct pair
    pairs = collections.Counter((P[0].get(o, 0), P[1].get(o, 0)) for o in outcomes)
    for e_val in (0, 1, 5):
        c = sp.exp(e_val)
        pointwise = max(p0 - c * p1 for p0, p1 in pairs)
        setwise = sum(count * max(0, p0 - c * p1) for (p0, p1), count in pairs.items())
        assert pointwise == sp.Rational(1, N) and setwise == 1

# %% [markdown]
# The notes' two examples are right under the set-based definition:
#
# * "with probability $1-\delta$ output junk, with probability $\delta$ output the entire
#   database" has $\delta(\varepsilon) = \delta$ for every $\varepsilon \ge 0$: it is
#   $(\varepsilon, \delta)$-DP
#   and no smaller $\delta$ works;
# * "for each person: keep the record with probability $\delta$, junk otherwise" has
#   $\delta(\varepsilon) = \delta$ for every $\varepsilon$, and releases $n\delta$ records on
#   average.

# %%
dl = sp.Symbol("delta", positive=True)
# example 1: outputs "junk" or the database itself; neighbours x != x'
P_x = {"junk": 1 - dl, "x": dl}
P_xp = {"junk": 1 - dl, "x'": dl}
for e_val in (0, 1, 7):
    c = sp.exp(e_val)
    hs = sum(sp.Max(0, P_x.get(o, 0) - c * P_xp.get(o, 0)) for o in set(P_x) | set(P_xp))
    assert sp.simplify(hs.subs(dl, sp.Rational(1, 10**6)) - sp.Rational(1, 10**6)) == 0
    assert sp.simplify(hs.subs(dl, sp.Rational(1, 3)) - sp.Rational(1, 3)) == 0

# example 2: n = 3 people, record 1 differs; outputs are tuples (kept record or "junk")
n_people, dv = 3, sp.Rational(1, 100)
x_db, xp_db = ("a", "b", "c"), ("A", "b", "c")


def keep_dist(db):
    out = {}
    for kept in itertools.product((True, False), repeat=len(db)):
        o = tuple(r_ if k_ else "junk" for r_, k_ in zip(db, kept, strict=True))
        out[o] = out.get(o, 0) + sp.prod([dv if k_ else 1 - dv for k_ in kept])
    return out


Px, Pxp = keep_dist(x_db), keep_dist(xp_db)
for e_val in (0, 1, 7):
    hs = sum(max(0, Px.get(o, 0) - sp.exp(e_val) * Pxp.get(o, 0)) for o in set(Px) | set(Pxp))
    assert sp.simplify(hs - dv) == 0
assert sum(p * sum(r_ != "junk" for r_ in o) for o, p in Px.items()) == n_people * dv
