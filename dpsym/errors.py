"""Exceptions raised by dpsym.

Every error caused by a caller's input derives from :class:`DomainError`, itself a
:class:`ValueError`, and its message names the offending parameter and its valid range.
"""

from __future__ import annotations


class DpsymError(Exception):
    """Base class of every dpsym exception."""


class DomainError(DpsymError, ValueError):
    """A parameter lies outside its domain, or cannot be read as a number.

    Parameters
    ----------
    name : str
        The parameter's name as the user wrote it (``eps``, ``delta``, ``--digits``...).
    message : str
        What is wrong, including the valid range.
    """

    def __init__(self, name: str, message: str) -> None:
        self.name = name
        super().__init__(f"{name}: {message}")


class UnsupportedError(DpsymError, ValueError):
    """A request that is well formed but that the mechanism does not support.

    Examples are a regime that involves a parameter the mechanism does not have, or a
    quantity that the mechanism does not define.
    """


class NoClosedFormError(UnsupportedError, NotImplementedError):
    """The engine has no closed form for this quantity; a numeric path may still exist."""


class CertificationError(DpsymError, ArithmeticError):
    """A numerical value could not be certified to the requested number of digits."""


class BudgetExceeded(DpsymError):
    """A computation exceeded its time or memory budget and was stopped.

    Raised by :func:`dpsym.runtime.budget.run_with_budget` and the entry points built on it; the
    command line reports it with exit status 3. It is not a :class:`ValueError`: the
    request was valid, it only needs more time or memory than it was given.

    Parameters
    ----------
    what : str
        What was being computed (``"staircase cost (moment:1.5, 40 digits, eps=0.01)"``).
    budget : str
        Which budget: ``"time"`` or ``"memory"``.
    limit : str
        The budget as shown in the message (``"1 s"``, ``"512 MiB"``).
    """

    def __init__(self, what: str, budget: str, limit: str) -> None:
        self.what = what
        self.budget = budget
        self.limit = limit
        super().__init__(f"{budget} budget of {limit} exceeded while computing {what}")

    def __reduce__(self) -> tuple[type[BudgetExceeded], tuple[str, str, str]]:
        return type(self), (self.what, self.budget, self.limit)
