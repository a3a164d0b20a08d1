r"""dpsym benchmarks: speed and accuracy as ratios against a baseline measured in the same run.

Usage::

    python benchmarks/run.py [--quick] [--out benchmarks/results] [--groups GROUP ...]
                             [--only SUBSTRING ...]

Every case times dpsym and its baseline (and, where one exists, peer libraries) in the
same process, interleaved round by round, and reports medians of the repeated runs, so
that a busy machine slows both sides alike. The targets are those of issue 7; a missing
peer library is reported as "not installed" and never stops the run.

Writes ``results.json`` (everything measured) and ``results.md`` (the table) in ``--out``.
This script is not part of the test suite; ``tests/test_benchmarks_smoke.py`` only checks
that it runs on a tiny case.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import platform
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))

import mpmath  # noqa: E402

# ---------------------------------------------------------------------- results
NOT_INSTALLED = "not installed"


@dataclass
class Result:
    """One row of the table."""

    case: str
    group: str
    metric: str
    dpsym: float | None
    baseline: float | None
    baseline_name: str
    ratio: float | None
    target: str
    met: bool | None
    peers: dict[str, object] = field(default_factory=dict)
    note: str = ""
    extra: dict[str, object] = field(default_factory=dict)


def _met(ratio: float | None, lower: float | None = None, upper: float | None = None
         ) -> bool | None:
    if ratio is None or not math.isfinite(ratio):
        return None
    if lower is not None and ratio < lower:
        return False
    return not (upper is not None and ratio > upper)


# ---------------------------------------------------------------------- timing
def interleaved(funcs: dict[str, Callable[[], object]], repeats: int,
                min_batch: float = 0.0) -> dict[str, float]:
    """Median seconds per call of each function, the functions run round-robin ``repeats``
    times.

    Each function is called once first (warm-up, not timed). With ``min_batch`` > 0, each
    timed sample is a batch of calls lasting about ``min_batch`` seconds (the batch size
    from the warm-up call), so that calls of a few microseconds are not lost in the timer's
    resolution and the scheduler's noise.
    """
    number: dict[str, int] = {}
    for name, f in funcs.items():
        t0 = time.perf_counter()
        f()
        first = time.perf_counter() - t0
        number[name] = max(1, min(10_000, int(min_batch / max(first, 1e-7))))
    times: dict[str, list[float]] = {k: [] for k in funcs}
    for _ in range(repeats):
        for name, f in funcs.items():
            k = number[name]
            t0 = time.perf_counter()
            for _ in range(k):
                f()
            times[name].append((time.perf_counter() - t0) / k)
    return {k: statistics.median(v) for k, v in times.items()}


class _Timeout(Exception):
    pass


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`_Timeout` if the block runs longer than ``seconds`` (main thread,
    Python code; a no-op where SIGALRM does not exist)."""
    if not hasattr(signal, "setitimer"):
        yield
        return

    def handler(signum, frame):
        raise _Timeout

    old = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


# ---------------------------------------------------------------------- peers
_PEERS: dict[str, object] = {}


def peer(name: str) -> object | str:
    """The imported peer module, or a string saying why it is unavailable."""
    if name in _PEERS:
        return _PEERS[name]
    try:
        if name == "diffprivlib":
            import diffprivlib.mechanisms as mod
        elif name == "opendp":
            import opendp.prelude as mod
            mod.enable_features("contrib")
        elif name == "autodp":
            import autodp.rdp_acct  # noqa: F401  (first: breaks autodp's import cycle)
            from autodp import privacy_calibrator as mod
        elif name == "dp_accounting":
            from dp_accounting.pld import common as _common
            from dp_accounting.pld import privacy_loss_mechanism as mod
            mod._common = _common
        else:
            raise ValueError(name)
    except ImportError as exc:
        missing = getattr(exc, "name", None)
        top = name.split(".")[0]
        out: object = NOT_INSTALLED if missing in (top, "dp_accounting", "diffprivlib",
                                                   "opendp", "autodp") \
            else f"import failed: {exc}"[:120]
    except Exception as exc:  # a broken peer install must not stop the run
        out = f"import failed: {type(exc).__name__}: {exc}"[:120]
    else:
        out = mod
    _PEERS[name] = out
    return out


def peer_versions() -> dict[str, str]:
    from importlib import metadata

    out = {}
    for dist in ("diffprivlib", "opendp", "autodp", "dp-accounting", "numpy", "scipy",
                 "sympy", "mpmath", "scikit-learn"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = NOT_INSTALLED
    return out


# ---------------------------------------------------------------------- 1. sampling
#: (dpsym name, parameters, diffprivlib class and kwargs, opendp kind)
SAMPLERS: list[tuple[str, dict, tuple[str, dict] | None, str | None, str]] = [
    ("laplace", {"eps": 1}, ("Laplace", {"epsilon": 1.0, "sensitivity": 1.0}), "laplace",
     "reference: dpsym's generic sampler on the Laplace density"),
    ("staircase", {"eps": 1}, ("Staircase", {"epsilon": 1.0, "sensitivity": 1.0}), None, ""),
    ("discrete-staircase", {"eps": 1, "Delta": 2}, None, None, ""),
    ("truncated-laplace", {"eps": 1, "delta": "1e-6"},
     ("LaplaceBoundedNoise", {"epsilon": 1.0, "delta": 1e-6, "sensitivity": 1.0}), None, ""),
    ("uniform-mass", {"delta": "1e-6"}, ("Uniform", {"delta": 0.1, "sensitivity": 1.0}), None,
     "diffprivlib's Uniform is the plain (0, delta) uniform mechanism, not P_alpha"),
    ("discrete-uniform", {"delta": "1e-3", "Delta": 1}, None, None, ""),
    ("discrete-laplace", {"eps": 1}, ("Geometric", {"epsilon": 1.0, "sensitivity": 1}),
     "discrete-laplace", ""),
    ("gaussian", {"eps": "0.5", "delta": "1e-6"},
     ("Gaussian", {"epsilon": 0.5, "delta": 1e-6, "sensitivity": 1.0}), "gaussian", ""),
    ("analytic-gaussian", {"eps": 1, "delta": "1e-6"},
     ("GaussianAnalytic", {"epsilon": 1.0, "delta": 1e-6, "sensitivity": 1.0}), "gaussian", ""),
    ("staircase-md", {"eps": 1, "dim": 3}, None, None,
     "d = 3, throughput counted per sample vector"),
]


def _diffprivlib_throughput(spec: tuple[str, dict], n: int) -> float | str:
    mod = peer("diffprivlib")
    if isinstance(mod, str):
        return mod
    cls_name, kw = spec
    mech = getattr(mod, cls_name)(**kw)
    value = 0 if cls_name == "Geometric" else 0.0
    rand = mech.randomise

    def loop():
        for _ in range(n):
            rand(value)

    t = interleaved({"p": loop}, 3)["p"]
    return n / t


def _opendp_throughput(kind: str, n: int) -> float | str:
    dp = peer("opendp")
    if isinstance(dp, str):
        return dp
    if kind == "laplace":
        space = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.l1_distance(T=float)
        meas, data = dp.m.make_laplace(*space, scale=1.0), [0.0] * n
    elif kind == "discrete-laplace":
        space = dp.vector_domain(dp.atom_domain(T=int)), dp.l1_distance(T=int)
        meas, data = dp.m.make_laplace(*space, scale=1.0), [0] * n
    else:
        space = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.l2_distance(T=float)
        meas, data = dp.m.make_gaussian(*space, scale=4.0), [0.0] * n
    t = interleaved({"p": lambda: meas(data)}, 3)["p"]
    return n / t


def sampling_case(name: str, params: dict, n: int, repeats: int, *,
                  dl: tuple[str, dict] | None = None, odp: str | None = None,
                  n_peer: int = 0, note: str = "") -> Result:
    """Throughput of ``MECHANISMS[name](**params).sample`` at ``n`` samples against
    ``numpy.random.Generator.laplace`` at ``n`` samples, interleaved."""
    from dpsym.mechanisms import MECHANISMS

    mech = MECHANISMS[name](**params)
    rng = np.random.default_rng(12345)
    t0 = time.perf_counter()
    mech.sample(rng, 10)  # builds and caches the sampler (symbolic work, certified gamma)
    setup = time.perf_counter() - t0
    med = interleaved({"dpsym": lambda: mech.sample(rng, n),
                       "numpy": lambda: rng.laplace(0.0, 1.0, n)}, repeats)
    thr_d, thr_np = n / med["dpsym"], n / med["numpy"]
    peers: dict[str, object] = {}
    if n_peer:
        peers["diffprivlib (per-call randomise)"] = (
            _diffprivlib_throughput(dl, n_peer) if dl else "no such mechanism")
        peers["opendp (vector measurement)"] = (
            _opendp_throughput(odp, n_peer) if odp else "no such mechanism")
    ratio = thr_d / thr_np
    return Result(case=f"sample {name}", group="sampling", metric="samples/s",
                  dpsym=thr_d, baseline=thr_np, baseline_name="numpy Generator.laplace",
                  ratio=ratio, target=">= 0.5x numpy", met=_met(ratio, lower=0.5),
                  peers=peers, note=note,
                  extra={"n": n, "setup_seconds_first_call": setup,
                         "dpsym_seconds": med["dpsym"], "numpy_seconds": med["numpy"]})


def sampling_cases(quick: bool) -> list[Result]:
    n = 10**6
    repeats = 5 if quick else 11
    n_peer = 2000 if quick else 20000
    out = []
    for name, params, dl, odp, note in SAMPLERS:
        try:
            out.append(sampling_case(name, params, n, repeats, dl=dl, odp=odp,
                                     n_peer=n_peer, note=note))
        except Exception as exc:  # report, do not stop
            out.append(_failed(f"sample {name}", "sampling", exc))
    return out


def _failed(case: str, group: str, exc: BaseException) -> Result:
    return Result(case=case, group=group, metric="", dpsym=None, baseline=None,
                  baseline_name="", ratio=None, target="", met=None,
                  note=f"failed: {type(exc).__name__}: {exc}"[:200])


# ---------------------------------------------------------------------- 2. Gaussian sigma
GRID_EPS = (1e-6, 1e-3, 0.1, 1.0, 10.0, 50.0, 500.0)
GRID_DELTA = (1e-300, 1e-50, 1e-20, 1e-10, 1e-6, 1e-2, 0.5)


def sigma_reference(e: float, d: float, digits: int = 50) -> mpmath.mpf:
    """dpsym's certified mpmath calibration at the exact binary value of the floats."""
    from dpsym.gaussian.calibration import calibrate_sigma_mp

    return calibrate_sigma_mp(Fraction(e), Fraction(d), 1, digits=digits)[0]


def _peer_sigma_functions() -> dict[str, Callable[[float, float], float] | str]:
    out: dict[str, Callable[[float, float], float] | str] = {}
    plm = peer("dp_accounting")
    if isinstance(plm, str):
        out["dp_accounting"] = plm
    else:
        common = plm._common

        def dpa(e, d):
            pp = common.DifferentialPrivacyParameters(e, d)
            return plm.GaussianPrivacyLoss.from_privacy_guarantee(pp, 1.0).standard_deviation
        out["dp_accounting"] = dpa
    pc = peer("autodp")
    out["autodp"] = pc if isinstance(pc, str) else (
        lambda e, d: pc.ana_gaussian_mech(e, d)["sigma"])
    dm = peer("diffprivlib")
    out["diffprivlib"] = dm if isinstance(dm, str) else (
        lambda e, d: dm.GaussianAnalytic(epsilon=e, delta=d, sensitivity=1.0)._scale)
    return out


def _accuracy(f: Callable[[float, float], float], refs: dict, limit: float
              ) -> tuple[float, int, int, list]:
    """(max relative error over the points that returned, points failed, points timed
    out, worst points)."""
    errs, failed, timeouts, worst = [], 0, 0, []
    for (e, d), ref in refs.items():
        try:
            with time_limit(limit):
                v = float(f(e, d))
        except _Timeout:
            timeouts += 1
            continue
        except Exception:  # a peer refusing a point counts as a failure
            failed += 1
            continue
        if not math.isfinite(v) or v <= 0:
            failed += 1
            continue
        err = float(abs(mpmath.mpf(v) / ref - 1))
        errs.append(err)
        worst.append((err, e, d))
    worst.sort(reverse=True)
    return (max(errs) if errs else float("nan")), failed, timeouts, worst[:3]


def gaussian_cases(quick: bool) -> list[Result]:
    from dpsym.gaussian.float64 import calibrate_sigma

    points = [(e, d) for e in GRID_EPS for d in GRID_DELTA]
    refs = {p: sigma_reference(*p) for p in points}
    peers = _peer_sigma_functions()
    out: list[Result] = []

    # accuracy on the 7 x 7 grid
    err, failed, _, worst = _accuracy(lambda e, d: calibrate_sigma(e, d), refs, 10.0)
    peer_acc: dict[str, object] = {}
    for name, f in peers.items():
        if isinstance(f, str):
            peer_acc[name] = f
            continue
        perr, pfail, ptime, pworst = _accuracy(f, refs, 5.0)
        peer_acc[name] = {"max_rel_error": perr, "failed_points": pfail,
                          "timed_out_points": ptime,
                          "worst": [{"rel_error": w[0], "eps": w[1], "delta": w[2]}
                                    for w in pworst]}
    out.append(Result(
        case="analytic-Gaussian sigma, float64, 7x7 grid", group="gaussian",
        metric="max relative error", dpsym=err, baseline=None,
        baseline_name="50-digit certified reference", ratio=None, target="<= 1e-14",
        met=(err <= 1e-14 and failed == 0), peers=peer_acc,
        note=f"{failed} points failed" if failed else "",
        extra={"worst": [{"rel_error": w[0], "eps": w[1], "delta": w[2]} for w in worst]}))

    # scalar call time, median over the grid, against dp_accounting (and the others)
    repeats = 3 if quick else 7
    t_d = interleaved({"d": lambda: [calibrate_sigma(e, d) for e, d in points]}, repeats)["d"]
    per_d = t_d / len(points)
    peer_time: dict[str, object] = {}
    for name, f in peers.items():
        if isinstance(f, str):
            peer_time[name] = f
            continue
        ok = []
        for e, d in points:  # only points the peer answers, within a second
            try:
                with time_limit(1.0):
                    f(e, d)
                ok.append((e, d))
            except (Exception, _Timeout):
                pass

        def calls(f=f, ok=ok):
            for e, d in ok:
                with contextlib.suppress(Exception):
                    f(e, d)
        t_p = interleaved({"p": calls}, max(1, repeats // 2))["p"]
        peer_time[name] = {"seconds_per_call": t_p / max(1, len(ok)), "points": len(ok)}
    base = peer_time.get("dp_accounting")
    base_t = base["seconds_per_call"] if isinstance(base, dict) else None
    ratio = None if base_t is None else base_t / per_d
    # point by point (full mode): the slowest point relative to dp_accounting, so that a
    # mean dominated by the peer's hard points cannot hide a point where dpsym is slower
    per_point: list[dict[str, float]] = []
    f_dpa = peers.get("dp_accounting")
    if callable(f_dpa) and not quick:
        for e, d in points:
            try:
                with time_limit(2.0):
                    f_dpa(e, d)
            except (Exception, _Timeout):
                continue
            t = interleaved({"d": lambda e=e, d=d: calibrate_sigma(e, d),
                             "p": lambda e=e, d=d: f_dpa(e, d)}, 3, min_batch=0.002)
            per_point.append({"eps": e, "delta": d, "dpsym_seconds": t["d"],
                              "dp_accounting_seconds": t["p"], "ratio": t["p"] / t["d"]})
        per_point.sort(key=lambda r: r["ratio"])
    note = "" if base_t else "baseline unavailable: " + str(f_dpa)
    met = _met(ratio, lower=1.0)
    if per_point:
        w = per_point[0]
        note = (f"ratio over the grid's total time; point by point the smallest ratio is "
                f"{w['ratio']:.3g} (eps={w['eps']:g}, delta={w['delta']:g}), median "
                f"{statistics.median(r['ratio'] for r in per_point):.3g}")
        met = bool(met and w["ratio"] >= 1.0)
    elif base_t:
        note = "ratio over the grid's total time (point by point in full mode only)"
    out.append(Result(
        case="analytic-Gaussian sigma, float64, one scalar call", group="gaussian",
        metric="s/call (speedup)", dpsym=per_d, baseline=base_t,
        baseline_name="dp_accounting GaussianPrivacyLoss.from_privacy_guarantee",
        ratio=ratio, target="dpsym no slower (ratio >= 1)", met=met,
        peers=peer_time, note=note, extra={"per_point": per_point}))

    # vectorised: 1e4 pairs in one call against 1e4 dp_accounting calls
    rng = np.random.default_rng(7)
    m = 10**4
    e_arr = 10.0 ** rng.uniform(-3, 1, m)
    d_arr = 10.0 ** rng.uniform(-12, -2, m)
    t_vec = interleaved({"v": lambda: calibrate_sigma(e_arr, d_arr)}, repeats)["v"]
    f = peers.get("dp_accounting")
    if callable(f):
        k = 100 if quick else 1000
        t_k = interleaved({"p": lambda: [f(e, d) for e, d in zip(e_arr[:k], d_arr[:k],
                                                                  strict=True)]}, 1)["p"]
        base_v = t_k * m / k
        ratio = base_v / t_vec
        note = "" if k == m else f"dp_accounting time extrapolated from {k} calls"
    else:
        base_v, ratio, note = None, None, f"baseline unavailable: {f}"
    out.append(Result(
        case="analytic-Gaussian sigma, 1e4 (eps, delta) pairs", group="gaussian",
        metric="seconds (speedup)", dpsym=t_vec, baseline=base_v,
        baseline_name="1e4 dp_accounting calls", ratio=ratio, target=">= 50x faster",
        met=_met(ratio, lower=50.0), note=note))
    return out


# ---------------------------------------------------------------------- 3. 1000 digits
# Hand-written mpmath, the way a careful user writes each closed form: the parameters as
# exact decimal strings, digits + 10 working digits, expm1/log1p where a difference
# cancels. Each takes the parameter values (decimal strings) and the digits wanted.
HandFn = Callable[[dict[str, str], int], mpmath.mpf]


def _hand_truncated_laplace_power(v: dict[str, str], dps: int) -> mpmath.mpf:
    # E X^2 = 2 Delta^2/eps^2 (1 - (L + L^2/2)/c), c = (e^eps - 1)/(2 delta), L = log(1 + c)
    with mpmath.workdps(dps + 10):
        e, d, D = mpmath.mpf(v["eps"]), mpmath.mpf(v["delta"]), mpmath.mpf(v.get("Delta", 1))
        c = mpmath.expm1(e) / (2 * d)
        L = mpmath.log1p(c)
        return 2 * D**2 / e**2 * (1 - (L + L * L / 2) / c)


def _hand_truncated_laplace_A(v: dict[str, str], dps: int) -> mpmath.mpf:
    # A = (Delta/eps) log(1 + (e^eps - 1)/(2 delta))
    with mpmath.workdps(dps + 10):
        e, d, D = mpmath.mpf(v["eps"]), mpmath.mpf(v["delta"]), mpmath.mpf(v.get("Delta", 1))
        return D / e * mpmath.log1p(mpmath.expm1(e) / (2 * d))


def _hand_staircase_power(v: dict[str, str], dps: int) -> mpmath.mpf:
    # V* = Delta^2 (2^{1/3} (e^eps + 1)^{2/3} e^{2 eps/3} + 2 e^eps) / (2 (e^eps - 1)^2)
    with mpmath.workdps(dps + 10):
        e, D = mpmath.mpf(v["eps"]), mpmath.mpf(v.get("Delta", 1))
        em1 = mpmath.expm1(e)
        return D**2 * (mpmath.cbrt(2) * (em1 + 2) ** (mpmath.mpf(2) / 3)
                       * mpmath.exp(2 * e / 3) + 2 * mpmath.exp(e)) / (2 * em1**2)


def _hand_staircase_amplitude(v: dict[str, str], dps: int) -> mpmath.mpf:
    # V* = Delta e^{eps/2} / (e^eps - 1)
    with mpmath.workdps(dps + 10):
        e, D = mpmath.mpf(v["eps"]), mpmath.mpf(v.get("Delta", 1))
        return D * mpmath.exp(e / 2) / mpmath.expm1(e)


def _hand_staircase_gamma_power(v: dict[str, str], dps: int) -> mpmath.mpf:
    # gamma* = (cbrt(4 b (1 + b))/2 - b) / (1 - b), b = e^{-eps}
    with mpmath.workdps(dps + 10):
        e = mpmath.mpf(v["eps"])
        b = mpmath.exp(-e)
        return (mpmath.cbrt(4 * b * (1 + b)) / 2 - b) / -mpmath.expm1(-e)


def _hand_staircase_gamma_amplitude(v: dict[str, str], dps: int) -> mpmath.mpf:
    # gamma* = (sqrt(b) - b)/(1 - b) = 1/(1 + e^{eps/2}), b = e^{-eps}
    with mpmath.workdps(dps + 10):
        return 1 / (1 + mpmath.exp(mpmath.mpf(v["eps"]) / 2))


def _hand_discrete_laplace_power(v: dict[str, str], dps: int) -> mpmath.mpf:
    # E X^2 = 2 e^t / (e^t - 1)^2, t = eps/Delta
    with mpmath.workdps(dps + 10):
        e = mpmath.mpf(v["eps"]) / mpmath.mpf(v.get("Delta", 1))
        return 2 * mpmath.exp(e) / mpmath.expm1(e) ** 2


def _hand_laplace_amplitude(v: dict[str, str], dps: int) -> mpmath.mpf:
    # E|X| = Delta/eps
    with mpmath.workdps(dps + 10):
        return mpmath.mpf(v.get("Delta", 1)) / mpmath.mpf(v["eps"])


def _hand_laplace_power(v: dict[str, str], dps: int) -> mpmath.mpf:
    # E X^2 = 2 Delta^2/eps^2
    with mpmath.workdps(dps + 10):
        return 2 * (mpmath.mpf(v.get("Delta", 1)) / mpmath.mpf(v["eps"])) ** 2


def _hand_uniform_mass_amplitude(v: dict[str, str], dps: int) -> mpmath.mpf:
    # alpha* = 0 for delta <= 1/2: uniform on (-Delta/(2 delta), Delta/(2 delta)), E|X| =
    # Delta/(4 delta); alpha* = 2 delta - 1 above: E|X| = Delta (1 - delta)
    with mpmath.workdps(dps + 10):
        d, D = mpmath.mpf(v["delta"]), mpmath.mpf(v.get("Delta", 1))
        return D / (4 * d) if 2 * d <= 1 else D * (1 - d)


def _hand_uniform_mass_power(v: dict[str, str], dps: int) -> mpmath.mpf:
    # E X^2 = Delta^2/(12 delta^2) for delta <= 2/3, 9 Delta^2 (1 - delta)/16 above
    with mpmath.workdps(dps + 10):
        d, D = mpmath.mpf(v["delta"]), mpmath.mpf(v.get("Delta", 1))
        return D**2 / (12 * d**2) if 3 * d <= 2 else 9 * D**2 * (1 - d) / 16


def _hand_classic_sigma(v: dict[str, str], dps: int) -> mpmath.mpf:
    # sigma = sqrt(2 log(1.25/delta)) Delta/eps (Dwork and Roth, Theorem A.1)
    with mpmath.workdps(dps + 10):
        e, d, D = mpmath.mpf(v["eps"]), mpmath.mpf(v["delta"]), mpmath.mpf(v.get("Delta", 1))
        return mpmath.sqrt(2 * mpmath.log(mpmath.mpf(5) / (4 * d))) * D / e


def _hand_classic_amplitude(v: dict[str, str], dps: int) -> mpmath.mpf:
    # E|X| = sigma sqrt(2/pi)
    with mpmath.workdps(dps + 10):
        return _hand_classic_sigma(v, dps) * mpmath.sqrt(2 / mpmath.pi)


def _hand_classic_power(v: dict[str, str], dps: int) -> mpmath.mpf:
    # E X^2 = sigma^2 = 2 log(1.25/delta) Delta^2/eps^2
    with mpmath.workdps(dps + 10):
        e, d, D = mpmath.mpf(v["eps"]), mpmath.mpf(v["delta"]), mpmath.mpf(v.get("Delta", 1))
        return 2 * mpmath.log(mpmath.mpf(5) / (4 * d)) * (D / e) ** 2


#: (mechanism, quantity, cost) -> hand-written mpmath of its closed form.
HAND: dict[tuple[str, str, str], HandFn] = {
    ("truncated-laplace", "cost", "power"): _hand_truncated_laplace_power,
    ("truncated-laplace", "A", "amplitude"): _hand_truncated_laplace_A,
    ("truncated-laplace", "A", "power"): _hand_truncated_laplace_A,
    ("staircase", "cost", "power"): _hand_staircase_power,
    ("staircase", "cost", "amplitude"): _hand_staircase_amplitude,
    ("staircase", "gamma", "power"): _hand_staircase_gamma_power,
    ("staircase", "gamma", "amplitude"): _hand_staircase_gamma_amplitude,
    ("discrete-laplace", "cost", "power"): _hand_discrete_laplace_power,
    ("laplace", "cost", "amplitude"): _hand_laplace_amplitude,
    ("laplace", "cost", "power"): _hand_laplace_power,
    ("uniform-mass", "cost", "amplitude"): _hand_uniform_mass_amplitude,
    ("uniform-mass", "cost", "power"): _hand_uniform_mass_power,
    ("gaussian", "sigma", "amplitude"): _hand_classic_sigma,
    ("gaussian", "sigma", "power"): _hand_classic_sigma,
    ("gaussian", "cost", "amplitude"): _hand_classic_amplitude,
    ("gaussian", "cost", "power"): _hand_classic_power,
}

#: (mechanism, parameters, quantity, cost): the 1000-digit cases of the ``digits`` group.
DIGIT_CASES: list[tuple[str, dict[str, str], str, str]] = [
    ("truncated-laplace", {"eps": "1", "delta": "1e-6"}, "cost", "power"),
    ("staircase", {"eps": "2"}, "cost", "power"),
    ("staircase", {"eps": "2"}, "cost", "amplitude"),
    ("discrete-laplace", {"eps": "1"}, "cost", "power"),
    ("laplace", {"eps": "1"}, "cost", "amplitude"),
    ("laplace", {"eps": "1"}, "cost", "power"),
    ("staircase", {"eps": "2"}, "gamma", "power"),
    ("uniform-mass", {"delta": "1e-6"}, "cost", "amplitude"),
    ("uniform-mass", {"delta": "1e-6"}, "cost", "power"),
    ("gaussian", {"eps": "0.5", "delta": "1e-6"}, "sigma", "amplitude"),
    ("truncated-laplace", {"eps": "1", "delta": "1e-6"}, "A", "amplitude"),
]


def _value_case(name: str, params: dict[str, str], quantity: str, cost: str, digits: int,
                repeats: int, group: str, case: str, first_limit: float,
                min_batch: float = 0.05) -> Result:
    """``MECHANISMS[name](**params).value(quantity, cost, digits)``, warm, against the
    hand-written closed form where :data:`HAND` has one (interleaved)."""
    from dpsym.mechanisms import MECHANISMS

    mech = MECHANISMS[name](**params)
    t0 = time.perf_counter()
    try:
        with time_limit(first_limit):
            v = mech.value(quantity, cost, digits)
    except _Timeout:
        return Result(case=case, group=group, metric="seconds", dpsym=None, baseline=None,
                      baseline_name="", ratio=None, target="", met=None,
                      note=f"skipped: first call longer than {first_limit:g} s")
    except Exception as exc:  # the quantity raises here: say why, go on
        return Result(case=case, group=group, metric="seconds", dpsym=None, baseline=None,
                      baseline_name="", ratio=None, target="", met=None,
                      note=f"skipped: raises {type(exc).__name__}: {exc}"[:200])
    first = time.perf_counter() - t0
    hand = HAND.get((name, quantity, cost))
    values = {k: str(val) for k, val in params.items()}
    funcs: dict[str, Callable[[], object]] = {
        "dpsym": lambda: mech.value(quantity, cost, digits)}
    if hand is not None:
        funcs["hand"] = lambda: hand(values, digits)
    reps = repeats if first < 2.0 else 1  # a slow value: one warm sample is enough
    med = interleaved(funcs, reps, min_batch=min_batch)
    extra: dict[str, object] = {"first_call_seconds": first, "value": v.text[:40],
                                "params": values}
    note = f"first call {first:.2g} s (derivation, unless an earlier case cached it)"
    if hand is None:
        return Result(case=case, group=group, metric="seconds per call", dpsym=med["dpsym"],
                      baseline=None, baseline_name="no hand-written baseline", ratio=None,
                      target="-", met=None, note=note, extra=extra)
    with mpmath.workdps(digits + 10):
        agree = float(abs(v.number / hand(values, digits) - 1))
    extra["relative_difference"] = agree
    ratio = med["dpsym"] / med["hand"]
    ok = agree <= 10.0 ** (1 - digits)
    return Result(case=case, group=group, metric="seconds (slowdown)", dpsym=med["dpsym"],
                  baseline=med["hand"], baseline_name="hand-written mpmath", ratio=ratio,
                  target="<= 2x hand-written", met=_met(ratio, upper=2.0) if ok else False,
                  note=note + ("" if ok else f"; DISAGREES with the hand-written value by "
                               f"{agree:.1e}"), extra=extra)


def digits_cases(quick: bool, digits: int = 1000) -> list[Result]:
    repeats = 5 if quick else 15
    out = []
    for name, params, quantity, cost in DIGIT_CASES:
        what = cost if quantity == "cost" else f"{quantity} ({cost})"
        case = f"{name} {what} at {digits} digits"
        try:
            out.append(_value_case(name, params, quantity, cost, digits, repeats, "digits",
                                   case, first_limit=120.0))
        except Exception as exc:
            out.append(_failed(case, "digits", exc))
    return out


# ---------------------------------------------------------------------- 3b. the catalogue
def typical_point(cls: type) -> dict[str, str]:
    """A parameter point of ``cls`` built from its declared parameters: the default where
    there is one, else the geometric mean of the ``typical`` range rounded to one
    significant digit (``eps`` in (0.01, 10) gives 0.3, ``delta`` in (1e-6, 1/10) 3e-4)."""
    point: dict[str, str] = {}
    for prm in cls.params:
        if prm.default is not None:
            point[prm.name] = str(prm.default)
            continue
        lo, hi = (float(Fraction(t)) for t in prm.typical)
        g = math.sqrt(lo * hi)
        text = f"{g:.0e}".replace("e-0", "e-").replace("e+0", "e+")
        point[prm.name] = str(int(float(text))) if prm.domain.integer else text
    return point


CATALOGUE_COSTS = ("amplitude", "power")


def catalogue_cases(quick: bool) -> list[Result]:
    """``value`` of every quantity of every mechanism, both costs, at 50 and 1000 digits,
    at the typical point; quick mode: 50 digits, and 1000 digits where a hand-written
    baseline exists."""
    from dpsym.mechanisms import MECHANISMS

    repeats = 3 if quick else 7
    limit = 30.0 if quick else 120.0
    out = []
    for name, cls in MECHANISMS.items():
        try:
            params = typical_point(cls)
            quantities = cls.quantities()
        except Exception as exc:
            out.append(_failed(f"value {name}", "catalogue", exc))
            continue
        shown = ", ".join(f"{k}={v}" for k, v in params.items())
        for quantity in quantities:
            for cost in CATALOGUE_COSTS:
                for digits in (50, 1000):
                    if quick and digits == 1000 and (name, quantity, cost) not in HAND:
                        continue
                    case = f"value {name} {quantity} {cost} at {digits} digits ({shown})"
                    try:
                        out.append(_value_case(name, params, quantity, cost, digits, repeats,
                                               "catalogue", case, first_limit=limit,
                                               min_batch=0.02))
                    except Exception as exc:
                        out.append(_failed(case, "catalogue", exc))
    return out


# ---------------------------------------------------------------------- 3c. series
#: The expansions the claims registry (dpsym/claims/) computes, as source text run in a
#: fresh interpreter: (label, setup, expression).
REGISTRY_SERIES: list[tuple[str, str, str]] = [
    ("Laplace - staircase amplitude gap, sympy.series in eps to O(eps^3) (claims "
     "_stair_l1_gap)",
     "import sympy as sp\nfrom dpsym.mechanisms import Laplace, Staircase\n"
     "from dpsym.symbols import Delta, eps, in_eps",
     "sp.series(in_eps(Laplace.formula('cost', 'amplitude') - Staircase.formula('cost', "
     "'amplitude')).subs(Delta, 1), eps, 0, 3).removeO()"),
    ("StaircaseMD.series('cost', 'amplitude', 'eps->0', 3) (claims _md_series)",
     "from dpsym.mechanisms.staircase_md import StaircaseMD",
     "StaircaseMD.series('cost', 'amplitude', 'eps->0', 3)"),
    ("StaircaseMD.series('cost', 'amplitude', 'eps->oo', 2) (claims _md_series)",
     "from dpsym.mechanisms.staircase_md import StaircaseMD",
     "StaircaseMD.series('cost', 'amplitude', 'eps->oo', 2)"),
]

_SERIES_SCRIPT = """
import json, sys, time
t0 = time.perf_counter()
{setup}
t1 = time.perf_counter()
r = {expr}
t2 = time.perf_counter()
r = {expr}
t3 = time.perf_counter()
print(json.dumps({{"import": t1 - t0, "first": t2 - t1, "warm": t3 - t2, "result": str(r)}}))
"""


def series_cases(quick: bool) -> list[Result]:
    """Every series of the claims registry, each in a fresh interpreter: the first call
    (derivation and expansion, sympy's cache empty) and a second, cached one."""
    out = []
    for label, setup, expr in REGISTRY_SERIES:
        case = f"series: {label}"
        code = _SERIES_SCRIPT.format(setup=setup, expr=expr)
        t0 = time.perf_counter()
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              cwd=str(ROOT), check=False, timeout=600)
        total = time.perf_counter() - t0
        if proc.returncode != 0:
            out.append(Result(case=case, group="series", metric="seconds", dpsym=None,
                              baseline=None, baseline_name="", ratio=None, target="",
                              met=None, note="failed: " + proc.stderr.strip()[-160:]))
            continue
        data = json.loads(proc.stdout.strip().splitlines()[-1])
        out.append(Result(
            case=case, group="series", metric="seconds (first call in a fresh process)",
            dpsym=data["first"], baseline=None, baseline_name="", ratio=None,
            target="<= 3 s (as cold `dpsym series`)", met=data["first"] <= 3.0,
            note=f"import {data['import']:.2f} s, cached second call {data['warm']:.2g} s, "
                 f"process {total:.1f} s",
            extra={**data, "process_seconds": total}))
    return out


# ---------------------------------------------------------------------- 4. float64 grids
def _hand_tl(e: np.ndarray, d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Hand-written, overflow-safe numpy: amplitude and power of the truncated Laplacian."""
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        log_c = e + np.log(-np.expm1(-e)) - np.log(2.0 * d)
        L = np.logaddexp(0.0, log_c)
        inv_c = np.exp(-log_c)
        return (1.0 - L * inv_c) / e, 2.0 / e**2 * (1.0 - (L + 0.5 * L * L) * inv_c)


def _mp_tl(e: float, d: float) -> tuple[mpmath.mpf, mpmath.mpf]:
    with mpmath.workdps(60):
        e, d = mpmath.mpf(e), mpmath.mpf(d)
        c = mpmath.expm1(e) / (2 * d)
        L = mpmath.log1p(c)
        return (1 - L / c) / e, 2 / e**2 * (1 - (L + L * L / 2) / c)


def float_grid_cases(quick: bool) -> list[Result]:
    from dpsym.gaussian.calibration import calibrate_sigma_value
    from dpsym.gaussian.float64 import calibrate_sigma
    from dpsym.mechanisms import fastpath as fpth

    n = 200 if quick else 1000
    repeats = 5 if quick else 7
    k = 40 if quick else 150
    e1 = np.logspace(-6, math.log10(500.0), n)
    d1 = np.logspace(-300, math.log10(0.49), n)
    E, D = np.meshgrid(e1, d1, indexing="ij")
    E, D = E.ravel(), D.ravel()
    rng = np.random.default_rng(3)
    sub = rng.choice(E.size, k, replace=False)
    root2pi = math.sqrt(2.0 / math.pi)

    sig_ref: dict[int, mpmath.mpf] = {}

    def sigma_ref(i):
        if i not in sig_ref:
            with mpmath.workdps(60):
                sig_ref[i] = calibrate_sigma_value(Fraction(float(E[i])), Fraction(float(D[i])))
        return sig_ref[i]

    def ref(kind: str, i: int) -> mpmath.mpf:
        e, d = float(E[i]), float(D[i])
        with mpmath.workdps(60):
            if kind == "tl_amp":
                return _mp_tl(e, d)[0]
            if kind == "tl_pow":
                return _mp_tl(e, d)[1]
            if kind == "lap_amp":
                return 1 / mpmath.mpf(e)
            if kind == "lap_pow":
                return 2 / mpmath.mpf(e) ** 2
            s = sigma_ref(i)
            if kind == "g_amp":
                return s * mpmath.sqrt(2 / mpmath.pi)
            if kind == "g_pow":
                return s * s
            tl_a, tl_p = _mp_tl(e, d)
            if kind == "amp_ratio":
                return tl_a / (s * mpmath.sqrt(2 / mpmath.pi))
            return tl_p / (s * s)

    cases = [
        ("truncated_laplace_amplitude", "tl_amp", lambda: fpth.truncated_laplace_amplitude(E, D),
         lambda: _hand_tl(E, D)[0], "hand: 1 - L/c with log-space c"),
        ("truncated_laplace_power", "tl_pow", lambda: fpth.truncated_laplace_power(E, D),
         lambda: _hand_tl(E, D)[1], "hand: 1 - (L + L^2/2)/c with log-space c"),
        ("laplace_amplitude", "lap_amp", lambda: fpth.laplace_amplitude(E),
         lambda: 1.0 / E, "hand: 1/eps"),
        ("laplace_power", "lap_pow", lambda: fpth.laplace_power(E),
         lambda: 2.0 / E**2, "hand: 2/eps^2"),
        ("gaussian_amplitude", "g_amp", lambda: fpth.gaussian_amplitude(E, D),
         lambda: calibrate_sigma(E, D) * root2pi, "hand: calibrate_sigma * sqrt(2/pi)"),
        ("gaussian_power", "g_pow", lambda: fpth.gaussian_power(E, D),
         lambda: calibrate_sigma(E, D) ** 2, "hand: calibrate_sigma ** 2"),
        ("amplitude_ratio", "amp_ratio", lambda: fpth.amplitude_ratio(E, D),
         lambda: _hand_tl(E, D)[0] / (calibrate_sigma(E, D) * root2pi),
         "hand: TL amplitude / (sigma sqrt(2/pi))"),
        ("power_ratio", "pow_ratio", lambda: fpth.power_ratio(E, D),
         lambda: _hand_tl(E, D)[1] / calibrate_sigma(E, D) ** 2, "hand: TL power / sigma^2"),
    ]
    out = []
    for name, kind, mine, hand, note in cases:
        case = f"fastpath.{name} on {n}x{n} grid"
        try:
            med = interleaved({"dpsym": mine, "hand": hand}, repeats, min_batch=0.02)
            vals, hvals = np.asarray(mine()), np.asarray(hand())
            errs, herrs = [], []
            for i in sub:
                r = ref(kind, int(i))
                errs.append(float(abs(mpmath.mpf(float(vals[i])) / r - 1)))
                hv = float(hvals[i])
                herrs.append(float(abs(mpmath.mpf(hv) / r - 1)) if math.isfinite(hv)
                             else float("inf"))
            err = max(errs)
            ratio = med["dpsym"] / med["hand"]
            met = bool(ratio <= 2.0 and err <= 1e-14)
            out.append(Result(
                case=case, group="float64", metric="seconds (slowdown)", dpsym=med["dpsym"],
                baseline=med["hand"], baseline_name="hand-written safe numpy", ratio=ratio,
                target="<= 2x hand, rel err <= 1e-14", met=met,
                note=f"max rel err dpsym {err:.1e}, hand {max(herrs):.1e} "
                     f"({k} mpmath points); {note}",
                extra={"max_rel_error": err, "hand_max_rel_error": max(herrs),
                       "grid_points": int(E.size), "checked_points": k}))
        except Exception as exc:
            out.append(_failed(case, "float64", exc))
    return out


# ---------------------------------------------------------------------- 5. cold processes
def _cold(cmd: list[str]) -> tuple[float, int]:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, cwd=str(ROOT), check=False)
    return time.perf_counter() - t0, proc.returncode


def cli_cases(quick: bool) -> list[Result]:
    py = sys.executable
    base_cmd = [py, "-c", "import numpy"]
    commands = [
        ("dpsym value staircase --cost power --eps 2 --digits 40",
         [py, "-m", "dpsym", "value", "staircase", "--cost", "power", "--eps", "2",
          "--digits", "40"], 1.0),
        ("dpsym series staircase --cost power --regime eps->0 --order 3",
         [py, "-m", "dpsym", "series", "staircase", "--cost", "power", "--regime", "eps->0",
          "--order", "3"], 3.0),
    ]
    repeats = 3 if quick else 7
    times: dict[str, list[float]] = {"base": [], **{c[0]: [] for c in commands}}
    codes: dict[str, int] = {}
    _cold(base_cmd)  # warm the file cache
    for _ in range(repeats):
        times["base"].append(_cold(base_cmd)[0])
        for label, cmd, _limit in commands:
            t, rc = _cold(cmd)
            times[label].append(t)
            codes[label] = rc
    base = statistics.median(times["base"])
    out = []
    for label, _cmd, limit in commands:
        t = statistics.median(times[label])
        out.append(Result(
            case=f"cold `{label}`", group="cli", metric="seconds (x numpy import)", dpsym=t,
            baseline=base, baseline_name='cold python -c "import numpy"', ratio=t / base,
            target=f"<= {limit:g} s absolute", met=(t <= limit and codes[label] == 0),
            note=f"python -m dpsym; exit status {codes[label]}"))
    return out


def check_case(quick: bool) -> list[Result]:
    py = sys.executable
    proc = subprocess.run([py, "-m", "dpsym", "check", "--help"], capture_output=True,
                          cwd=str(ROOT), check=False)
    if proc.returncode != 0:
        return [Result(case="full `dpsym check`", group="cli", metric="seconds", dpsym=None,
                       baseline=None, baseline_name="", ratio=None, target="<= 120 s",
                       met=None, note="skipped: `dpsym check --help` fails (no such command "
                       "yet)")]
    if quick:
        return [Result(case="full `dpsym check`", group="cli", metric="seconds", dpsym=None,
                       baseline=None, baseline_name="", ratio=None, target="<= 120 s",
                       met=None, note="skipped in --quick mode")]
    t, rc = _cold([py, "-m", "dpsym", "check"])
    return [Result(case="full `dpsym check`", group="cli", metric="seconds", dpsym=t,
                   baseline=None, baseline_name="", ratio=None, target="<= 120 s",
                   met=(t <= 120 and rc == 0), note=f"exit status {rc}")]


# ---------------------------------------------------------------------- 3c. minimisers
#: (mechanism, params, cost) whose optimum has no closed form: the interval minimiser.
MINIMISER_CASES = (
    ("staircase", {"eps": "1"}, "moment:3"),
    ("staircase-md", {"eps": "1", "dim": "3"}, "power"),
)
#: The closed-form path the minimisers are compared with (one Arb ball evaluation).
CLOSED_FORM_CASE = ("staircase", {"eps": "1"}, "power")


def minimiser_cases(quick: bool, digits: int = 50) -> list[Result]:
    """The certified minimiser (interval Newton and a sign covering, certificate
    ``"enclosure"``) at ``digits`` digits: its time per warm call (the isolation is proven
    once per instance, on the first call, whose time is in the note) over the
    closed-form path's (the staircase's power cost, one ball evaluation), target <= 3x;
    and over the two-precision mpmath path (``method="mpmath"``, only agreement)."""
    from dpsym.mechanisms import MECHANISMS

    repeats = 5 if quick else 15
    name, params, cost = CLOSED_FORM_CASE
    closed = MECHANISMS[name](**params)
    closed.value("cost", cost, digits)  # warm: derivation and compilation
    out = []
    for name, params, cost in MINIMISER_CASES:
        case = f"{name} {cost} minimiser at {digits} digits"
        try:
            mech = MECHANISMS[name](**params)
            t0 = time.perf_counter()
            v = mech.value("cost", cost, digits)  # compiles and proves the isolation
            first = time.perf_counter() - t0
            funcs = {"interval": lambda mech=mech, cost=cost: mech.value("cost", cost, digits),
                     "closed": lambda: closed.value("cost", CLOSED_FORM_CASE[2], digits),
                     "mpmath": lambda mech=mech, cost=cost: mech.value(
                         "cost", cost, digits, method="mpmath")}
            med = interleaved(funcs, repeats, min_batch=0.05)
            ratio = med["interval"] / med["closed"]
            out.append(Result(
                case=case, group="minimisers", metric="seconds (slowdown)",
                dpsym=med["interval"], baseline=med["closed"],
                baseline_name="closed-form path (staircase power)", ratio=ratio,
                target="<= 3x closed form",
                met=_met(ratio, upper=3.0) if v.certificate == "enclosure" else False,
                note=f"certificate {v.certificate}; first call {first:.2g} s (compilation "
                     "and the proof of isolation, kept per instance); the two-precision "
                     f"mpmath path takes {med['mpmath'] / med['interval']:.2g}x the interval "
                     "path's time",
                extra={"certificate": v.certificate, "mpmath_seconds": med["mpmath"],
                       "first_call_seconds": first}))
        except Exception as exc:
            out.append(_failed(case, "minimisers", exc))
    return out


#: Non-integer moments: (mechanism, params, quantity, cost, digits).
LERCH_CASES = (
    ("staircase", {"eps": "1e-6"}, "cost", "moment:1/2", 30),
    ("staircase", {"eps": "1e-6"}, "gamma", "moment:1/2", 30),
    ("staircase", {"eps": "1e-6"}, "cost", "moment:3/2", 30),
    ("staircase", {"eps": "1e-6"}, "cost", "moment:1/2", 50),
    ("staircase", {"eps": "1/100"}, "cost", "moment:5/2", 30),
    ("discrete-laplace", {"eps": "1e-3"}, "cost", "moment:3/2", 30),
)
#: One Lerch sum L(e^{-eps}, s, a): (eps, s, a, digits).
LERCH_SUMS = (("1e-6", (1, 2), (1, 3), 30), ("1e-6", (3, 2), (1, 3), 1000),
              ("1/100", (1, 2), (1, 3), 1000), ("1", (5, 2), (1, 3), 30))


def _clear_lerch_caches() -> None:
    """Forget every cached Lerch sum, zeta value and plan: each timed call starts cold."""
    from dpsym.certified.lerch import balls as lerch_balls
    from dpsym.symbolic import sums

    lerch_balls.clear_cache()
    sums._mp_lerch_cached.cache_clear()
    sums._arb_hurwitz.cache_clear()


def lerch_cases(quick: bool) -> list[Result]:
    """Non-integer moments (Lerch sums): the certified value (``"enclosure"``: the Lerch
    sums enclosed with proven remainders by :mod:`dpsym.certified.lerch.balls`, the minimiser by
    interval Newton) on a fresh instance with every Lerch cache cleared, over the
    two-precision mpmath path (``method="mpmath"``, certificate ``"agreement"``, its
    Lerch sums by :func:`dpsym.symbolic.sums.mp_lerch_sum`), target <= 4x (a proof against a
    heuristic: the interval minimiser's sign covering evaluates about a hundred Lerch
    sums and their Taylor forms); and one Lerch sum as a
    rigorous ball over :func:`~dpsym.symbolic.sums.mp_lerch_sum` (no error bound) at the same
    digits, target <= 3x."""
    import flint

    from dpsym.certified.lerch.balls import lerch_sum_ball
    from dpsym.mechanisms import MECHANISMS
    from dpsym.precision import arb_workprec, workdps
    from dpsym.symbolic.sums import mp_lerch_sum

    repeats = 3 if quick else 7
    out = []
    for name, params, quantity, cost, digits in LERCH_CASES:
        case = f"{name} {quantity} {cost} eps={params['eps']} at {digits} digits"
        try:
            MECHANISMS[name](**params).value(quantity, cost, digits)  # derivations, once

            def fresh(method: str, name=name, params=params, quantity=quantity, cost=cost,
                      digits=digits) -> object:
                _clear_lerch_caches()
                return MECHANISMS[name](**params).value(quantity, cost, digits, method=method)

            v = fresh("auto")
            med = interleaved({"ball": lambda fresh=fresh: fresh("auto"),
                               "mpmath": lambda fresh=fresh: fresh("mpmath")}, repeats)
            ratio = med["ball"] / med["mpmath"]
            out.append(Result(
                case=case, group="lerch", metric="seconds (slowdown)", dpsym=med["ball"],
                baseline=med["mpmath"], baseline_name="two-precision mpmath path (agreement)",
                ratio=ratio, target="<= 4x, certificate enclosure",
                met=_met(ratio, upper=4.0) if v.certificate == "enclosure" else False,
                note=f"certificate {v.certificate}; caches cleared before every call",
                extra={"certificate": v.certificate, "value": v.text[:40]}))
        except Exception as exc:
            out.append(_failed(case, "lerch", exc))
    for e, (sp_, sq), (ap, aq), digits in LERCH_SUMS:
        case = f"Lerch sum eps={e} s={sp_}/{sq} a={ap}/{aq} at {digits} digits"
        try:
            eps_value = Fraction(e)
            bits = int(digits * 3.33) + 20

            def ball(eps_value=eps_value, bits=bits, sp_=sp_, sq=sq, ap=ap, aq=aq) -> object:
                _clear_lerch_caches()
                with arb_workprec(bits):
                    z = (-flint.arb(flint.fmpq(eps_value.numerator,
                                               eps_value.denominator))).exp()
                    return lerch_sum_ball(z, Fraction(sp_, sq), flint.arb(flint.fmpq(ap, aq)))

            def mp(eps_value=eps_value, digits=digits, sp_=sp_, sq=sq, ap=ap, aq=aq) -> object:
                _clear_lerch_caches()
                with workdps(digits + 5):
                    z = mpmath.exp(-mpmath.mpf(eps_value.numerator) / eps_value.denominator)
                    return mp_lerch_sum(z, mpmath.mpf(sp_) / sq, mpmath.mpf(ap) / aq)

            found = ball()
            med = interleaved({"ball": ball, "mp": mp}, repeats, min_batch=0.05)
            ratio = med["ball"] / med["mp"]
            out.append(Result(
                case=case, group="lerch", metric="seconds (slowdown)", dpsym=med["ball"],
                baseline=med["mp"], baseline_name="mp_lerch_sum (mpmath, no error bound)",
                ratio=ratio, target="<= 3x", met=_met(ratio, upper=3.0),
                note=f"ball relative accuracy {found.rel_accuracy_bits()} bits",
                extra={"accuracy_bits": found.rel_accuracy_bits()}))
        except Exception as exc:
            out.append(_failed(case, "lerch", exc))
    return out


# ---------------------------------------------------------------------- report
# ---------------------------------------------------------------------- 3d. costs in x
#: Costs written as expressions (``docs/costs.md``): (mechanism, params, quantity, cost).
GENERAL_COST_CASES = (
    ("staircase", {"eps": "1"}, "cost", "min(abs(x), 3)"),
    ("staircase", {"eps": "1"}, "gamma", "log(1 + abs(x))"),
    ("staircase", {"eps": "1", "Delta": "3"}, "gamma", "abs(x) > 2"),
    ("staircase", {"eps": "1/100"}, "cost", "abs(x) + x^2"),
    ("uniform-mass", {"delta": "0.9"}, "alpha", "log(1 + abs(x))"),
    ("laplace", {"eps": "1"}, "cost", "log(1 + abs(x))"),
    ("truncated-laplace", {"eps": "1", "delta": "0.05"}, "cost", "min(abs(x), 3)"),
    ("analytic-gaussian", {"eps": "1", "delta": "1e-5"}, "cost", "min(abs(x), 3)"),
    ("discrete-staircase", {"eps": "1", "Delta": "5"}, "cost", "log(1 + abs(x))"),
    ("lower-bound", {"eps": "1", "delta": "0.05"}, "cost", "log(1 + abs(x))"),
)


def _forget_costs() -> None:
    """Forget every cost analysed and every ball evaluator built: each call starts cold
    (as a ``dpsym value`` process does)."""
    from dpsym.certified import evaluation
    from dpsym.core import costs

    evaluation.cost_balls.cache_clear()
    costs._from_function.cache_clear()
    costs.shape.cache_clear()


def general_cost_cases(quick: bool, digits: int = 40) -> list[Result]:
    """A cost written in ``x`` at ``digits`` digits, from its text (the hypotheses decided,
    the pieces compiled) to the certified value on a fresh instance: seconds per call
    over the closed-form path of the power cost at the same parameters (one Arb ball
    evaluation, warm), target <= 2 s per value (the ratio is reported, not a target)."""
    from dpsym.bounds import get_entry

    repeats = 3 if quick else 7
    out = []
    for name, params, quantity, cost in GENERAL_COST_CASES:
        case = f"{name} {quantity} for {cost} {params} at {digits} digits"
        try:
            cls = get_entry(name)
            base_quantity = "cost" if quantity == "cost" else quantity
            closed = cls(**params)
            closed.value(base_quantity if name != "uniform-mass" else "cost", "power", digits)

            def fresh(cls=cls, params=params, quantity=quantity, cost=cost) -> object:
                _forget_costs()
                return cls(**params).value(quantity, cost, digits)

            v = fresh()
            med = interleaved({"general": fresh,
                               "power": lambda closed=closed: closed.value("cost", "power",
                                                                           digits)},
                              repeats)
            out.append(Result(
                case=case, group="costs", metric="seconds (slowdown)",
                dpsym=med["general"], baseline=med["power"],
                baseline_name="the power cost's closed form, same parameters (warm)",
                ratio=med["general"] / med["power"], target="<= 2 s per value",
                met=(med["general"] <= 2.0) if v.certificate in ("exact", "enclosure")
                else False,
                note=f"certificate {v.certificate}; cost analysed afresh on every call",
                extra={"certificate": v.certificate, "value": v.text[:40]}))
        except Exception as exc:
            out.append(_failed(case, "costs", exc))
    return out


GROUPS: dict[str, Callable[[bool], list[Result]]] = {
    "sampling": sampling_cases,
    "gaussian": gaussian_cases,
    "digits": digits_cases,
    "minimisers": minimiser_cases,
    "costs": general_cost_cases,
    "lerch": lerch_cases,
    "catalogue": catalogue_cases,
    "series": series_cases,
    "float64": float_grid_cases,
    "cli": cli_cases,
    "check": check_case,
}


def _fmt(v: object) -> str:
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        if not math.isfinite(v):
            return str(v)
        return f"{v:.3g}"
    if isinstance(v, dict):
        if "max_rel_error" in v and "failed_points" in v:
            s = f"err {v['max_rel_error']:.1e}"
            if v["failed_points"] or v["timed_out_points"]:
                s += f", {v['failed_points']} failed, {v['timed_out_points']} timed out"
            if v.get("worst"):
                w = v["worst"][0]
                s += f" (worst at eps={w['eps']:g}, delta={w['delta']:g})"
            return s
        if "seconds_per_call" in v:
            return f"{v['seconds_per_call']:.3g} s/call ({v['points']} pts)"
        return json.dumps(v)
    return str(v)


def markdown(results: list[Result], meta: dict) -> str:
    lines = [
        "# dpsym benchmark results", "",
        f"Mode: {'quick' if meta['quick'] else 'full'}; Python {meta['python']}; "
        f"{meta['machine']}; mpmath backend {meta.get('mpmath_backend', '?')}; "
        f"run took {meta['seconds']:.0f} s.", "",
        "Peers: " + ", ".join(f"{k} {v}" for k, v in meta["versions"].items()), "",
        "Ratio: for throughput and speed-up rows, dpsym / baseline throughput or baseline / "
        "dpsym time (higher is better); for slowdown rows, dpsym time / baseline time "
        "(lower is better); for CLI rows, dpsym time / cold numpy import.", "",
        "| case | metric | dpsym | baseline | peers | ratio | target | met | note |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in results:
        peers = "; ".join(f"{k}: {_fmt(v)}" for k, v in r.peers.items()) or "-"
        base = "-" if r.baseline is None else f"{_fmt(r.baseline)} ({r.baseline_name})"
        if r.baseline is None and r.baseline_name:
            base = r.baseline_name
        lines.append(f"| {r.case} | {r.metric} | {_fmt(r.dpsym)} | {base} | {peers} | "
                     f"{_fmt(r.ratio)} | {r.target} | "
                     f"{'n/a' if r.met is None else _fmt(r.met)} | {r.note} |")
    met = sum(r.met is True for r in results)
    missed = sum(r.met is False for r in results)
    na = sum(r.met is None for r in results)
    lines += ["", f"Targets met: {met}; not met: {missed}; not measured: {na}.", ""]
    return "\n".join(lines)


def run(groups: list[str], quick: bool, only: list[str] | None = None) -> list[Result]:
    results: list[Result] = []
    for g in groups:
        t0 = time.perf_counter()
        try:
            rows = GROUPS[g](quick)
        except Exception as exc:
            rows = [_failed(g, g, exc)]
        if only:
            rows = [r for r in rows if any(s in r.case for s in only)] or rows
        results.extend(rows)
        print(f"[{g}] {time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
    return results


def write(results: list[Result], out: Path, meta: dict) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps(
        {"meta": meta, "results": [asdict(r) for r in results]}, indent=2, default=str) + "\n")
    (out / "results.md").write_text(markdown(results, meta))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats, smaller grids")
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "results"))
    parser.add_argument("--groups", nargs="*", default=list(GROUPS), choices=list(GROUPS))
    parser.add_argument("--only", nargs="*", help="keep only rows whose case contains one of "
                        "these substrings (the group still runs)")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    results = run(args.groups, args.quick, args.only)
    meta = {"quick": args.quick, "python": platform.python_version(),
            "machine": f"{platform.machine()}, {__import__('os').cpu_count()} cpus",
            "versions": peer_versions(), "seconds": time.perf_counter() - t0,
            "mpmath_backend": mpmath.libmp.BACKEND,
            "executable": sys.executable}
    write(results, Path(args.out), meta)
    print(markdown(results, meta))
    return 0


if __name__ == "__main__":
    sys.exit(main())
