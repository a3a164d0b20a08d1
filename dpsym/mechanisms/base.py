r"""The Mechanism contract.

A mechanism is a small declarative class composed of its parameters with their domains
(:class:`~dpsym.core.params.Parametrised`), its free parameter (if any), its noise density
or mass function (the family's definition), possibly with the unknown normalising
constant :data:`~dpsym.symbols.NORM`, and its engine services (:class:`Engine`, the
component ``engine``). Everything else is derived from that definition by the layers
below, to which the methods here delegate:

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
from dpsym.core.params import (
    Derived,
    FreeParameter,
    Guarantee,
    Param,
    Parametrised,
    check_free,
    check_quantity,
    require,
    substitution,
)
from dpsym.distributions.scipy_face import Distribution, fixed_free_value
from dpsym.errors import DomainError
from dpsym.precision import exclusive
from dpsym.privacy.profiles import PrivacyCheck, is_private, privacy_profile
from dpsym.sampling.checks import ScaleError, check_rng, check_size
from dpsym.sampling.samplers import Sampler, sampler
from dpsym.symbolic import engine as derivations
from dpsym.symbolic.noise import SymmetricNoise
from dpsym.symbolic.optimize import AlgebraicRoot
from dpsym.symbols import b, eps

#: The methods that compute with sympy, mpmath or python-flint, and so run under the
#: precision lock (:mod:`dpsym.precision`), in this class and in every subclass that
#: overrides them (of a mechanism or of its engine); drawing samples (numpy) is not locked.
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


class Engine:
    r"""The derivation services of a mechanism family: the component ``engine`` of every
    mechanism class (``Staircase.engine``), an object of the engine's
    :class:`~dpsym.symbolic.engine.Family` protocol.

    A mechanism is composed of its parameters (the declarations of
    :class:`~dpsym.core.params.Parametrised`), its noise description (the family's
    definition) and this component, which derives everything else from them with
    :mod:`dpsym.symbolic.engine`: the calibration of the derived parameters, the normalised
    noise, the symbolic moments, the cost's slope, the optimal free parameter as a verified
    algebraic root, the closed forms and their series. The mechanism's documented methods
    (:meth:`Mechanism.formula`, :meth:`Mechanism.series`, :meth:`Mechanism.cost_function`...)
    ask it; the certified numerics (:mod:`dpsym.certified.evaluation`) read it. A family
    whose derivation differs (the :math:`d`-dimensional staircase's radial law, the
    product laws) subclasses it and names the subclass in ``_engine_type``.

    Parameters
    ----------
    mechanism : type of Mechanism
        The family it derives: its declarations are read, and its name keys the
        derivation cache (:func:`dpsym.symbolic.cache.derivation`).
    """

    def __init__(self, mechanism: type[Mechanism]) -> None:
        self.mechanism = mechanism

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        _lock(cls)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.mechanism.__name__})"

    # ------------------------------------------------------------------ declarations
    @property
    def name(self) -> str:
        """The family's name."""
        return self.mechanism.name

    @property
    def lattice(self) -> bool:
        """Whether the noise lives on the integers."""
        return self.mechanism.lattice

    @property
    def params(self) -> tuple[Param, ...]:
        """The declared parameters."""
        return self.mechanism.params

    @property
    def free(self) -> FreeParameter | None:
        """The free parameter, if any."""
        return self.mechanism.free

    @property
    def derived(self) -> tuple[Derived, ...]:
        """The derived parameters."""
        return self.mechanism.derived

    def check_quantity(self, quantity: str) -> str:
        """Validate a quantity name, exactly (:func:`dpsym.core.params.check_quantity`)."""
        return check_quantity(self.mechanism, quantity)

    # ------------------------------------------------------------------ definition
    def noise_shape(self) -> SymmetricNoise:
        """The noise density (or mass function), possibly with the unknown :data:`NORM`:
        the family's definition."""
        return self.mechanism._noise_shape()

    def conditions(self) -> tuple[tuple[sp.Symbol, sp.Expr, sp.Expr], ...]:
        r"""The defining conditions ``(symbol, lhs, rhs)`` of the derived parameters.

        Each condition :math:`\mathrm{lhs} = \mathrm{rhs}` is solved for ``symbol``, in
        order, after total mass = 1 has been solved for :data:`NORM`; earlier solutions
        are substituted into later conditions (the family's definition; none by default).
        """
        return self.mechanism._conditions()

    def derived_numeric(self, symbol: sp.Symbol, point: Mapping[sp.Symbol, object]
                        ) -> mpmath.mpf:
        """The value of a derived parameter without closed form, at the working precision
        (the family's solver)."""
        return self.mechanism._derived_numeric(symbol, point)

    def test_points(self) -> list[dict[sp.Symbol, sp.Expr]]:
        """Exact parameter points at which closed forms are checked against numerics."""
        return self.mechanism._test_points()

    def check_guarantee(self, instance: Mechanism, eps: object, delta: object,
                        cost: Cost | str = "amplitude") -> None:
        r"""Raise a :class:`~dpsym.errors.DomainError` unless ``instance`` is
        :math:`(\varepsilon, \delta)`-DP at its sensitivity (its free parameter at the
        optimum for ``cost``); ``compare`` asks it before ranking an entry. A catalogue
        mechanism is private by the theorem that defines it (the claims check it); a
        declared noise decides it from its certified profile."""
        instance._check_guarantee(eps, delta, cost)

    # ------------------------------------------------------------------ derivations
    def calibration(self) -> dict[sp.Symbol, sp.Expr]:
        """:func:`dpsym.symbolic.engine.calibration`."""
        return derivations.calibration(self)

    def normalisation(self) -> sp.Expr | None:
        """:func:`dpsym.symbolic.engine.normalisation`."""
        return derivations.normalisation(self)

    def noise(self) -> SymmetricNoise:
        """:func:`dpsym.symbolic.engine.noise`: the normalised noise."""
        return derivations.noise(self)

    def moment(self, power: sp.Expr) -> sp.Expr:
        r""":func:`dpsym.symbolic.engine.moment`: :math:`\mathbb{E}|X|^p` as a function of
        the free parameter."""
        return derivations.moment(self, power)

    def cost_function(self, cost: Cost | str) -> sp.Expr:
        """:func:`dpsym.symbolic.engine.cost_function`."""
        return derivations.cost_function(self, cost)

    def slope_function(self, cost: Cost | str) -> sp.Expr:
        """:func:`dpsym.symbolic.engine.slope_function`."""
        return derivations.slope_function(self, cost)

    def optimal_root(self, cost: Cost | str) -> AlgebraicRoot | None:
        """:func:`dpsym.symbolic.engine.optimal_root`."""
        return derivations.optimal_root(self, cost)

    def optimal_parameter(self, cost: Cost | str) -> sp.Expr | None:
        """:func:`dpsym.symbolic.engine.optimal_parameter`."""
        return derivations.optimal_parameter(self, cost)

    def optimal_cost(self, cost: Cost | str) -> sp.Expr | None:
        """:func:`dpsym.symbolic.engine.optimal_cost`."""
        return derivations.optimal_cost(self, cost)

    def formula(self, quantity: str = "cost", cost: Cost | str = "amplitude") -> sp.Expr:
        """:func:`dpsym.symbolic.engine.formula`."""
        return derivations.formula(self, quantity, cost)

    def derived_form(self, quantity: str = "cost", cost: Cost | str = "amplitude"
                     ) -> sp.Expr:
        """:func:`dpsym.symbolic.engine.derived_form`."""
        return derivations.derived_form(self, quantity, cost)

    def closed_form(self, quantity: str, cost: Cost) -> sp.Expr | None:
        """:func:`dpsym.symbolic.engine.closed_form`."""
        return derivations.closed_form(self, quantity, cost)

    def series(self, quantity: str = "cost", cost: Cost | str = "amplitude",
               regime: str = "eps->0", order: int = 3) -> sp.Expr:
        """:func:`dpsym.symbolic.engine.series`."""
        return derivations.series(self, quantity, cost, regime, order)


_lock(Engine)


class Mechanism(Distribution, Parametrised):
    r"""Base class of every noise-adding mechanism.

    A mechanism is composed of its parameters, its noise description and its engine
    services (:attr:`engine`). Subclasses set the class attributes of
    :class:`~dpsym.core.params.Parametrised` (name, title, source, lattice, guarantee,
    params, free, derived) and define their noise (``_noise_shape``, or the
    :attr:`~dpsym.mechanisms.declared.DeclaredNoise.density` of a declared noise); where
    derived parameters are fixed by further conditions they define ``_conditions`` (and
    ``_derived_numeric`` for those without a closed form). Instances are created with
    numeric parameter values, e.g. ``Staircase(eps="0.5", Delta=2)`` (also
    ``epsilon=``, ``sensitivity=``; the free parameter may be fixed,
    ``Staircase(eps=1, gamma="1/2")``). An instance is also the distribution of its
    noise, with the methods of a frozen ``scipy.stats`` distribution
    (:class:`dpsym.distributions.scipy_face.Distribution`: ``rvs``, ``pdf``/``pmf``,
    ``cdf``, ``ppf``, ``mean``, ``var``...).

    Attributes
    ----------
    name : str
        The command-line name (``staircase``).
    title : str
        A human-readable title.
    source : str
        Where it is defined among the source texts.
    lattice : bool
        ``True`` for an integer-valued query (the noise lives on the integers).
    guarantee : Guarantee
        The privacy guarantee it is built for.
    params : tuple of Param
        The declared parameters, with their domains.
    free : FreeParameter or None
        The parameter the family is optimised over (the staircase's :math:`\gamma`).
    derived : tuple of Derived
        The parameters its definition determines.
    density : SymmetricNoise
        (A declared noise, :class:`~dpsym.mechanisms.declared.DeclaredNoise`: the
        one-dimensional families and ``--noise FILE``.) The noise density or mass function
        as declared, possibly with the unknown normalising constant :data:`NORM`.
    limits : tuple of str
        (Some families.) The limits of the computation, as ``dpsym list`` shows them.
    engine : Engine
        Its derivation services (:class:`Engine`): the symbolic calibration, moments,
        optimum, closed forms and series that the methods here ask for.
    values : Mapping of str to Fraction or sympy.Expr
        (Instances.) The parameter values, exact and read-only.
    free_given : Fraction, sympy.Expr or None
        (Instances.) The free parameter's value given to the constructor, or None for the
        optimum of each cost.
    """

    guarantee: ClassVar[Guarantee] = Guarantee.PURE
    _irrational_values: ClassVar[bool] = True
    #: The class of the engine component (a family refining a derivation subclasses it).
    _engine_type: ClassVar[type[Engine]] = Engine
    engine: ClassVar[Engine]

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls.engine = cls._engine_type(cls)
        _lock(cls)

    # ------------------------------------------------------------------ definition
    @classmethod
    def _noise_shape(cls) -> SymmetricNoise:
        """The noise density (or mass function), possibly with the unknown :data:`NORM`."""
        raise NotImplementedError

    @classmethod
    def _conditions(cls) -> tuple[tuple[sp.Symbol, sp.Expr, sp.Expr], ...]:
        """The defining conditions of the derived parameters (:meth:`Engine.conditions`)."""
        return ()

    @classmethod
    def _derived_numeric(cls, symbol: sp.Symbol, point: Mapping[sp.Symbol, object]
                         ) -> mpmath.mpf:
        """The value of a derived parameter without closed form, at the working precision."""
        raise NotImplementedError(f"{cls.name}: no numeric solver for {symbol}")

    @classmethod
    def _test_points(cls) -> list[dict[sp.Symbol, sp.Expr]]:
        """Exact points at which closed forms are checked
        (:func:`dpsym.symbolic.engine.test_points`)."""
        return derivations.test_points(cls.engine)

    @classmethod
    def _specific(cls, cost: Cost) -> None:
        """Raise :class:`~dpsym.errors.UnsupportedError` for a cost the family does not
        define (every cost is defined by default)."""

    # ------------------------------------------------------------------ derived (symbolic)
    @classmethod
    def normalisation(cls) -> sp.Expr | None:
        """The normalising constant solved from total mass = 1 (None if none is needed;
        :func:`dpsym.symbolic.engine.normalisation`)."""
        return cls.engine.normalisation()

    @classmethod
    def cost_function(cls, cost: Cost | str) -> sp.Expr:
        r"""The expected ``cost`` as a function of the free parameter (if any): a moment
        :math:`\mathbb{E}|X|^p`, or a sum of them
        (:func:`dpsym.symbolic.engine.cost_function`).

        Raises
        ------
        NoClosedFormError
            For a cost without a closed form (its values are certified numerically).
        """
        return cls.engine.cost_function(cost)

    @classmethod
    def optimal_parameter(cls, cost: Cost | str) -> sp.Expr | None:
        """The optimal free parameter in closed form, or None if none was found
        (:func:`dpsym.symbolic.engine.optimal_parameter`)."""
        return cls.engine.optimal_parameter(cost)

    @classmethod
    def optimal_cost(cls, cost: Cost | str) -> sp.Expr | None:
        """The optimal expected cost in closed form, or None if no closed form was found
        (:func:`dpsym.symbolic.engine.optimal_cost`)."""
        return cls.engine.optimal_cost(cost)

    @classmethod
    def formula(cls, quantity: str = "cost", cost: Cost | str = "amplitude") -> sp.Expr:
        """The closed form of ``quantity`` for ``cost``, in the symbols of
        :mod:`dpsym.symbols` (:func:`dpsym.symbolic.engine.formula`).

        Raises
        ------
        UnsupportedError
            If no closed form is known (the value is then computed numerically).
        """
        return cls.engine.formula(quantity, cost)

    @classmethod
    def series(cls, quantity: str = "cost", cost: Cost | str = "amplitude",
               regime: str = "eps->0", order: int = 3) -> sp.Expr:
        """The asymptotic expansion of ``quantity`` in ``regime`` to ``order``, in
        increasing powers of the regime's variable, the order term last
        (:func:`dpsym.symbolic.engine.series`)."""
        return cls.engine.series(quantity, cost, regime, order)

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
        require(self, *(prm.name for prm in self.params))
        subs: dict[sp.Symbol, sp.Expr] = dict(substitution(self))
        if eps in subs:
            subs[b] = sp.exp(-subs[eps])
        fp = self.free
        if fp is not None:
            if free_value is None:
                free_value = self.free_given
            if free_value is None:
                subs[fp.symbol] = self.free_value(cost, digits)
            else:
                subs[fp.symbol] = to_sympy(check_free(self, free_value))
        for der in self.derived:
            if der.numeric:
                value = self.value(der.name, cost, digits)
                exact = _exact_decimal(value.text)
                subs[der.symbol] = sp.Rational(exact.numerator, exact.denominator)
        return self.engine.noise().subs(subs)

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

    def _check_guarantee(self, eps: object, delta: object, cost: Cost | str = "amplitude"
                         ) -> None:
        r"""Raise a :class:`~dpsym.errors.DomainError` unless this instance is
        :math:`(\varepsilon, \delta)`-DP at its sensitivity (its free parameter at the
        optimum for ``cost``); ``compare`` asks it before ranking an entry. Nothing to do
        by default: a catalogue mechanism is private by the theorem that defines it (the
        claims check it); a declared noise decides it from its certified profile
        (:meth:`dpsym.mechanisms.declared.DeclaredNoise._check_guarantee`)."""

    def _sensitivity(self) -> Fraction:
        require(self, "Delta")
        return self.values["Delta"]


_lock(Mechanism)
Mechanism.engine = Engine(Mechanism)


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


__all__ = ["Engine", "Mechanism"]
