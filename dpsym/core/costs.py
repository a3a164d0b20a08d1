r"""Cost functions on the noise: :math:`L(x) = |x|^p`.

The CLI names them ``amplitude`` (:math:`p = 1`, the expected noise magnitude),
``power`` (:math:`p = 2`, the noise power) and ``moment:P`` (any :math:`p > 0`).
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from dpsym.core.names import unknown
from dpsym.core.params import POSITIVE, Domain, parse_number
from dpsym.errors import DomainError

#: The exponents accepted for ``moment:P`` (p > 0, at most 20: beyond, non-integer
#: moments at small eps need Lerch sums far outside any documented time bound).
EXPONENT_DOMAIN = Domain(lower=POSITIVE.lower, upper=parse_number("20", "p"),
                         upper_open=False)


@dataclass(frozen=True)
class Cost:
    r"""The cost :math:`L(x) = |x|^p` with an exact positive exponent.

    Parameters
    ----------
    exponent : sympy.Rational
        The exponent :math:`p > 0`.
    """

    exponent: sp.Rational

    @property
    def name(self) -> str:
        """``amplitude``, ``power`` or ``moment:P``."""
        if self.exponent == 1:
            return "amplitude"
        if self.exponent == 2:
            return "power"
        e = self.exponent
        if not e.is_Rational:  # a symbolic exponent (API only)
            return f"moment:{e}"
        return f"moment:{e.p}" if e.q == 1 else f"moment:{e.p}/{e.q}"

    @property
    def is_integer(self) -> bool:
        """Whether :math:`p` is an integer (then every closed form is elementary)."""
        return bool(self.exponent.is_integer)

    def __str__(self) -> str:
        return self.name


AMPLITUDE = Cost(sp.Integer(1))
POWER = Cost(sp.Integer(2))


#: Other names of the costs (matched in any case): the l1 and squared l2 norms of the
#: noise, as the sources name them.
COST_ALIASES = {"l1": "amplitude", "l2": "power"}


def parse_cost(text: str | Cost | int) -> Cost:
    """Read a cost name: ``amplitude`` (or ``l1``), ``power`` (or ``l2``), ``moment:P``
    (``P`` a decimal or ``a/b``), in any case.

    Raises
    ------
    DomainError
        For an unknown name or an exponent outside ``(0, 1000]``.
    """
    if isinstance(text, Cost):
        return text
    if isinstance(text, int) and not isinstance(text, bool):
        text = f"moment:{text}"
    if not isinstance(text, str):
        raise DomainError("cost", "expected amplitude, power or moment:P with P in (0, 20]")
    s = text.strip()
    named = {"amplitude": AMPLITUDE, "power": POWER}
    if s.casefold() in COST_ALIASES or s.casefold() in named:
        return named[COST_ALIASES.get(s.casefold(), s.casefold())]
    if s.casefold().startswith("moment:"):
        body = s[len("moment:"):]
        num, slash, den = body.partition("/")
        value = parse_number(num, "cost")
        if slash:
            d = parse_number(den, "cost")
            if d == 0:
                raise DomainError("cost", "moment:P needs a nonzero denominator")
            value /= d
        if value not in EXPONENT_DOMAIN:
            raise DomainError("cost", f"moment:P needs P in {EXPONENT_DOMAIN.describe()}")
        return Cost(sp.Rational(value.numerator, value.denominator))
    raise unknown("cost", "cost", s, [*named, *COST_ALIASES, "moment:P"],
                  "amplitude (l1), power (l2), moment:P with P > 0")
