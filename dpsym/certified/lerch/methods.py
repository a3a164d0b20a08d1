r"""The three proven representations of a Lerch sum and the choice between them.

The computations behind :func:`dpsym.certified.lerch.balls.lerch_sum_ball` (whose docstring states
the representations and their remainder bounds) at an exact or narrow offset
:math:`a > 0`: direct summation with a geometric bound (:func:`direct_sum`), the Hurwitz
expansion with a bound from Hurwitz's formula (:func:`hurwitz_series`), Euler--Maclaurin
summation with a bound through the periodic Bernoulli function
(:func:`euler_maclaurin`), and :func:`evaluate_point`, which takes the cheapest by a cost
model (each is rigorous; the model only decides the time). Callers hold the precision
lock (:mod:`dpsym.precision`).
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

import flint

from dpsym.certified.kernel import ball
from dpsym.precision import arb_workprec

#: Most terms of a direct summation (beyond, the sum is declared not enclosed: NaN).
MAX_DIRECT_TERMS = 2_000_000
#: Size of :math:`|\log z^N|` beyond which the direct summation's stopping test is made in
#: Arb (a float's rounding there exceeds the test's margin).
FLOAT_LOG_LIMIT = 2.0**40
#: Cached point evaluations and zeta values (cleared when full).
CACHE_SIZE = 20_000

_LN2 = math.log(2)
_LOG_2PI = math.log(2 * math.pi)
_ZETAS: dict[tuple, flint.arb] = {}


def _power(x: flint.arb, sigma: Fraction) -> flint.arb:
    r""":math:`x^\sigma` for :math:`x > 0` and an exact rational :math:`\sigma`: an integer
    power, or a :math:`q`-th root raised to :math:`p` (cheaper than exp and log)."""
    p, q = sigma.numerator, sigma.denominator
    if q == 1:
        return x**p if p >= 0 else 1 / x ** (-p)
    if q <= 64:
        root = x.root(q)
        return root**p if p > 0 else 1 / root ** (-p)
    return (x.log() * ball(sigma)).exp()


def ball_key(x: flint.arb) -> tuple:
    mid, rad = x.mid().man_exp(), x.rad().man_exp()
    return (int(mid[0]), int(mid[1]), int(rad[0]), int(rad[1]))


def _log_magnitude(x: flint.arb) -> float:
    r"""About :math:`\ln |x|` of a ball's midpoint (-inf for zero)."""
    m, exp = x.mid().man_exp()
    man = int(m)
    if not man:
        return -math.inf
    return (man.bit_length() + int(exp)) * _LN2


def evaluate_point(z: flint.arb, s: Fraction, a: flint.arb, count: int, prec: int
              ) -> list[flint.arb]:
    """The family at an exact :math:`a > 0`, by the cheapest proven representation
    (a cost model in microseconds, measured on python-flint 0.9)."""
    data = ratio_data(z, prec)
    log_t = data.log_t
    sigmas = [s - j for j in range(count)]
    per_term = 3.0 + 0.7 * count + prec / 1000  # a power and a few products
    bits = prec * _LN2
    if log_t > 30:
        direct_terms = 2.0
    elif log_t < -300:
        direct_terms = math.inf
    else:
        tf = math.exp(log_t)
        smax = max(0.0, float(s))
        direct_terms = (bits + smax * math.log1p(smax / tf)) / tf + smax / tf + 1
    methods = [(direct_terms * per_term, "direct")]
    integer_below = any(x.denominator == 1 and x < 0 for x in sigmas)
    if data.t_up < 5 and not integer_below:
        ratio = log_t - _LOG_2PI
        terms = bits / -ratio + count if ratio < -0.05 else math.inf
        # a zeta value: an Euler-Maclaurin sum in Arb, 60 us at 128 bits, ~p^1.8; about
        # half of them are shared with other sums at the same offset (cost and slope)
        methods.append((terms * 30.0 * (prec / 128) ** 1.8, "hurwitz"))
    # (a enters the estimate only through A = K + a: its integer part is enough)
    sizes = em_sizes(prec, round(log_t, 6), math.floor(float(a.mid())), magnitude(sigmas),
                      count)
    if sizes is not None:
        big_k, m = sizes
        series = count * (0.1 * m * m * (prec / 225) ** 0.35 + 300 + 0.1 * prec)
        methods.append((big_k * count * (8.0 + prec / 250) + series, "euler-maclaurin"))
    for _, method in sorted(methods):
        if method == "hurwitz":
            found = hurwitz_series(z, s, count, a, ball_key(a), prec)
        elif method == "euler-maclaurin":
            assert sizes is not None  # (the method is offered with its sizes)
            found = euler_maclaurin(z, s, count, a, prec, sizes)
        elif direct_terms <= MAX_DIRECT_TERMS:
            found = direct_sum(z, sigmas, s, a, prec)
        else:
            found = None
        if found is not None:
            return found
    return [flint.arb.nan() for _ in sigmas]


def _integer_above(a: flint.arb) -> int:
    r"""The least integer :math:`\ge 1` above every point of the ball ``a`` (proven)."""
    n = max(1, math.ceil(float(a.upper())))
    while not flint.arb(n) >= a.upper():
        n += 1
    return n


def magnitude(sigmas: list[Fraction]) -> int:
    return math.ceil(max(abs(x) for x in sigmas))


def _terms(z: flint.arb, s: Fraction, count: int, a: flint.arb, k: int
           ) -> tuple[list[flint.arb], flint.arb]:
    r"""The terms :math:`z^k (k + a)^{s - j}`, :math:`j <` ``count``, and :math:`z^{k+1}`
    from :math:`z^k` (one power, shared by the exponents)."""
    base = a + k
    term = _power(base, s)
    out = [term]
    if count > 1:
        inv = 1 / base
        for _ in range(1, count):
            term = term * inv
            out.append(term)
    return out, base


def direct_sum(z: flint.arb, sigmas: list[Fraction], s: Fraction, a: flint.arb, prec: int
            ) -> list[flint.arb] | None:
    """Partial sums and the geometric bound on the remainder (module docstring)."""
    count = len(sigmas)
    log_z = float(z.log().mid())  # finite: z > 0
    af = float(a.mid())
    # the ratio z (1 + 1/(k + a))^s is below 1 (with room) from k + a > kmin
    smax = max(0.0, float(s))
    kmin = 1 / math.expm1(-log_z / (2 * smax)) if smax and -log_z < 700 * smax else 0.0
    sums = [flint.arb(0) for _ in sigmas]
    zk = flint.arb(1)
    target = -(prec + 4) * _LN2
    for k in range(MAX_DIRECT_TERMS):
        powers, _ = _terms(z, s, count, a, k)
        for j in range(count):
            sums[j] += zk * powers[j]
        zk = zk * z
        n = k + 1
        if n + af <= kmin:
            continue
        # the next term against each sum (floats; the bound below is the proof)
        head = n * log_z
        if abs(head) > FLOAT_LOG_LIMIT:  # (floats no longer resolve the ratio: in Arb)
            small = _negligible(zk, sigmas, a + n, sums, prec)
        else:
            log_base = math.log(n + af)
            small = all(head + float(sig) * log_base - _log_magnitude(total) < target
                        for sig, total in zip(sigmas, sums, strict=True))
        if small:
            tails = _direct_tails(z, sigmas, a + n, zk)
            if tails is not None:
                return [total + tail for total, tail in zip(sums, tails, strict=True)]
    return None


def _negligible(zn: flint.arb, sigmas: list[Fraction], base: flint.arb,
                sums: list[flint.arb], prec: int) -> bool:
    r"""Whether each next term :math:`z^N (N + a)^\sigma` is below :math:`2^{-prec-4}`
    of its partial sum (in Arb: for :math:`|\log z^N| >` :data:`FLOAT_LOG_LIMIT` the
    floats' rounding exceeds the margin, e.g. :math:`z = e^{-10^{25}}`)."""
    scale = flint.arb((1, -prec - 4))
    return all((zn * _power(base, sig)).upper() < total.abs_lower() * scale
               for sig, total in zip(sigmas, sums, strict=True))


def _direct_tails(z: flint.arb, sigmas: list[Fraction], base: flint.arb, zn: flint.arb
                  ) -> list[flint.arb] | None:
    r"""Balls :math:`[0, T_N/(1 - \rho)]` of the remainders from :math:`k = N`
    (``base`` :math:`= N + a`, ``zn`` :math:`= z^N`), or None if some :math:`\rho \ge 1`."""
    tails = []
    step = 1 + 1 / base
    for sig in sigmas:
        rho = z * _power(step, sig) if sig > 0 else z
        if not rho < 1:
            return None
        bound = zn * _power(base, sig) / (1 - rho)
        if not bound.is_finite():
            return None
        tails.append(flint.arb(0).union(bound.upper()))
    return tails


def _zeta(num: int, den: int, a: flint.arb, a_key: tuple, bits: int) -> flint.arb:
    r""":math:`\zeta(\mathrm{num}/\mathrm{den}, a)` (Arb, rigorous) with a relative
    accuracy of about ``bits`` bits where Arb reaches it: the working precision is raised
    by what Arb's evaluation lost (about :math:`\log_2 n!` bits at :math:`-n - s`).
    Cached by the exact argument, the exact :math:`a` and ``bits``: the sums
    :math:`L(z, s - j, a)` of a cost, its slope and their Taylor coefficients share
    them."""
    key = (num, den, a_key, bits)
    found = _ZETAS.get(key)
    if found is None:
        prec = bits + 32
        last = -math.inf
        for _ in range(6):
            with arb_workprec(prec):
                found = _ratio(num, den).zeta(a)
            accuracy = found.rel_accuracy_bits()
            if accuracy >= bits or (not a.is_exact() and accuracy <= last + 8):
                break  # reached, or limited by the radius of a, not by the precision
            last = accuracy
            prec += max(64, bits - max(accuracy, 0) + 32)
        if len(_ZETAS) >= CACHE_SIZE:
            _ZETAS.clear()
        assert found is not None  # (the loop ran)
        _ZETAS[key] = found
    return found


def _zeta_bits(num: int, den: int, count: int, big_n: int, log_t: float, log_a: float,
               jumps: int, prec: int) -> list[int]:
    r"""The relative accuracy (bits, a multiple of 32) each :math:`\zeta(-s - m, a)`,
    :math:`m = 1 - \mathrm{count}, \dots, N - 1`, needs for its terms
    :math:`\zeta(-s - m, a) (-t)^{m+j}/(m + j)!` to be :math:`2^{-\mathrm{prec}}` of
    :math:`L(z, s - j, a)` (float estimates of the magnitudes; the balls carry the
    actual errors): the later terms, smaller by :math:`(t/2\pi)^n`, need fewer."""
    s = num / den
    mags = []
    for j in range(count):
        sig = s - j
        mag = sig * log_a
        if sig != -1:
            mag = max(mag, math.lgamma(1 + sig) - (1 + sig) * log_t)
        mags.append(mag)
    out = []
    for m in range(1 - count, big_n):
        u = 1 + s + m
        if u > 1.5:
            size = _LN2 + math.lgamma(u) - u * _LOG_2PI
        else:
            size = math.log1p(1 / max(abs(u - 2), 1e-9))
        size = max(size, (s + m) * log_a + (math.log(jumps + 1) if jumps else 0.0))
        need = -math.inf
        for j in range(count):
            n = m + j
            if 0 <= n < big_n:
                term = size + n * log_t - math.lgamma(n + 1)
                need = max(need, (term - mags[j]) / _LN2)
        bits = prec + need + 16
        out.append(max(64, 32 * math.ceil(min(bits, prec + 64) / 32)))
    return out


def _ratio(num: int, den: int) -> flint.arb:
    return flint.arb(num) if den == 1 else flint.arb(flint.fmpq(num, den))


@lru_cache(maxsize=4096)
def _terms_needed(num: int, den: int, count: int, log_t: float, log_a: float, jumps: int,
                  prec: int) -> int | None:
    r"""The number :math:`N` of expansion terms after which every remainder estimate is
    below :math:`2^{-\mathrm{prec}}` of its sum, for the exponents
    :math:`s - j = (\mathrm{num} - j\,\mathrm{den})/\mathrm{den}`, :math:`j <`
    ``count`` (floats; the bound is proven by :meth:`_Ratio.tail_bound`)."""
    target = prec * _LN2 + 3
    sigmas = [(num - j * den) / den for j in range(count)]
    n = max(1, max(math.floor(-x) + 1 for x in sigmas))
    ratio_t = math.exp(log_t - _LOG_2PI)
    a = math.exp(log_a)
    while n < 40 * prec + 100:
        for sig in sigmas:
            mag = sig * log_a
            if sig != -1:
                mag = max(mag, math.lgamma(1 + sig) - (1 + sig) * log_t)
            u = 1 + sig + n
            tail = (_LN2 + math.lgamma(u) - math.lgamma(n + 1) + n * log_t - u * _LOG_2PI
                    + math.log(1 / (u - 1) + 1))
            if jumps:
                tail = max(tail, math.log(jumps) + (sig + n) * log_a + n * log_t
                           - math.lgamma(n + 1))
            if (tail - mag > -target or max(1.0, u / (n + 1)) * ratio_t > 0.95
                    or (jumps and a * math.exp(log_t) >= 0.95 * (n + 1))):
                break
        else:
            return n
        n += 1
    return None


class _Ratio:
    r"""What the expansion needs of one ball :math:`z = e^{-t}` at one precision:
    :math:`t`, its upper end, the coefficients :math:`(-t)^n/n!`, the leading terms
    :math:`\Gamma(1 + \sigma) t^{-1-\sigma}` and the remainder bounds (cached per
    :math:`z`: a minimisation evaluates hundreds of sums at one :math:`z`)."""

    def __init__(self, z: flint.arb) -> None:
        self.t = -z.log()
        self.log_t = float(self.t.log().mid())
        self.t_up = flint.arb(self.t.upper())
        self.coeffs = [flint.arb(1)]
        self.leads: dict[tuple[int, int], flint.arb] = {}
        self.bounds: dict[tuple[int, int, int], flint.arb | None] = {}

    def coefficients(self, n: int) -> list[flint.arb]:
        while len(self.coeffs) < n:
            self.coeffs.append(self.coeffs[-1] * (-self.t) / len(self.coeffs))
        return self.coeffs

    def lead(self, num: int, den: int) -> flint.arb:
        found = self.leads.get((num, den))
        if found is None:
            sigma = Fraction(num, den)
            found = _ratio(num + den, den).gamma() * _power(self.t, -1 - sigma)
            self.leads[(num, den)] = found
        return found

    def tail_bound(self, num: int, den: int, big_n: int) -> flint.arb | None:
        r"""An upper bound of :math:`\sum_{n \ge N} H_n t^n/n!`, :math:`H_n = 2\Gamma(u)
        \zeta(u)/(2\pi)^u`, :math:`u = 1 + \sigma + n`, :math:`\sigma` =
        ``num/den`` (module docstring), or None if the ratio bound is not below 1.
        Computed at 64 bits: a bound needs no more."""
        key = (num, den, big_n)
        if num + big_n * den <= 0:
            return None  # u = 1 + sigma + N <= 1: Hurwitz's formula does not apply
        if key not in self.bounds:
            with arb_workprec(64):
                u = _ratio(num + den + big_n * den, den)  # > 1 by the choice of N
                two_pi = 2 * flint.arb.pi()
                h = 2 * u.gamma() * u.zeta() / (two_pi.log() * u).exp() \
                    * self.t_up**big_n / flint.arb(math.factorial(big_n))
                factor = max(Fraction(1), Fraction(num + den + big_n * den,
                                                   den * (big_n + 1)))
                rho = ball(factor) * self.t_up / two_pi
                bound = h / (1 - rho) if rho < 1 else None
                self.bounds[key] = (None if bound is None or not bound.is_finite()
                                    else flint.arb(bound.upper()))
        return self.bounds[key]


_RATIOS: dict[tuple, _Ratio] = {}


def ratio_data(z: flint.arb, prec: int) -> _Ratio:
    key = (ball_key(z), prec)
    found = _RATIOS.get(key)
    if found is None:
        if len(_RATIOS) >= 256:
            _RATIOS.clear()
        found = _RATIOS[key] = _Ratio(z)
    return found


def hurwitz_series(z: flint.arb, s: Fraction, count: int, a: flint.arb, a_key: tuple, prec: int
             ) -> list[flint.arb] | None:
    """The Hurwitz expansion with its proven remainder (module docstring), or None."""
    data = ratio_data(z, prec)
    num, den = s.numerator, s.denominator
    log_a = math.log(float(a.mid()))
    jumps = _integer_above(a) - 1  # a <= J + 1: at most J shifts to (0, 1]
    big_n = _terms_needed(num, den, count, round(data.log_t, 9), math.floor(log_a * 4) / 4,
                          jumps, prec)
    if big_n is None:
        return None
    # zetas[m + count - 1] = zeta(-s - m, a), m = -(count - 1), ..., N - 1
    bits = _zeta_bits(num, den, count, big_n, data.log_t, log_a, jumps, prec)
    zetas = [_zeta(-num - m * den, den, a, a_key, need)
             for m, need in zip(range(-(count - 1), big_n), bits, strict=True)]
    coeffs = data.coefficients(big_n)
    values = []
    for j in range(count):
        sig_num = num - j * den
        total = flint.arb(0)
        for n in range(big_n):
            total += zetas[n - j + count - 1] * coeffs[n]
        bound = data.tail_bound(sig_num, den, big_n)
        if bound is None:
            return None
        if jumps:
            with arb_workprec(64):
                rho = a * data.t_up / (big_n + 1)
                if not rho < 1:
                    return None
                extra = jumps * _power(a, Fraction(sig_num, den) + big_n) \
                    * data.t_up**big_n / flint.arb(math.factorial(big_n)) / (1 - rho)
                if not extra.is_finite():
                    return None
                bound = flint.arb((bound + extra).upper())
        values.append((a * data.t).exp() * (data.lead(sig_num, den) + total
                                             + (-bound).union(bound)))
    return values


@lru_cache(maxsize=256)
def em_sizes(prec: int, log_t: float, a: float, magnitude: int, count: int = 1
              ) -> tuple[int, int] | None:
    r"""(:math:`K`, :math:`2J`) of the Euler--Maclaurin summation: :math:`K` terms summed
    directly and :math:`J` corrections, the cheapest (by the cost model of
    :func:`_evaluate`) whose remainder estimate :math:`(2J)!\,(2J + 1)^{|s|}
    (2\pi A)^{-2J} \sum_{l \le 2J} (tA)^l/l!` (:math:`A = K + a`, about
    :math:`(t/2\pi)^{2J}` when :math:`tA \gg J`) is below :math:`2^{-\mathrm{prec}}`
    (floats; :func:`_em_bound` proves the bound); None where none is."""
    target = prec * _LN2 + 10
    t = math.exp(log_t) if log_t < 700 else math.inf
    if t >= 2 * math.pi * 0.8:
        return None
    per_term = count * (8.0 + prec / 250)  # microseconds, as in _evaluate
    best: tuple[float, int, int] | None = None
    big_k = 8
    while big_k <= 4 * prec + 64:
        big_a = big_k + a
        t_a = t * big_a
        log_2pi_a = math.log(2 * math.pi * big_a)

        def estimate(m: int, t_a: float = t_a, log_2pi_a: float = log_2pi_a) -> float:
            top = min(m, math.floor(t_a))  # the largest term of the exponential sum
            log_sum = (top * math.log(t_a) - math.lgamma(top + 1) if top > 0 else 0.0) \
                + math.log(m + 1)
            return (math.lgamma(m + 1) - m * log_2pi_a + log_sum + math.log(4)
                    + magnitude * math.log(m + 1))

        m = 2
        while m < 8 * prec + 8 and estimate(m) >= -target:
            m += 32  # coarse steps, then back in steps of 2
        if m < 8 * prec + 8:
            while m > 2 and estimate(m - 2) < -target:
                m -= 2
            cost = big_k * per_term + count * 0.1 * m * m * (prec / 225) ** 0.35
            if best is None or cost < best[0]:
                best = (cost, big_k, m)
        big_k *= 2
    return None if best is None else (best[1], best[2])


@lru_cache(maxsize=64)
def _binomials(num: int, den: int, length: int, prec: int) -> tuple[flint.arb, ...]:
    r"""Balls of :math:`\binom{\sigma}{i}`, :math:`i < \mathrm{length}`,
    :math:`\sigma = \mathrm{num}/\mathrm{den}` (at ``prec`` bits)."""
    with arb_workprec(prec):
        sigma = _ratio(num, den)
        out = [flint.arb(1)]
        for i in range(1, length):
            out.append(out[-1] * (sigma - (i - 1)) / i)
        return tuple(out)


@lru_cache(maxsize=64)
def _bernoulli_ratios(count: int, prec: int) -> tuple[flint.arb, ...]:
    r"""Balls of :math:`B_{2j}/(2j)`, :math:`j = 1, \dots, \mathrm{count}`."""
    with arb_workprec(prec):
        return tuple(flint.arb(flint.fmpq.bernoulli(2 * j)) / (2 * j)
                     for j in range(1, count + 1))


def euler_maclaurin(z: flint.arb, s: Fraction, count: int, a: flint.arb, prec: int,
                     sizes: tuple[int, int]) -> list[flint.arb] | None:
    r"""Euler--Maclaurin summation with its proven remainder (module docstring): for
    :math:`f(x) = e^{-tx}(x + a)^\sigma`, :math:`A = K + a`,

    .. math:: \sum_{k \ge 0} f(k) = \sum_{k < K} f(k) + e^{at} t^{-\sigma-1}
              \Gamma(\sigma + 1, At) + \frac{f(K)}{2}
              - \sum_{j=1}^{J} \frac{B_{2j}}{2j} c_{2j-1} + R_J,

    :math:`c_m = f^{(m)}(K)/m! = z^K A^{\sigma - m} \sum_{i + l = m} \binom{\sigma}{i}
    (-tA)^l/l!` (one product of power series). With
    :math:`|\tilde B_{2J}| \le 2(2J)!\,\zeta(2J)/(2\pi)^{2J}` and, for :math:`x \ge K`,
    :math:`|f^{(m)}(x)| \le e^{-tx}(x + a)^\sigma \sum_i \binom{m}{i} t^{m-i} i!
    |\binom{\sigma}{i}| A^{-i} \le e^{-tx}(x + a)^\sigma\, m!\, A^{-m}
    \max_{i \le m} |\binom{\sigma}{i}| \sum_{l \le m} (tA)^l/l!`,

    .. math:: |R_J| \le \frac{2\zeta(2J)\,(2J)!}{(2\pi A)^{2J}}
              \max_{i \le 2J} \Bigl|\binom{\sigma}{i}\Bigr| \sum_{l \le 2J}
              \frac{(tA)^l}{l!} \int_K^\infty e^{-tx} (x + a)^\sigma\,dx."""
    big_k, m = sizes
    data = ratio_data(z, prec)
    t = data.t
    sums = [flint.arb(0) for _ in range(count)]
    zk = flint.arb(1)
    for k in range(big_k):
        powers, _ = _terms(z, s, count, a, k)
        for j in range(count):
            sums[j] += zk * powers[j]
        zk = zk * z
    big_a = a + big_k
    inv_a = 1 / big_a
    inv_a2 = inv_a * inv_a
    bernoulli = _bernoulli_ratios(m // 2, prec)
    scaled = -t * big_a
    exps = [flint.arb(1)]
    for i in range(1, m):
        exps.append(exps[-1] * scaled / i)
    cap = flint.ctx.cap
    flint.ctx.cap = m + 1  # python-flint's series length, process-wide like the precision
    try:
        exp_series = flint.arb_series(exps, prec=m)
        values = []
        for j in range(count):
            sigma = s - j
            binomials = _binomials(sigma.numerator, sigma.denominator, m + 1, prec)
            coeffs = (flint.arb_series(list(binomials[:m]), prec=m) * exp_series).coeffs()
            coeffs += [flint.arb(0)] * (m - len(coeffs))
            correction = flint.arb(0)
            power = inv_a
            for jj in range(1, m // 2 + 1):
                correction += bernoulli[jj - 1] * coeffs[2 * jj - 1] * power
                power *= inv_a2
            head = zk * _power(big_a, sigma)  # f(K)
            integral = (a * t).exp() * _power(t, -1 - sigma) \
                * (big_a * t).gamma_upper(ball(sigma + 1))
            bound = _em_bound(m, big_a, data.t_up, binomials, integral)
            if bound is None:
                return None
            values.append(sums[j] + integral + head / 2 - head * correction
                          + (-bound).union(bound))
        return values
    finally:
        flint.ctx.cap = cap


def _em_bound(m: int, big_a: flint.arb, t_up: flint.arb, binomials: tuple[flint.arb, ...],
              integral: flint.arb) -> flint.arb | None:
    r"""The bound on :math:`|R_J|` of :func:`euler_maclaurin`, :math:`m = 2J`:
    :math:`2\zeta(m) (2\pi)^{-m} \max_i |\binom{\sigma}{i}|\, m!\, A^{-m}
    \sum_{l \le m} (tA)^l/l! \int_K^\infty e^{-tx}(x + a)^\sigma dx` (at 64 bits), or
    None."""
    with arb_workprec(64):
        largest = flint.arb(0)
        for c in binomials:
            up = abs(c).upper()
            if up > largest:
                largest = up
        t_a = t_up * big_a
        partial, term = flint.arb(1), flint.arb(1)
        for n in range(1, m + 1):
            term = term * t_a / n
            partial += term
        bound = 2 * flint.arb(m).zeta() * flint.arb(math.factorial(m)) \
            / (2 * flint.arb.pi() * big_a) ** m * partial * largest * abs(integral).upper()
        if not bound.is_finite():
            return None
        return flint.arb(bound.upper())


def clear() -> None:
    """Forget the cached zeta values and expansion data."""
    _ZETAS.clear()
    _RATIOS.clear()


__all__ = ["CACHE_SIZE", "MAX_DIRECT_TERMS", "clear", "evaluate_point"]
