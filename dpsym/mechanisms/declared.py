r"""Declared noises: a density or mass function stated by its user, through the whole
pipeline.

A noise-adding mechanism of dpsym is the declaration of a symmetric noise: its
parameters with their domains, optionally a free parameter it is optimised over, and its
density on :math:`[0, \infty)` (or its mass function on :math:`\{0, 1, \dots\}`) as a
:class:`~dpsym.symbolic.noise.SymmetricNoise`: an optional point mass at the origin,
pieces on intervals, an optional geometric tail. :class:`DeclaredNoise` is that
declaration as a class; the engine derives everything else from it, whoever wrote it. The
catalogue's one-dimensional entries (:class:`~dpsym.mechanisms.laplace.Laplace`, the
staircases, the truncated Laplacian, ...) are declared this way, and so is a noise that a
user states with :func:`declare_noise` (in Python) or in a TOML or JSON file
(:func:`load_noise`, the command line's ``--noise FILE``): the same class, the same path.

What a declaration gets (a catalogue entry gets the same): the normalising constant
solved from total mass one (``normalise=True``) and the conditions of its derived
parameters; the expected cost :math:`\mathbb{E}|X|^p` for every cost; the optimal free
parameter; closed forms and series where they exist; certified values; the privacy
profile, ``is_private``, the Rényi curve and composition where the noise's shape has a
certified path; the scipy face and the vectorised sampler; ``compare``.

**What is checked, exactly, before anything is computed** (:func:`validate`). Each
refusal is a :class:`DeclarationError` whose message starts with the key at fault
(``pieces[2].density: ...``):

* every name in an expression is a declared parameter (or :math:`x`, :math:`u`, and
  :math:`b = e^{-\varepsilon}` when :math:`\varepsilon` is declared);
* the pieces are contiguous from 0 (in the tail, from 0 to its period) and each has
  :math:`lo \le hi`; the density is symmetric (the description is given on
  :math:`[0, \infty)` and mirrored; a density given on the whole line,
  :func:`declare_noise`'s ``density=``, is proven even, :math:`f(-x) - f(x) = 0`);
* no piece is negative, the tail's ratio lies in :math:`(0, 1)` and its period is
  positive, the point mass lies in :math:`[0, 1]`: proven for every parameter in its
  domain where sympy's assumptions decide it after each variable is written over its range
  (:math:`v = a + (c - a)\,s/(1 + s)`, :math:`s \ge 0`); what they do not decide is
  decided at each instance's exact parameters (exact signs, or Arb balls over a
  subdivision of the piece), and refused when undecided;
* the total mass is 1, identically in the parameters (sympy simplifies
  :math:`M - 1` to 0), or the unknown constant is solved (``normalise=True``); a mass
  found different from 1 at a point is reported with its value;
* an unbounded piece decays: exponentially (:math:`\lim \log f(x)/x < 0`: every moment is
  finite) or as a power :math:`x^{-a}` (:math:`a > 1`; the moments of order
  :math:`p \ge a - 1` diverge, and a cost asking for one is refused).

**Certified values only.** A declared noise answers with ``"exact"`` or ``"enclosure"``
values; where its shape has no certified path (a minimiser the interval method does not
prove, a privacy profile of pieces that are neither constant nor exponential), the
request is refused with the reason instead of printing an uncertified number
(``method="mpmath"`` still gives the engine's two-precision cross-check on request).

**Privacy is proven, not assumed.** A declared noise's ``guarantee`` is its author's
claim. ``compare`` ranks it only after its privacy at the compared
:math:`(\varepsilon, \delta)` is decided from its certified profile
(:meth:`DeclaredNoise.check_guarantee`); the catalogue's entries are private by the
theorems the claims check (``private_by_theorem``).
"""

from __future__ import annotations

import json
import keyword
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar, cast

import flint
import mpmath
import sympy as sp

from dpsym.certified.balls import BallFunction
from dpsym.certified.balls import enclosure as ball_enclosure
from dpsym.certified.evaluation import Value
from dpsym.core.costs import Cost, parse_cost
from dpsym.core.expressions import Exact, compare, parse_function
from dpsym.core.names import suggestion
from dpsym.core.params import (
    Derived,
    Domain,
    FreeParameter,
    Guarantee,
    Param,
    delta_param,
    eps_param,
    parse_number,
    sensitivity_param,
)
from dpsym.distributions.scipy_face import quadrature_expectation
from dpsym.errors import CertificationError, DomainError, UnsupportedError
from dpsym.mechanisms.base import Mechanism
from dpsym.precision import arb_workprec, exclusive, workdps
from dpsym.privacy.profiles import PrivacyCheck
from dpsym.symbolic.noise import GeometricTail, Piece, SymmetricNoise, integral, lattice_sum
from dpsym.symbols import NORM, Delta, b, delta, eps, gamma, r, u, x

__all__ = ["Checks", "DeclarationError", "DeclaredNoise", "declare_noise", "load_noise",
           "noise_from_mapping", "validate"]


class DeclarationError(DomainError):
    """A noise declaration refused: the message starts with the key at fault
    (``pieces[2].density``, ``params.A.domain``, ``tail.ratio``...) and says why."""


# ---------------------------------------------------------------------- the class
@dataclass(frozen=True)
class Checks:
    r"""What :func:`validate` could not decide for every parameter value, left to each
    instance's exact parameters (:meth:`DeclaredNoise.check_joint`).

    Attributes
    ----------
    nonnegative : tuple of (str, sympy.Expr, sympy.Symbol or None, sympy.Expr, sympy.Expr)
        ``(key, expression, variable, lo, hi)``: an expression to prove :math:`\ge 0` for
        the variable in :math:`[lo, hi)` (a constant when the variable is None).
    below_one : tuple of (str, sympy.Expr, bool)
        ``(key, expression, strict)``: to prove :math:`< 1` (strict: a tail's ratio) or
        :math:`\le 1` (the atom).
    moments_below : sympy.Expr or None
        :math:`\mathbb{E}|X|^p` is finite exactly for :math:`p <` this bound (None: every
        moment is finite).
    integers : tuple of (str, sympy.Expr)
        The bounds of a mass function's pieces, to be integers at each instance.
    """

    nonnegative: tuple[tuple[str, sp.Expr, sp.Symbol | None, sp.Expr, sp.Expr], ...] = ()
    below_one: tuple[tuple[str, sp.Expr, bool], ...] = ()
    moments_below: sp.Expr | None = None
    integers: tuple[tuple[str, sp.Expr], ...] = ()


class DeclaredNoise(Mechanism):
    r"""A mechanism declared by its noise: parameters, free parameter, and the
    :class:`~dpsym.symbolic.noise.SymmetricNoise` in :attr:`density`.

    Subclasses set the attributes of :class:`~dpsym.core.params.Parametrised` and
    :attr:`density` (possibly with the unknown constant :data:`~dpsym.symbols.NORM`), and,
    for derived parameters, ``_defining_conditions``; :func:`declare_noise` builds such
    a subclass from a user's text. Instances are those of every mechanism
    (``Laplace(eps=1)``); their values are certified or refused (module docstring).
    """

    #: The noise density (or mass function) on :math:`[0, \infty)`, mirrored.
    density: ClassVar[SymmetricNoise]
    #: ``(symbol, lhs, rhs)``: the conditions fixing the derived parameters, in order
    #: (:meth:`~dpsym.mechanisms.base.Mechanism.conditions`).
    _defining_conditions: ClassVar[tuple[tuple[sp.Symbol, sp.Expr, sp.Expr], ...]] = ()
    #: Derived parameters fixed by a mass, ``(symbol, j, lo, hi, rhs)``: the mass of
    #: piece ``j`` of the head on :math:`[lo, hi)` is ``rhs`` (integrated into
    #: ``_defining_conditions`` when first needed).
    _mass_conditions: ClassVar[tuple[tuple[sp.Symbol, int, sp.Expr, sp.Expr, sp.Expr], ...]] = ()
    #: The density as declared on the whole line, if it was (proven even by
    #: :func:`validate`).
    _line_density: ClassVar[sp.Expr | None] = None
    #: What :func:`validate` left to each instance.
    _checks: ClassVar[Checks] = Checks()
    #: Whether a theorem (checked by the claims) makes every instance meet
    #: :attr:`guarantee` at its own parameters; otherwise ``compare`` decides it
    #: (:meth:`check_guarantee`).
    _private_by_theorem: ClassVar[bool] = False
    #: Whether :func:`validate` is still to run: a declaration read by the command line
    #: is validated at its first use, within the command's time and memory budgets.
    _pending: ClassVar[bool] = False
    #: Where the declaration was read (``--noise FILE``), named by a refusal at its first
    #: use; None for a declaration in Python.
    _origin: ClassVar[str | None] = None

    @classmethod
    def _validated(cls) -> None:
        """Run :func:`validate` if it is ``_pending`` (once).

        Raises
        ------
        DeclarationError
            If the declaration is refused.
        """
        if cls._pending:
            cls._pending = False
            try:
                cls._checks = validate(cls)
            except DeclarationError as err:
                cls._pending = True
                if cls._origin is None:
                    raise
                raise DeclarationError(cls._origin, str(err)) from None
            except BaseException:
                cls._pending = True
                raise

    @classmethod
    def _noise_shape(cls) -> SymmetricNoise:
        """The declared :attr:`density` (validated first if ``_pending``)."""
        cls._validated()
        return cls.density

    @classmethod
    def _conditions(cls) -> tuple[tuple[sp.Symbol, sp.Expr, sp.Expr], ...]:
        """The declared ``_defining_conditions`` (from ``_mass_conditions``)."""
        if cls._mass_conditions and not cls._defining_conditions:
            found = []
            for symbol, j, lo, hi, rhs in cls._mass_conditions:
                expr = cls.density.head[j].expr
                if cls.lattice:
                    mass = lattice_sum(expr, x, lo, hi - 1)
                else:
                    mass = integral(expr, x, lo, hi)
                found.append((symbol, mass, rhs))
            cls._defining_conditions = tuple(found)
        return cls._defining_conditions

    # ------------------------------------------------------------------ instance checks
    @classmethod
    def _check_joint(cls, values: Mapping[str, Exact]) -> None:
        """Decide, at the exact parameter ``values``, what :func:`validate` left to the
        instance (``_checks``): a piece's sign over its interval, a bound's order, a
        ratio below one. Skipped while a parameter it involves has no value.

        Raises
        ------
        DomainError
            Naming the key of the declaration at fault and the parameter values.
        """
        super()._check_joint(values)
        cls._validated()
        if not (cls._checks.nonnegative or cls._checks.below_one or cls._checks.integers):
            return
        subs = {prm.symbol: _sym(values[prm.name]) for prm in cls.params
                if prm.name in values}
        if eps in subs:
            subs[b] = sp.exp(-subs[eps])
        known = set(subs)
        at = ", ".join(f"{prm.name}={values[prm.name]}" for prm in cls.params
                       if prm.name in values)
        for key, expr, var, lo, hi in cls._checks.nonnegative:
            parts = (expr, lo, hi)
            if any(not (sp.sympify(e).free_symbols - {var} <= known) for e in parts):
                continue
            expr, lo, hi = (sp.sympify(e).xreplace(subs) for e in parts)
            found = _numeric_nonnegative(expr, var, lo, hi)
            if found is not True:
                raise DomainError(key, f"{found} at {at}")
        for key, expr in cls._checks.integers:
            if sp.sympify(expr).free_symbols <= known:
                value = sp.sympify(expr).xreplace(subs)
                if not value.is_Integer:
                    raise DomainError(key, f"must be an integer (a mass function's piece "
                                      f"bound), got {value} at {at}")
        for key, expr, strict in cls._checks.below_one:
            if not sp.sympify(expr).free_symbols <= known:
                continue
            value = sp.sympify(expr).xreplace(subs)
            side = _decided_sign(1 - value)
            if side is None or side < 0 or (strict and side == 0):
                bound = "< 1" if strict else "<= 1"
                raise DomainError(key, f"must be {bound}, got {value} at {at}")

    @classmethod
    def _specific(cls, cost: Cost) -> None:
        """Refuse a moment the noise does not have (:attr:`Checks.moments_below`)."""
        cls._validated()
        bound = cls._checks.moments_below
        if bound is not None and bound.is_number and compare(
                _exact(cost.exponent), _exact(bound), "cost") >= 0:
            raise DomainError("cost", f"{cost.name}: E|X|^{cost.exponent} diverges for "
                              f"{cls.name} (its density decays as |x|^-{bound + 1}: only "
                              f"the moments of order below {bound} are finite)")

    def value(self, quantity: str = "cost", cost: Cost | str = "amplitude", digits: int = 30,
              *, method: str = "auto") -> Value:
        """:meth:`~dpsym.mechanisms.base.Mechanism.value`, certified (``"exact"`` or
        ``"enclosure"``) or refused; ``method="mpmath"`` asks for the two-precision
        cross-check (``"agreement"``) explicitly.

        Raises
        ------
        CertificationError
            If no certified path proves the value.
        """
        cost = parse_cost(cost)
        bound = self._checks.moments_below
        if bound is not None and not bound.is_number:
            self._check_moment(cost, bound)
        found = super().value(quantity, cost, digits, method=method)
        if method != "mpmath" and found.certificate not in ("exact", "enclosure"):
            raise CertificationError(
                f"{self.name}: {quantity} (cost {cost.name}) has no certified path for this "
                "noise (no closed form that ball arithmetic evaluates, no proven minimiser); "
                "method 'mpmath' gives the uncertified cross-check")
        if quantity == "cost" and not self._private_by_theorem:
            self._cross_check(found, cost)
        return found

    def _cross_check(self, found: Value, cost: Cost) -> None:
        r"""Compare a cost with an mpmath quadrature of the density
        (:func:`quadrature_moment`, :data:`CROSS_CHECK_DIGITS` digits): the certified
        value evaluates sympy's closed form of the integral, and for a density of its
        user's, that closed form (a branch taken by sympy) is checked too.

        Raises
        ------
        CertificationError
            If the two disagree.
        """
        with workdps(CROSS_CHECK_DIGITS + 5):
            noise = self.numeric_noise(cost, digits=CROSS_CHECK_DIGITS + 10)
            check = quadrature_moment(noise, sp.Rational(cost.exponent))
            if check is None:
                return
            gap = abs(mpmath.mpf(found.number) - check)
            if gap > mpmath.mpf(10) ** (3 - CROSS_CHECK_DIGITS) * abs(check):
                raise CertificationError(
                    f"{self.name}: the closed form of the {cost.name} cost "
                    f"({found.text[:20]}) disagrees with a quadrature of the density "
                    f"({mpmath.nstr(check, 12)}): sympy's integral of this density is not "
                    "trusted")

    def _check_moment(self, cost: Cost, bound: sp.Expr) -> None:
        subs = {prm.symbol: _sym(v) for prm in self.params
                if (v := self.values.get(prm.name)) is not None}
        value = bound.xreplace(subs)
        if value.is_number and _decided_sign(sp.Rational(cost.exponent) - value) != -1:
            raise DomainError("cost", f"{cost.name}: E|X|^{cost.exponent} diverges for "
                              f"{self.name} at these parameters (only the moments of "
                              f"order below {value} are finite)")

    def privacy_profile(self, eps_prime: object, cost: Cost | str = "amplitude",
                        digits: int = 30, *, free_value: object = None) -> Value:
        """:meth:`~dpsym.mechanisms.base.Mechanism.privacy_profile`, certified or refused
        (a catalogue entry, ``_private_by_theorem``, keeps the documented two-precision
        path of :func:`dpsym.privacy.profiles.privacy_profile` where no certified one
        applies, e.g. at an irrational sensitivity).

        Raises
        ------
        UnsupportedError
            If the profile of this noise's shape has no certified path.
        """
        if self._private_by_theorem:
            return super().privacy_profile(eps_prime, cost, digits, free_value=free_value)
        try:
            found = super().privacy_profile(eps_prime, cost, digits, free_value=free_value)
        except UnsupportedError as err:
            raise _no_certified_profile(self.name, err) from None
        if found.certificate not in ("exact", "enclosure"):
            raise _no_certified_profile(self.name)
        return found

    def is_private(self, eps: object, delta: object = 0, cost: Cost | str = "amplitude",
                   digits: int = 30, *, free_value: object = None) -> PrivacyCheck:
        """:meth:`~dpsym.mechanisms.base.Mechanism.is_private`, decided from the certified
        profile or refused (never up to a tolerance; a catalogue entry keeps the documented
        path, see :meth:`privacy_profile`).

        Raises
        ------
        UnsupportedError
            If the profile of this noise's shape has no certified path.
        """
        if self._private_by_theorem:
            return super().is_private(eps, delta, cost, digits, free_value=free_value)
        try:
            found = super().is_private(eps, delta, cost, digits, free_value=free_value)
        except UnsupportedError as err:
            raise _no_certified_profile(self.name, err) from None
        if found.tolerance != 0:
            raise _no_certified_profile(self.name)
        return found

    def _check_guarantee(self, eps: object, delta: object, cost: Cost | str = "amplitude"
                        ) -> None:
        r"""Decide that this noise is :math:`(\varepsilon, \delta)`-DP at its sensitivity
        (its free parameter at the optimum for ``cost``): nothing for the catalogue
        (``_private_by_theorem``), else :meth:`is_private` from the certified profile.

        Raises
        ------
        DomainError
            If the noise is not :math:`(\varepsilon, \delta)`-DP, or its privacy cannot
            be decided (no certified profile).
        """
        if self._private_by_theorem:
            return
        shown = f"({_shown(eps)}, {_shown(delta)})-DP"
        try:
            verdict = self.is_private(eps, delta, cost, 20)
        except (UnsupportedError, CertificationError) as err:
            raise DomainError("guarantee", f"{self.name}: whether it is {shown} is not "
                              f"decided ({err})") from None
        if not verdict.private:
            raise DomainError("guarantee", f"{self.name} is not {shown}: its privacy "
                              f"profile there is {verdict.text}")


def _shown(value: object) -> str:
    """A number as the user would write it: a terminating fraction as a decimal."""
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return str(value.numerator)
        text = format(Decimal(value.numerator) / Decimal(value.denominator), "f")
        return text if Fraction(text) == value else str(value)
    return str(value)


#: Digits of the quadrature that cross-checks a declared noise's costs
#: (:meth:`DeclaredNoise._cross_check`).
CROSS_CHECK_DIGITS = 15
#: Most periods of a geometric tail unrolled by the cross-check (beyond: no check).
CROSS_CHECK_PERIODS = 400
#: Most lattice points summed one by one by the cross-check (beyond: ``nsum``).
CROSS_CHECK_POINTS = 2000


@exclusive
def quadrature_moment(noise: SymmetricNoise, power: sp.Expr) -> mpmath.mpf | None:
    r""":math:`\mathbb{E}|X|^p` (:math:`p > 0`) of a numeric description by mpmath
    quadrature of its pieces (:func:`dpsym.distributions.scipy_face.quadrature_expectation`;
    a constant piece by its antiderivative), at the working precision: the independent
    route of :meth:`DeclaredNoise._cross_check`. The tail is unrolled until a period's
    share is below the working precision; None when that takes more than
    :data:`CROSS_CHECK_PERIODS` periods, or a piece of a mass function runs over more
    than :data:`CROSS_CHECK_POINTS` points."""
    p = mpmath.mpf(sp.Rational(power).p) / sp.Rational(power).q
    remaining = None
    if noise.tail is not None:
        start, period = (mpmath.mpf(sp.N(e, mpmath.mp.dps + 5))
                         for e in (noise.tail.start, noise.tail.period))
        q = mpmath.mpf(sp.N(noise.tail.ratio, mpmath.mp.dps + 5))
        tol = mpmath.mpf(10) ** (-mpmath.mp.dps)

        def remaining(k: int, total: mpmath.mpf) -> bool:
            return q**k * (start + (k + 1) * period) ** (p + 1) > tol * total

    return quadrature_expectation(noise, lambda z: z**p,
                                  antiderivative=lambda z: z ** (p + 1) / (p + 1),
                                  remaining=remaining, periods=CROSS_CHECK_PERIODS,
                                  points=CROSS_CHECK_POINTS)


def _no_certified_profile(name: str, reason: object = None) -> UnsupportedError:
    why = "" if reason is None else f" ({reason})"
    return UnsupportedError(
        f"{name}: the privacy profile is certified for lattice noise, piecewise-constant "
        "densities and the closed forms (Laplace, truncated Laplace, uniform with a point "
        f"mass, normal, staircase); this noise's shape is none of them{why}")


# ---------------------------------------------------------------------- exact decisions
def _sym(value: object) -> sp.Expr:
    if isinstance(value, Fraction):
        return sp.Rational(value.numerator, value.denominator)
    return sp.sympify(value)


def _exact(value: object) -> Fraction | sp.Expr:
    v = _sym(value)
    if v.is_Rational:
        return Fraction(int(v.p), int(v.q))
    return v


def _ball(expr: sp.Expr, prec: int) -> flint.arb | None:
    """A rigorous ball of a constant expression (None where Arb does not evaluate it)."""
    try:
        return ball_enclosure(sp.sympify(expr), {}, prec)
    except (ValueError, TypeError, ZeroDivisionError, NotImplementedError):
        return None


@exclusive
def _decided_sign(expr: sp.Expr) -> int | None:
    """The sign of a constant expression: exactly (rationals), by balls at growing
    precision, or by an exact simplification to zero; None when undecided."""
    expr = sp.sympify(expr)
    if expr.is_Rational:
        return int(sp.sign(expr))
    for prec in (64, 256, 1024):
        found = _ball(expr, prec)
        if found is None or not found.is_finite():
            break
        if found > 0:
            return 1
        if found < 0:
            return -1
    if sp.simplify(expr) == 0:
        return 0
    return None


#: A variable's range for the proofs of :func:`proven_nonnegative`: ``(symbol, lo, hi)``
#: (``hi`` may be :math:`\infty`), or ``(symbol, lo, hi, True)`` for a range open at
#: ``lo``.
Range = tuple[sp.Symbol, sp.Expr, sp.Expr] | tuple[sp.Symbol, sp.Expr, sp.Expr, bool]


def proven_nonnegative(expr: sp.Expr, ranges: Sequence[Range], *, strict: bool = False
                       ) -> bool:
    r"""Whether sympy proves ``expr`` :math:`\ge 0` (:math:`> 0` if ``strict``) for every
    point of ``ranges`` (and any values of the other symbols allowed by their
    assumptions).

    Each variable :math:`v \in [a, c)` is written :math:`a + (c - a)\,s/(1 + s)`
    (:math:`s \ge 0`; :math:`a + s` for :math:`c = \infty`, or for :math:`c \ge 10^6`:
    a wider range only makes the proof harder), in the order given (a range may involve
    later variables), and sympy's assumptions decide the sign of the result, after
    :func:`sympy.together` (and :func:`sympy.factor` for a rational function). An
    exponential :math:`1 - e^{w}` is positive when :math:`-w` is. False means *not
    proven*.
    """
    expr = sp.sympify(expr)

    def decided(e: sp.Expr) -> bool:
        return bool(e.is_positive if strict else e.is_nonnegative)

    if decided(expr):
        return True
    rest = (expr - 1).as_coeff_Add()
    if rest[0] == 0 and isinstance(-rest[1], sp.exp):  # 1 - exp(w)
        return proven_nonnegative(-(-rest[1]).args[0], ranges, strict=True)
    if isinstance(-expr, sp.log):  # -log(y), y > 0: as 1 - y
        return proven_nonnegative(1 - (-expr).args[0], ranges, strict=strict)
    for first_end in (True, False):
        current = expr
        for var, lo, hi, *lower_open in ranges:
            if var not in current.free_symbols:
                continue
            s = sp.Dummy("s", positive=True) if lower_open and lower_open[0] else \
                sp.Dummy("s", nonnegative=True)
            lo, hi = sp.sympify(lo), sp.sympify(hi)
            if hi == sp.oo or (hi.is_number and hi >= 10**6):
                current = current.xreplace({var: lo + s})
            elif first_end:
                current = current.xreplace({var: lo + (hi - lo) * s / (1 + s)})
            else:
                current = current.xreplace({var: hi - (hi - lo) * s / (1 + s)})
        if decided(current):
            return True
        if sp.count_ops(current) > 200:
            continue
        together = sp.together(current)
        if decided(together):
            return True
        if together.is_rational_function() and decided(sp.factor(together)):
            return True
    return False


#: Cells of the subdivision that proves a piece nonnegative at an instance.
MAX_CELLS = 4096


@exclusive
def _numeric_nonnegative(expr: sp.Expr, var: sp.Symbol | None, lo: sp.Expr, hi: sp.Expr
                         ) -> bool | str:
    r"""Whether ``expr`` (numeric but for ``var``) is :math:`\ge 0` for ``var`` in
    :math:`[lo, hi)`: True, or the reason it is not proven (a negative value found, or
    undecided). Constants by :func:`_decided_sign`; functions of ``var`` by
    :func:`proven_nonnegative`, then by Arb balls over a subdivision of a bounded
    interval (every cell's ball :math:`\ge 0`)."""
    if var is None or var not in expr.free_symbols:
        side = _decided_sign(expr)
        if side is None:
            return f"the sign of {expr} is undecided"
        return True if side >= 0 else f"is negative ({expr})"
    side = _decided_sign(hi - lo)
    if side is None:
        return f"the order of its ends {lo} and {hi} is undecided"
    if side <= 0:
        return True  # an empty piece
    if proven_nonnegative(expr, [(var, lo, hi)]):
        return True
    if hi == sp.oo:
        return (f"is not proven nonnegative on [{lo}, oo) (write it so that sympy sees its "
                "sign, e.g. as a product of positive factors)")
    fn = BallFunction.prepare(expr, {}, var)
    if fn is None:
        return f"is not proven nonnegative on [{lo}, {hi}) (Arb does not evaluate it)"
    with arb_workprec(128):
        a, c = _ball(lo, 128), _ball(hi, 128)
        if a is None or c is None:
            return f"is not proven nonnegative on [{lo}, {hi})"
        cells = [(a.lower(), c.upper())]
        done = 0
        while cells:
            left, right = cells.pop()
            value = fn(flint.arb(left).union(flint.arb(right)))
            if value >= 0:
                done += 1
                continue
            point = fn((flint.arb(left) + flint.arb(right)) / 2)
            if point < 0:
                where = mpmath.nstr(mpmath.mpf(float((left + right) / 2)), 6)
                return f"is negative at x = {where} (value {point.str(5, radius=False)})"
            if done + len(cells) > MAX_CELLS:
                return f"is not proven nonnegative on [{lo}, {hi}) (undecided near a zero)"
            middle = (left + right) / 2
            cells += [(left, middle), (middle, right)]
    return True


# ---------------------------------------------------------------------- validation
#: Names a parameter of a declaration may not take: the variables, the engine's symbols
#: and the grammar's functions and constants.
RESERVED = frozenset({"x", "u", "b", "k", "i", "p", "c", "d", "e", "E", "pi", "log", "ln",
                      "exp", "sqrt", "abs", "a_norm", "oo", "inf", "cost", "t"})
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")


def _ranges(cls: type[DeclaredNoise]) -> list[Range]:
    """The ranges of the free parameter and of the parameters (from their domains)."""
    out: list[Range] = []
    if cls.free is not None:
        out.append((cls.free.symbol, cls.free.lower, cls.free.upper))
    for prm in cls.params:
        dom = prm.domain
        lo = -sp.oo if dom.lower is None else _sym(dom.lower)
        hi = sp.oo if dom.upper is None else _sym(dom.upper)
        if lo != -sp.oo:
            out.append((prm.symbol, lo, hi, dom.lower_open))
    if any(prm.symbol is eps for prm in cls.params):
        out.append((b, sp.Integer(0), sp.Integer(1), True))
    return out


def _typical_point(cls: type[DeclaredNoise]) -> dict[sp.Symbol, sp.Expr]:
    """Exact parameter values inside the domains (midpoints of the typical ranges, the
    free parameter at the middle of its range), for the searches of a counterexample."""
    point: dict[sp.Symbol, sp.Expr] = {}
    for prm in cls.params:
        if prm.default is not None:
            point[prm.symbol] = _sym(prm.validate_exact(prm.default))
            continue
        lo, hi = (parse_number(v, prm.name) for v in prm.typical)
        mid = (lo + hi) / 2
        if prm.domain.integer:
            mid = Fraction(round(mid))
        point[prm.symbol] = _sym(mid)
    if eps in point:
        point[b] = sp.exp(-point[eps])
    if cls.free is not None:
        fp = cls.free
        lo, hi = (sp.sympify(e).xreplace(point) for e in (fp.lower, fp.upper))
        mid = (lo + hi) / 2
        point[fp.symbol] = sp.floor(mid) if fp.integer else mid
    return point


def _point_text(point: Mapping[sp.Symbol, sp.Expr], expr: object) -> str:
    """The values of ``point`` that ``expr`` depends on, as text (``eps=1, A=3``)."""
    used = sp.sympify(expr).free_symbols
    if b in used:
        used |= {eps}
    return ", ".join(f"{s}={v}" for s, v in point.items() if s in used and s is not b)


def _witness_negative(expr: sp.Expr, var: sp.Symbol, lo: sp.Expr, hi: sp.Expr,
                      point: Mapping[sp.Symbol, sp.Expr]) -> str | None:
    """A point of ``[lo, hi)`` where ``expr`` is proven negative at the parameter
    ``point``, as text, or None."""
    lo_v, hi_v = (sp.sympify(e).xreplace(point) for e in (lo, hi))
    if not (lo_v.is_number and hi_v.is_number):
        return None
    width = sp.Integer(8) if hi_v == sp.oo else hi_v - lo_v
    for j in range(16):
        at = lo_v + width * sp.Rational(2 * j + 1, 32)
        value = sp.sympify(expr).xreplace(point).xreplace({var: at})
        if value.is_number and _decided_sign(value) == -1:
            shown = _point_text(point, expr)
            return f"x = {at}" + (f" ({shown})" if shown else "")
    return None


def _piece_key(where: str, j: int) -> str:
    return f"{where}[{j + 1}]"


@exclusive
def validate(cls: type[DeclaredNoise]) -> Checks:
    r"""Check a declaration (module docstring) and return what is left to each instance.

    Parameters
    ----------
    cls : type of DeclaredNoise
        The declaration, with its parameters, free parameter, derived parameters and
        :attr:`~DeclaredNoise.density`.

    Returns
    -------
    Checks
        The decisions left to each instance's exact parameters.

    Raises
    ------
    DeclarationError
        Naming the key at fault: an unknown name, pieces that are not contiguous, a
        negative piece, a ratio outside :math:`(0, 1)`, a mass that is not 1, a density
        that does not decay, conditions the engine does not solve.
    """
    shape = cls.density
    if shape.lattice != cls.lattice:
        raise DeclarationError("lattice", "the class and its density disagree")
    if cls._line_density is not None:
        odd = sp.simplify(cls._line_density.subs(x, -x) - cls._line_density)
        if odd != 0:
            raise DeclarationError("density", f"is not symmetric: f(-x) - f(x) = {odd} is "
                                   "not 0")
    var_of = {"pieces": x, "tail.pieces": u}
    known = {prm.symbol for prm in cls.params} | {d.symbol for d in cls.derived}
    if cls.free is not None:
        known.add(cls.free.symbol)
    if any(prm.symbol is eps for prm in cls.params):
        known.add(b)
    known |= {NORM}
    _check_names(shape, known, var_of)
    ranges = _ranges(cls)
    point = _typical_point(cls)
    nonneg: list[tuple[str, sp.Expr, sp.Symbol | None, sp.Expr, sp.Expr]] = []
    below: list[tuple[str, sp.Expr, bool]] = []
    free_symbols = set() if cls.free is None else {cls.free.symbol}

    def need_nonnegative(key: str, expr: sp.Expr, var: sp.Symbol | None, lo: sp.Expr,
                         hi: sp.Expr, what: str) -> None:
        expr = sp.sympify(expr).xreplace({NORM: 1})  # (the constant is positive)
        here = ([(var, lo, hi)] if var is not None else []) + ranges
        if proven_nonnegative(expr, here):
            return
        involved = expr.free_symbols | sp.sympify(lo).free_symbols | \
            sp.sympify(hi).free_symbols
        if not involved - {var}:  # nothing depends on a parameter: decide it now
            found = _numeric_nonnegative(expr, var, sp.sympify(lo), sp.sympify(hi))
            if found is not True:
                raise DeclarationError(key, f"{what} {found}")
            return
        if var is not None:
            witness = _witness_negative(expr, var, lo, hi, point)
            if witness is not None:
                raise DeclarationError(key, f"{what} is negative at {witness}")
        elif _decided_sign(expr.xreplace(point)) == -1:
            raise DeclarationError(key, f"{what} is negative at {_point_text(point, expr)}")
        if involved & free_symbols:
            assert cls.free is not None  # (its symbol is involved)
            raise DeclarationError(key, f"{what} is not proven nonnegative for every "
                                   f"{cls.free.name} in its range; write it so that sympy "
                                   "sees its sign")
        nonneg.append((key, expr, var, lo, hi))

    def need_below_one(key: str, expr: sp.Expr, strict: bool) -> None:
        expr = sp.sympify(expr)
        if proven_nonnegative(1 - expr, ranges, strict=strict):
            return
        bound = "< 1" if strict else "<= 1"
        for at in ({}, point):
            side = _decided_sign(1 - expr.xreplace(at)) if not expr.xreplace(at).free_symbols \
                else None
            if side is not None and (side < 0 or (strict and side == 0)):
                raise DeclarationError(key, f"must be {bound}, got {expr.xreplace(at)}"
                                       + (f" at {_point_text(at, expr)}" if at else ""))
            if side is not None and not expr.free_symbols:
                return
        below.append((key, expr, strict))

    integers: list[tuple[str, sp.Expr]] = []
    # the parameters whose domains are integers, as integer symbols
    as_integers = {prm.symbol: sp.Symbol(prm.name, integer=True) for prm in cls.params
                   if prm.domain.integer}

    def need_integer(key: str, expr: sp.Expr) -> None:
        expr = sp.sympify(expr)
        if not shape.lattice or expr == sp.oo or expr.xreplace(as_integers).is_integer:
            return
        if expr.free_symbols:
            integers.append((key, expr))
        else:
            raise DeclarationError(key, f"must be an integer (a mass function's piece "
                                   f"bound), got {expr}")

    def layout(where: str, pieces: Sequence[Piece], start: sp.Expr, end: sp.Expr | None,
               var: sp.Symbol) -> None:
        edge = sp.sympify(start)
        for j, pc in enumerate(pieces):
            key = _piece_key(where, j)
            need_integer(f"{key}.lo", pc.lo)
            need_integer(f"{key}.hi", pc.hi)
            if sp.simplify(sp.sympify(pc.lo) - edge) != 0:
                raise DeclarationError(f"{key}.lo", f"must be {edge} (the pieces are "
                                       f"contiguous from {start}), got {pc.lo}")
            if sp.sympify(pc.hi) != sp.oo:
                need_nonnegative(f"{key}.hi", sp.sympify(pc.hi) - pc.lo, None, 0, 0,
                                 "hi - lo")
            need_nonnegative(f"{key}.density", pc.expr, var, pc.lo, pc.hi, "the density")
            edge = sp.sympify(pc.hi)
        if end is not None and sp.simplify(edge - end) != 0:
            raise DeclarationError(f"{where}", f"must end at the period {end}, not {edge}")

    if any(sp.sympify(pc.hi) == sp.oo for pc in shape.head[:-1]):
        raise DeclarationError("pieces", "only the last piece may be unbounded")
    layout("pieces", shape.head, sp.Integer(0), None, x)
    if shape.tail is not None:
        t = shape.tail
        if shape.head and sp.sympify(shape.head[-1].hi) == sp.oo:
            raise DeclarationError("tail", "a tail after an unbounded piece")
        head_end = sp.sympify(shape.head[-1].hi) if shape.head else sp.Integer(0)
        if sp.simplify(sp.sympify(t.start) - head_end) != 0:
            raise DeclarationError("tail.start", f"must be {head_end} (where the pieces "
                                   f"end), got {t.start}")
        if not proven_nonnegative(sp.sympify(t.period), ranges, strict=True):
            raise DeclarationError("tail.period", f"must be > 0, got {t.period}")
        need_nonnegative("tail.ratio", t.ratio, None, 0, 0, "the ratio")
        need_below_one("tail.ratio", t.ratio, True)
        layout("tail.pieces", t.pieces, sp.Integer(0), t.period, u)
    elif not shape.head:
        raise DeclarationError("pieces", "no piece and no tail: declare the density")
    atom = sp.sympify(shape.atom)
    if atom != 0:
        if shape.lattice:
            raise DeclarationError("atom", "a mass function has no separate atom (the "
                                   "mass at 0 is the first piece's value at 0)")
        need_nonnegative("atom", atom, None, 0, 0, "the point mass")
        need_below_one("atom", atom, False)
    moments_below = _decay(cls, shape, ranges)
    _check_mass(cls, shape, point)
    if shape.tail is not None:
        need_integer("tail.start", shape.tail.start)
        need_integer("tail.period", shape.tail.period)
    return Checks(tuple(nonneg), tuple(below), moments_below, tuple(integers))


def _check_names(shape: SymmetricNoise, known: set[sp.Symbol],
                 var_of: Mapping[str, sp.Symbol]) -> None:
    def check(key: str, expr: object, var: sp.Symbol | None) -> None:
        extra = sp.sympify(expr).free_symbols - known - ({var} if var is not None else set())
        if extra:
            names = ", ".join(sorted(map(str, extra)))
            raise DeclarationError(key, f"unknown name {names} (declare it under params)")
        if sp.sympify(expr).has(sp.Float):
            raise DeclarationError(key, "a float is not exact; write decimals as text")

    for where, pieces in (("pieces", shape.head),
                          ("tail.pieces", () if shape.tail is None else shape.tail.pieces)):
        for j, pc in enumerate(pieces):
            key = _piece_key(where, j)
            check(f"{key}.lo", pc.lo, None)
            check(f"{key}.hi", pc.hi, None)
            check(f"{key}.density", pc.expr, var_of[where])
    if shape.tail is not None:
        for name in ("start", "period", "ratio"):
            check(f"tail.{name}", getattr(shape.tail, name), None)
    check("atom", shape.atom, None)


def _decay(cls: type[DeclaredNoise], shape: SymmetricNoise, ranges: Sequence[Range]
           ) -> sp.Expr | None:
    r"""The order below which every moment is finite (None: all), from the last piece
    when it is unbounded: :math:`\lim \log f(x)/x < 0` (exponential decay, all moments),
    else :math:`f(x) \sim x^{-a}`, :math:`a > 1` (moments below :math:`a - 1`)."""
    if not shape.head or sp.sympify(shape.head[-1].hi) != sp.oo:
        return None
    key = f"pieces[{len(shape.head)}].density"
    f = sp.sympify(shape.head[-1].expr)
    if x not in f.free_symbols:
        raise DeclarationError(key, "an unbounded piece must decay: a constant density "
                               "has infinite mass")
    log_f = sp.expand_log(sp.log(f), force=True)  # C q^x: log C + x log q
    if log_f.is_polynomial(x) and sp.degree(log_f, x) >= 1:
        lead = sp.Poly(log_f, x).LC()
        if (-lead).is_positive:
            return None  # exponential decay (or faster): every moment is finite
        if proven_nonnegative(-lead, ranges, strict=True):
            raise DeclarationError(key, f"write the decay as exp(-r*x) with a positive "
                                   f"parameter r: sympy's integrals need the sign of {lead}")
    try:
        rate = sp.limit(sp.log(f) / x, x, sp.oo)
        if rate.is_extended_negative or proven_nonnegative(-rate, ranges, strict=True):
            return None  # (-oo: faster than any exponential)
        power = -sp.limit(sp.log(f) / sp.log(x), x, sp.oo) if rate.is_zero else None
    except (NotImplementedError, ValueError, TypeError):
        power = None
    if power is None or power.has(sp.Limit) or power.is_extended_real is not True:
        raise DeclarationError(key, "cannot decide how the density decays at infinity "
                               "(exponentially, or as a power of x)")
    over_one = sp.simplify(power - 1)
    if not proven_nonnegative(over_one, ranges, strict=True):
        if over_one.is_number or over_one.is_nonpositive:
            raise DeclarationError(key, f"the density decays as x^-({power}): its mass is "
                                   "infinite (a power decay needs an exponent > 1)")
        raise DeclarationError(key, f"the density decays as x^-({power}); declare the "
                               "parameters so that its exponent is > 1")
    return sp.simplify(over_one)


def _check_mass(cls: type[DeclaredNoise], shape: SymmetricNoise,
                point: Mapping[sp.Symbol, sp.Expr]) -> None:
    """Total mass one, identically (or the constant solved, the conditions solved)."""
    try:
        solved = cls.engine.calibration()
    except (UnsupportedError, NotImplementedError, ValueError) as err:
        raise DeclarationError("derived" if cls.derived else "normalise",
                               f"the engine does not solve the definition: {err}") from None
    if NORM in shape.free_symbols():
        norm = solved.get(NORM)
        if norm is not None and norm.has(sp.Integral, sp.Sum):
            raise DeclarationError("pieces", "sympy does not integrate (or sum) the density "
                                   "in closed form")
        if norm is None or norm.has(sp.zoo, sp.nan, sp.oo):
            raise DeclarationError("normalise", "the total mass is 0 or infinite: nothing "
                                   "to normalise")
        return
    mass = shape.total_mass()
    if mass.has(sp.Integral, sp.Sum):
        raise DeclarationError("pieces", f"sympy does not integrate the density in closed "
                               f"form ({mass})")
    gap = sp.sympify(mass).subs(solved) - 1
    for attempt in (lambda e: e, sp.simplify, lambda e: sp.simplify(e.subs(b, sp.exp(-eps)))):
        if attempt(gap) == 0:
            return
    total = sp.sympify(mass).subs(solved)
    value = total.xreplace(point)
    found = _ball(value, 128)
    if found is not None and found.is_finite() and not (found - 1).contains(0):
        shown = str(value) if value.is_Rational else found.str(6, radius=False)
        where = f" at {_point_text(point, total)}" if total.free_symbols else ""
        raise DeclarationError("pieces", f"the total mass is {shown}, not 1{where}; correct "
                               "the density or set normalise = true")
    raise DeclarationError("pieces", f"the total mass is not proven to be 1 (mass - 1 "
                           f"simplifies to {sp.simplify(gap)}); set normalise = true to "
                           "solve the constant")


# ---------------------------------------------------------------------- declaring
_CATALOGUE_SYMBOLS = {"eps": eps, "delta": delta, "Delta": Delta}
_KNOWN_KEYS = ("name", "title", "lattice", "normalise", "guarantee", "params", "free",
               "derived", "pieces", "density", "support", "tail", "atom")


def _text(value: object, key: str, variables: Mapping[str, sp.Symbol]) -> sp.Expr:
    """An expression of a declaration: text in the safe grammar, or an exact number or
    sympy expression (whose names must be declared: checked by :func:`validate`)."""
    if isinstance(value, bool):
        raise DeclarationError(key, f"expected an expression, got {value!r}")
    if isinstance(value, str):
        text = value.strip()
        if text in ("oo", "inf", "+oo", "+inf", "infinity"):
            return sp.oo
        try:
            return parse_function(text, key, variables)
        except DomainError as err:
            body = str(err).partition(": ")[2]
            hint = " (declare it under params)" if "unknown name" in body else ""
            raise DeclarationError(key, body + hint) from None
    if isinstance(value, (int, float, Fraction)):  # a float as the decimal it prints as
        try:
            exact = parse_number(value, key)
        except DomainError as err:
            raise DeclarationError(key, str(err).partition(": ")[2]) from None
        return sp.Rational(exact.numerator, exact.denominator)
    if isinstance(value, sp.Basic):
        expr = sp.sympify(value)
        if expr.has(sp.Float):
            raise DeclarationError(key, "a sympy Float is not exact; use Rationals")
        # the caller's own symbols by their names (their assumptions may differ)
        return expr.xreplace({s: variables[s.name] for s in expr.free_symbols
                              if s.name in variables})
    raise DeclarationError(key, f"expected an expression, got {type(value).__name__}")


def _domain(spec: object, key: str) -> Domain:
    """An interval ``"(0, oo)"``, ``"[0, 1]"``, ``"(0, 1/2)"`` as a :class:`Domain`."""
    if not isinstance(spec, str):
        raise DeclarationError(key, f"expected an interval such as \"(0, oo)\", got {spec!r}")
    found = re.fullmatch(r"\s*([\[(])\s*([^,]+?)\s*,\s*([^,]+?)\s*([\])])\s*", spec)
    if found is None:
        raise DeclarationError(key, f"expected an interval such as \"(0, oo)\" or "
                               f"\"[0, 1]\", got {spec[:40]!r}")
    left, lo_text, hi_text, right = found.groups()
    ends: list[Fraction | None] = []
    for text, infinite in ((lo_text, ("-oo", "-inf")), (hi_text, ("oo", "inf", "+oo"))):
        ends.append(None if text in infinite else parse_number(text, key))
    lo, hi = ends
    if lo is not None and hi is not None and lo >= hi:
        raise DeclarationError(key, f"an empty interval {spec!r}")
    return Domain(lower=lo, upper=hi, lower_open=left == "(" or lo is None,
                  upper_open=right == ")" or hi is None)


def _param(name: str, spec: Mapping[str, Any], lattice: bool) -> Param:
    key = f"params.{name}"
    allowed = {"domain", "typical", "description", "default", "integer", "upper"}
    _no_unknown(spec, allowed, key)
    integer = spec.get("integer", False)
    if not isinstance(integer, bool):
        raise DeclarationError(f"{key}.integer", "must be true or false")
    default = spec.get("default")
    if name in _CATALOGUE_SYMBOLS and "domain" not in spec:
        upper = spec.get("upper")
        top = None if upper is None else parse_number(str(upper), f"{key}.upper")
        if name == "eps":
            prm = eps_param() if top is None else eps_param(upper=top)
        elif name == "delta":
            prm = delta_param() if top is None else delta_param(top)
        else:
            prm = sensitivity_param(integer=integer or lattice,
                                    upper=None if top is None else int(top))
        if default is not None:
            prm = Param(prm.name, prm.symbol, prm.domain, prm.description, prm.typical,
                        str(default))
    else:
        if "upper" in spec:
            raise DeclarationError(f"{key}.upper", "give the whole domain instead")
        if "domain" not in spec:
            raise DeclarationError(f"{key}.domain", "required, e.g. \"(0, oo)\"")
        dom = _domain(spec["domain"], f"{key}.domain")
        dom = Domain(dom.lower, dom.upper, dom.lower_open, dom.upper_open, integer)
        typical = spec.get("typical")
        if typical is None:
            typical = _typical_of(dom)
        if (not isinstance(typical, (list, tuple)) or len(typical) != 2):
            raise DeclarationError(f"{key}.typical", "expected two numbers [lo, hi]")
        typical = tuple(str(v) for v in typical)
        for v in typical:
            if parse_number(v, f"{key}.typical") not in dom:
                raise DeclarationError(f"{key}.typical", f"{v} is not in {dom.describe()}")
        if name in _CATALOGUE_SYMBOLS:
            symbol = _CATALOGUE_SYMBOLS[name]
        else:
            symbol = _symbol(name, dom.lower, dom.lower_open, integer)
        prm = Param(name, symbol, dom, str(spec.get("description", f"the parameter {name}")),
                    typical, None if default is None else str(default))
    if prm.default is not None:
        try:
            prm.validate_exact(prm.default)
        except DomainError as err:
            raise DeclarationError(f"{key}.default", str(err).partition(": ")[2]) from None
    return prm


def _typical_of(dom: Domain) -> tuple[str, str]:
    lo = dom.lower if dom.lower is not None else Fraction(-1)
    hi = dom.upper if dom.upper is not None else lo + 3
    a, c = lo + (hi - lo) / 4, lo + 3 * (hi - lo) / 4
    if dom.integer:
        a, c = Fraction(int(a) + 1), Fraction(max(int(c), int(a) + 1))
    return (str(a), str(c))


def _symbol(name: str, lower: Fraction | None, lower_open: bool, integer: bool) -> sp.Symbol:
    """The symbol of a declared name, with the assumptions its domain gives."""
    assumptions: dict[str, bool] = {"real": True}
    if lower is not None and (lower > 0 or (lower == 0 and lower_open)):
        assumptions = {"positive": True}
    elif lower is not None and lower >= 0:
        assumptions = {"nonnegative": True}
    if integer:
        assumptions["integer"] = True
    return sp.Symbol(name, **assumptions)


def _no_unknown(spec: Mapping[str, Any], allowed: Iterable[str], key: str) -> None:
    if not isinstance(spec, Mapping):
        raise DeclarationError(key, f"expected a table, got {type(spec).__name__}")
    allowed = list(allowed)
    for name in spec:
        if name not in allowed:
            near = suggestion(str(name), allowed)
            hint = f"did you mean {near!r}? " if near else ""
            raise DeclarationError(f"{key}.{name}" if key else str(name),
                                   f"unknown key; {hint}valid: {', '.join(allowed)}")


def _params(spec: object, lattice: bool, used: set[str]) -> tuple[Param, ...]:
    if spec is None:
        names: dict[str, Any] = {n: {} for n in ("eps", "delta") if n in used}
    elif isinstance(spec, (list, tuple)):
        names = {}
        for name in spec:
            if not isinstance(name, str) or name not in _CATALOGUE_SYMBOLS:
                raise DeclarationError("params", f"a list names catalogue parameters "
                                       f"(eps, delta, Delta); declare {name!r} as a table "
                                       "with its domain")
            names[name] = {}
    elif isinstance(spec, Mapping):
        names = dict(spec)
    else:
        raise DeclarationError("params", "expected a table of parameters or a list of names")
    out = []
    for name, body in names.items():
        if not isinstance(name, str) or not _NAME.match(name) or keyword.iskeyword(name) \
                or name in RESERVED:
            raise DeclarationError(f"params.{name}", "is not a valid parameter name "
                                   f"(reserved: {', '.join(sorted(RESERVED))})")
        out.append(_param(name, {} if body is None else body, lattice))
    if not any(prm.name == "Delta" for prm in out):
        out.append(sensitivity_param(integer=lattice))
    return tuple(out)


def _pieces(spec: object, key: str, variables: Mapping[str, sp.Symbol]) -> tuple[Piece, ...]:
    if spec is None:
        return ()
    if not isinstance(spec, (list, tuple)):
        raise DeclarationError(key, "expected a list of pieces [lo, hi, density]")
    out = []
    for j, item in enumerate(spec):
        at = _piece_key(key, j)
        if isinstance(item, Mapping):
            _no_unknown(item, ("lo", "hi", "density"), at)
            missing = [n for n in ("lo", "hi", "density") if n not in item]
            if missing:
                raise DeclarationError(f"{at}.{missing[0]}", "required")
            lo, hi, dens = item["lo"], item["hi"], item["density"]
        elif isinstance(item, (list, tuple)) and len(item) == 3:
            lo, hi, dens = item
        else:
            raise DeclarationError(at, "expected {lo, hi, density} or [lo, hi, density]")
        bounds = {n: s for n, s in variables.items() if n not in ("x", "u")}
        out.append(Piece(_text(lo, f"{at}.lo", bounds), _text(hi, f"{at}.hi", bounds),
                         _positive_side(_text(dens, f"{at}.density", variables))))
    return tuple(out)


def _positive_side(expr: sp.Expr) -> sp.Expr:
    r"""A density on :math:`[0, \infty)`: ``abs`` of the variable is the variable."""
    for var in (x, u):
        if var in expr.free_symbols and expr.has(sp.Abs):
            s = sp.Dummy("s", nonnegative=True)
            expr = expr.xreplace({var: s}).xreplace({s: var})
            expr = sp.sympify(expr).subs(sp.Abs(var), var)
    return expr


def declare_noise(name: str, *, pieces: Sequence[object] = (), density: object = None,
                  support: object = None, tail: Mapping[str, Any] | None = None,
                  atom: object = None, lattice: bool = False,
                  params: Mapping[str, Any] | Sequence[str] | None = None,
                  free: Mapping[str, Any] | None = None,
                  derived: Mapping[str, Mapping[str, Any]] | None = None,
                  normalise: bool = False, guarantee: str | None = None,
                  title: str | None = None) -> type[DeclaredNoise]:
    r"""Declare a symmetric noise and return its mechanism class, validated
    (:func:`validate`).

    Expressions are text in dpsym's safe grammar
    (:func:`dpsym.core.expressions.parse_function`: rationals, ``+ - * / ^``, ``exp``,
    ``log``, ``sqrt``, ``abs``, ``pi``, ``e``, the declared names; never ``eval``),
    numbers (exact; a float is the decimal it prints as) or sympy expressions (their
    symbols read by name).

    Parameters
    ----------
    name : str
        Its name (the CLI name of the class; not a catalogue name).
    pieces : sequence
        The density on :math:`[0, \infty)` (a mass function on :math:`0, 1, \dots` when
        ``lattice``): pieces ``{"lo", "hi", "density"}`` or ``(lo, hi, density)`` in the
        variable ``x``, contiguous from 0, the last one possibly up to ``"oo"``; mirrored
        on the negative side.
    density : str or sympy.Expr, optional
        Instead of ``pieces``: the density on the whole line (proven even), on
        :math:`|x| <` ``support`` (default :math:`\infty`).
    support : str, optional
        The half-width of the support of ``density``.
    tail : mapping, optional
        A geometric tail ``{"start", "period", "ratio", "pieces"}`` after the pieces: copy
        :math:`k` of the shape ``pieces`` (in the local variable ``u`` on
        :math:`[0, \mathrm{period})`) on :math:`[s + kT, s + (k + 1)T)`, scaled by
        ``ratio``:math:`^k`.
    atom : str, optional
        A point mass at 0 (continuous noise).
    lattice : bool
        Integer-valued noise (a mass function).
    params : mapping or sequence of str, optional
        The parameters: ``{name: {"domain": "(0, oo)", "typical": [lo, hi],
        "description": ..., "default": ..., "integer": bool}}``; ``eps``, ``delta`` and
        ``Delta`` are the catalogue's (options ``upper``, ``integer``, ``default``), and a
        list of those names declares them as in the catalogue. The sensitivity ``Delta``
        is always a parameter (default 1). Default: the catalogue names used.
    free : mapping, optional
        A free parameter ``{"name", "lower", "upper", "integer"}``; its optimal value is
        found per cost (like the staircase's :math:`\gamma`).
    derived : mapping, optional
        Derived parameters, in order: ``{name: {"mass": [lo, hi], "piece": j, "equals":
        rhs, "description": ...}}`` fixes ``name`` by the condition that piece ``j``
        (default: the only piece) has mass ``rhs`` on :math:`[lo, hi)`;
        ``{name: {"normaliser": true}}`` names the normalising constant.
    normalise : bool
        Multiply the pieces by an unknown constant solved from total mass one.
    guarantee : str, optional
        ``"eps"``, ``"eps,delta"`` or ``"0,delta"`` (default: ``"eps,delta"`` when
        ``delta`` is a parameter, else ``"eps"``): a claim, decided by ``compare``.
    title : str, optional
        A title for listings.

    Returns
    -------
    type of DeclaredNoise
        The mechanism class.

    Raises
    ------
    DeclarationError
        Naming the key at fault and the fault (module docstring).
    """
    return noise_from_mapping({
        "name": name, "pieces": pieces, "density": density, "support": support,
        "tail": tail, "atom": atom, "lattice": lattice, "params": params, "free": free,
        "derived": derived, "normalise": normalise, "guarantee": guarantee, "title": title})


def _names_in(spec: Mapping[str, Any]) -> set[str]:
    """The identifiers written in a declaration's expressions (to infer catalogue
    parameters)."""
    found: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, str):
            found.update(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", value))
        elif isinstance(value, sp.Basic):
            found.update(str(s) for s in value.free_symbols)
        elif isinstance(value, Mapping):
            for item in value.values():
                walk(item)
        elif isinstance(value, (list, tuple)):
            for item in value:
                walk(item)

    for key in ("pieces", "density", "support", "tail", "atom", "free", "derived"):
        walk(spec.get(key))
    if "b" in found:
        found.add("eps")
    return found


@exclusive
def noise_from_mapping(spec: Mapping[str, Any], *, defer: bool = False,
                       origin: str | None = None) -> type[DeclaredNoise]:
    """The mechanism class of a declaration given as a mapping (the content of a TOML or
    JSON noise file; :func:`declare_noise`'s keywords). Keys left ``None`` take their
    defaults. The text is read at once; the validation (:func:`validate`: signs, mass,
    decay) too, or at the class's first use with ``defer``, where a refusal names
    ``origin`` (where the declaration was read, ``--noise FILE``).

    Raises
    ------
    DeclarationError
        Naming the key at fault.
    """
    spec = {k: v for k, v in spec.items() if v is not None}
    _no_unknown(spec, _KNOWN_KEYS, "")
    name = spec.get("name")
    if not isinstance(name, str) or not re.fullmatch(r"[a-z][a-z0-9-]*", name) or len(name) > 40:
        raise DeclarationError("name", "required: lowercase letters, digits and '-', "
                               f"starting with a letter, at most 40 characters, got {name!r}")
    lattice = spec.get("lattice", False)
    normalise = spec.get("normalise", False)
    for key, flag in (("lattice", lattice), ("normalise", normalise)):
        if not isinstance(flag, bool):
            raise DeclarationError(key, f"must be true or false, got {flag!r}")
    prms = _params(spec.get("params"), lattice, _names_in(spec))
    variables: dict[str, sp.Symbol] = {prm.name: prm.symbol for prm in prms}
    if "eps" in variables:
        variables["b"] = b
    fp = _free(spec.get("free"), variables)
    derived_spec = spec.get("derived") or {}
    if not isinstance(derived_spec, Mapping):
        raise DeclarationError("derived", "expected a table of derived parameters")
    derived_symbols = {}
    for dname in derived_spec:
        if not isinstance(dname, str) or not _NAME.match(dname) or dname in RESERVED \
                or dname in variables:
            raise DeclarationError(f"derived.{dname}", "is not a valid new name")
        if not (derived_spec[dname] or {}).get("normaliser"):
            derived_symbols[dname] = sp.Symbol(dname, positive=True)
    variables.update(derived_symbols)
    head, tail, atom, line = _shape(spec, variables, lattice)
    if normalise:
        head = tuple(Piece(pc.lo, pc.hi, NORM * pc.expr) for pc in head)
        if tail is not None:
            tail = GeometricTail(tail.start, tail.period, tail.ratio,
                                 tuple(Piece(pc.lo, pc.hi, NORM * pc.expr)
                                       for pc in tail.pieces))
    shape = SymmetricNoise(lattice=lattice, head=head, tail=tail,
                           atom=atom if atom is not None else sp.Integer(0))
    derived, conditions = _derived(derived_spec, derived_symbols, variables, shape,
                                   normalise)
    has_delta = any(prm.name == "delta" for prm in prms)
    guarantee = spec.get("guarantee", "eps,delta" if has_delta else "eps")
    try:
        guarantee = Guarantee(guarantee)
    except ValueError:
        raise DeclarationError("guarantee", "must be \"eps\", \"eps,delta\" or \"0,delta\", "
                               f"got {guarantee!r}") from None
    attrs = {
        "name": name, "title": str(spec.get("title", f"declared noise {name}")),
        "source": "declared", "lattice": lattice, "guarantee": guarantee, "params": prms,
        "free": fp, "derived": derived, "density": shape, "_mass_conditions": conditions,
        "_line_density": line,
        "_origin": origin,
        "__module__": "declared", "__doc__": f"The declared noise {name}.",
    }
    class_name = "".join(part.capitalize() for part in name.split("-"))
    cls = cast(type[DeclaredNoise], type(class_name, (DeclaredNoise,), attrs))
    if defer:
        cls._pending = True
    else:
        cls._checks = validate(cls)
    return cls


def _free(spec: Mapping[str, Any] | None, variables: dict[str, sp.Symbol]
          ) -> FreeParameter | None:
    if spec is None:
        return None
    _no_unknown(spec, ("name", "lower", "upper", "integer"), "free")
    name = spec.get("name")
    if not isinstance(name, str) or not _NAME.match(name) or name in RESERVED \
            or name in variables:
        raise DeclarationError("free.name", f"required, a new name, got {name!r}")
    integer = spec.get("integer", False)
    if not isinstance(integer, bool):
        raise DeclarationError("free.integer", "must be true or false")
    bounds = dict(variables)
    lower = _text(spec.get("lower", "0"), "free.lower", bounds)
    upper = _text(spec.get("upper", "1"), "free.upper", bounds)
    if lower.is_number and upper.is_number and not lower < upper:
        raise DeclarationError("free", f"needs lower < upper, got [{lower}, {upper}]")
    if name == "gamma" and lower == 0 and not integer:
        symbol = gamma
    elif name == "r" and integer and lower.is_positive:
        symbol = r
    else:
        symbol = sp.Symbol(name, integer=True) if integer else \
            sp.Symbol(name, nonnegative=True) if lower.is_nonnegative else \
            sp.Symbol(name, real=True)
    variables[name] = symbol
    return FreeParameter(name, symbol, lower, upper, integer)


def _shape(spec: Mapping[str, Any], variables: dict[str, sp.Symbol], lattice: bool
           ) -> tuple[tuple[Piece, ...], GeometricTail | None, sp.Expr | None, sp.Expr | None]:
    head_vars = {**variables, "x": x}
    f = None
    if "density" in spec:
        if spec.get("pieces"):
            raise DeclarationError("density", "give pieces or a density, not both")
        f = _text(spec["density"], "density", head_vars)
        bound = {k: v for k, v in variables.items()}
        top = sp.oo if "support" not in spec else _text(spec["support"], "support", bound)
        head: tuple[Piece, ...] = (Piece(sp.Integer(0), top, _positive_side(f)),)
    else:
        if "support" in spec:
            raise DeclarationError("support", "goes with density (pieces have their ends)")
        head = _pieces(spec.get("pieces"), "pieces", head_vars)
    tail = None
    if "tail" in spec:
        t = spec["tail"]
        _no_unknown(t, ("start", "period", "ratio", "pieces"), "tail")
        for key in ("period", "ratio", "pieces"):
            if key not in t:
                raise DeclarationError(f"tail.{key}", "required")
        start_default = head[-1].hi if head else sp.Integer(0)
        tail = GeometricTail(
            _text(t["start"], "tail.start", variables) if "start" in t else start_default,
            _text(t["period"], "tail.period", variables),
            _text(t["ratio"], "tail.ratio", variables),
            _pieces(t["pieces"], "tail.pieces", {**variables, "u": u}))
    atom = None
    if "atom" in spec:
        atom = _text(spec["atom"], "atom", variables)
    if lattice:  # sympy integers: exact offsets in the lattice sums
        head = tuple(Piece(sp.sympify(pc.lo), sp.sympify(pc.hi), pc.expr) for pc in head)
        if head and head[-1].hi == sp.oo and tail is None:
            head, tail = _geometric_end(head)
    return head, tail, atom, f


def _geometric_end(head: tuple[Piece, ...]) -> tuple[tuple[Piece, ...], GeometricTail | None]:
    r"""A mass function's unbounded last piece :math:`C q^{x}` written as the geometric
    tail it is (period 1, ratio :math:`q`; the ratio's bound is checked by
    :func:`validate`), the form whose sums the engine and the lattice profiles take in
    closed form. Other pieces are left as they are."""
    last = head[-1]
    ratio = sp.simplify(sp.powsimp(last.expr.subs(x, x + 1) / last.expr, combine="exp"))
    if x in ratio.free_symbols or x not in last.expr.free_symbols:
        return head, None
    one = sp.Integer(1)
    return head[:-1], GeometricTail(sp.sympify(last.lo), one, ratio,
                                    (Piece(sp.Integer(0), one, last.expr.subs(x, last.lo)),))


def _derived(spec: Mapping[str, Any], symbols: Mapping[str, sp.Symbol],
             variables: Mapping[str, sp.Symbol], shape: SymmetricNoise, normalise: bool
             ) -> tuple[tuple[Derived, ...], tuple[tuple[sp.Symbol, int, sp.Expr, sp.Expr,
                                                         sp.Expr], ...]]:
    derived: list[Derived] = []
    conditions: list[tuple[sp.Symbol, int, sp.Expr, sp.Expr, sp.Expr]] = []
    for dname, body in spec.items():
        key = f"derived.{dname}"
        body = body or {}
        _no_unknown(body, ("mass", "piece", "equals", "description", "normaliser"), key)
        text = str(body.get("description", dname))
        if body.get("normaliser"):
            if not normalise:
                raise DeclarationError(f"{key}.normaliser", "needs normalise = true")
            if set(body) - {"normaliser", "description"}:
                raise DeclarationError(key, "a normaliser takes no condition")
            derived.append(Derived(dname, NORM, text))
            continue
        for needed in ("mass", "equals"):
            if needed not in body:
                raise DeclarationError(f"{key}.{needed}", "required")
        ends = body["mass"]
        if not isinstance(ends, (list, tuple)) or len(ends) != 2:
            raise DeclarationError(f"{key}.mass", "expected [lo, hi]")
        lo, hi = (_text(e, f"{key}.mass", variables) for e in ends)
        index = body.get("piece", 1 if len(shape.head) == 1 else None)
        if not isinstance(index, int) or isinstance(index, bool) \
                or not 1 <= index <= len(shape.head):
            raise DeclarationError(f"{key}.piece", f"the number of a piece, 1 to "
                                   f"{len(shape.head)}, is required")
        rhs = _text(body["equals"], f"{key}.equals", variables)
        conditions.append((symbols[dname], index - 1, lo, hi, rhs))
        derived.append(Derived(dname, symbols[dname], text))
    return tuple(derived), tuple(conditions)


# ---------------------------------------------------------------------- files
def load_noise(path: str | Path, *, defer: bool = False, origin: str | None = None
               ) -> type[DeclaredNoise]:
    """The mechanism class declared by a TOML (``.toml``) or JSON (``.json``) noise file
    (keys: those of :func:`declare_noise`; see ``docs/noise.md``), validated at once or,
    with ``defer``, at its first use, a refusal then naming ``origin``
    (:func:`noise_from_mapping`). A file with another
    name (a pipe, ``<(echo ...)`` in a shell) is JSON when it starts with ``{``.

    Raises
    ------
    DeclarationError
        For a file that cannot be read or parsed (``noise``), or a declaration refused
        (naming the key at fault).
    """
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as err:
        raise DeclarationError("noise", f"cannot read {str(path)[:80]!r}: "
                               f"{err.strerror or type(err).__name__}") from None
    if len(raw) > 1 << 20:
        raise DeclarationError("noise", "a noise file is at most 1 MiB")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise DeclarationError("noise", f"{path.name} is not UTF-8 text") from None
    suffix = path.suffix.lower()
    is_json = suffix == ".json" or (suffix != ".toml" and text.lstrip().startswith("{"))
    try:
        data = json.loads(text) if is_json else tomllib.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as err:
        kind = "JSON" if is_json else "TOML"
        raise DeclarationError("noise", f"{path.name} is not valid {kind}: "
                               f"{' '.join(str(err).split())}") from None
    if not isinstance(data, Mapping):
        raise DeclarationError("noise", f"{path.name}: expected a table of keys")
    return noise_from_mapping(data, defer=defer, origin=origin)
