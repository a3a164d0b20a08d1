r"""Any dpsym mechanism in Google's ``dp_accounting`` (the ``dpsym[accounting]`` extra).

* :func:`to_pld`: the mechanism's privacy-loss law at its worst shift
  (:func:`dpsym.composition.component`) as a pessimistic
  :class:`dp_accounting.pld.privacy_loss_distribution.PrivacyLossDistribution`: every
  loss rounded *up* to a multiple of the discretisation interval :math:`h`, the mass of an
  infinite loss kept as ``infinity_mass``; composing it inside dp_accounting (with its
  own Laplace or Gaussian PLDs of the same :math:`h`) therefore over-estimates
  :math:`\delta(\varepsilon')`, and converges to the exact value as :math:`h \to 0`.
* :func:`rdp_curve`: the exact Rényi curve :math:`\alpha \mapsto D_\alpha`
  (:func:`dpsym.renyi.renyi`) at dp_accounting's orders, each certified value rounded up to
  a float (``inf`` where infinite).
* :class:`MechanismEvent`, :class:`PLDAccountant`, :class:`RdpAccountant`: a ``DpEvent``
  for a dpsym mechanism and the two accountants extended to compose it with every
  event dp_accounting knows (``GaussianDpEvent``, ``LaplaceDpEvent``, ...).

The masses are Arb balls rounded to the nearest float (dp_accounting computes in float64),
and the interval is passed to dp_accounting as a float.
"""

from __future__ import annotations

import math
from fractions import Fraction

import attr
import dp_accounting
import numpy as np
from dp_accounting.pld import pld_privacy_accountant
from dp_accounting.pld import privacy_loss_distribution as pld_lib
from dp_accounting.rdp import rdp_privacy_accountant

from .composition import component, component_bins, parse_interval
from .costs import Cost
from .mechanisms import Mechanism
from .precision import arb_workprec, exclusive
from .renyi import renyi

__all__ = ["MechanismEvent", "PLDAccountant", "RdpAccountant", "rdp_curve", "to_pld"]

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
        The grid :math:`h` of the losses (read exactly, e.g. ``"1e-4"``).
    cost : Cost or str
        The cost whose optimal free parameter defines the noise.
    pessimistic : bool
        Round the losses up (an upper bound of every composed :math:`\delta`; default) or
        down (a lower bound).
    digits : int
        Digits of the certified free parameter and Gaussian :math:`\sigma`.

    Returns
    -------
    PrivacyLossDistribution
        Symmetric (the pairs of a symmetric noise are), composable with dp_accounting's own
        PLDs of the same interval.
    """
    h = parse_interval(value_discretization_interval)
    comp = component(mechanism, cost, digits)
    with arb_workprec(PRECISION):
        masses, infinite = component_bins(comp, h, pessimistic)
        rounded = {j: float(m.mid()) for j, m in masses.items() if float(m.mid()) > 0}
        inf_mass = float(infinite.upper()) if pessimistic else float(infinite.mid())
    return pld_lib.PrivacyLossDistribution.create_from_rounded_probability(
        rounded, inf_mass, float(h), pessimistic_estimate=pessimistic)


def rdp_curve(mechanism: Mechanism, orders: object = None,
              cost: Cost | str = "amplitude", *, digits: int = 17) -> np.ndarray:
    r"""The exact Rényi curve at ``orders`` (default: dp_accounting's), each certified
    value rounded up to the next float (an upper bound, as RDP accounting needs)."""
    if orders is None:
        orders = rdp_privacy_accountant.DEFAULT_RDP_ORDERS
    out = []
    for order in np.asarray(orders, dtype=float):
        exact = "inf" if math.isinf(order) else Fraction(repr(float(order)))
        value = renyi(mechanism, exact, cost, digits)
        out.append(math.inf if value.infinite else math.nextafter(float(value.text),
                                                                   math.inf))
    return np.array(out, dtype=float)


@attr.s(frozen=True, slots=True, auto_attribs=True)
class MechanismEvent(dp_accounting.DpEvent):
    """A release with a dpsym mechanism (the noise defined by its optimal free parameter
    for ``cost``)."""

    mechanism: Mechanism
    cost: str = "amplitude"


class PLDAccountant(pld_privacy_accountant.PLDAccountant):
    """dp_accounting's PLD accountant, composing :class:`MechanismEvent` too."""

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
