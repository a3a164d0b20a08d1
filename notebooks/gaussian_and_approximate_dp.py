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
# # Approximate DP and the Gaussian mechanism: proof checks
#
# Source: the lecture notes on approximate differential privacy (seed `001`): the
# hockey-stick form of $(\varepsilon, \delta)$-DP, name-and-shame, the classic and the
# analytic ("optimal") Gaussian mechanism, composition and group privacy. Each statement is
# computed exactly (finite laws in `dpsym.mechanisms.textbook`) or at high precision (the Gaussian's
# exact privacy profile in `dpsym.gaussian.calibration`); every claim cell ends in an
# `assert`. Statements found wrong are asserted in their corrected form (errata G1, G2).

# %% tags=["hide-input"]
from fractions import Fraction

import mpmath
import sympy as sp

from dpsym.gaussian.calibration import calibrate_sigma_mp, classic_check, profile_mp
from dpsym.mechanisms import AnalyticGaussian, ClassicGaussian
from dpsym.mechanisms.textbook import (
    compose,
    exposure_probability,
    group_chain,
    hockey_stick,
    name_and_shame,
    randomized_response,
    sup_over_sets,
)

# %% [markdown]
# ## 1. $(\varepsilon, \delta)$-DP is a bound on the hockey-stick divergence
#
# $\sup_S P(S) - e^\varepsilon Q(S) = \sum_y (P(y) - e^\varepsilon Q(y))_+$: the best event
# collects the outcomes where $P$ exceeds $e^\varepsilon Q$. Checked by enumerating every
# event for randomized response at a smaller $\varepsilon^{\prime}$.

# %%
p1, p0 = randomized_response(1)
for e_prime in (sp.Rational(1, 2), sp.Rational(1, 5), 1):
    exact = hockey_stick(p1, p0, e_prime)
    brute = sup_over_sets(p1, p0, e_prime, digits=30)
    with mpmath.workdps(30):
        assert abs(mpmath.mpf(sp.N(exact, 30)) - brute) < mpmath.mpf(10) ** -25
assert hockey_stick(p1, p0, 1) == 0  # randomized response at eps = 1 is 1-DP

# %% [markdown]
# ## 2. Name-and-shame is $(0, \delta)$-DP and still releases someone
#
# Each entry is released with probability $\delta$: the laws with and without an entry are
# $\delta$ apart in total variation, yet among $n$ entries one is exposed with probability
# $1 - (1-\delta)^n \approx n\delta$.

# %%
with_entry = name_and_shame("0.001", "alice")
without = {None: 1}
assert hockey_stick(with_entry, without, 0) == sp.Rational(1, 1000)
n = 1000
exposed = exposure_probability(n, "0.001")
print(float(exposed))
assert 0.63 < float(exposed) < 0.64  # 1 - (1 - 1/1000)^1000, about 1 - 1/e

# %% [markdown]
# ## 3. The classic Gaussian mechanism
#
# $\sigma = \sqrt{2\log(1.25/\delta)}\,\Delta/\varepsilon$ is $(\varepsilon, \delta)$-DP for
# $\varepsilon, \delta \in (0, 1)$ (Dwork and Roth): the exact profile at that $\sigma$ stays
# below $\delta$ there. Beyond $\varepsilon = 1$ the same formula is not private (errata G3).

# %%
for e, d in (("0.1", "1e-6"), ("0.9", "0.5"), ("0.5", "1e-12")):
    check = classic_check(e, d)
    assert check["private"], (e, d, check)
beyond = classic_check("10", "1e-6")
print(beyond["ratio"])
assert not beyond["private"]
m = ClassicGaussian(eps="0.5", delta="1e-6")
assert abs(m.value("sigma", "power", 20).number
           - mpmath.sqrt(2 * mpmath.log(mpmath.mpf("1.25e6"))) / mpmath.mpf("0.5")) < 1e-15

# %% [markdown]
# ## 4. The analytic Gaussian mechanism (Balle and Wang)
#
# The smallest private $\sigma$ solves $\Phi(a - b) - e^{\varepsilon}\Phi(-a - b) = \delta$ with
# $a = \Delta/(2\sigma)$, $b = \varepsilon\sigma/\Delta$.
# The notes print the factor as $e^{-\varepsilon}$; a direct integration of
# $(\varphi_0 - e^\varepsilon \varphi_\Delta)_+$ shows the sign must be $+$ (errata G1).

# %%
def direct(e, s, sens=1):
    cross = sens / 2 - e * s**2 / sens
    def gap(t):
        return mpmath.npdf(t, 0, s) - mpmath.exp(e) * mpmath.npdf(t, sens, s)

    return mpmath.quad(gap, [-mpmath.inf, cross])


with mpmath.workdps(30):
    e, s = mpmath.mpf(1), mpmath.mpf(1)
    plus = mpmath.ncdf(1 / (2 * s) - e * s) - mpmath.exp(e) * mpmath.ncdf(-1 / (2 * s) - e * s)
    minus = mpmath.ncdf(1 / (2 * s) - e * s) - mpmath.exp(-e) * mpmath.ncdf(-1 / (2 * s) - e * s)
    assert abs(direct(e, s) - plus) < mpmath.mpf(10) ** -20
    assert abs(direct(e, s) - minus) > mpmath.mpf("0.1")
    assert abs(profile_mp(1, 1) - plus) < mpmath.mpf(10) ** -20

# %%
sigma, text = calibrate_sigma_mp("0.5", "1e-6", 1, 30)
with mpmath.workdps(40):
    assert abs(profile_mp("0.5", text) - mpmath.mpf("1e-6")) < mpmath.mpf(10) ** -32
analytic = AnalyticGaussian(eps="0.5", delta="1e-6").value("sigma", "power", 20).number
classic = ClassicGaussian(eps="0.5", delta="1e-6").value("sigma", "power", 20).number
print(analytic, classic)
assert analytic < classic

# %% [markdown]
# ## 5. Composition and group privacy, exactly on finite laws
#
# Two independent $\varepsilon$-DP randomized responses compose to a $2\varepsilon$-DP pair;
# along a chain of $K$ neighbours an $(\varepsilon, \delta)$ guarantee becomes
# $(K\varepsilon, \delta_K)$ with $\delta_K \le K e^{(K-1)\varepsilon}\delta$.

# %%
pair_1, pair_0 = compose(p1, p1), compose(p0, p0)
assert hockey_stick(pair_1, pair_0, 2) == 0
assert hockey_stick(pair_1, pair_0, sp.Rational(3, 2)) > 0
laws = [{0: Fraction(6 - j, 10), 1: Fraction(4 + j, 10)} for j in range(4)]
total, steps = group_chain(laws, sp.Rational(1, 10))
step_delta = max(steps)
bound = 3 * sp.exp(2 * sp.Rational(1, 10)) * step_delta
print(total, steps)
assert sp.N(total) <= sp.N(bound)
