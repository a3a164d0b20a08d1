r"""Section 6 of the paper (003): truncated Laplacian against the analytic Gaussian.

The paper plots, over :math:`\varepsilon \in [10^{-4}, 10]` and
:math:`\delta \in [10^{-6}, 0.1]`, the ratios of the truncated Laplacian's noise amplitude
(Figure 2) and noise power (Figure 3) to those of the optimal (analytic, Balle-Wang)
Gaussian mechanism, and claims that the truncated Laplacian "significantly reduces the noise
amplitude and noise power in all privacy regimes", i.e. that both ratios are below 1.

:func:`section6` recomputes both figures with the float64 fast path
(:mod:`dpsym.mechanisms.fastpath`), locates the minimum and maximum of each ratio on the grid, and
refines each extreme with certified mpmath arithmetic: an extreme at a corner of the grid is
evaluated there; one inside an edge is maximised (or minimised) along that edge by solving
:math:`\partial r/\partial\varepsilon = 0` (or :math:`\partial r/\partial\delta = 0`); one in
the interior by solving :math:`\nabla r = 0`. Both ratios are independent of
:math:`\Delta`. The truncated Laplacian's costs are the engine's closed forms
(:meth:`TruncatedLaplace.formula <dpsym.mechanisms.base.Mechanism.formula>`, compiled once
for mpmath), the analytic Gaussian's :math:`\sigma` is
:func:`dpsym.gaussian.calibration.calibrate_sigma_value`.

``section6_ratios.json`` holds only certified, correctly rounded decimal strings (and
exact integers): the grid is computed exactly (in mpmath, from the decimal end points,
then rounded to float64), and each grid extreme is written as the certified ratio at that
grid point, not as the float64 value, so the file is the same on every machine.

:func:`plot_cost_ratios` draws the figure of the :math:`d`-dimensional staircase
(``staircase_md_ratios.png``).
"""

from __future__ import annotations

import io
import json
import os
import tempfile
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import mpmath
import numpy as np
import sympy as sp

from dpsym._version import STAMP
from dpsym.certified.agreement import agreement
from dpsym.certified.rounding import decimal_text, format_digits, fraction_rounding
from dpsym.core.params import parameter_symbols
from dpsym.gaussian.calibration import calibrate_sigma_value
from dpsym.mechanisms.fastpath import amplitude_ratio, power_ratio
from dpsym.mechanisms.independent_staircase import IndependentStaircase
from dpsym.mechanisms.laplace_md import LaplaceMD
from dpsym.mechanisms.staircase_md import StaircaseMD
from dpsym.mechanisms.truncated_laplace import TruncatedLaplace
from dpsym.precision import extraprec, mpf_fraction, workdps
from dpsym.symbolic.numerics import to_mpf
from dpsym.symbols import in_eps

__all__ = ["DELTA_RANGE", "EPS_RANGE", "plot_cost_ratios", "ratios_mp", "section6",
           "truncated_laplace_mp"]

#: The grid of the paper's Figures 2 and 3 (decimal strings: exact end points).
EPS_RANGE = ("1e-4", "10")
DELTA_RANGE = ("1e-6", "0.1")
FILES = ("section6_amplitude_ratio.png", "section6_power_ratio.png", "section6_ratios.json")


@cache
def _truncated_laplace_costs() -> tuple[Callable[..., Any], Callable[..., Any]]:
    r"""The truncated Laplacian's optimal :math:`\mathbb{E}|X|` and :math:`\mathbb{E}X^2`
    at :math:`\Delta = 1`, the engine's closed forms compiled for mpmath (functions of
    :math:`(\varepsilon, \delta)`)."""
    symbol = parameter_symbols(TruncatedLaplace)
    compiled = []
    for cost in ("amplitude", "power"):
        expr = in_eps(TruncatedLaplace.formula("cost", cost)).subs(symbol["Delta"], 1)
        compiled.append(sp.lambdify((symbol["eps"], symbol["delta"]), expr, "mpmath"))
    return compiled[0], compiled[1]


def truncated_laplace_mp(eps: mpmath.mpf, delta: mpmath.mpf) -> tuple[mpmath.mpf, mpmath.mpf]:
    r"""Truncated Laplacian :math:`(\mathbb{E}|X|, \mathbb{E}X^2)` at :math:`\Delta = 1`, at
    the current precision, from the engine's closed forms, with extra working precision
    for their cancellations: :math:`e^\varepsilon - 1` at small :math:`\varepsilon`, and
    terms of order :math:`c^2` at small :math:`c = (e^\varepsilon - 1)/(2\delta)`."""
    amplitude, power = _truncated_laplace_costs()
    with extraprec(64):
        c = mpmath.expm1(eps) / (2 * delta)
        extra = 3 * max(0, -int(mpmath.mag(c))) + max(0, -int(mpmath.mag(eps))) + 16
    with extraprec(extra + 64):
        amp, pw = amplitude(eps, delta), power(eps, delta)
    return +amp, +pw


def ratios_mp(eps: mpmath.mpf, delta: mpmath.mpf) -> tuple[mpmath.mpf, mpmath.mpf]:
    r"""(amplitude ratio, power ratio), truncated Laplacian over analytic Gaussian, at the
    current precision: :math:`\mathbb{E}|X| / (\sigma^* \sqrt{2/\pi})` and
    :math:`\mathbb{E}X^2 / \sigma^{*2}` at :math:`\Delta = 1`."""
    amp, power = truncated_laplace_mp(eps, delta)
    sigma = calibrate_sigma_value(mpf_fraction(eps), mpf_fraction(delta))
    return amp / (sigma * mpmath.sqrt(2 / mpmath.pi)), power / sigma**2


def _axis(ends: tuple[str, str], n: int) -> np.ndarray:
    """``n`` log-spaced points from ``ends[0]`` to ``ends[1]``, each the float64 nearest to
    the exact point (computed in mpmath, the same on every machine)."""
    lo, hi = Fraction(ends[0]), Fraction(ends[1])
    with workdps(40):
        a, ratio = to_mpf(lo), to_mpf(hi / lo)
        points = [float(a * ratio ** (mpmath.mpf(i) / (n - 1))) for i in range(n)]
    points[0], points[-1] = float(lo), float(hi)
    return np.array(points)


def _grid(n_eps: int, n_delta: int) -> tuple[np.ndarray, np.ndarray]:
    return _axis(EPS_RANGE, n_eps), _axis(DELTA_RANGE, n_delta)


def _decimal(value: float | Fraction, digits: int) -> str:
    """An exact number (a float64, a fraction) correctly rounded to ``digits`` digits."""
    if value == 0:
        return "0"
    if isinstance(value, Fraction):
        return decimal_text(*fraction_rounding(value, digits), digits)
    return format_digits(mpmath.mpf(value), digits)


def _refine(which: int, kind: str, i: int, j: int, e: np.ndarray, d: np.ndarray,
            digits: int) -> dict[str, Any]:
    """Certified location and value of the extreme found at grid index (i, j)."""
    on_e_edge = i in (0, len(e) - 1)
    on_d_edge = j in (0, len(d) - 1)

    def edge_value(idx: int, arr: np.ndarray, rng: tuple[str, str]) -> mpmath.mpf:
        if idx == 0:
            return to_mpf(Fraction(rng[0]))
        if idx == len(arr) - 1:
            return to_mpf(Fraction(rng[1]))
        return mpmath.mpf(float(arr[idx]))

    def r(le: mpmath.mpf, ld: mpmath.mpf) -> mpmath.mpf:  # in log coordinates
        return ratios_mp(mpmath.exp(le), mpmath.exp(ld))[which]

    def locate() -> tuple[mpmath.mpf, mpmath.mpf]:
        le = mpmath.log(edge_value(i, e, EPS_RANGE))
        ld = mpmath.log(edge_value(j, d, DELTA_RANGE))
        if on_e_edge and on_d_edge:
            return le, ld
        if on_d_edge:  # optimise along eps
            le = mpmath.findroot(lambda t: mpmath.diff(lambda s: r(s, ld), t), le)
            return le, ld
        if on_e_edge:
            ld = mpmath.findroot(lambda t: mpmath.diff(lambda s: r(le, s), t), ld)
            return le, ld
        sol = mpmath.findroot(
            [lambda a, b: mpmath.diff(lambda s: r(s, b), a),
             lambda a, b: mpmath.diff(lambda s: r(a, s), b)], (le, ld))
        return sol[0], sol[1]

    cache: dict[int, tuple[mpmath.mpf, mpmath.mpf]] = {}

    def located() -> tuple[mpmath.mpf, mpmath.mpf]:
        if mpmath.mp.prec not in cache:
            cache[mpmath.mp.prec] = locate()
        return cache[mpmath.mp.prec]

    _, eps_t, _ = agreement(lambda: mpmath.exp(located()[0]), digits)
    _, delta_t, _ = agreement(lambda: mpmath.exp(located()[1]), digits)
    value, text, _ = agreement(lambda: r(*located()), digits)
    if on_e_edge and on_d_edge:
        where = "corner"
    elif on_d_edge:
        where = f"edge delta = {DELTA_RANGE[int(j > 0)]}"
    elif on_e_edge:
        where = f"edge eps = {EPS_RANGE[int(i > 0)]}"
    else:
        where = "interior"
    return {"eps": eps_t, "delta": delta_t, "value": text, "where": where,
            "value_float": float(value)}


def _grid_record(which: int, entry: dict[str, Any], R: np.ndarray, digits: int
                 ) -> dict[str, Any]:
    """The certified form of a grid summary (what ``section6_ratios.json`` holds): each
    grid extreme as the certified ratio at its grid point, every number a decimal string
    correctly rounded to ``digits`` digits (or an exact integer)."""
    below = Fraction(int(np.count_nonzero(R < 1)), int(R.size))
    record: dict[str, Any] = {"all_below_one": entry["all_below_one"],
                              "fraction_below_one": _decimal(below, digits)}
    for kind in ("min", "max"):
        item = entry[kind]
        e, d = mpmath.mpf(item["grid_eps"]), mpmath.mpf(item["grid_delta"])

        def ratio(e: mpmath.mpf = e, d: mpmath.mpf = d) -> mpmath.mpf:
            return ratios_mp(e, d)[which]

        _, value, _ = agreement(ratio, digits)
        refined = {k: v for k, v in item["refined"].items() if k != "value_float"}
        record[kind] = {"grid_value": value, "grid_eps": _decimal(item["grid_eps"], digits),
                        "grid_delta": _decimal(item["grid_delta"], digits),
                        "grid_index": list(item["grid_index"]), "refined": refined}
    return record


def section6(out_dir: str | os.PathLike[str] = "derivations", n_eps: int = 121,
             n_delta: int = 121, digits: int = 15) -> dict[str, Any]:
    r"""Recompute the paper's Figures 2 and 3 and the extremes of both ratios.

    Parameters
    ----------
    out_dir : path
        Where ``section6_amplitude_ratio.png``, ``section6_power_ratio.png`` and
        ``section6_ratios.json`` are written (deterministic: a rerun is byte-identical).
    n_eps, n_delta : int
        Grid sizes (log-spaced over :data:`EPS_RANGE` and :data:`DELTA_RANGE`).
    digits : int
        Certified digits of the refined extremes.

    Returns
    -------
    dict
        For ``amplitude`` and ``power``: the grid ``min`` and ``max`` (value, eps, delta,
        grid index), their certified refinement, and ``all_below_one``. The grid values
        here are float64 (``grid_value``, ``grid_eps``, ``grid_delta``,
        ``fraction_below_one``, and the refinement's ``value_float``); the file holds
        their certified decimal forms instead (module docstring).
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    e, d = _grid(n_eps, n_delta)
    E, D = np.meshgrid(e, d, indexing="ij")
    grids = {"amplitude": np.asarray(amplitude_ratio(E, D)),  # (arrays: E, D are)
             "power": np.asarray(power_ratio(E, D))}
    result: dict[str, Any] = {
        "grid": {"eps": [*EPS_RANGE, n_eps, "log-spaced"],
                 "delta": [*DELTA_RANGE, n_delta, "log-spaced"]},
        "claim": "003 Section 6: the truncated Laplacian improves on the optimal Gaussian "
                 "in all privacy regimes (ratio < 1)",
    }
    record = dict(result)
    for which, (name, R) in enumerate(grids.items()):
        entry: dict[str, Any] = {"all_below_one": bool(np.all(R < 1)),
                                 "fraction_below_one": float(np.mean(R < 1))}
        for kind, idx in (("min", np.argmin(R)), ("max", np.argmax(R))):
            i, j = np.unravel_index(idx, R.shape)
            entry[kind] = {"grid_value": float(R[i, j]), "grid_eps": float(e[i]),
                           "grid_delta": float(d[j]), "grid_index": [int(i), int(j)],
                           "refined": _refine(which, kind, int(i), int(j), e, d, digits)}
        result[name] = entry
        record[name] = _grid_record(which, entry, R, digits)
        _plot(out / FILES[which], e, d, R, name)
    text = json.dumps({"stamp": STAMP, **record}, indent=2, sort_keys=True) + "\n"
    _write_bytes(out / FILES[2], text.encode())
    return result


def _plot(path: Path, e: np.ndarray, d: np.ndarray, R: np.ndarray, name: str) -> None:
    import matplotlib  # optional and slow to import: only the figures need it

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure  # after choosing the backend

    fig = Figure(figsize=(6.4, 4.8), dpi=100)
    ax = fig.add_subplot()
    levels = np.linspace(np.floor(R.min() * 20) / 20, np.ceil(R.max() * 20) / 20, 21)
    cs = ax.contourf(e, d, R.T, levels=levels, cmap="viridis")
    lines = ax.contour(e, d, R.T, levels=levels[::4], colors="k", linewidths=0.6)
    ax.clabel(lines, fmt="%.2f", fontsize=7)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(r"$\varepsilon$")
    ax.set_ylabel(r"$\delta$")
    figure = "Figure 2" if name == "amplitude" else "Figure 3"
    ax.set_title(f"003 {figure}: truncated Laplacian / analytic Gaussian, noise {name}",
                 fontsize=9)
    fig.colorbar(cs, ax=ax, label=f"{name} ratio")
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    _write_bytes(path, buf.getvalue())


def _write_bytes(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


# ---------------------------------------------------------------------- d-dimensional
def plot_cost_ratios(directory: str | Path, dims: tuple[int, ...] = (2, 3, 5),
                     points: int = 41) -> Path:
    r"""Write ``staircase_md_ratios.png``: the optimal cost :math:`\mathbb{E}\|X\|_1` of the
    :math:`d`-dimensional staircase divided by that of Laplace noise on each coordinate and
    by that of the independent staircase, against :math:`\varepsilon \in [10^{-2}, 30]`.

    Returns the path written. Values are certified to 10 digits (deterministic output).
    """
    import matplotlib  # optional and slow to import: only the figures need it

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # after choosing the backend

    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    grid = [f"{10 ** (-2 + 3.4771212547 * j / (points - 1)):.4g}" for j in range(points)]
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharex=True)
    for d in dims:
        xs, to_lap, to_ind = [], [], []
        for e in grid:
            v = float(StaircaseMD(eps=e, dim=d).value("cost", "amplitude", 10).number)
            lap = float(LaplaceMD(eps=e, dim=d).value("cost", "amplitude", 10).number)
            ind = float(IndependentStaircase(eps=e, dim=d).value("cost", "amplitude", 10).number)
            xs.append(float(e))
            to_lap.append(v / lap)
            to_ind.append(v / ind)
        axes[0].plot(xs, to_lap, label=f"d = {d}")
        axes[1].plot(xs, to_ind, label=f"d = {d}")
    axes[0].set(xscale="log", yscale="log", xlabel=r"$\varepsilon$",
                title=r"staircase-md / Laplace per coordinate ($E\|X\|_1$)")
    axes[1].set(xscale="log", yscale="log", xlabel=r"$\varepsilon$",
                title=r"staircase-md / independent staircase ($E\|X\|_1$)")
    for ax in axes:
        ax.legend()
        ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    path = out / "staircase_md_ratios.png"
    fig.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(fig)
    return path
