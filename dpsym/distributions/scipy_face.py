r"""The scipy.stats face of a mechanism's noise: ``rvs``, ``pdf``/``pmf``, ``cdf``, ``ppf``...

Every mechanism instance is also a (frozen) probability distribution, the law of the noise
it adds, with the methods and conventions of a frozen ``scipy.stats`` distribution::

    >>> from dpsym import Staircase
    >>> m = Staircase(epsilon=0.3, sensitivity=1)
    >>> x = m.rvs(1000, random_state=1)           # reproducible for an int seed
    >>> float(m.cdf(m.ppf(0.9)))                  # doctest: +ELLIPSIS
    0.9...
    >>> m.var() == float(m.moment_value(2, 17))   # E X^2, exact from the engine
    True

Which law: the distribution is that of the instance's free parameter (the staircase's
:math:`\gamma`, the discrete staircase's :math:`r`, the point mass :math:`\alpha` of
``uniform-mass``): the value given to the constructor (``Staircase(eps=1, gamma="1/2")``),
or else the optimum for the instance's *law cost* -- the amplitude cost
:math:`\mathbb{E}|X|` (:data:`DISTRIBUTION_COST`) unless :meth:`Distribution.law` chose
another. So ``Staircase(eps=0.3)`` is the amplitude-optimal staircase and its
:meth:`~Distribution.var` is the power cost *of that noise*, above the optimal power cost;
``Staircase(eps=0.3).law("power")`` is the power-optimal staircase, whose ``var()`` is
``value("cost", "power")``. The optimum is read back exactly from its certified 17 digits,
as :meth:`~dpsym.mechanisms.base.Mechanism.sample` does, so that :meth:`rvs` and
:meth:`cdf` describe one law.

How each method is computed, from the noise description (:mod:`dpsym.symbolic.noise`) and the
engine, nothing per mechanism:

* :meth:`rvs` is :meth:`~dpsym.mechanisms.base.Mechanism.sample` at the law cost, the fast
  vectorised sampler (:mod:`dpsym.sampling.samplers`), with scipy's ``random_state`` (None, an int
  seed, a :class:`numpy.random.SeedSequence`, a :class:`~numpy.random.Generator` or a
  legacy :class:`~numpy.random.RandomState`, whose bit generator is then advanced); a zero
  draw is ``+0.0``;
* :meth:`cdf` is :func:`dpsym.sampling.samplers.cdf` in float64 (a sum of non-negative terms: the
  lower tail keeps its relative precision) and :meth:`sf` the same sum read from the
  other side, :math:`P(X > x) = P(X < -x)` (the upper tail keeps its relative precision;
  at a point mass, :math:`P(X > 0) = (1 - P(X = 0))/2` exactly rounded);
* :meth:`ppf` is the exact float64 inverse of :meth:`cdf` and :meth:`isf` that of
  :meth:`sf` (bisections over the 64-bit patterns of doubles): ``ppf(q)`` is the smallest
  double :math:`x` with ``cdf(x) >= q`` and ``isf(q)`` the smallest double :math:`x` with
  ``sf(x) <= q``. Hence ``ppf(cdf(x))`` is the first double of the run of doubles on
  which the float64 ``cdf`` takes the value ``cdf(x)``: it is ``x`` (to an ulp or two)
  wherever ``cdf`` resolves ``x``, which is the lower tail; in the upper tail ``cdf``
  is close to 1 and only ``sf`` resolves ``x``: there ``isf(sf(x))`` is ``x``, and
  ``isf(q)`` is finite for every ``q > 0`` (the point where the survival function
  underflows, at most). The exceptions are ``ppf(0.5) = isf(0.5) = 0``, the exact median
  of a symmetric real-valued noise (the float64 ``cdf`` is 0.5 on a few doubles below 0
  too), and scipy's conventions at the ends: ``ppf(0)`` and ``isf(1)`` are the lower end
  of the :meth:`support` (on the integers, one below it, as scipy's ``rv_discrete``),
  ``ppf(1)`` and ``isf(0)`` the upper end, so that ``interval(1.0)`` is the support;
* :meth:`pdf` (a density) and :meth:`pmf` (a mass function on the integers) evaluate the
  pieces of the description (the geometric tail as :math:`q^k g(u)`);
* :meth:`mean` is 0 (the noise is symmetric), :meth:`var` is :math:`\mathbb{E}X^2`,
  :meth:`moment` is :math:`\mathbb{E}X^n` (0 for odd :math:`n`) and :meth:`abs_moment` is
  :math:`\mathbb{E}|X|^p` -- the mechanism's cost quantities, evaluated from the engine's
  exact expressions at the law's free parameter (:meth:`moment_value` returns them
  certified to any digits);
* :meth:`entropy` is the differential (lattice: Shannon) entropy in nats, by mpmath
  quadrature of the pieces and exact geometric sums over the tail; a mixed law (a point
  mass at 0 and a density: ``uniform-mass`` with :math:`\alpha > 0`) has neither, and
  is refused.

Multi-dimensional mechanisms offer :meth:`rvs` (arrays of shape ``size + (d,)``); the
other methods raise :class:`~dpsym.errors.UnsupportedError`. :meth:`to_scipy` returns a
genuine frozen ``scipy.stats.rv_continuous`` / ``rv_discrete`` built on these methods.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from numbers import Integral
from typing import TYPE_CHECKING, Any, ClassVar

import mpmath
import numpy as np
import numpy.typing as npt
import sympy as sp

from dpsym.certified.agreement import agreement
from dpsym.certified.evaluation import Value, certify_expression, cost_balls
from dpsym.certified.expectation import expectation
from dpsym.certified.kernel import certify_ball
from dpsym.certified.rounding import GUARD, check_digits
from dpsym.core.costs import EXPONENT_DOMAIN, Cost, parse_cost
from dpsym.core.expressions import Exact, parse_function
from dpsym.core.params import FreeParameter, Param, check_quantity, parse_number, require
from dpsym.distributions.entropy import MIXED_LAW, noise_entropy
from dpsym.distributions.floatbits import first_double
from dpsym.errors import CertificationError, DomainError, UnsupportedError
from dpsym.precision import exclusive, workdps
from dpsym.sampling.checks import check_random_state, check_size
from dpsym.sampling.samplers import cdf as noise_cdf
from dpsym.symbolic.engine import Family
from dpsym.symbolic.lambdas import mpmath_function
from dpsym.symbolic.noise import SymmetricNoise
from dpsym.symbols import u, x

#: The cost whose optimal free parameter the distribution uses by default (the *law
#: cost*; :meth:`Distribution.law` chooses another).
DISTRIBUTION_COST = "amplitude"
#: Digits certified for the float64 answers (their number, rounded once to a double).
FLOAT_DIGITS = 17
#: Most digits asked of an expectation of a Python function that computes in float64
#: (its values carry no more).
FLOAT_FUNCTION_DIGITS = 14
#: Most periods of a geometric tail a quadrature unrolls, and most points of one run of
#: a mass function it sums one by one (:func:`quadrature_expectation`).
QUADRATURE_PERIODS = 400
QUADRATURE_POINTS = 2000
#: Highest mpmath Gauss-Legendre degree tried on a finite piece (3 * 2^(m-1) nodes:
#: 24 at m = 4) before tanh-sinh (:func:`quadrature_expectation`).
GAUSS_LEGENDRE_DEGREE = 4


# ---------------------------------------------------------------------- density
class _Density:
    """The density (or mass function) of a numeric description in float64, vectorised."""

    def __init__(self, noise: SymmetricNoise) -> None:
        self.lattice = noise.lattice
        with workdps(30):
            self.head = [(_float(pc.lo), _float(pc.hi), _numpy(pc.expr, x))
                         for pc in noise.head]
            self.tail = None
            if noise.tail is not None:
                t = noise.tail
                self.tail = (_float(t.start), _float(t.period),
                             float(-mpmath.log(mpmath.mpmathify(sp.N(t.ratio, 30)))),
                             [(_float(pc.lo), _float(pc.hi), _numpy(pc.expr, u))
                              for pc in t.pieces])

    def __call__(self, values: np.ndarray) -> np.ndarray:
        y = np.abs(values)
        out = np.zeros_like(y)
        end = 0.0
        for lo, hi, f in self.head:
            inside = (y >= lo) & (y < hi)
            if inside.any():
                out[inside] = f(y[inside])
            end = hi
        if self.tail is not None:
            start, period, log_inv_q, pieces = self.tail
            rest = (y >= max(start, end)) & np.isfinite(y)
            if rest.any():
                z = y[rest] - start
                k = np.floor(z / period)
                local = np.clip(z - k * period, 0.0, period)
                res = np.zeros_like(z)
                for lo, hi, g in pieces:
                    inside = (local >= lo) & (local < hi)
                    if inside.any():
                        res[inside] = g(local[inside])
                with np.errstate(over="ignore", under="ignore"):
                    out[rest] = np.exp(-k * log_inv_q) * res
        return out


def _float(expr: sp.Expr) -> float:
    expr = sp.sympify(expr)
    return float("inf") if expr == sp.oo else float(sp.N(expr, 30))


def _numpy(expr: sp.Expr, var: sp.Symbol) -> Callable[[np.ndarray], np.ndarray]:
    expr = sp.sympify(expr)
    if var not in expr.free_symbols:
        level = float(sp.N(expr, 30))
        return lambda t: np.full(np.shape(t), level)
    function = sp.lambdify(var, sp.N(expr, 30), "numpy")
    return lambda t: np.asarray(function(t), dtype=float)


class Distribution:
    """The scipy.stats methods of a mechanism instance (a mixin of
    :class:`~dpsym.mechanisms.base.Mechanism`; see the module docstring).

    The law is the noise at the free parameter given to the constructor, or else at the
    free parameter optimal for :attr:`law_cost`: the amplitude cost
    (:data:`DISTRIBUTION_COST`) unless :meth:`law` chose another cost.
    """

    if TYPE_CHECKING:  # what the host class (a mechanism) provides
        name: ClassVar[str]
        lattice: ClassVar[bool]
        params: ClassVar[tuple[Param, ...]]
        free: ClassVar[FreeParameter | None]
        values: Mapping[str, Exact]
        free_given: Exact | None

        engine: ClassVar[Family]

        @classmethod
        def _specific(cls, cost: Cost) -> None: ...
        def numeric_noise(self, cost: Cost | str = "amplitude", free_value: object = None,
                          digits: int = 30) -> SymmetricNoise: ...
        def sample(self, rng: np.random.Generator | None, size: int | tuple[int, ...],
                   cost: Cost | str = "amplitude") -> np.ndarray: ...
        def __getstate__(self) -> dict[str, object]: ...
        def __setstate__(self, state: dict[str, Any]) -> None: ...

    # ------------------------------------------------------------------ plumbing
    def _multivariate(self) -> bool:
        return "dim" in self.values

    def _univariate(self, what: str) -> None:
        if self._multivariate():
            raise UnsupportedError(
                f"{self.name}: {what}: not available for a {int(self.values['dim'])}-"
                "dimensional noise (rvs draws vectors; the costs are value('cost', ...))")

    @property
    def law_cost(self) -> str:
        """The cost whose optimal free parameter defines this distribution
        (:data:`DISTRIBUTION_COST`, ``"amplitude"``, unless :meth:`law` chose another;
        without effect on a mechanism without free parameter or with one given to the
        constructor)."""
        return self.__dict__.get("_law_cost", DISTRIBUTION_COST)

    def law(self, cost: Cost | str = DISTRIBUTION_COST) -> Distribution:
        r"""This mechanism, with the distribution of the free parameter optimal for ``cost``.

        An instance's distribution methods (:meth:`rvs`, :meth:`cdf`, :meth:`ppf`,
        :meth:`var`, :meth:`entropy`...) describe the noise at the free parameter optimal
        for the amplitude cost :math:`\mathbb{E}|X|` by default, e.g. the staircase
        with :math:`\gamma^*_{\mathrm{amplitude}}`, whose ``var()`` is the power cost
        of *that* noise. ``m.law("power")`` describes the power-optimal noise instead
        (:math:`\gamma^*_{\mathrm{power}}`): its ``var()`` is
        ``m.value("cost", "power")``, its :meth:`rvs` draws
        ``m.sample(rng, size, "power")``.

        Parameters
        ----------
        cost : Cost or str
            ``amplitude``, ``power`` or ``moment:P`` (:func:`dpsym.core.costs.parse_cost`).

        Returns
        -------
        Distribution
            A new instance of the same class and parameters whose :attr:`law_cost` is
            ``cost``; the instance's other methods (``value``, ``sample``...) are
            unchanged, they take their cost as an argument. For a mechanism without free
            parameter every cost gives the same law.

        Raises
        ------
        DomainError
            For an unknown cost, or when the free parameter was given to the
            constructor (then the law is that noise whatever the cost).

        Examples
        --------
        >>> from dpsym import Staircase
        >>> m = Staircase(eps="0.3").law("power")
        >>> m.var() == float(m.value("cost", "power"))
        True
        """
        chosen = parse_cost(cost)
        self._specific(chosen)
        if self.free_given is not None:
            assert self.free is not None  # (a free parameter was given)
            raise DomainError("cost", f"{self.name}: {self.free.name} was given to the "
                              "constructor, so the law is that noise whatever the cost")
        other = object.__new__(type(self))
        other.__setstate__(self.__getstate__())  # the parameters, without the caches
        other.__dict__["_law_cost"] = chosen.name
        return other

    def __repr__(self) -> str:
        text = super().__repr__()
        cost = self.law_cost
        return text if cost == DISTRIBUTION_COST else f"{text}.law({cost!r})"

    def _dist_noise(self) -> SymmetricNoise:
        """The numeric description the distribution methods use (the sampler's)."""
        self._univariate("the distribution functions")
        if "_dist_noise_cache" not in self.__dict__:
            self.__dict__["_dist_noise_cache"] = self.numeric_noise(
                self.law_cost, self.free_given, digits=FLOAT_DIGITS)
        return self.__dict__["_dist_noise_cache"]

    def _dist_atom(self) -> tuple[float, float]:
        r""":math:`P(X < 0) = P(X > 0)` and :math:`P(X \le 0)` of a real-valued noise with
        a point mass at 0, each the double nearest to its exact value."""
        if "_dist_atom_cache" not in self.__dict__:
            atom = sp.sympify(self._dist_noise().atom)
            self.__dict__["_dist_atom_cache"] = (_float((1 - atom) / 2),
                                                 _float((1 + atom) / 2))
        return self.__dict__["_dist_atom_cache"]

    def _dist_density(self) -> _Density:
        if "_dist_density_cache" not in self.__dict__:
            self.__dict__["_dist_density_cache"] = _Density(self._dist_noise())
        return self.__dict__["_dist_density_cache"]

    # ------------------------------------------------------------------ sampling
    def rvs(self, size: int | tuple[int, ...] | None = None,
            random_state: object = None) -> np.ndarray | float | int:
        """Random noise values, as scipy's ``rvs``.

        Parameters
        ----------
        size : int, tuple of int or None
            The shape (``None``: one value, a scalar). A ``d``-dimensional mechanism
            returns vectors: shape ``size + (d,)`` (``(d,)`` for ``None``).
        random_state : None, int, SeedSequence, Generator or RandomState
            The source of randomness (:func:`dpsym.sampling.checks.check_random_state`); an int seed
            is reproducible.

        Returns
        -------
        numpy.ndarray or scalar
            float64 values (a zero is ``+0.0``), int64 for an integer-valued mechanism;
            drawn from the law of :attr:`law_cost`.
        """
        shape = None if size is None else check_size(size)
        rng = check_random_state(random_state)
        if self._multivariate():  # d-dimensional samplers take a count of vectors
            count = 1 if shape is None else int(np.prod(shape, dtype=np.int64))
            draw = _unsigned_zeros(self.sample(rng, count, self.law_cost))
            return draw[0] if shape is None else draw.reshape(shape + draw.shape[1:])
        draw = _unsigned_zeros(self.sample(rng, (1,) if shape is None else shape,
                                           self.law_cost))
        return draw[0] if shape is None else draw

    # ------------------------------------------------------------------ distribution
    def cdf(self, x: npt.ArrayLike) -> np.ndarray | float:
        r""":math:`F(x) = P(X \le x)` in float64 (vectorised; a scalar for a scalar)."""
        return _out(self._cdf(_points(x)), x)

    def _cdf(self, xs: np.ndarray) -> np.ndarray:
        """:func:`dpsym.sampling.samplers.cdf`, with its limits where a piece's closed form
        overflows float64 far in a tail (a Gaussian's beyond about 37 standard deviations,
        where the mass left is below the smallest normal double): 0 below, 1 above; at a
        point mass at 0, :math:`F(0) = (1 + P(X = 0))/2` rounded once."""
        noise = self._dist_noise()
        with np.errstate(over="ignore", invalid="ignore"):
            out = noise_cdf(noise, xs)
        lost = np.isnan(out) & ~np.isnan(xs)
        if lost.any():
            out = np.where(lost, np.where(xs > 0, 1.0, 0.0), out)
        if not noise.lattice and sp.sympify(noise.atom) != 0:  # the jump: F(0) exactly
            out = np.where(xs == 0, self._dist_atom()[1], out)
        return out

    def sf(self, x: npt.ArrayLike) -> np.ndarray | float:
        r""":math:`P(X > x)`, from the symmetry :math:`P(X > x) = P(X < -x)` (precise in
        the upper tail; at a point mass at 0, :math:`P(X > 0) = (1 - P(X = 0))/2`
        rounded once)."""
        return _out(self._sf(_points(x)), x)

    def _sf(self, xs: np.ndarray) -> np.ndarray:
        noise = self._dist_noise()
        if noise.lattice:
            return self._cdf(-np.floor(xs) - 1)
        if sp.sympify(noise.atom) == 0:
            return self._cdf(-xs)
        # P(X > x) = P(X < -x) = F(-x) away from the point mass at 0
        above, _ = self._dist_atom()
        with np.errstate(invalid="ignore"):
            out = np.where(xs > 0, self._cdf(-xs), 1.0 - self._cdf(xs))
        return np.where(xs == 0, above, out)

    def logcdf(self, x: npt.ArrayLike) -> np.ndarray | float:
        r""":math:`\log F(x)`."""
        with np.errstate(divide="ignore"):
            return np.log(self.cdf(x))

    def logsf(self, x: npt.ArrayLike) -> np.ndarray | float:
        r""":math:`\log P(X > x)`."""
        with np.errstate(divide="ignore"):
            return np.log(self.sf(x))

    def ppf(self, q: npt.ArrayLike) -> np.ndarray | float:
        r"""The quantile function, the exact inverse of :meth:`cdf` in float64: the
        smallest double :math:`x` with ``cdf(x) >= q``.

        An integer for an integer-valued mechanism; ``ppf(0.5)`` is the exact median 0 of
        a real-valued noise; ``ppf(0)`` is the lower end of the :meth:`support` (one below
        it on the integers, as scipy's ``rv_discrete``), ``ppf(1)`` the upper end; nan
        outside :math:`[0, 1]`. ``ppf(cdf(x))`` is the first double on which the float64
        :meth:`cdf` takes the value ``cdf(x)`` (``x`` itself where the cdf resolves it:
        the lower tail; :meth:`isf` resolves the upper tail).
        """
        qs = _points(q)
        with np.errstate(invalid="ignore"):
            out = first_double(lambda points: self._cdf(points) >= qs, qs.shape)
        low, high = self._ends()
        if not self.lattice:  # symmetric, F(0-) <= 1/2 <= F(0): the median is exactly 0
            out = np.where(qs == 0.5, 0.0, out)
        out = np.where(qs == 0, low, np.where(qs == 1, high, out))
        return _out(np.where((qs >= 0) & (qs <= 1), out, np.nan), q)

    def isf(self, q: npt.ArrayLike) -> np.ndarray | float:
        r"""The inverse survival function, the exact inverse of :meth:`sf` in float64: the
        smallest double :math:`x` with ``sf(x) <= q``.

        Computed from the upper tail itself (not as ``ppf(1 - q)``, which loses it):
        finite for every ``q > 0``, and ``isf(sf(x))`` is ``x`` (to an ulp or two) far
        in the upper tail. ``isf(0.5)`` is 0 for a real-valued noise, ``isf(0)`` the
        upper end of the :meth:`support`, ``isf(1)`` the lower end (one below it on the
        integers, as scipy's ``rv_discrete``); nan outside :math:`[0, 1]`.
        """
        qs = _points(q)
        with np.errstate(invalid="ignore"):
            out = first_double(lambda points: self._sf(points) <= qs, qs.shape)
        low, high = self._ends()
        if not self.lattice:
            out = np.where(qs == 0.5, 0.0, out)
        out = np.where(qs == 0, high, np.where(qs == 1, low, out))
        return _out(np.where((qs >= 0) & (qs <= 1), out, np.nan), q)

    def _ends(self) -> tuple[float, float]:
        """``ppf(0)`` and ``ppf(1)`` (scipy's conventions: the support's ends, except
        one below the lower end on the integers)."""
        low, high = self.support()
        return (low - 1 if self.lattice else low), high

    def pdf(self, x: npt.ArrayLike) -> np.ndarray | float:
        """The density (float64). A point mass at 0 (``uniform-mass``) is not part of it:
        :meth:`cdf` jumps there.

        Raises
        ------
        UnsupportedError
            For an integer-valued mechanism (use :meth:`pmf`).
        """
        if self.lattice:
            raise UnsupportedError(f"{self.name} is integer-valued: use pmf, not pdf")
        return _out(self._dist_density()(_points(x)), x)

    def logpdf(self, x: npt.ArrayLike) -> np.ndarray | float:
        """The logarithm of :meth:`pdf`."""
        with np.errstate(divide="ignore"):
            return np.log(self.pdf(x))

    def pmf(self, k: npt.ArrayLike) -> np.ndarray | float:
        """The mass function on the integers (0 off them).

        Raises
        ------
        UnsupportedError
            For a real-valued mechanism (use :meth:`pdf`).
        """
        if not self.lattice:
            raise UnsupportedError(f"{self.name} is real-valued: use pdf, not pmf")
        ks = _points(k)
        integer = np.isfinite(ks) & (ks == np.floor(ks))
        out = np.where(integer, self._dist_density()(np.where(integer, ks, 0.0)), 0.0)
        return _out(out, k)

    def logpmf(self, k: npt.ArrayLike) -> np.ndarray | float:
        """The logarithm of :meth:`pmf`."""
        with np.errstate(divide="ignore"):
            return np.log(self.pmf(k))

    def support(self) -> tuple[float, float]:
        """The end points of the support, ``(-a, a)`` (``a`` may be ``inf``; on the
        integers, the extreme values taken)."""
        noise = self._dist_noise()
        if noise.tail is not None or not noise.head:
            return (-np.inf, np.inf)
        end = _float(noise.head[-1].hi) - (1 if noise.lattice else 0)
        return (-end, end)

    def median(self) -> float:
        """0: the noise is symmetric."""
        self._univariate("median")
        return 0.0

    def interval(self, confidence: float) -> tuple[float, float]:
        """The central interval of probability ``confidence``, as scipy's ``interval``:
        ``(ppf(t), isf(t))`` with ``t = (1 - confidence) / 2``; ``interval(1.0)`` is the
        :meth:`support` (on the integers, ``(low - 1, high)`` as scipy's).

        Raises
        ------
        DomainError
            For ``confidence`` outside :math:`[0, 1]`.
        """
        level = float(confidence)
        if not 0 <= level <= 1:
            raise DomainError("confidence", f"must be in [0, 1], got {level}")
        tail = (1.0 - level) / 2
        return float(self.ppf(tail)), float(self.isf(tail))

    # ------------------------------------------------------------------ moments
    def mean(self) -> float:
        """0.0: the noise is symmetric about the origin."""
        self._univariate("mean")
        return 0.0

    def var(self) -> float:
        r""":math:`\mathbb{E}X^2` (the ``power`` cost at this distribution's parameter),
        from the engine's exact expression, certified and rounded to float64.

        The parameter is the one optimal for :attr:`law_cost` (amplitude by default: the
        power cost of the amplitude-optimal noise, above the optimal power cost);
        ``law("power").var()`` is the optimal power cost ``value("cost", "power")``.
        """
        return float(self.moment_value(2, FLOAT_DIGITS))

    def std(self) -> float:
        r"""The standard deviation, :math:`\sqrt{\operatorname{var}}`."""
        return float(mpmath.sqrt(self.moment_value(2, FLOAT_DIGITS).number))

    def stats(self, moments: str = "mv") -> tuple[float, ...]:
        """Mean (``m``), variance (``v``), skewness (``s``, 0) and excess kurtosis (``k``)."""
        out: list[float] = []
        for letter in moments:
            if letter == "m":
                out.append(self.mean())
            elif letter == "v":
                out.append(self.var())
            elif letter == "s":
                self._univariate("skewness")
                out.append(0.0)
            elif letter == "k":
                m2, m4 = (mpmath.mpf(self.moment_value(p, 20).text) for p in (2, 4))
                out.append(float(m4 / m2**2 - 3))
            else:
                raise DomainError("moments", f"letters of 'mvsk', got {moments[:10]!r}")
        return tuple(out)

    def moment(self, order: int) -> float:
        r""":math:`\mathbb{E}X^n` for an integer order :math:`n \ge 0` (0 for odd
        :math:`n`: the noise is symmetric), as scipy's ``moment``; :meth:`abs_moment`
        takes any real :math:`p > 0`."""
        if isinstance(order, bool) or not isinstance(order, Integral) or order < 0:
            raise DomainError("order", "must be an integer >= 0 (E|X|^p for real p: "
                              f"abs_moment), got {order!r}")
        self._univariate("moment")
        if order == 0:
            return 1.0
        if order % 2:
            return 0.0
        return float(self.moment_value(int(order), FLOAT_DIGITS))

    def abs_moment(self, p: object) -> float:
        r""":math:`\mathbb{E}|X|^p` (the cost ``moment:p``), certified and rounded to
        float64."""
        return float(self.moment_value(p, FLOAT_DIGITS))

    @exclusive
    def expect(self, func: object = None, digits: int = 30) -> Value:
        r""":math:`\mathbb{E}\,f(X)` of this distribution, to ``digits`` digits.

        Parameters
        ----------
        func : str, sympy expression or callable, optional
            :math:`f`: an expression in ``x`` (the grammar of costs, e.g.
            ``"min(abs(x), 3)"``, or a sympy expression in :data:`dpsym.symbols.x`), or
            any Python function of one number. Default: :math:`f(x) = x` (0: the noise
            is symmetric).
        digits : int
            Significant digits.

        Returns
        -------
        Value
            The noise is symmetric, so :math:`\mathbb{E}\,f(X) = \mathbb{E}\,g(|X|)` with
            the even part :math:`g(y) = (f(y) + f(-y))/2`. When :math:`g` is a cost the
            package reads (:func:`dpsym.core.costs.parse_cost`: nonnegative,
            nondecreasing on :math:`[0, \infty)`), the expectation is enclosed in Arb
            balls from the noise's pieces (:func:`dpsym.certified.expectation.expectation`):
            certificate ``"enclosure"``. Otherwise (an expression that is not such a cost,
            or a Python function) it is mpmath quadrature of the pieces
            (:func:`quadrature_expectation`) at two working precisions that must agree:
            certificate ``"agreement"``, not a proof. A Python function that computes in
            float64 (its value at an ``mpmath.mpf`` is not one) gives at most
            :data:`FLOAT_FUNCTION_DIGITS` digits.

        Raises
        ------
        DomainError
            For an expression in another variable than ``x``, a ``func`` that is neither
            an expression nor callable, or an infinite expectation.
        """
        self._univariate("expect")
        digits = check_digits(digits)
        noise = self._dist_noise()
        if func is None:
            return Value.from_exact(Fraction(0), mpmath.mpf(0), "0", digits)
        if isinstance(func, (str, sp.Basic)):
            expr = parse_function(func, "func", x) if isinstance(func, str) \
                else sp.sympify(func)
            if not expr.free_symbols <= {x}:
                raise DomainError("func", "must be an expression in x alone, got "
                                  f"{str(expr)[:40]!r}")
            even = (expr + expr.subs(x, -x)) / 2
            try:
                cost = parse_cost(even) if x in even.free_symbols else None
            except DomainError:
                cost = None
            if cost is not None:
                balls = cost_balls(cost)
                found = certify_ball(lambda bits: expectation(noise, balls), digits,
                                     what=f"the expectation of {str(expr)[:40]}")
                return Value(None, None, digits, source=found)
            g, floats = mpmath_function(x, even), False
        elif callable(func):
            g, floats = _even_part(func)
            if floats:
                digits = min(digits, FLOAT_FUNCTION_DIGITS)
        else:
            raise DomainError("func", "must be an expression in x or a function, got "
                              f"{type(func).__name__}")

        def compute() -> mpmath.mpf:
            # A float64 function carries about 16 digits: a quadrature asked for more never
            # converges (its error estimate stays at the function's rounding) and runs to
            # its largest degree. Its two evaluations are at FLOAT_DIGITS + 1 and + 2.
            dps = FLOAT_DIGITS + (mpmath.mp.dps - digits) // GUARD if floats else mpmath.mp.dps
            with workdps(dps):
                found = quadrature_expectation(noise, g)
            if found is None:
                raise CertificationError(f"{self.name}: the quadrature of the expectation "
                                         "did not converge")
            return found

        number, text, coarser = agreement(compute, digits, allow_zero=True)
        return Value.from_agreement(number, text, digits, coarser)

    @exclusive
    def moment_value(self, p: object, digits: int = 30) -> Value:
        r"""The certified :math:`\mathbb{E}|X|^p` of this distribution, ``digits`` digits.

        The engine's exact expression of :math:`\mathbb{E}|X|^p` in the parameters and
        the free parameter, at the given free parameter or the exact optimum for
        :attr:`law_cost` (the amplitude cost unless :meth:`law` chose another): one
        ball evaluation where the expression is a closed form (:mod:`dpsym.certified.balls`),
        otherwise mpmath at two precisions that must agree.

        Raises
        ------
        DomainError
            For ``p`` not in (0, 20] or invalid ``digits``.
        """
        self._univariate("moment_value")
        require(self, *(prm.name for prm in self.params))
        return certify_expression(self, self.engine.moment(_exponent(p)), check_digits(digits))

    def entropy(self) -> float:
        r"""The differential entropy in nats (lattice: the Shannon entropy).

        Raises
        ------
        UnsupportedError
            For a mixed law, a point mass at 0 and a density (``uniform-mass`` with
            :math:`\alpha > 0`): it has no differential entropy (the density part alone
            does not define one), nor a Shannon entropy.
        """
        noise = self._dist_noise()
        if not noise.lattice and sp.sympify(noise.atom) != 0:
            raise UnsupportedError(f"{self.name}: {MIXED_LAW}")
        with workdps(20):
            return float(noise_entropy(noise))

    # ------------------------------------------------------------------ scipy itself
    def to_scipy(self, *, infrastructure: str = "frozen") -> Any:
        """This noise as a genuine ``scipy.stats`` object whose ``pdf``/``pmf``,
        ``cdf``, ``sf``, ``ppf``, ``rvs`` and moments are this instance's.

        Parameters
        ----------
        infrastructure : {"frozen", "new"}
            ``"frozen"``: a frozen ``rv_continuous`` / ``rv_discrete``; ``"new"``: an
            instance of scipy's new distribution infrastructure
            (``scipy.stats.make_distribution``; ``sample(shape, rng=...)``,
            ``icdf``...).
        """
        self._univariate("to_scipy")
        if infrastructure not in ("frozen", "new"):
            raise DomainError("infrastructure", f"must be 'frozen' or 'new', got "
                              f"{str(infrastructure)[:20]!r}")
        frozen = self._frozen_scipy()
        if infrastructure == "frozen":
            return frozen
        from scipy import stats  # optional dependency: only this adapter needs it

        return stats.make_distribution(frozen.dist)()

    def _frozen_scipy(self) -> Any:
        from scipy import stats  # optional dependency: only this adapter needs it

        m = self
        low, high = self.support()
        density = "_pmf" if self.lattice else "_pdf"
        methods = {  # scipy calls these on its own instance; they delegate to ``m``
            density: lambda _, t: m.pmf(t) if m.lattice else m.pdf(t),
            "_cdf": lambda _, t: m.cdf(t),
            "_sf": lambda _, t: m.sf(t),
            "_ppf": lambda _, q: m.ppf(q),
            "_isf": lambda _, q: m.isf(q),
            "_rvs": lambda _, size=None, random_state=None: m.rvs(size, random_state),
            "_stats": lambda _: (0.0, m.var(), 0.0, m.stats("k")[0]),
            "_shape_info": lambda _: [],
        }
        base = stats.rv_discrete if self.lattice else stats.rv_continuous

        def expect(dist: Any, func: Any = None, args: tuple = (), loc: float = 0,
                   *rest: Any, **kwds: Any) -> float:
            """scipy's ``expect``: :meth:`Distribution.expect` for the whole law; scipy's
            own quadrature for a shifted, scaled, truncated or conditional one."""
            names = ("lb", "ub", "conditional") if m.lattice else \
                ("scale", "lb", "ub", "conditional")
            given = dict(zip(names, rest, strict=False))
            given.update((k, kwds[k]) for k in names if k in kwds)
            whole = (not args and loc == 0 and given.get("scale", 1) == 1
                     and given.get("lb") is None and given.get("ub") is None
                     and not given.get("conditional", False))
            if whole:
                return float(m.expect(func, FLOAT_DIGITS).number)
            return base.expect(dist, func, args, loc, *rest, **kwds)

        methods["expect"] = expect
        return type("_Adapter", (base,), methods)(a=low, b=high, name=self.name)()


def _even_part(func: Callable[[Any], Any]) -> tuple[Callable[[mpmath.mpf], mpmath.mpf], bool]:
    r"""The even part :math:`(f(z) + f(-z))/2` of a Python function as an mpmath function,
    and whether ``func`` computes in float64 (its value at an ``mpmath.mpf`` is not an
    ``mpf``, or it does not take one: it is then called with floats)."""
    try:
        probe = func(mpmath.mpf(1))
        floats = not isinstance(probe, (mpmath.mpf, int, Fraction))
    except (TypeError, AttributeError, ValueError):
        floats = True
    if floats:
        def g(z: mpmath.mpf) -> mpmath.mpf:
            return (mpmath.mpf(float(func(float(z)))) + mpmath.mpf(float(func(-float(z))))) / 2
        return g, True
    return (lambda z: (mpmath.mpmathify(func(z)) + mpmath.mpmathify(func(-z))) / 2), False


def quadrature_expectation(noise: SymmetricNoise, g: Callable[[mpmath.mpf], mpmath.mpf], *,
                           antiderivative: Callable[[mpmath.mpf], mpmath.mpf] | None = None,
                           remaining: Callable[[int, mpmath.mpf], bool] | None = None,
                           periods: int = QUADRATURE_PERIODS,
                           points: int = QUADRATURE_POINTS) -> mpmath.mpf | None:
    r""":math:`\mathbb{E}\,g(|X|)` of a numeric noise description by mpmath quadrature of
    its pieces (sums on a lattice), at the working precision; an independent route, not a
    proof.

    Continuous noise: :math:`\mathrm{atom}\cdot g(0) + 2\int_0^\infty g f`; lattice noise:
    :math:`2\sum_{i \ge 0} g(i) P(i) - g(0) P(0)`. A constant piece of a density is
    integrated through ``antiderivative`` (:math:`G^{\prime} = g`) when one is given. The
    geometric tail is unrolled period by period while ``remaining(k, total)`` says the
    periods from the :math:`k`-th on may still matter (default: until two successive
    periods add less than the working precision, relative).

    Returns
    -------
    mpmath.mpf or None
        None when the tail takes more than ``periods`` periods, or a piece of a mass
        function runs over more than ``points`` points.
    """
    def mp(e: object) -> mpmath.mpf:
        e = sp.sympify(e)
        return mpmath.inf if e == sp.oo else mpmath.mpf(sp.N(e, mpmath.mp.dps + 5))

    def prepared(pieces: Any, var: sp.Symbol) -> list[tuple[mpmath.mpf, mpmath.mpf,
                                                          mpmath.mpf | None, Any]]:
        """Each piece's ends and its level (a constant piece) or its function of
        ``var``, converted once for every period."""
        out = []
        for pc in pieces:
            expr = sp.sympify(pc.expr)
            constant = var not in expr.free_symbols
            out.append((mp(pc.lo), mp(pc.hi), mp(expr) if constant else None,
                        None if constant else mpmath_function(var, expr)))
        return out

    def piece(lo: mpmath.mpf, hi: mpmath.mpf, level: mpmath.mpf | None, h: Any,
              shift: mpmath.mpf) -> mpmath.mpf:
        """The integral (sum) of g(z) f(z - shift) over [lo, hi), f the constant ``level``
        or the function ``h``."""
        if not hi > lo:
            return mpmath.mpf(0)

        def f(z: mpmath.mpf) -> mpmath.mpf:
            return level if h is None else h(z - shift)
        if noise.lattice:
            first = int(lo)
            if hi == mpmath.inf:
                return mpmath.nsum(lambda i: g(i) * f(i), [first, mpmath.inf])
            if int(hi) - first > points:
                raise _Unsummed
            return mpmath.fsum(g(mpmath.mpf(i)) * f(mpmath.mpf(i))
                               for i in range(first, int(hi)))
        if level is not None and hi != mpmath.inf and antiderivative is not None:
            return level * (antiderivative(hi) - antiderivative(lo))
        return _quad(lambda z: g(z) * f(z), lo, hi)

    try:
        total = mpmath.fsum(piece(lo, hi, level, h, mpmath.mpf(0))
                            for lo, hi, level, h in prepared(noise.head, x))
    except _Unsummed:
        return None
    if noise.tail is not None:
        t = noise.tail
        q, start, period = mp(t.ratio), mp(t.start), mp(t.period)
        pieces = prepared(t.pieces, u)
        tol = mpmath.mpf(10) ** (-mpmath.mp.dps)
        k, small = 0, 0
        while (remaining(k, total) if remaining is not None else small < 2):
            if k >= periods:
                return None
            base = start + k * period
            try:
                share = q**k * mpmath.fsum(piece(base + lo, base + hi, level, h, base)
                                           for lo, hi, level, h in pieces)
            except _Unsummed:
                return None
            total += share
            small = small + 1 if abs(share) <= tol * abs(total) else 0
            k += 1
    zero = g(mpmath.mpf(0))
    if noise.lattice:
        return 2 * total - zero * mp(noise.mass_at_zero())
    return mp(noise.atom) * zero + 2 * total


def _quad(fn: Callable[[mpmath.mpf], mpmath.mpf], lo: mpmath.mpf,
          hi: mpmath.mpf) -> mpmath.mpf:
    r""":math:`\int_{lo}^{hi} fn` by mpmath: Gauss-Legendre on a finite interval when it
    converges by mpmath's own criterion (its error estimate at most ``mpmath.eps / 8``,
    the working precision's bound at which mpmath's quadrature stops) by degree
    :data:`GAUSS_LEGENDRE_DEGREE`, else tanh-sinh.

    A smooth integrand on a finite piece (a period of a geometric tail) takes a few
    dozen Gauss-Legendre nodes where tanh-sinh takes a few hundred; an endpoint
    singularity or a kink keeps the error estimate large and falls back to tanh-sinh,
    mpmath's default.
    """
    if hi != mpmath.inf:
        value, err = mpmath.quad(fn, [lo, hi], method="gauss-legendre", error=True,
                                 maxdegree=GAUSS_LEGENDRE_DEGREE)
        if err <= mpmath.eps / 8:
            return value
    return mpmath.quad(fn, [lo, hi])


class _Unsummed(Exception):
    """A run of a mass function too long to sum point by point."""


@exclusive
@exclusive
def fixed_free_value(m: Any, quantity: str, cost: object, digits: int, *,
                     method: str = "auto") -> Value:
    r"""``quantity`` of an instance whose free parameter was fixed by its constructor
    (``Staircase(eps=1, gamma="1/2")``): ``cost`` is the expected cost of *that* noise,
    the free parameter's quantity is the given value (exact), a derived parameter is
    computed at it.

    Raises
    ------
    DomainError
        For an unknown quantity, cost, digits or method.
    """
    check_quantity(m, quantity)
    cost = parse_cost(cost)
    m._specific(cost)
    if method not in ("auto", "ball", "mpmath"):
        raise DomainError("method", f"must be one of auto, ball, mpmath, got {str(method)[:40]!r}")
    digits = check_digits(digits)
    require(m, *(prm.name for prm in m.params))
    if quantity == m.free.name:
        found = certify_expression(m, m.free.symbol, digits, method=method, allow_zero=True)
        if m.free.integer:  # printed as an integer, like the optimum's value
            return Value.from_exact(Fraction(m.free_given), found.number,
                                    str(int(m.free_given)), digits)
        return found
    if quantity == "cost":
        return certify_expression(m, m.cost_function(cost), digits, method=method)
    formula = m.engine.calibration().get(next(d.symbol for d in m.derived if d.name == quantity))
    if formula is None:
        raise UnsupportedError(f"{m.name}: {quantity} has no formula at a fixed "
                               f"{m.free.name}")
    return certify_expression(m, formula, digits, method=method, allow_zero=True)


def _exponent(p: object) -> sp.Rational:
    """The exponent of a cost name or a number ``p`` in (0, 20] (exactly)."""
    if isinstance(p, str) and not p[:1].isdigit():
        return parse_cost(p).exponent
    value = parse_number(p, "p")
    if value not in EXPONENT_DOMAIN:  # named after the argument p, not a cost
        raise DomainError("p", f"must be in {EXPONENT_DOMAIN.describe()}, got {value}")
    return parse_cost(f"moment:{value.numerator}/{value.denominator}").exponent


def _points(values: npt.ArrayLike) -> np.ndarray:
    return np.asarray(values, dtype=float)


def _out(values: np.ndarray, like: npt.ArrayLike) -> np.ndarray | float:
    """A float for a scalar argument, else the array."""
    return float(values) if np.ndim(like) == 0 else values


def _unsigned_zeros(draw: np.ndarray) -> np.ndarray:
    """``draw`` with ``-0.0`` made ``+0.0`` (in place; a float64 array), as ``x + 0.0``
    does in round-to-nearest: a random sign times a zero draw is not a negative zero."""
    if draw.dtype.kind == "f":
        np.add(draw, 0.0, out=draw)
    return draw


__all__ = ["DISTRIBUTION_COST", "FLOAT_DIGITS", "FLOAT_FUNCTION_DIGITS", "QUADRATURE_PERIODS",
           "QUADRATURE_POINTS", "Distribution", "quadrature_expectation"]
