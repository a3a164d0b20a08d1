r"""The LP engine: a certified lower bound and an achievable upper bound that sandwich the
minimum cost :math:`V_p^*` of :math:`(\varepsilon, \delta)`-DP noise for a real-valued
query, on a grid of step :math:`h = \Delta/N` (paper 003, the discretisation argument of
Theorems 4 and 5).

**Lower bound.** For noise :math:`X` (symmetric without loss of generality) let
:math:`\tilde P(i) = P\bigl(X \in [h(i - \tfrac12), h(i + \tfrac12))\bigr)`. Shifting by
:math:`d h` with :math:`|d| \le N` moves every cell onto a cell, so :math:`\tilde P`
satisfies the discrete constraint with sensitivity :math:`N`; and
:math:`|x|^p \ge \tilde L(i) = (h(|i| - \tfrac12))^p` on cell :math:`i \ne 0`. With the
tail :math:`u_j = \tilde P(X > j)`, :math:`\mathbb{E}|X|^p \ge 2\sum_{j \ge 0}
(\tilde L(j+1) - \tilde L(j))\,u_j`. The relaxation keeps :math:`u_0, \dots, u_M` (the
terms :math:`j > M` are :math:`\ge 0` and dropped: the mass beyond :math:`M` is charged the
smallest cost it can have) and the threshold constraints of the sources, the sets
:math:`S = \{l > s\}` shifted by :math:`N`:

.. math::

   U(s) - E\,U(\min(s + N, M)) \le \delta, \quad s = -N, \dots, M - 1,
   \qquad U(s) = u_s \ (s \ge 0), \quad U(s) = 1 - u_{-s-1} \ (s < 0),

with a rational :math:`E \ge e^\varepsilon` (a larger :math:`E` and :math:`U(M) \ge
U(s + N)` only weaken each constraint), and :math:`0 \le u_{j+1} \le u_j \le 1/2`.
HiGHS solves it in float64; its dual :math:`y \ge 0` is read as exact rationals, the
reduced costs :math:`c + G^\top y` are computed exactly and every negative one is
repaired through the row :math:`u_j \le 1/2`; then weak duality gives the *certified*
bound :math:`c^\top u \ge -y^\top h` in exact rational arithmetic
(:class:`Certificate`).

**Upper bound.** For a symmetric mass function on :math:`\{-K, \dots, K\}` the exact
constraint at shift :math:`m` is :math:`H(m) = \sum_i (P(i) - e^\varepsilon P(i+m))_+ \le
\delta`, linear with auxiliary variables. Spreading each mass uniformly over its cell gives
a density :math:`f`; at a real shift :math:`\tau = (m + \theta) h`, :math:`0 \le \theta < 1`,
a point at relative position :math:`\varphi` of cell :math:`i` lands in cell :math:`i + m`
if :math:`\varphi + \theta < 1` and in cell :math:`i + m + 1` otherwise, so

.. math:: \int (f(x) - e^\varepsilon f(x + \tau))_+\,dx = (1 - \theta) H(m) + \theta H(m+1):

the privacy loss at a shift between two grid shifts mixes theirs, and :math:`H(m) \le
\delta` for :math:`m = 1, \dots, N` makes :math:`f` an :math:`(\varepsilon, \delta)`-DP
mechanism for sensitivity :math:`\Delta = Nh`. Its exact cost is an achievable upper
bound (:class:`PiecewiseConstantNoise`, verified in rationals with :math:`E \le
e^\varepsilon`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache

import flint
import mpmath
import numpy as np
import sympy as sp

from dpsym.bounds.common import BoundObject, round_exact
from dpsym.bounds.real import nu_of
from dpsym.certified.evaluation import Value
from dpsym.certified.expectation import CostBalls
from dpsym.certified.kernel import bits_for, certify_directed, exact, outward
from dpsym.core.costs import Cost
from dpsym.core.params import (
    Domain,
    Guarantee,
    Param,
    check_quantity,
    delta_param,
    eps_param,
    parse_number,
    require,
    sensitivity_param,
)
from dpsym.errors import CertificationError, DomainError, UnsupportedError
from dpsym.precision import arb_workprec, mpf_fraction, workdps, workprec

#: The grid refinement :math:`N` as a symbol (for the parameter declaration).
GRID = sp.Symbol("N", integer=True, positive=True)
#: Largest grid refinement accepted (the LPs grow like N * support).
MAX_GRID = 64
#: Largest number of grid cells on one side of the support.
MAX_SUPPORT = 4000
#: Largest eps of the LP entries: the constraint coefficients e^{eps} stay below 1e14, the
#: range HiGHS accepts (at eps = 35 it reports a model error).
LP_EPS_MAX = Fraction(32)


def exp_bracket(eps: Fraction, bits: int = 200) -> tuple[Fraction, Fraction]:
    r"""Rationals :math:`E_- \le e^\varepsilon \le E_+` (within :math:`2^{-\mathrm{bits}+4}`
    relative)."""
    with workprec(bits + 20):
        value = mpmath.exp(mpmath.mpf(eps.numerator) / eps.denominator)
        central = mpf_fraction(mpmath.mpf(value))
    slack = central * Fraction(1, 2 ** (bits - 4))
    return central - slack, central + slack


def _frac(value: float) -> Fraction:
    return Fraction(float(value))


def _rational(value: float, snap: int | None) -> Fraction:
    """``value`` exactly, or its best rational approximation with denominator <= snap."""
    exact = Fraction(float(value))
    return exact if snap is None else exact.limit_denominator(snap)


def cell_cost(i: int, h: Fraction, p: int) -> Fraction:
    r"""The mean of :math:`|x|^p` over cell :math:`i` (width :math:`h`, centred at
    :math:`ih`), exactly."""
    i = abs(i)
    if i == 0:
        return (h / 2) ** p / (p + 1)
    hi, lo = h * (2 * i + 1) / 2, h * (2 * i - 1) / 2
    return (hi ** (p + 1) - lo ** (p + 1)) / ((p + 1) * h)


def auto_support(eps: Fraction, delta: Fraction, N: int, factor: float = 1.3) -> int:
    r"""A support half-width (in cells) covering the truncated Laplacian's :math:`[-A, A]`
    with margin: :math:`\lceil \mathrm{factor}\cdot N A/\Delta\rceil + N`."""
    with workdps(20):
        dd = mpmath.mpf(delta.numerator) / delta.denominator
        nu = 1 / (2 * dd) if eps == 0 else nu_of(mpmath.mpf(eps.numerator) / eps.denominator,
                                                   dd)
    return math.ceil(factor * float(nu) * N) + N


# --------------------------------------------------------------------------- lower bound
@dataclass
class Certificate:
    r"""An exact dual certificate for the lower-bound relaxation.

    ``c`` (objective), the rows of ``G`` as sparse dictionaries, ``h`` (right-hand sides)
    and the dual ``y`` are exact rationals. :meth:`check` recomputes the reduced costs
    :math:`c + G^\top y` and the bound :math:`-y^\top h` from scratch.
    """

    c: list[Fraction]
    rows: list[dict[int, Fraction]]
    h: list[Fraction]
    y: list[Fraction]
    bound: Fraction
    float_optimum: float
    primal: np.ndarray = field(repr=False, default_factory=lambda: np.zeros(0))

    def check(self) -> Fraction:
        """Verify the certificate in exact arithmetic and return the bound.

        Raises
        ------
        CertificationError
            If some dual value is negative or some reduced cost is negative.
        """
        if any(v < 0 for v in self.y):
            raise CertificationError("a dual value is negative")
        reduced = list(self.c)
        for row, yv in zip(self.rows, self.y, strict=True):
            if yv:
                for j, a in row.items():
                    reduced[j] += yv * a
        if any(r < 0 for r in reduced):
            raise CertificationError("a reduced cost is negative")
        bound = -sum((yv * hv for yv, hv in zip(self.y, self.h, strict=True)), Fraction(0))
        if bound != self.bound:
            raise CertificationError("the stated bound differs from -y.h")
        return bound


def _lower_lp(eps: Fraction, delta: Fraction, Delta: Fraction, N: int, p: int, M: int,
              lattice: bool = False, increments: list[Fraction] | None = None):
    r"""Rows of the lower-bound relaxation: (c, rows, h, box rows); ``increments`` the
    costs' steps :math:`\tilde L(j + 1) - \tilde L(j)` (lower bounds) of a general cost,
    else those of :math:`|x|^p`."""
    step = Delta / N
    E_hi = exp_bracket(eps)[1] if eps else Fraction(1)

    def Lt(j: int) -> Fraction:
        if lattice:  # an integer-valued query: the cost of the integer j itself
            return Fraction(j) ** p
        return Fraction(0) if j == 0 else (step * (2 * j - 1) / 2) ** p

    if increments is not None:
        c = [2 * increments[j] for j in range(M + 1)]
    else:
        c = [2 * (Lt(j + 1) - Lt(j)) for j in range(M + 1)]
    rows: list[dict[int, Fraction]] = []
    h: list[Fraction] = []
    box_row: dict[int, int] = {}
    for j in range(M + 1):  # u_j <= 1/2
        box_row[j] = len(rows)
        rows.append({j: Fraction(1)})
        h.append(Fraction(1, 2))
    for j in range(M):  # u_{j+1} - u_j <= 0
        rows.append({j + 1: Fraction(1), j: Fraction(-1)})
        h.append(Fraction(0))
    for s in range(-N, M):  # U(s) - E U(min(s + N, M)) <= delta
        t = min(s + N, M)
        row: dict[int, Fraction] = {}
        rhs = delta
        if s >= 0:
            row[s] = Fraction(1)
        else:
            row[-s - 1] = Fraction(-1)
            rhs -= 1
        row[t] = row.get(t, Fraction(0)) - E_hi
        rows.append(row)
        h.append(rhs)
    return c, rows, h, box_row


def cell_costs(cost: Cost, step: Fraction, count: int, lattice: bool, bits: int
               ) -> tuple[Fraction, list[Fraction]]:
    r"""For a cost :math:`L` (symmetric, non-decreasing in :math:`|x|`): rational lower
    bounds of :math:`\tilde L(0)` and of the steps :math:`\tilde L(j + 1) - \tilde L(j)`,
    :math:`j < ` ``count``, where :math:`\tilde L(j) = L(j)` on the integers
    (``lattice``) and :math:`\tilde L(j) = L(h(j - \tfrac12))`, :math:`\tilde L(0) =
    L(0)` on the cells of width :math:`h` (the least cost on cell :math:`j`: :math:`L` is
    non-decreasing). Exact for a cost with a rational shape; otherwise each is the lower
    end of an Arb ball at ``bits`` bits, so the LP with these costs is a relaxation and
    its certified optimum still a lower bound."""
    balls = CostBalls(cost)

    def point(j: int) -> Fraction:
        return Fraction(j) if lattice else (Fraction(0) if j == 0 else step * (2 * j - 1) / 2)

    if cost.shape.rational:
        exact = [balls.exact_value(point(j)) for j in range(count + 1)]
        return exact[0], [exact[j + 1] - exact[j] for j in range(count)]
    with arb_workprec(bits):
        values = [balls.value(point(j)) for j in range(count + 1)]
        first = _lower_fraction(values[0])
        steps = [_lower_fraction(values[j + 1] - values[j]) for j in range(count)]
    return first, steps


def _lower_fraction(x: flint.arb) -> Fraction:
    """The lower end of a ball as a fraction (exact)."""
    return exact(flint.arb(x.lower()))


def certified_lp_lower_bound(eps: object, delta: object, Delta: object, N: int, p: int = 1,
                             M: int | None = None, lattice: bool = False,
                             increments: list[Fraction] | None = None) -> Certificate:
    r"""Solve the lower-bound relaxation with HiGHS and certify it exactly.

    Parameters
    ----------
    eps, delta, Delta : number or decimal string
        Privacy parameters and sensitivity (read exactly).
    N : int
        Grid refinement: step :math:`h = \Delta/N`, discrete sensitivity :math:`N`.
    p : int
        Cost exponent (1 amplitude, 2 power).
    M : int, optional
        Support truncation in cells (default :func:`auto_support`).
    lattice : bool
        ``True`` for an integer-valued query: ``Delta`` must equal ``N`` (step 1) and the
        cost of the integer :math:`j` is :math:`|j|^p` itself (slides 000, Part Three).
    increments : list of Fraction, optional
        For a cost other than :math:`|x|^p`: lower bounds of its steps
        :math:`\tilde L(j + 1) - \tilde L(j)`, :math:`j \le M` (:func:`cell_costs`); the
        bound then omits :math:`\tilde L(0)`, which the caller adds.

    Returns
    -------
    Certificate
        Whose ``bound`` is a proven lower bound on :math:`\min \mathbb{E}|X|^p`.
    """
    # scipy.optimize takes 0.5 s to import: loaded only when an LP is solved
    from scipy.optimize import linprog
    from scipy.sparse import coo_matrix

    e, d, D = (parse_number(v, name) for v, name in ((eps, "eps"), (delta, "delta"),
                                                      (Delta, "Delta")))
    if lattice and D != N:
        raise DomainError("Delta", "an integer query needs the grid step 1 (N = Delta)")
    M = auto_support(e, d, N) if M is None else int(M)
    if increments is not None and len(increments) < M + 1:
        raise ValueError("increments: one step per cell up to the support")
    c, rows, h, box_row = _lower_lp(e, d, D, N, p, M, lattice, increments)
    r_idx, c_idx, vals = [], [], []
    for ri, row in enumerate(rows):
        for j, a in row.items():
            r_idx.append(ri)
            c_idx.append(j)
            vals.append(float(a))
    G = coo_matrix((vals, (r_idx, c_idx)), shape=(len(rows), M + 1)).tocsr()
    res = linprog(np.array([float(v) for v in c]), A_ub=G, b_ub=np.array([float(v) for v in h]),
                  bounds=(0, None), method="highs")
    if res.status != 0:
        raise CertificationError(f"HiGHS failed on the lower-bound LP: {res.message}")
    best: Certificate | None = None
    for snap in (None, 2**40, 2**20):  # the float duals, and two rational snappings
        y = [max(Fraction(0), -_rational(v, snap)) for v in res.ineqlin.marginals]
        reduced = list(c)
        for row, yv in zip(rows, y, strict=True):
            if yv:
                for j, a in row.items():
                    reduced[j] += yv * a
        for j, r in enumerate(reduced):
            if r < 0:  # repair through u_j <= 1/2 (costs |r|/2)
                y[box_row[j]] += -r
        bound = -sum((yv * hv for yv, hv in zip(y, h, strict=True)), Fraction(0))
        if best is None or bound > best.bound:
            best = Certificate(c, rows, h, y, bound, float(res.fun), np.asarray(res.x))
    assert best is not None
    best.check()
    return best


# --------------------------------------------------------------------------- upper bound
@dataclass
class PiecewiseConstantNoise:
    r"""A symmetric piecewise-constant noise density: mass ``masses[|i|]`` spread uniformly
    on the cell :math:`[h(i - \tfrac12), h(i + \tfrac12))`, :math:`|i| \le K`.

    Attributes
    ----------
    step : Fraction
        The cell width :math:`h`.
    masses : list of Fraction
        :math:`P(0), P(1), \dots, P(K)` (so :math:`P(0) + 2\sum_{i \ge 1} P(i) = 1`).
    """

    step: Fraction
    masses: list[Fraction]

    @property
    def K(self) -> int:
        return len(self.masses) - 1

    def mass(self, i: int) -> Fraction:
        """:math:`P(i)` (zero outside the support)."""
        i = abs(i)
        return self.masses[i] if i <= self.K else Fraction(0)

    def total(self) -> Fraction:
        return self.masses[0] + 2 * sum(self.masses[1:], Fraction(0))

    def cost(self, p: int) -> Fraction:
        r""":math:`\mathbb{E}|X|^p` of the density, exactly."""
        return sum((self.mass(i) * cell_cost(i, self.step, p) * (1 if i == 0 else 2)
                    for i in range(self.K + 1)), Fraction(0))

    def density(self, x: np.ndarray) -> np.ndarray:
        """The density at ``x`` (float64, for plots)."""
        h = float(self.step)
        idx = np.floor(np.asarray(x, dtype=float) / h + 0.5).astype(int)
        m = np.array([float(v) for v in self.masses]) / h
        out = np.zeros_like(np.asarray(x, dtype=float))
        inside = np.abs(idx) <= self.K
        out[inside] = m[np.abs(idx[inside])]
        return out

    def grid_hockey_stick(self, m: int, E: Fraction) -> Fraction:
        r""":math:`H_E(m) = \sum_i (P(i) - E\,P(i+m))_+` exactly."""
        total = Fraction(0)
        for i in range(-self.K, self.K + 1):
            v = self.mass(i) - E * self.mass(i + m)
            if v > 0:
                total += v
        return total

    def hockey_stick(self, eps_prime: object, shift: object) -> mpmath.mpf:
        r""":math:`\sup_S P(S) - e^{\varepsilon^{\prime}} P(S + \tau)` at a real shift :math:`\tau`,
        by the cell formula :math:`(1-\theta)H(m) + \theta H(m+1)` (working precision)."""
        tau = abs(parse_number(shift, "shift")) / self.step
        m = math.floor(tau)
        theta = tau - m
        e = parse_number(eps_prime, "eps")
        E = mpmath.exp(mpmath.mpf(e.numerator) / e.denominator)

        def H(mm: int) -> mpmath.mpf:
            total = mpmath.mpf(0)
            for i in range(-self.K, self.K + 1):
                v = _mpf(self.mass(i)) - E * _mpf(self.mass(i + mm))
                if v > 0:
                    total += v
            return total

        th = _mpf(theta)
        return (1 - th) * H(m) + (th * H(m + 1) if theta else 0)

    def privacy_profile(self, eps_prime: object, N: int) -> mpmath.mpf:
        r""":math:`\delta(\varepsilon^{\prime}) = \max_{1 \le m \le N} H(m)`: the supremum over real
        shifts :math:`|\tau| \le Nh` (the hockey stick interpolates linearly between grid
        shifts)."""
        return max(self.hockey_stick(eps_prime, self.step * m) for m in range(1, N + 1))


def _mpf(v: Fraction) -> mpmath.mpf:
    return mpmath.mpf(v.numerator) / v.denominator


@dataclass
class UpperSolution:
    """The LP-optimal piecewise-constant mechanism and its exact verification."""

    noise: PiecewiseConstantNoise
    cost: Fraction
    worst_hockey_stick: Fraction
    float_optimum: float


def cell_means(cost: Cost, step: Fraction, count: int, bits: int
               ) -> list[Fraction | flint.arb]:
    r"""The mean of a cost :math:`L` over the cells :math:`i = 0, \dots,` ``count`` - 1 of
    width :math:`h` (cell :math:`i` is :math:`|x| \in [h(i - \tfrac12), h(i + \tfrac12))`,
    cell 0 :math:`|x| < h/2`): :math:`(F(h(i + \tfrac12)) - F(h(i - \tfrac12)))/h` with
    :math:`F = \int_0 L`; exact rationals for a cost with a rational shape, else Arb balls
    at ``bits`` bits (:class:`dpsym.certified.expectation.CostBalls`)."""
    balls = CostBalls(cost)
    ends = [Fraction(0)] + [step * (2 * i + 1) / 2 for i in range(count)]
    if cost.shape.rational:
        exact = [balls.exact_antiderivative(t) for t in ends]
        means: list[Fraction | flint.arb] = [2 * exact[1] / step]
        return means + [(exact[i + 1] - exact[i]) / step for i in range(1, count)]
    with arb_workprec(bits):
        prims = [balls.antiderivative(t) for t in ends]
        means = [2 * prims[1] / _ball(step)]
        return means + [(prims[i + 1] - prims[i]) / _ball(step) for i in range(1, count)]


def _ball(v: Fraction) -> flint.arb:
    return flint.arb(flint.fmpq(v.numerator, v.denominator))


def lp_optimal_mechanism(eps: object, delta: object, Delta: object, N: int, p: int = 1,
                         K: int | None = None, margin: float = 1e-7,
                         means: list[float] | None = None) -> UpperSolution:
    r"""The optimal symmetric mass function on :math:`\{-K..K\}` under the exact
    :math:`(\varepsilon, \delta)` constraint at all integer shifts :math:`1..N`, spread
    over its cells: an :math:`(\varepsilon, \delta)`-DP density whose cost is an achievable
    upper bound.

    The LP is solved with :math:`\delta (1 - \mathrm{margin})`; the float solution is read
    as exact rationals, normalised exactly, and its privacy is verified exactly with a
    rational :math:`E \le e^\varepsilon` (:math:`H_E(m) \ge H(m)`). ``means``: the cell
    means of a cost other than :math:`|x|^p` as floats (:func:`cell_means`; the returned
    ``cost`` is then that of :math:`|x|^p`: the caller computes the true one from the
    masses).

    Raises
    ------
    CertificationError
        If the rationalised solution fails the exact privacy check.
    """
    # scipy.optimize takes 0.5 s to import: loaded only when an LP is solved
    from scipy.optimize import linprog
    from scipy.sparse import coo_matrix

    e, d, D = (parse_number(v, name) for v, name in ((eps, "eps"), (delta, "delta"),
                                                      (Delta, "Delta")))
    step = D / N
    K = auto_support(e, d, N) if K is None else int(K)
    E_lo = exp_bracket(e)[0]
    Ef = float(E_lo)
    nP = K + 1
    width = 2 * K + 1
    n_aux = N * width
    cost = np.array([(float(cell_cost(i, step, p)) if means is None else means[i])
                     * (1 if i == 0 else 2) for i in range(nP)])
    # the objective scaled to [0, 1]: the argmin is the same, and HiGHS fails on a power
    # cost of 10^6 and more (only the masses are used: the cost is recomputed exactly)
    cvec = np.concatenate([cost / cost.max(), np.zeros(n_aux)])
    ri, ci, vals, b_ub = [], [], [], []
    row = 0
    for m in range(1, N + 1):
        for i in range(-K, K + 1):
            w = nP + (m - 1) * width + (i + K)
            ri += [row, row]
            ci += [abs(i), w]
            vals += [1.0, -1.0]
            if abs(i + m) <= K:
                ri.append(row)
                ci.append(abs(i + m))
                vals.append(-Ef)
            b_ub.append(0.0)
            row += 1
        for i in range(-K, K + 1):
            ri.append(row)
            ci.append(nP + (m - 1) * width + (i + K))
            vals.append(1.0)
        b_ub.append(float(d))
        row += 1
    A_ub = coo_matrix((vals, (ri, ci)), shape=(row, nP + n_aux)).tocsr()
    A_eq = np.zeros((1, nP + n_aux))
    A_eq[0, 0] = 1.0
    A_eq[0, 1:nP] = 2.0
    b_rows = np.array(b_ub)
    budget_rows = b_rows > 0
    worst = Fraction(0)
    for attempt in range(5):  # tighten the margin until the exact check passes
        tight = margin * 10**attempt
        b_try = b_rows.copy()
        b_try[budget_rows] = float(d) * (1 - tight)
        res = linprog(cvec, A_ub=A_ub, b_ub=b_try, A_eq=A_eq, b_eq=[1.0], bounds=(0, None),
                      method="highs", options={"primal_feasibility_tolerance": 1e-10,
                                               "dual_feasibility_tolerance": 1e-10})
        if res.status != 0:
            raise CertificationError(f"HiGHS failed on the mechanism LP: {res.message}")
        masses = [max(Fraction(0), _frac(v)) for v in res.x[:nP]]
        total = masses[0] + 2 * sum(masses[1:], Fraction(0))
        noise = PiecewiseConstantNoise(step, [v / total for v in masses])
        worst = max(noise.grid_hockey_stick(m, E_lo) for m in range(1, N + 1))
        if worst <= d:
            break
    else:
        raise CertificationError(f"the LP mechanism fails the exact check: {float(worst)} > "
                                 f"{float(d)}")
    return UpperSolution(noise, noise.cost(p), worst, float(res.fun * cost.max()))


# --------------------------------------------------------------------------- CLI object
def grid_param() -> Param:
    r"""The grid refinement :math:`N` (step :math:`\Delta/N`)."""
    return Param("grid", GRID, Domain(lower=Fraction(1), lower_open=False, integer=True,
                                           upper=Fraction(MAX_GRID), upper_open=False),
                 "grid refinement N (grid step Delta/N)", ("4", "16"), default="8")


class LPBound(BoundObject):
    r"""The certified LP lower bound on the grid of step :math:`\Delta/N`.

    ``value("cost", cost)`` is the exact certified bound of
    :func:`certified_lp_lower_bound` printed rounded down; ``value("upper", cost)`` is the
    exact cost of the LP-optimal piecewise-constant mechanism
    (:func:`lp_optimal_mechanism`), printed rounded up. Both are exact rationals, so the
    digits are exact. No closed form and no series.
    """

    name = "lp-bound"
    title = "Certified LP lower bound (and achievable LP upper bound) on a grid"
    source = "003 discretisation argument of Theorems 4-5; slides 000 Part Three LP"
    guarantee = Guarantee.APPROXIMATE
    _max_moment = 2
    params = (eps_param(upper=LP_EPS_MAX), delta_param(Fraction(1, 2)), sensitivity_param(),
              grid_param())
    #: Joint limit of the parameters (shown by ``dpsym list``), checked by :meth:`_args`.
    limits = (f"support ceil(1.3 nu grid) + grid <= {MAX_SUPPORT} cells, "
              "nu = log(1 + (e^eps - 1)/(2 delta))/eps",)

    _general_costs = True

    @classmethod
    @cache
    def quantities(cls) -> tuple[str, ...]:
        return ("cost", "upper")

    def _general_value(self, quantity: str, cost: Cost, digits: int) -> Value:
        r"""For a cost other than a power: the certified LP lower bound
        (:func:`general_lower`), or (``"upper"``) the exact cost of the LP-optimal
        piecewise-constant mechanism for that cost (:func:`cell_means`), rounded up."""
        e, d, D, N = self._args()
        if quantity == "cost":
            return general_lower(e, d, D, N, cost, digits, lattice=False)
        step = D / N
        K = auto_support(e, d, N)
        bits = bits_for(digits + 12, 64)
        means = cell_means(cost, step, K + 1, bits)
        floats = [float(m) if isinstance(m, Fraction) else float(m.mid()) for m in means]
        found = lp_optimal_mechanism(e, d, D, N, K=K, means=floats)
        weights = [mass * (1 if i == 0 else 2) for i, mass in enumerate(found.noise.masses)]
        exact_means = [m for m in means if isinstance(m, Fraction)]
        if len(exact_means) == len(means):
            exact_cost = sum((w * m for w, m in zip(weights, exact_means, strict=True)),
                             Fraction(0))
            number, text = round_exact(exact_cost, digits, down=False)
            return Value.from_exact(exact_cost, number, text, digits)

        def enclose(prec: int) -> flint.arb:
            balls = [m for m in cell_means(cost, step, K + 1, prec)
                     if isinstance(m, flint.arb)]  # all of them (zip is strict)
            return sum((_ball(w) * m for w, m in zip(weights, balls, strict=True)),
                       flint.arb(0))

        number, text = certify_directed(enclose, digits, up=True)
        return Value(number, text, digits, certificate="enclosure",
                     enclosure=lambda: outward(enclose(bits), digits))

    @classmethod
    def formula(cls, quantity="cost", cost="amplitude"):
        check_quantity(cls, quantity)
        raise UnsupportedError(f"{cls.name}: an LP optimum has no closed form; use "
                               "lower-bound for the closed form")

    @classmethod
    def series(cls, quantity="cost", cost="amplitude", regime="eps->0", order=3):
        check_quantity(cls, quantity)
        raise UnsupportedError(f"{cls.name}: an LP optimum at fixed parameters has no series")

    def _args(self) -> tuple[Fraction, Fraction, Fraction, int]:
        require(self, "eps", "delta", "Delta", "grid")
        N = int(self.values["grid"])
        e, d = self.values["eps"], self.values["delta"]
        if auto_support(e, d, N) > MAX_SUPPORT:
            raise DomainError("grid", f"the support would exceed {MAX_SUPPORT} cells "
                              f"({self.limits[0]}); lower grid, or raise eps or delta")
        return e, d, self.values["Delta"], N

    def value(self, quantity: str = "cost", cost="amplitude", digits: int = 30) -> Value:
        check_quantity(self, quantity)
        c = self._parse_bound_cost(cost)
        if not c.is_power:
            return self._general_value(quantity, c, digits)
        p = int(c.power)
        e, d, D, N = self._args()
        if quantity == "cost":
            exact = certified_lp_lower_bound(e, d, D, N, p).bound
            number, text = round_exact(exact, digits, down=True)
        else:
            exact = lp_optimal_mechanism(e, d, D, N, p).cost
            number, text = round_exact(exact, digits, down=False)
        return Value.from_exact(exact, number, text, digits)


def general_lower(eps: Fraction, delta: Fraction, Delta: Fraction, N: int, cost: Cost,
                  digits: int, lattice: bool) -> Value:
    r"""The certified LP lower bound for a cost :math:`L` other than a power, rounded down:
    :math:`\tilde L(0)` plus the optimum of the relaxation with the steps of
    :func:`cell_costs` (exact rationals, or their certified lower bounds), whose exact
    dual certificate proves it."""
    bits = bits_for(digits + 12, 64)
    M = auto_support(eps, delta, N)
    first, steps = cell_costs(cost, Delta / N, M + 1, lattice, bits)
    certificate = certified_lp_lower_bound(eps, delta, Delta, N, M=M, lattice=lattice,
                                           increments=steps)
    exact_bound = certificate.bound + first
    number, text = round_exact(exact_bound, digits, down=True)
    return Value.from_exact(exact_bound, number, text, digits)


__all__ = [
    "Certificate",
    "LPBound",
    "PiecewiseConstantNoise",
    "UpperSolution",
    "auto_support",
    "cell_cost",
    "cell_costs",
    "cell_means",
    "certified_lp_lower_bound",
    "exp_bracket",
    "general_lower",
    "lp_optimal_mechanism",
]
