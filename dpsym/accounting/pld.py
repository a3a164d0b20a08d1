r"""Any dpsym mechanism in Google's ``dp_accounting`` (the ``dpsym[accounting]`` extra).

* :func:`to_pld`: the mechanism's privacy-loss law at its worst shift
  (:func:`dpsym.accounting.composition.component`) as a pessimistic
  :class:`dp_accounting.pld.privacy_loss_distribution.PrivacyLossDistribution`: the law
  of a pair on the grid :math:`h\mathbb{Z}` that dominates the mechanism's
  (:func:`dpsym.accounting.composition.component_bins`: each loss between two grid points split
  between them with the same :math:`P`- and :math:`Q`-masses), the mass of an infinite
  loss kept as ``infinity_mass``; composing it inside dp_accounting (with its own Laplace
  or Gaussian PLDs of the same :math:`h`) therefore over-estimates
  :math:`\delta(\varepsilon^{\prime})`, and converges to the exact value as :math:`h \to 0`.
* :func:`rdp_curve`: the exact Rényi curve :math:`\alpha \mapsto D_\alpha`
  (:func:`dpsym.accounting.renyi.renyi`) at dp_accounting's orders (each float order taken as the
  exact binary number it is), each certified value rounded *up* to a float: an upper
  bound, as RDP accounting needs (``inf`` where infinite).
* :class:`MechanismEvent`, :class:`PLDAccountant`, :class:`RdpAccountant`: a ``DpEvent``
  for a dpsym mechanism and the two accountants extended to compose it with every
  event dp_accounting knows (``GaussianDpEvent``, ``LaplaceDpEvent``, ...).

dp_accounting computes in float64: the interval is passed as a float and the losses are
binned on the grid of that float's exact value (so every loss handed over is where
dp_accounting puts it), and the masses are Arb balls rounded outward to floats (up for a
pessimistic PLD, down for an optimistic one).
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

import attr
import dp_accounting
import flint
import numpy as np
from dp_accounting.pld import pld_privacy_accountant
from dp_accounting.pld import privacy_loss_distribution as pld_lib
from dp_accounting.rdp import rdp_privacy_accountant

from dpsym.accounting.composition import component, component_bins, parse_interval
from dpsym.accounting.renyi import renyi
from dpsym.core.costs import Cost
from dpsym.mechanisms import Mechanism
from dpsym.precision import arb_fraction, arb_workprec, exclusive
from dpsym.privacy.loss import exact_sym

__all__ = ["MechanismEvent", "PLDAccountant", "RdpAccountant", "certified_upper", "float_down",
           "float_up", "rdp_curve", "to_pld"]

#: Precision (bits) of the masses handed to dp_accounting.
PRECISION = 128


@exclusive
def to_pld(mechanism: Mechanism, value_discretization_interval: object = "1e-4",
           cost: Cost | str = "amplitude", *, pessimistic: bool = True,
           digits: int = 20) -> pld_lib.PrivacyLossDistribution:
    r"""The mechanism as a dp_accounting privacy-loss distribution.

    Parameters
    ----------
    mechanism : Mechanism
        A one-dimensional mechanism with every parameter.
    value_discretization_interval : number
        The grid :math:`h` of the losses (read exactly, e.g. ``"1e-4"``, then taken as the
        exact value of the float dp_accounting is given).
    cost : Cost or str
        The cost whose optimal free parameter defines the noise.
    pessimistic : bool
        A pair that dominates the mechanism's (an upper bound of every composed
        :math:`\delta`; default) or one that it dominates (a lower bound).
    digits : int
        Digits of the certified free parameter and Gaussian :math:`\sigma`.

    Returns
    -------
    PrivacyLossDistribution
        Symmetric (the pairs of a symmetric noise are), composable with dp_accounting's own
        PLDs of the same interval.
    """
    h_float = float(parse_interval(value_discretization_interval))
    h = exact_sym(Fraction(h_float))  # the grid dp_accounting will use, exactly
    comp = component(mechanism, cost, digits)
    with arb_workprec(PRECISION):
        masses, infinite = component_bins(comp, h, pessimistic)
        rounded = {}
        for j, m in masses.items():
            value = float_up(m.upper()) if pessimistic else float_down(m.lower())
            if value > 0:
                rounded[j] = value
        inf_mass = float_up(infinite.upper()) if pessimistic else \
            float_down(infinite.lower())
    return pld_lib.PrivacyLossDistribution.create_from_rounded_probability(
        rounded, inf_mass, h_float, pessimistic_estimate=pessimistic)




def float_up(value: flint.arb | Fraction) -> float:
    """The smallest float >= the exact number ``value`` (an Arb endpoint or a fraction)."""
    exact = value if isinstance(value, Fraction) else arb_fraction(value)
    out = float(exact)  # correctly rounded to nearest
    return math.nextafter(out, math.inf) if Fraction(out) < exact else out


def float_down(value: flint.arb | Fraction) -> float:
    """The largest float <= the exact number ``value``, never below 0 for a mass."""
    exact = value if isinstance(value, Fraction) else arb_fraction(value)
    if exact <= 0:
        return 0.0
    out = float(exact)
    return math.nextafter(out, -math.inf) if Fraction(out) > exact else out


def certified_upper(text: str) -> Fraction:
    r"""An upper bound of a number whose certified rounding to its digits is ``text``
    (:func:`dpsym.privacy.loss.certify`: the exact value rounds to ``text``, so it is at
    most ``text`` plus half a unit of its last digit)."""
    value = Decimal(text)
    if value == 0:
        return Fraction(0)  # certified zero: an exactly zero ball
    exponent = value.as_tuple().exponent
    assert isinstance(exponent, int)  # (a finite number)
    half_unit = Fraction(Decimal((0, (5,), exponent - 1)))
    return Fraction(value) + half_unit


def rdp_curve(mechanism: Mechanism, orders: object = None,
              cost: Cost | str = "amplitude", *, digits: int = 17) -> np.ndarray:
    r"""The exact Rényi curve at ``orders`` (default: dp_accounting's), each an upper
    bound: the divergence at the order's exact binary value (the order dp_accounting
    computes with) certified to ``digits`` digits, then rounded *up* to a float
    (the certified digits plus half a unit of the last one).

    Returns
    -------
    numpy.ndarray
        Floats :math:`\ge D_\alpha` (``inf`` where infinite).
    """
    if orders is None:
        orders = rdp_privacy_accountant.DEFAULT_RDP_ORDERS
    out = []
    for order in np.asarray(orders, dtype=float):
        exact = "inf" if math.isinf(order) else Fraction(float(order))
        value = renyi(mechanism, exact, cost, digits)
        out.append(math.inf if value.infinite else float_up(certified_upper(value.text)))
    return np.array(out, dtype=float)


@attr.s(frozen=True, slots=True, auto_attribs=True)
class MechanismEvent(dp_accounting.DpEvent):
    """A release with a dpsym mechanism (the noise defined by its optimal free parameter
    for ``cost``)."""

    mechanism: Mechanism
    cost: str = "amplitude"


class PLDAccountant(pld_privacy_accountant.PLDAccountant):
    """dp_accounting's PLD accountant, composing :class:`MechanismEvent` too."""

    _pld: pld_lib.PrivacyLossDistribution  # (the base class's composed distribution)

    def _maybe_compose(self, event, count, do_compose):
        if isinstance(event, MechanismEvent):
            if do_compose:
                pld = to_pld(event.mechanism, Fraction(repr(self._value_discretization_interval)),
                             event.cost)
                self._pld = self._pld.compose(pld.self_compose(count))
            return None
        return super()._maybe_compose(event, count, do_compose)


class RdpAccountant(rdp_privacy_accountant.RdpAccountant):
    """dp_accounting's RDP accountant, composing :class:`MechanismEvent` too."""

    def _maybe_compose(self, event, count, do_compose):
        if isinstance(event, MechanismEvent):
            if do_compose:
                self._rdp += count * rdp_curve(event.mechanism, self._orders, event.cost)
            return None
        return super()._maybe_compose(event, count, do_compose)
