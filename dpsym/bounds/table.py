r"""The finite-parameter comparison: what the papers only show in the limit.

:func:`write_comparison` writes, under a given directory,

* ``bounds_comparison.csv`` and ``bounds_comparison.md``: at each :math:`(\varepsilon,
  \delta)` and for amplitude and power, the certified LP lower bound, the closed-form
  lower bound (:class:`~dpsym.bounds.real.LowerBound`), the LP-optimal mechanism's exact
  cost, and the costs of the truncated Laplacian, uniform, Laplace and analytic Gaussian
  mechanisms (a mechanism whose module is not installed is left blank; the analytic
  Gaussian falls back to :mod:`dpsym.gaussian_calibration`'s certified :math:`\sigma`);
* ``bounds_lp_noise.png``: the LP-optimal noise density next to the truncated Laplacian
  density (matplotlib, Agg).

Lower bounds are printed rounded down, upper bounds (costs of mechanisms) to nearest;
the output is deterministic.
"""

from __future__ import annotations

import csv
import importlib
from fractions import Fraction
from pathlib import Path

from ..mechanisms.base import Mechanism
from .common import round_exact
from .lp import certified_lp_lower_bound, lp_optimal_mechanism
from .real import LowerBound

#: The default parameter points (eps, delta) and the grid refinement.
POINTS: tuple[tuple[str, str], ...] = (("0.1", "0.05"), ("0.5", "0.01"), ("1", "0.05"),
                                       ("2", "0.001"))
GRID = 16
DIGITS = 12
COLUMNS = ("eps", "delta", "cost", "lp_lower_certified", "closed_form_lower",
           "lp_mechanism", "truncated_laplace", "uniform", "laplace", "analytic_gaussian")

_MECHANISMS = {
    "truncated_laplace": ("dpsym.mechanisms.truncated_laplace", "TruncatedLaplace"),
    "uniform": ("dpsym.mechanisms.uniform_mass", "UniformMass"),
    "laplace": ("dpsym.mechanisms.laplace", "Laplace"),
    "analytic_gaussian": ("dpsym.mechanisms.gaussian", "AnalyticGaussian"),
}


def mechanism_class(column: str) -> type[Mechanism] | None:
    """The mechanism class of a table column, or None if its module is not there."""
    module, name = _MECHANISMS[column]
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return None


def mechanism_cost(column: str, eps: str, delta: str, cost: str, digits: int = DIGITS
                   ) -> str:
    """A mechanism's certified cost as text ('' when the mechanism is unavailable)."""
    cls = mechanism_class(column)
    if cls is None and column == "analytic_gaussian":
        return _gaussian_fallback(eps, delta, cost, digits)
    if cls is None:
        return ""
    names = {prm.name for prm in cls.params}
    kwargs: dict[str, object] = {"Delta": 1}
    if "eps" in names:
        kwargs["eps"] = eps
    if "delta" in names:
        kwargs["delta"] = delta
    return cls(**kwargs).value("cost", cost, digits).text


def _gaussian_fallback(eps: str, delta: str, cost: str, digits: int) -> str:
    r"""The analytic Gaussian's cost from :func:`dpsym.gaussian_calibration.calibrate_sigma_mp`
    while the mechanism class is not there: :math:`\sigma\sqrt{2/\pi}` or
    :math:`\sigma^2`."""
    import mpmath

    from ..numerics import format_digits

    try:
        from ..gaussian_calibration import calibrate_sigma_mp
    except ImportError:
        return ""
    sigma, _ = calibrate_sigma_mp(eps, delta, 1, digits + 10)
    with mpmath.workdps(digits + 10):
        value = sigma * mpmath.sqrt(2 / mpmath.pi) if cost == "amplitude" else sigma**2
        return format_digits(value, digits)


def comparison_rows(points=POINTS, grid: int = GRID, digits: int = DIGITS) -> list[dict]:
    """The table's rows (strings), one per point and cost."""
    rows = []
    for eps, delta in points:
        for cost, p in (("amplitude", 1), ("power", 2)):
            cert = certified_lp_lower_bound(eps, delta, 1, grid, p)
            mech = lp_optimal_mechanism(eps, delta, 1, grid, p)
            row = {
                "eps": eps, "delta": delta, "cost": cost,
                "lp_lower_certified": round_exact(cert.bound, digits, down=True)[1],
                "closed_form_lower": LowerBound(eps=eps, delta=delta, Delta=1)
                .value("cost", cost, digits).text,
                "lp_mechanism": round_exact(mech.cost, digits, down=False)[1],
            }
            for column in ("truncated_laplace", "uniform", "laplace", "analytic_gaussian"):
                row[column] = mechanism_cost(column, eps, delta, cost, digits)
            rows.append(row)
    return rows


def plot_noise(path: Path, eps: str = "1", delta: str = "0.05", grid: int = GRID) -> None:
    """The LP-optimal noise density (amplitude) next to the truncated Laplacian density."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    e, d = float(Fraction(eps)), float(Fraction(delta))
    mech = lp_optimal_mechanism(eps, delta, 1, grid, 1).noise
    lam = 1 / e
    A = lam * np.log1p(np.expm1(e) / (2 * d))
    B = 1 / (2 * lam * (1 - np.exp(-A / lam)))
    reach = float(mech.step) * (mech.K + 0.5)
    xs = np.linspace(-reach, reach, 4001)
    tlap = np.where(np.abs(xs) <= A, B * np.exp(-np.abs(xs) / lam), 0.0)
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.step(xs, mech.density(xs), where="mid", label=f"LP-optimal (grid 1/{grid})")
    ax.plot(xs, tlap, label="truncated Laplacian (Definition 3)")
    ax.set_xlabel("noise x (Delta = 1)")
    ax.set_ylabel("density")
    ax.set_title(f"(eps, delta) = ({eps}, {delta}), cost |x|")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(fig)


def write_comparison(out_dir: str | Path, points=POINTS, grid: int = GRID,
                     digits: int = DIGITS) -> list[Path]:
    """Write the comparison table (CSV and Markdown) and the figure under ``out_dir``.

    Returns
    -------
    list of Path
        The files written.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    rows = comparison_rows(points, grid, digits)
    csv_path = out / "bounds_comparison.csv"
    with csv_path.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    md_path = out / "bounds_comparison.md"
    lines = [f"Delta = 1, grid step 1/{grid}; lower bounds rounded down.", "",
             "| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(r[col] for col in COLUMNS) + " |" for r in rows]
    md_path.write_text("\n".join(lines) + "\n")
    png_path = out / "bounds_lp_noise.png"
    plot_noise(png_path, grid=grid)
    return [csv_path, md_path, png_path]


__all__ = ["COLUMNS", "POINTS", "comparison_rows", "mechanism_cost", "plot_noise",
           "write_comparison"]
