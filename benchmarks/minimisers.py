r"""Benchmarks of the certified minimiser on its newer paths: large eps, high dimension.

Usage::

    python benchmarks/minimisers.py [--quick] [--out benchmarks/results-minimisers]

The interval minimiser (:mod:`dpsym.certified.intervals`: the slope's sign polynomial, a tropical
covering of the parameter's range, interval Newton; certificate ``"enclosure"``) timed
against baselines measured in the same run, interleaved round by round (the helpers of
``run.py``):

* **50 digits, <= 3x the closed-form path** (issue target "a certified minimiser at 50
  digits within 3x of the closed-form path's time"): warm calls of
  ``value("cost", cost, 50)`` over the staircase's closed-form power cost at the *same*
  eps (one Arb ball evaluation; at eps = 1e100 it pays the same bits for
  :math:`e^{-\varepsilon}`). Cases: the staircase's moment-3 and moment-5 costs at eps =
  1, 1e4, 1e100; the d-dimensional staircase at d = 3 (eps = 1, 1e4, 1e6), d = 13 and
  d = 50. The first call (compilation and the proof of isolation, kept per instance) is
  in the note.
* **1000 digits, <= 2x a hand-written findroot**: the staircase's moment-3 optimum at
  1000 digits, the minimiser proven on a *fresh instance* each call (isolation, Newton
  contraction to 1000 digits, the cost's enclosure) against ``mpmath.findroot`` on the
  slope of the cost written by hand from the density (below), at 1000 digits, from a
  16-digit starting point, then the cost there (an uncertified number).

Rows use ``run.Result``; the table is ``run.markdown``'s. This file is separate from
``run.py`` (whose ``minimisers`` group keeps the small-eps cases).
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path

import mpmath

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run  # (run.py puts the checkout on sys.path)
from run import Result, _failed, _met, interleaved

#: (mechanism, params, cost) at 50 digits; the baseline is the staircase's power cost at
#: the same eps.
FIFTY_DIGIT_CASES = (
    ("staircase", {"eps": "1"}, "moment:3"),
    ("staircase", {"eps": "1e4"}, "moment:3"),
    ("staircase", {"eps": "1e100"}, "moment:3"),
    ("staircase", {"eps": "1e4"}, "moment:5"),
    ("staircase-md", {"eps": "1", "dim": "3"}, "power"),
    ("staircase-md", {"eps": "1e4", "dim": "3"}, "amplitude"),
    ("staircase-md", {"eps": "1e6", "dim": "3"}, "power"),
    ("staircase-md", {"eps": "1", "dim": "13"}, "amplitude"),
    ("staircase-md", {"eps": "20", "dim": "50"}, "power"),
)
#: eps of the 1000-digit comparison with the hand-written findroot (moment 3).
THOUSAND_DIGIT_EPS = ("1", "1e4")


def fifty_digit_cases(quick: bool, digits: int = 50) -> list[Result]:
    """Warm interval-minimiser calls over the closed-form path at the same eps."""
    from dpsym.mechanisms import MECHANISMS, Staircase

    repeats = 5 if quick else 15
    out = []
    for name, params, cost in FIFTY_DIGIT_CASES:
        case = f"{name} {cost} {params} minimiser at {digits} digits"
        try:
            mech = MECHANISMS[name](**params)
            closed = Staircase(eps=params["eps"])
            closed.value("cost", "power", digits)
            t0 = time.perf_counter()
            v = mech.value("cost", cost, digits)
            first = time.perf_counter() - t0
            med = interleaved({
                "interval": lambda mech=mech, cost=cost: mech.value("cost", cost, digits),
                "closed": lambda closed=closed: closed.value("cost", "power", digits)},
                repeats, min_batch=0.05)
            ratio = med["interval"] / med["closed"]
            out.append(Result(
                case=case, group="minimisers-large", metric="seconds (slowdown)",
                dpsym=med["interval"], baseline=med["closed"],
                baseline_name=f"closed form (staircase power, eps={params['eps']})",
                ratio=ratio, target="<= 3x closed form",
                met=_met(ratio, upper=3.0) if v.certificate == "enclosure" else False,
                note=f"certificate {v.certificate}; first call {first:.2g} s (compilation "
                     "and the proof of isolation, kept per instance)",
                extra={"certificate": v.certificate, "first_call_seconds": first,
                       "value": v.text[:40]}))
        except Exception as exc:
            out.append(_failed(case, "minimisers-large", exc))
    return out


def hand_staircase_moment3(eps: str, dps: int) -> tuple[mpmath.mpf, mpmath.mpf]:
    r"""(gamma*, optimal cost) of the staircase's third absolute moment (Delta = 1) by
    hand, from the density :math:`a b^k` on :math:`[k, k + \gamma)`, :math:`a b^{k+1}` on
    :math:`[k + \gamma, k + 1)`, :math:`a = (1 - b)/(2B)`, :math:`B = \gamma + b(1 -
    \gamma)`: :math:`V(\gamma) = (1 - b) A(\gamma)/(4B)` with
    :math:`A = \sum_k b^k [((k+\gamma)^4 - k^4) + b((k+1)^4 - (k+\gamma)^4)]` expanded in
    :math:`E_j = \sum_k k^j b^k` (:math:`E_0 = 1/(1-b)`, :math:`E_1 = b/(1-b)^2`,
    :math:`E_2 = b(1+b)/(1-b)^3`, :math:`E_3 = b(1+4b+b^2)/(1-b)^4`); ``findroot`` on the
    numerator of the slope, :math:`A'B/(1-b) - A` (secant), from a 20-digit start, in
    :math:`t = \gamma/b^{1/4}` at large eps (findroot's tolerances are absolute)."""
    with mpmath.workdps(dps):
        e = mpmath.mpf(eps)
        b = mpmath.exp(-e)
        omb = -mpmath.expm1(-e)
        e0, e1 = 1 / omb, b / omb**2
        e2, e3 = b * (1 + b) / omb**3, b * (1 + 4 * b + b**2) / omb**4

        def a(g):  # sum_k b^k [((k+g)^4 - k^4) + b ((k+1)^4 - (k+g)^4)]
            return (4 * g * e3 + 6 * g**2 * e2 + 4 * g**3 * e1 + g**4 * e0
                    + b * (4 * (1 - g) * e3 + 6 * (1 - g**2) * e2 + 4 * (1 - g**3) * e1
                           + (1 - g**4) * e0))

        def slope(g):  # (A' B - A B') / omb with A' = omb (4 E3 + 12 g E2 + ...)
            da = 4 * e3 + 12 * g * e2 + 12 * g**2 * e1 + 4 * g**3 * e0
            return da * (g + b * (1 - g)) - a(g)

        # in t = gamma / scale: findroot's tolerances are absolute
        scale = b ** mpmath.mpf("0.25") if e > 10 else mpmath.mpf(1)
        with mpmath.workdps(20):
            t0 = mpmath.findroot(lambda t: slope(scale * t) / scale**4, mpmath.mpf("0.6"))
        t = mpmath.findroot(lambda t: slope(scale * t) / scale**4, t0)
        g = scale * t
        return g, omb * a(g) / (4 * (g + b * (1 - g)))


def thousand_digit_cases(quick: bool, digits: int = 1000) -> list[Result]:
    """The certified minimiser on a fresh instance over a hand-written findroot."""
    from dpsym.mechanisms import Staircase

    repeats = 5 if quick else 15
    out = []
    for eps in THOUSAND_DIGIT_EPS:
        case = f"staircase moment:3 (eps={eps}) minimiser at {digits} digits"
        try:
            Staircase(eps=eps).value("cost", "moment:3", 30)  # derivation cached

            def fresh(eps=eps) -> object:
                return Staircase(eps=eps).value("cost", "moment:3", digits)

            def hand(eps=eps) -> object:
                return hand_staircase_moment3(eps, digits + 10)

            v = fresh()
            with mpmath.workdps(digits + 10):
                agree = float(abs(mpmath.mpf(v.text) / hand()[1] - 1))
            funcs: dict[str, Callable[[], object]] = {"dpsym": fresh, "hand": hand}
            med = interleaved(funcs, repeats, min_batch=0.05)
            ratio = med["dpsym"] / med["hand"]
            ok = agree <= 10.0 ** (1 - digits) and v.certificate == "enclosure"
            out.append(Result(
                case=case, group="minimisers-large", metric="seconds (slowdown)",
                dpsym=med["dpsym"], baseline=med["hand"],
                baseline_name="hand-written mpmath findroot on the slope",
                ratio=ratio, target="<= 2x hand-written",
                met=_met(ratio, upper=2.0) if ok else False,
                note=f"certificate {v.certificate}; a fresh instance per call (isolation "
                     "proven each time); relative difference from the hand-written value "
                     f"{agree:.1e}",
                extra={"relative_difference": agree}))
        except Exception as exc:
            out.append(_failed(case, "minimisers-large", exc))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--out", default=str(run.ROOT / "benchmarks" / "results-minimisers"))
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    results = fifty_digit_cases(args.quick) + thousand_digit_cases(args.quick)
    meta = {"quick": args.quick, "python": platform.python_version(),
            "machine": f"{platform.machine()}, {__import__('os').cpu_count()} cpus",
            "versions": {}, "seconds": time.perf_counter() - t0,
            "mpmath_backend": mpmath.libmp.BACKEND, "executable": sys.executable}
    run.write(results, Path(args.out), meta)
    print(run.markdown(results, meta))
    return 0


if __name__ == "__main__":
    sys.exit(main())
