"""The LP engine (dpsym.bounds.lp): exact certificates and the sandwich

    certified LP lower bound <= LP-optimal mechanism's cost <= every mechanism's cost,

with the mechanism's privacy checked independently by exact piecewise integration of
its density at real shifts.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import mpmath
import pytest

from dpsym.bounds.lp import (
    LPBound,
    PiecewiseConstantNoise,
    certified_lp_lower_bound,
    exp_bracket,
    lp_optimal_mechanism,
)
from dpsym.errors import CertificationError, DomainError
from dpsym.mechanisms.laplace import Laplace
from dpsym.mechanisms.staircase import Staircase

POINTS = [("1", "0.05"), ("0.3", "0.1"), ("2", "0.001")]
N = 8


def tlap_cost(e: Fraction, d: Fraction, p: int) -> mpmath.mpf:
    """Truncated Laplacian cost (Delta = 1) by quadrature of its Definition 3 density."""
    with mpmath.workdps(30):
        ee, dd = mpmath.mpf(e.numerator) / e.denominator, mpmath.mpf(d.numerator) / d.denominator
        lam = 1 / ee
        A = lam * mpmath.log(1 + mpmath.expm1(ee) / (2 * dd))
        B = 1 / (2 * lam * (1 - mpmath.exp(-A / lam)))
        return 2 * mpmath.quad(lambda t: B * mpmath.exp(-t / lam) * t**p, [0, A])


def other_costs(e: str, d: str, p: int) -> dict[str, mpmath.mpf]:
    cost = "amplitude" if p == 1 else "power"
    out = {"truncated_laplace": tlap_cost(Fraction(e), Fraction(d), p),
           "laplace": Laplace(eps=e, Delta=1).value("cost", cost, 20).number}
    try:
        from dpsym.mechanisms.uniform_mass import UniformMass

        out["uniform"] = UniformMass(eps=e, delta=d, Delta=1).value("cost", cost, 20).number
    except (ImportError, AttributeError, DomainError):
        pass
    try:
        from dpsym.mechanisms.gaussian import AnalyticGaussian

        out["gaussian"] = AnalyticGaussian(eps=e, delta=d, Delta=1).value("cost", cost,
                                                                         20).number
    except (ImportError, AttributeError, DomainError):
        pass
    return out


@pytest.fixture(scope="module", params=[(e, d, p) for e, d in POINTS for p in (1, 2)],
                ids=lambda t: f"eps{t[0]}-delta{t[1]}-p{t[2]}")
def solved(request):
    e, d, p = request.param
    return e, d, p, certified_lp_lower_bound(e, d, 1, N, p), lp_optimal_mechanism(e, d, 1, N, p)


def test_certificate_verifies_independently(solved):
    """Recompute G^T y, the reduced costs and -y.h from the rows, without Certificate.check."""
    *_, cert, _ = solved
    assert all(v >= 0 for v in cert.y)
    reduced = list(cert.c)
    for row, yv in zip(cert.rows, cert.y, strict=True):
        for j, a in row.items():
            reduced[j] += yv * a
    assert min(reduced) >= 0
    bound = -sum(yv * hv for yv, hv in zip(cert.y, cert.h, strict=True))
    assert bound == cert.bound == cert.check()
    # the certificate is essentially the float optimum (no loss in the repair)
    assert abs(float(bound) - cert.float_optimum) < 1e-8 * max(1.0, cert.float_optimum)


def test_a_tampered_certificate_is_refused(solved):
    *_, cert, _ = solved
    j = max(range(len(cert.y)), key=lambda i: cert.y[i])
    cert_bad = type(cert)(cert.c, cert.rows, cert.h, list(cert.y), cert.bound,
                          cert.float_optimum)
    cert_bad.y[j] = -cert_bad.y[j]
    with pytest.raises(CertificationError):
        cert_bad.check()
    cert_bad.y[j] = cert.y[j]
    cert_bad.bound = cert.bound + Fraction(1, 10**12)
    with pytest.raises(CertificationError):
        cert_bad.check()


def test_relaxation_rows_are_valid_for_a_known_private_noise():
    """Every row of the relaxation holds for the discretised truncated Laplacian (which is
    (eps, delta)-DP), so the LP really is a relaxation."""
    e, d = Fraction(1), Fraction(1, 20)
    cert = certified_lp_lower_bound(e, d, 1, N, 1, M=40)
    with mpmath.workdps(40):
        lam = mpmath.mpf(1)
        A = lam * mpmath.log(1 + mpmath.expm1(1) / (2 * mpmath.mpf(d.numerator) / d.denominator))
        B = 1 / (2 * lam * (1 - mpmath.exp(-A / lam)))

        def tail(x):  # P(X > x) for x >= 0
            return B * lam * (mpmath.exp(-min(x, A) / lam) - mpmath.exp(-A / lam))

        u = [tail((mpmath.mpf(j) + mpmath.mpf(1) / 2) / N) for j in range(41)]
        for row, hv in zip(cert.rows, cert.h, strict=True):
            lhs = sum(mpmath.mpf(a.numerator) / a.denominator * u[j] for j, a in row.items())
            assert lhs <= mpmath.mpf(hv.numerator) / hv.denominator + mpmath.mpf(10) ** -30


def test_sandwich(solved):
    e, d, p, cert, upper = solved
    assert cert.bound <= upper.cost
    with mpmath.workdps(30):
        up = mpmath.mpf(upper.cost.numerator) / upper.cost.denominator
        for name, value in other_costs(e, d, p).items():
            assert up <= value, name


def test_lower_bound_is_below_the_staircase_for_tiny_delta():
    """The staircase is (eps, 0)-DP hence (eps, delta)-DP: its cost bounds V* from above."""
    for p, cost in ((1, "amplitude"), (2, "power")):
        cert = certified_lp_lower_bound("1", "1e-6", 1, N, p)
        st = Staircase(eps=1, Delta=1).value("cost", cost, 20).number
        assert float(cert.bound) <= st
        assert float(cert.bound) > 0.8 * float(st)  # and not trivially small


def exact_hockey_stick(noise: PiecewiseConstantNoise, E: Fraction, tau: Fraction) -> Fraction:
    """int (f(x) - E f(x + tau))_+ dx by splitting R at every breakpoint of f and f(. + tau):
    on each piece both densities are constant. Independent of the cell formula."""
    h = noise.step
    edges = {h * (2 * i - 1) / 2 for i in range(-noise.K, noise.K + 2)}
    points = sorted(edges | {x - tau for x in edges})

    def dens(x: Fraction) -> Fraction:
        i = (x / h + Fraction(1, 2)).__floor__()
        return noise.mass(i) / h if abs(i) <= noise.K else Fraction(0)

    total = Fraction(0)
    for lo, hi in itertools.pairwise(points):
        mid = (lo + hi) / 2
        v = dens(mid) - E * dens(mid + tau)
        if v > 0:
            total += v * (hi - lo)
    return total


@pytest.mark.parametrize(("e", "d"), [("1", "0.05"), ("0.3", "0.1")])
def test_mechanism_privacy_at_real_shifts(e, d):
    upper = lp_optimal_mechanism(e, d, 1, 4, 1)
    noise = upper.noise
    E_lo, E_hi = exp_bracket(Fraction(e))
    rng = random.Random(1)
    shifts = [Fraction(1), Fraction(1, 2), Fraction(3, 8)] + \
        [Fraction(rng.randrange(1, 1000), 1000) for _ in range(6)]
    for tau in shifts:
        exact = exact_hockey_stick(noise, E_lo, tau)  # >= the true value (E_lo <= e^eps)
        assert exact <= Fraction(d)
        # the cell formula (1 - theta) H(m) + theta H(m + 1) agrees
        with mpmath.workdps(40):
            formula = noise.hockey_stick(e, tau)
            lower = exact_hockey_stick(noise, E_hi, tau)
            assert mpmath.mpf(lower.numerator) / lower.denominator - mpmath.mpf(10) ** -30 \
                <= formula <= mpmath.mpf(exact.numerator) / exact.denominator + 1e-30
    with mpmath.workdps(40):
        dd = Fraction(d)
        assert noise.privacy_profile(e, 4) <= mpmath.mpf(dd.numerator) / dd.denominator + 1e-35
    # a shift beyond the sensitivity is not covered: the loss exceeds delta somewhere
    assert exact_hockey_stick(noise, E_lo, Fraction(3)) > Fraction(d)


def test_mechanism_cost_matches_integration_of_its_density():
    upper = lp_optimal_mechanism("1", "0.05", 1, 4, 2)
    noise = upper.noise
    total = Fraction(0)
    for i in range(-noise.K, noise.K + 1):
        lo, hi = noise.step * (2 * i - 1) / 2, noise.step * (2 * i + 1) / 2
        # integral of x^2 over [lo, hi] times the constant density
        total += noise.mass(i) / noise.step * (hi**3 - lo**3) / 3
    assert total == upper.cost
    assert noise.total() == 1


def test_integer_query_lp_is_sandwiched_by_the_uniform_mechanism():
    """(0, delta), Delta = 1, 1/(2 delta) = 5: the uniform mechanism is optimal."""
    for p, want in ((1, Fraction(5, 2)), (2, Fraction(25, 3) + Fraction(1, 6))):
        cert = certified_lp_lower_bound(0, Fraction(1, 10), 1, 1, p, lattice=True)
        assert cert.bound <= want and want - cert.bound < Fraction(1, 10**9)


def test_lp_bound_object():
    obj = LPBound(eps=1, delta="0.05", Delta=1, grid=4)
    low, up = obj.value("cost", "amplitude", 25), obj.value("upper", "amplitude", 25)
    cert = certified_lp_lower_bound(1, "0.05", 1, 4, 1)
    assert Fraction(low.text) <= cert.bound < Fraction(low.text) + Fraction(1, 10**24)
    assert Fraction(low.text) < Fraction(up.text)
    with pytest.raises(DomainError, match="grid"):
        LPBound(eps=1, delta="0.05", grid=0)
    with pytest.raises(DomainError, match="grid"):
        LPBound(eps="0.001", delta="1e-9", grid=64).value()


def test_comparison_table_is_written_and_ordered(tmp_path):
    from dpsym.bounds.table import COLUMNS, write_comparison

    files = write_comparison(tmp_path / "a", points=(("1", "0.05"),), grid=4, digits=10)
    assert [f.name for f in files] == ["bounds_comparison.csv", "bounds_comparison.md",
                                       "bounds_lp_noise.png"]
    lines = files[0].read_text().splitlines()
    assert lines[0].split(",") == list(COLUMNS) and len(lines) == 3
    for line in lines[1:]:
        row = dict(zip(COLUMNS, line.split(","), strict=True))
        assert float(row["lp_lower_certified"]) <= float(row["lp_mechanism"]) \
            <= float(row["truncated_laplace"]) <= float(row["laplace"])
        assert float(row["closed_form_lower"]) <= float(row["lp_mechanism"])
        for other in ("uniform", "analytic_gaussian"):
            if row[other]:
                assert float(row["lp_mechanism"]) <= float(row[other])
    again = write_comparison(tmp_path / "b", points=(("1", "0.05"),), grid=4, digits=10)
    assert all(x.read_bytes() == y.read_bytes() for x, y in zip(files, again, strict=True))
