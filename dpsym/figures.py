r"""Section 6 of the paper (003): truncated Laplacian against the analytic Gaussian.

The paper plots, over :math:`\varepsilon \in [10^{-4}, 10]` and
:math:`\delta \in [10^{-6}, 0.1]`, the ratios of the truncated Laplacian's noise amplitude
(Figure 2) and noise power (Figure 3) to those of the optimal (analytic, Balle-Wang)
Gaussian mechanism, and claims that the truncated Laplacian "significantly reduces the noise
amplitude and noise power in all privacy regimes", i.e. that both ratios are below 1.

:func:`section6` recomputes both figures with the float64 fast path
(:mod:`dpsym.fastpath`), locates the minimum and maximum of each ratio on the grid, and
refines each extreme with certified mpmath arithmetic: an extreme at a corner of the grid is
evaluated there; one inside an edge is maximised (or minimised) along that edge by solving
:math:`\partial r/\partial\varepsilon = 0` (or :math:`\partial r/\partial\delta = 0`); one in
the interior by solving :math:`\nabla r = 0`. Both ratios are independent of
:math:`\Delta`.
"""

from __future__ import annotations

import io
import json
import os
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import Any

import mpmath
import numpy as np

from .fastpath import amplitude_ratio, power_ratio
from .gaussian_calibration import _mu_mp
from .numerics import certified, to_mpf

__all__ = ["DELTA_RANGE", "EPS_RANGE", "ratios_mp", "section6", "truncated_laplace_mp"]

#: The grid of the paper's Figures 2 and 3 (decimal strings: exact end points).
EPS_RANGE = ("1e-4", "10")
DELTA_RANGE = ("1e-6", "0.1")
FILES = ("section6_amplitude_ratio.png", "section6_power_ratio.png", "section6_ratios.json")


def truncated_laplace_mp(eps: mpmath.mpf, delta: mpmath.mpf) -> tuple[mpmath.mpf, mpmath.mpf]:
    r"""Truncated Laplacian :math:`(\mathbb{E}|X|, \mathbb{E}X^2)` at :math:`\Delta = 1`, at
    the current precision, straight from Definition 3 (:math:`A = \lambda\log(1 + c)`,
    :math:`\lambda - A/c`, :math:`2\lambda^2 - (A^2 + 2\lambda A)/c`), with extra working
    precision for the cancellation of order :math:`c^2` at small :math:`c`."""
    with mpmath.extraprec(mpmath.mp.prec + 64):
        lam = 1 / eps
        c = mpmath.expm1(eps) / (2 * delta)
        extra = 3 * max(0, -int(mpmath.mag(c))) + 16
    with mpmath.extraprec(extra + 64):
        lam = 1 / eps
        c = mpmath.expm1(eps) / (2 * delta)
        A = lam * mpmath.log1p(c)
        amp = lam - A / c
        power = 2 * lam**2 - (A**2 + 2 * lam * A) / c
    return +amp, +power


def ratios_mp(eps: mpmath.mpf, delta: mpmath.mpf) -> tuple[mpmath.mpf, mpmath.mpf]:
    r"""(amplitude ratio, power ratio), truncated Laplacian over analytic Gaussian, at the
    current precision (:math:`\sigma^* = 1/\mu^*` at :math:`\Delta = 1`)."""
    amp, power = truncated_laplace_mp(eps, delta)
    mu = _mu_mp(_exact(eps), _exact(delta))
    return amp * mu / mpmath.sqrt(2 / mpmath.pi), power * mu**2


def _exact(v: mpmath.mpf) -> Fraction:
    man, exp = mpmath.mpf(v).man_exp
    return Fraction(int(man)) * Fraction(2) ** int(exp)


def _grid(n_eps: int, n_delta: int) -> tuple[np.ndarray, np.ndarray]:
    e = np.geomspace(float(EPS_RANGE[0]), float(EPS_RANGE[1]), n_eps)
    d = np.geomspace(float(DELTA_RANGE[0]), float(DELTA_RANGE[1]), n_delta)
    return e, d


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

    _, eps_t = certified(lambda: mpmath.exp(located()[0]), digits)
    _, delta_t = certified(lambda: mpmath.exp(located()[1]), digits)
    value, text = certified(lambda: r(*located()), digits)
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
        grid index), their certified refinement, and ``all_below_one``.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    e, d = _grid(n_eps, n_delta)
    E, D = np.meshgrid(e, d, indexing="ij")
    grids = {"amplitude": amplitude_ratio(E, D), "power": power_ratio(E, D)}
    result: dict[str, Any] = {
        "grid": {"eps": [*EPS_RANGE, n_eps, "log-spaced"],
                 "delta": [*DELTA_RANGE, n_delta, "log-spaced"]},
        "claim": "003 Section 6: the truncated Laplacian improves on the optimal Gaussian "
                 "in all privacy regimes (ratio < 1)",
    }
    for which, (name, R) in enumerate(grids.items()):
        entry: dict[str, Any] = {"all_below_one": bool(np.all(R < 1)),
                                 "fraction_below_one": float(np.mean(R < 1))}
        for kind, idx in (("min", np.argmin(R)), ("max", np.argmax(R))):
            i, j = np.unravel_index(idx, R.shape)
            entry[kind] = {"grid_value": float(R[i, j]), "grid_eps": float(e[i]),
                           "grid_delta": float(d[j]), "grid_index": [int(i), int(j)],
                           "refined": _refine(which, kind, int(i), int(j), e, d, digits)}
        result[name] = entry
        _plot(out / FILES[which], e, d, R, name)
    from .derive import STAMP

    text = json.dumps({"stamp": STAMP, **result}, indent=2, sort_keys=True) + "\n"
    _write_bytes(out / FILES[2], text.encode())
    return result


def _plot(path: Path, e: np.ndarray, d: np.ndarray, R: np.ndarray, name: str) -> None:
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure

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
