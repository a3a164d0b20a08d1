r"""The finite-parameter comparison: what the papers only show in the limit.

:func:`write_comparison` writes, under a given directory,

* ``bounds_comparison.csv`` and ``bounds_comparison.md``: at each :math:`(\varepsilon,
  \delta)` and for amplitude and power, the certified LP lower bound, the closed-form
  lower bound (:class:`~dpsym.bounds.real.LowerBound`), the LP-optimal mechanism's exact
  cost, and the costs of the truncated Laplacian, uniform, Laplace and analytic Gaussian
  mechanisms;
* ``bounds_lp_noise.png``: the LP-optimal noise density next to the truncated Laplacian
  density (matplotlib, Agg).

Every number is a certified decimal string: lower bounds rounded down, upper bounds
(costs of mechanisms) to nearest; the output is deterministic.
"""

from __future__ import annotations

import csv
from fractions import Fraction
from pathlib import Path

import numpy as np

from dpsym.bounds.common import round_exact
from dpsym.bounds.lp import certified_lp_lower_bound, lp_optimal_mechanism
from dpsym.bounds.real import LowerBound
from dpsym.mechanisms.base import Mechanism
from dpsym.mechanisms.gaussian import AnalyticGaussian
from dpsym.mechanisms.laplace import Laplace
from dpsym.mechanisms.truncated_laplace import TruncatedLaplace
from dpsym.mechanisms.uniform_mass import UniformMass

#: The default parameter points (eps, delta) and the grid refinement.
POINTS: tuple[tuple[str, str], ...] = (("0.1", "0.05"), ("0.5", "0.01"), ("1", "0.05"),
                                       ("2", "0.001"))
GRID = 16
DIGITS = 12
COLUMNS = ("eps", "delta", "cost", "lp_lower_certified", "closed_form_lower",
           "lp_mechanism", "truncated_laplace", "uniform", "laplace", "analytic_gaussian")

#: The mechanism of each mechanism column.
MECHANISM_COLUMNS: dict[str, type[Mechanism]] = {
    "truncated_laplace": TruncatedLaplace,
    "uniform": UniformMass,
    "laplace": Laplace,
    "analytic_gaussian": AnalyticGaussian,
}


def mechanism_cost(column: str, eps: str, delta: str, cost: str, digits: int = DIGITS
                   ) -> str:
    r"""The certified cost of a column's mechanism at ``(eps, delta)``, :math:`\Delta = 1`,
    as text."""
    cls = MECHANISM_COLUMNS[column]
    names = {prm.name for prm in cls.params}
    kwargs: dict[str, object] = {"Delta": 1}
    if "eps" in names:
        kwargs["eps"] = eps
    if "delta" in names:
        kwargs["delta"] = delta
    return cls(**kwargs).value("cost", cost, digits).text


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
            for column in MECHANISM_COLUMNS:
                row[column] = mechanism_cost(column, eps, delta, cost, digits)
            rows.append(row)
    return rows


def plot_noise(path: Path, eps: str = "1", delta: str = "0.05", grid: int = GRID) -> None:
    """The LP-optimal noise density (amplitude) next to the truncated Laplacian density."""
    import matplotlib  # optional and slow to import: only the figure needs it

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # after choosing the backend

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
    with csv_path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    md_path = out / "bounds_comparison.md"
    lines = [f"Delta = 1, grid step 1/{grid}; lower bounds rounded down.", "",
             "| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(r[col] for col in COLUMNS) + " |" for r in rows]
    md_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    png_path = out / "bounds_lp_noise.png"
    plot_noise(png_path, grid=grid)
    return [csv_path, md_path, png_path]


__all__ = ["COLUMNS", "MECHANISM_COLUMNS", "POINTS", "comparison_rows", "mechanism_cost",
           "plot_noise", "write_comparison"]
