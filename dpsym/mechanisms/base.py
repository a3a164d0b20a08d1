r"""The Mechanism contract.

A mechanism is a small declarative class: its parameters with their domains
(:class:`~dpsym.core.params.Parametrised`), its free parameter (if any), and its noise density
or mass function (:meth:`Mechanism.noise_shape`), possibly with the unknown normalising
constant :data:`~dpsym.symbols.NORM`. Everything else is derived from that definition by
the layers below, to which the methods here delegate:

* the symbolic derivations -- normalisation, the expected cost :math:`\mathbb{E}|X|^p`
  for every :math:`p > 0` as a function of the free parameter, the optimal free parameter
  and cost, closed forms and series -- by :mod:`dpsym.symbolic.engine` (cached per class);
* certified values at any number of digits by :mod:`dpsym.certified.evaluation`;
* samples by :mod:`dpsym.sampling.samplers` and exact privacy profiles by
  :mod:`dpsym.privacy.profiles`, both of which take the numeric noise description
  (:meth:`Mechanism.numeric_noise`) and the sensitivity, not the mechanism.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any, ClassVar

import flint
import mpmath
import numpy as np
import sympy as sp

from dpsym.certified import evaluation
from dpsym.certified.evaluation import Value
from dpsym.certified.intervals import IntervalFunctions
from dpsym.certified.rounding import decimal_fraction
from dpsym.core.costs import Cost, parse_cost
from dpsym.core.expressions import to_sympy
from dpsym.core.params import Guarantee, Parametrised
from dpsym.distributions.scipy_face import Distribution, Moment, fixed_free_value
from dpsym.errors import DomainError
from dpsym.precision import exclusive
from dpsym.privacy.profiles import PrivacyCheck, is_private, privacy_profile
from dpsym.sampling.checks import ScaleError, check_rng, check_size
from dpsym.sampling.samplers import Sampler, sampler
from dpsym.symbolic import engine
from dpsym.symbolic.noise import SymmetricNoise
from dpsym.symbols import b, eps

#: The methods that compute with sympy, mpmath or python-flint, and so run under the
#: precision lock (:mod:`dpsym.precision`), in this class and in every subclass that
#: overrides them; drawing samples (numpy) is not locked.
LOCKED_METHODS = ("value", "formula", "derived_form", "series", "free_value", "numeric_noise",
                  "privacy_profile", "is_private", "sampler", "ball_sampler", "cost_at",
                  "radial_cdf", "derived_numeric", "calibration", "cost_function",
                  "slope_function", "moment", "optimal_parameter", "optimal_cost",
                  "_numeric_optimum")


def _lock(cls: type) -> None:
    """Wrap the :data:`LOCKED_METHODS` that ``cls`` itself defines in the precision lock."""
    for name in LOCKED_METHODS:
        attr = cls.__dict__.get(name)
        if isinstance(attr, classmethod):
            setattr(cls, name, classmethod(exclusive(attr.__func__)))
        elif callable(attr):
            setattr(cls, name, exclusive(attr))


class Mechanism(Distribution, Parametrised):
    r"""Base class of every noise-adding mechanism.

    Subclasses set the class attributes of :class:`~dpsym.core.params.Parametrised` (name,
    title, source, lattice, guarantee, params, free, derived) and implement
    :meth:`noise_shape`; where derived parameters are fixed by further conditions they
    implement :meth:`conditions` (and :meth:`derived_numeric` for those without a closed
    form). Instances are created with numeric parameter values, e.g.
    ``Staircase(eps="0.5", Delta=2)`` (also ``epsilon=``, ``sensitivity=``; the free
    parameter may be fixed, ``Staircase(eps=1, gamma="1/2")``). An instance is also the
    distribution of its noise, with the methods of a frozen ``scipy.stats`` distribution
    (:class:`dpsym.distributions.scipy_face.Distribution`: ``rvs``, ``pdf``/``pmf``, ``cdf``,
    ``ppf``, ``mean``, ``var``...).
    """

    guarantee: ClassVar[Guarantee] = Guarantee.PURE
    irrational_values: ClassVar[bool] = True

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        _lock(cls)

    # ------------------------------------------------------------------ definition
    @classmethod
    def noise_shape(cls) -> SymmetricNoise:
        """The noise density (or mass function), possibly with the unknown :data:`NORM`."""
        raise NotImplementedError

    @classmethod
    def conditions(cls) -> tuple[tuple[sp.Symbol, sp.Expr, sp.Expr], ...]:
        r"""The defining conditions ``(symbol, lhs, rhs)`` of the derived parameters.

        Each condition :math:`\mathrm{lhs} = \mathrm{rhs}` is solved for ``symbol``, in
        order, after total mass = 1 has been solved for :data:`NORM`; earlier solutions
        are substituted into later conditions. None by default.
        """
        return ()

    @classmethod
    def derived_numeric(cls, symbol: sp.Symbol, point: Mapping[sp.Symbol, object]
                        ) -> mpmath.mpf:
        """The value of a derived parameter without closed form, at the working precision."""
        raise NotImplementedError(f"{cls.name}: no numeric solver for {symbol}")

    @classmethod
    def _specific(cls, cost: Cost) -> None:
        """Raise :class:`~dpsym.errors.UnsupportedError` for a cost the family does not
        define (every cost is defined by default)."""

    # ------------------------------------------------------------------ derived (symbolic)
    calibration = classmethod(engine.calibration)
    normalisation = classmethod(engine.normalisation)  # type: ignore[arg-type, var-annotated]  # the class is a Family (mypy: not as a protocol)
    noise = classmethod(engine.noise)  # type: ignore[arg-type, var-annotated]  # a class is Hashable (mypy: its instances are not)
    moment = Moment(classmethod(exclusive(engine.moment)))  # instances: scipy's moment
    cost_function = classmethod(engine.cost_function)  # type: ignore[arg-type, var-annotated]  # the class is a Family (mypy: not as a protocol)
    slope_function = classmethod(engine.slope_function)
    test_points = classmethod(engine.test_points)  # type: ignore[arg-type, var-annotated]  # the class is a Family (mypy: not as a protocol)
    _optimal_root = classmethod(engine.optimal_root)  # type: ignore[arg-type, var-annotated]  # a class is Hashable (mypy: its instances are not)
    optimal_parameter = classmethod(engine.optimal_parameter)
    optimal_cost = classmethod(engine.optimal_cost)
    formula = classmethod(engine.formula)  # type: ignore[arg-type, var-annotated]  # the class is a Family (mypy: not as a protocol)
    derived_form = classmethod(engine.derived_form)  # type: ignore[arg-type, var-annotated]  # the class is a Family (mypy: not as a protocol)
    _closed_form = classmethod(engine.closed_form)
    series = classmethod(engine.series)  # type: ignore[arg-type, var-annotated]  # the class is a Family (mypy: not as a protocol)

    # ------------------------------------------------------------------ numeric
    def value(self, quantity: str = "cost", cost: Cost | str = "amplitude", digits: int = 30,
              *, method: str = "auto") -> Value:
        """:func:`dpsym.certified.evaluation.value`; with a free parameter fixed by the constructor,
        the cost of that noise (:func:`dpsym.distributions.scipy_face.fixed_free_value`)."""
        if self.free_given is None:
            return evaluation.value(self, quantity, cost, digits, method=method)
        return fixed_free_value(self, quantity, cost, digits, method=method)

    # ------------------------------------------------------------------ certification paths
    # The hooks of :class:`dpsym.certified.evaluation.Instance`: a family overrides those
    # whose proof it carries (None: the path is not offered).
    def _numeric_optimum(self, cost: Cost, hint: mpmath.mpf | None = None
                         ) -> tuple[mpmath.mpf, mpmath.mpf]:
        """The engine's numeric minimiser (:func:`dpsym.certified.evaluation.numeric_optimum`)."""
        return evaluation.numeric_optimum(self, cost, hint)

    def _guard_digits(self, cost: Cost) -> int:
        """Guard digits of the ball paths (:func:`dpsym.certified.evaluation.guard_digits`)."""
        return evaluation.guard_digits(self, cost)

    def _interval_functions(self, cost: Cost) -> IntervalFunctions | None:
        """The family's own ball functions ``(cost, slope, slope', sign numerator)`` of its
        continuous free parameter for the interval minimiser, or None (the engine's
        expressions are compiled instead)."""
        return None

    def _interval_sign(self, cost: Cost) -> Callable[..., Any] | None:
        """A factory of the slope's sign covering proven by the family, or None."""
        return None

    def _integer_cost_balls(self, cost: Cost
                            ) -> Callable[[Sequence[int], int], list[flint.arb]] | None:
        """The cost at integer values of an integer free parameter as Arb balls, where it
        has no closed form, or None."""
        return None

    def _general_value(self, quantity: str, cost: Cost, digits: int) -> Value | None:
        """A quantity for a cost that is not a power, where the family computes it itself
        (:func:`dpsym.certified.evaluation.general_value`), or None."""
        return None

    def free_value(self, cost: Cost | str = "amplitude", digits: int = 30) -> sp.Rational:
        """The optimal free parameter for ``cost`` as an exact rational.

        The certified ``digits``-digit value is read back exactly (an integer for an
        integer parameter), so that downstream exact computations are reproducible.
        """
        assert self.free is not None
        optimum = self.value(self.free.name, cost, digits)
        if self.free.integer:
            return sp.Integer(int(mpmath.nint(optimum.number)))
        exact = _exact_decimal(optimum.text)
        return sp.Rational(exact.numerator, exact.denominator)

    def numeric_noise(self, cost: Cost | str = "amplitude", free_value: object = None,
                      digits: int = 30) -> SymmetricNoise:
        r"""The noise at this instance's parameters with every symbol substituted exactly.

        :math:`b = e^{-\varepsilon}` becomes the sympy number ``exp(-eps)``; the free
        parameter is ``free_value`` (validated against its range) or the optimum for
        ``cost`` certified to ``digits`` digits and read back as an exact rational.

        Raises
        ------
        DomainError
            If a parameter is missing or ``free_value`` lies outside its range.
        """
        self.require(*(prm.name for prm in self.params))
        subs: dict[sp.Symbol, sp.Expr] = dict(self.substitution)
        if eps in subs:
            subs[b] = sp.exp(-subs[eps])
        fp = self.free
        if fp is not None:
            if free_value is None:
                free_value = self.free_given
            if free_value is None:
                subs[fp.symbol] = self.free_value(cost, digits)
            else:
                subs[fp.symbol] = to_sympy(self.check_free(free_value))
        for der in self.derived:
            if der.numeric:
                value = self.value(der.name, cost, digits)
                exact = _exact_decimal(value.text)
                subs[der.symbol] = sp.Rational(exact.numerator, exact.denominator)
        return self.noise().subs(subs)

    # ------------------------------------------------------------------ sampling, privacy
    def sampler(self, cost: Cost | str = "amplitude") -> Sampler:
        """A reusable sampler of this instance's noise (:func:`dpsym.sampling.samplers.sampler`),
        cached per class, parameters and cost; the optimal free parameter for ``cost`` is
        certified to 17 digits and substituted exactly.

        Raises
        ------
        DomainError
            If the noise's scale is beyond what float64 samples hold
            (:class:`~dpsym.sampling.samplers.ScaleError`), naming the parameters that set it.
        """
        cost = parse_cost(cost)
        key = tuple(sorted(self.values.items()))
        free = self.free_given
        try:
            return _cached_sampler(type(self), key,  # type: ignore[arg-type]  # a class is Hashable (mypy: its instances are not)
                                   cost if self.free is not None and free is None else None,
                                   free)
        except ScaleError as err:
            names = "/".join(n for n in ("eps", "delta", "Delta") if n in self.values)
            raise DomainError(names, f"{err} (sample with a smaller noise scale: a larger "
                              "eps or delta, or a smaller Delta)") from None

    def sample(self, rng: np.random.Generator | None, size: int | tuple[int, ...],
               cost: Cost | str = "amplitude") -> np.ndarray:
        """Draw noise values of shape ``size`` (float64, or int64 for an integer-valued
        mechanism) with the optimal free parameter for ``cost``; ``rng=None`` uses a fresh
        unseeded generator.

        Raises
        ------
        DomainError
            If ``size`` is not a non-negative integer or a tuple of them, ``rng`` is not a
            :class:`numpy.random.Generator` or ``None``, or the noise's scale is beyond
            float64.
        """
        shape, generator = check_size(size), check_rng(rng)
        return self.sampler(cost)(generator, shape)

    def privacy_profile(self, eps_prime: object, cost: Cost | str = "amplitude",
                        digits: int = 30, *, free_value: object = None) -> Value:
        r"""The certified privacy profile :math:`\delta(\varepsilon^{\prime})` at this instance's
        sensitivity (:func:`dpsym.privacy.profiles.privacy_profile`); the free parameter is
        ``free_value`` or the optimum for ``cost`` certified to ``digits + 10`` digits."""
        noise = self.numeric_noise(cost, free_value, digits + 10)
        return privacy_profile(noise, eps_prime, digits, sensitivity=self._sensitivity())

    def is_private(self, eps: object, delta: object = 0, cost: Cost | str = "amplitude",
                   digits: int = 30, *, free_value: object = None) -> PrivacyCheck:
        r"""Decide :math:`(\varepsilon, \delta)`-DP from the exact privacy profile
        (:func:`dpsym.privacy.profiles.is_private`)."""
        noise = self.numeric_noise(cost, free_value, digits + 10)
        return is_private(noise, eps, delta, digits, sensitivity=self._sensitivity())

    def check_guarantee(self, eps: object, delta: object, cost: Cost | str = "amplitude"
                        ) -> None:
        r"""Raise a :class:`~dpsym.errors.DomainError` unless this instance is
        :math:`(\varepsilon, \delta)`-DP at its sensitivity (its free parameter at the
        optimum for ``cost``); ``compare`` asks it before ranking an entry. Nothing to do
        by default: a catalogue mechanism is private by the theorem that defines it (the
        claims check it); a declared noise decides it from its certified profile
        (:meth:`dpsym.mechanisms.declared.DeclaredNoise.check_guarantee`)."""

    def _sensitivity(self) -> Fraction:
        self.require("Delta")
        return self.values["Delta"]


_lock(Mechanism)


def _exact_decimal(text: str) -> Fraction:
    """A certified decimal string of the engine's own (any exponent) as an exact rational;
    user input goes through :func:`dpsym.core.params.parse_number` and its limits instead
    (an exponent beyond :func:`dpsym.certified.rounding.decimal_fraction`'s limit is refused
    with an :class:`~dpsym.errors.UnsupportedError`)."""
    return decimal_fraction(text)


@lru_cache(maxsize=128)
@exclusive
def _cached_sampler(cls: type[Mechanism], values: tuple[tuple[str, Fraction], ...],
                    cost: Cost | None, free: object = None) -> Sampler:
    mechanism = cls(**dict(values))
    return sampler(mechanism.numeric_noise(cost if cost is not None else "amplitude",
                                           free, digits=17))


__all__ = ["Mechanism"]
