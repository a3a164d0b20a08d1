r"""The engine's independent cross-check: a value computed by mpmath at two working
precisions that agree once rounded.

Agreement of two precisions is a heuristic, not a proof: a value obtained this way carries
the certificate ``"agreement"`` (:class:`dpsym.certified.evaluation.Value`), never
``"exact"`` or ``"enclosure"``. It is the path of ``--method mpmath`` and of the tests that
hold every certified value against it.

The precision contract: :func:`agreement` evaluates a quantity at working precisions with
guard digits beyond the requested ``digits``, doubled on each retry; it returns the value
only when two successive results agree once rounded to ``digits`` significant digits,
and raises :class:`~dpsym.errors.CertificationError` when no agreement is reached.
"""

from __future__ import annotations

from collections.abc import Callable

import mpmath

from dpsym.certified.rounding import GUARD, INTERNAL_DIGITS, MAX_DIGITS, check_digits, format_digits
from dpsym.errors import CertificationError
from dpsym.precision import exclusive, workdps


@exclusive
def agreement(compute: Callable[[], mpmath.mpf], digits: int, *,
              attempts: int = 6, allow_zero: bool = False,
              guard: int | None = None) -> tuple[mpmath.mpf, str, mpmath.mpf]:
    """Evaluate ``compute`` until two working precisions agree to ``digits`` digits.

    A heuristic, not a proof.

    Parameters
    ----------
    compute : callable
        Computes the value at the current mpmath working precision.
    digits : int
        Significant digits wanted.
    attempts : int
        How many times the guard is doubled before giving up.
    allow_zero : bool
        Whether an exact zero is a possible value. When it is not (a cost, a scale), a
        computed zero is cancellation, and the guard is increased.
    guard : int, optional
        Guard digits of the first evaluation (default
        :data:`~dpsym.certified.rounding.GUARD`).

    Returns
    -------
    (mpmath.mpf, str, mpmath.mpf)
        The finer evaluation, its rounding to ``digits`` digits, and the coarser
        evaluation (the two values whose agreement is the heuristic's only evidence).
    """
    # internal: the callers validated the digits asked for and may add guard digits
    digits = check_digits(digits, MAX_DIGITS + INTERNAL_DIGITS)
    guard = GUARD if guard is None else max(GUARD, int(guard))
    prev_text: str | None = None
    previous: mpmath.mpf | None = None
    failure: CertificationError | None = None
    for _ in range(attempts + 1):
        with workdps(digits + guard):
            try:
                current = compute()
                _finite(current)
                if current == 0 and not allow_zero:
                    raise CertificationError("the computation cancelled to zero")
            except ZeroDivisionError:  # 1 - e^{-eps} rounded to 0: add guard digits
                failure, prev_text = CertificationError("division by zero"), None
                guard *= 2
                continue
            except CertificationError as exc:  # not enough precision yet: add guard digits
                failure, prev_text = exc, None
                guard *= 2
                continue
            text = format_digits(current, digits)
        if text == prev_text:
            return current, text, previous
        prev_text, previous = text, current
        guard *= 2
    if failure is not None and prev_text is None:
        raise CertificationError(f"{failure} (at {digits + guard // 2} digits)")
    raise CertificationError(f"value could not be certified to {digits} digits")


def _finite(value: mpmath.mpf) -> None:
    if not mpmath.isfinite(value):
        raise CertificationError(f"the computation produced {value}")


__all__ = ["agreement"]
