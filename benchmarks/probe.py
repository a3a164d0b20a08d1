r"""An adversarial probe of ``value``: a property-based search for the slowest requests.

Usage::

    python benchmarks/probe.py [--examples 150] [--timeout 60] [--seed 0]
                               [--out benchmarks/results-probe.md] [--digits-max 1000]

A hypothesis search draws requests -- every mechanism x quantity x cost (``amplitude``,
``power``, ``moment:P`` for :math:`P \in (0, 20]`) x parameters across their declared
domains, edges included (:math:`\varepsilon` from :math:`10^{-300}` to the domain's
upper end, :math:`\delta` near its upper bound and tiny, :math:`\Delta` from
:math:`10^{-6}` to :math:`10^{6}`, the dimension up to 50, digits up to 1000) -- and runs
each in a fresh Python process (:func:`measure`) with a time limit, recording the wall
time of ``value`` (derivations included: the CLI pays them too, imports excluded) and
the process's peak memory. ``hypothesis.target`` steers the search towards slow requests
(targeted property-based testing), and no example is shrunk: every request drawn is kept.

The table of the worst requests (``--out``, default ``benchmarks/results-probe.md``) and
every measurement (the same name with ``.json``) are written at the end, with the worst
time per mechanism family against the targets of issue 19: at most 5 s at 40 digits or
fewer, at most 30 s at 1000 digits. Nothing here is part of the test suite:
``tests/mechanisms/test_slow_corners.py`` runs a bounded version of the search (few examples, a
deadline) and keeps the worst requests found as regression tests.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, Phase, given, seed, settings, target  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

#: The targets of issue 19 (seconds): at most this many digits -> at most this time.
TARGETS = ((40, 5.0), (1000, 30.0))
#: Digits drawn (1000 is the largest the targets cover).
DIGITS = (10, 20, 40, 40, 40, 100, 1000)
#: Exponents of the moment costs drawn besides amplitude and power.
MOMENTS = ("1/100", "1/2", "3/4", "3/2", "5/2", "3", "29/4", "7.25", "12", "13", "25/2",
           "20")

#: The code a worker process runs: one request in, one JSON line out.
WORKER = r"""
import json, resource, sys, time
request = json.loads(sys.argv[1])
from dpsym.mechanisms import MECHANISMS
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t0 = time.perf_counter()
out = {"status": "ok"}
try:
    m = MECHANISMS[request["mechanism"]](**request["params"])
except Exception as exc:  # a point outside a joint domain: not a timing
    out = {"status": "rejected", "error": f"{type(exc).__name__}: {exc}"[:200]}
else:
    try:
        v = m.value(request["quantity"], request["cost"], request["digits"])
        out["text"] = v.text[:60]
    except Exception as exc:
        out = {"status": "error", "error": f"{type(exc).__name__}: {exc}"[:200]}
out["seconds"] = time.perf_counter() - t0
out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
out["import_mb"] = before / 1024
print(json.dumps(out))
"""


@dataclass
class Request:
    """One ``value`` request."""

    mechanism: str
    quantity: str
    cost: str
    params: dict[str, str]
    digits: int

    def command(self) -> str:
        """The same request on the command line."""
        opts = " ".join(f"--{k} {v}" for k, v in self.params.items())
        return (f"dpsym value {self.mechanism} {self.quantity} {opts} --cost {self.cost} "
                f"--digits {self.digits}")


@dataclass
class Measurement:
    """What one request did: ``ok``, ``error`` (a one-line error, e.g. an honest domain
    limit), ``rejected`` (a joint domain refused the point) or ``timeout``."""

    request: Request
    status: str
    seconds: float
    peak_mb: float | None = None
    import_mb: float | None = None
    text: str = ""
    error: str = ""

    def over_target(self) -> bool:
        """Whether the request took longer than its target (see :data:`TARGETS`)."""
        return self.status in ("ok", "timeout") and self.seconds > target_seconds(
            self.request.digits)


def target_seconds(digits: int) -> float:
    """The time a request at ``digits`` digits may take (issue 19)."""
    for most, seconds in TARGETS:
        if digits <= most:
            return seconds
    return math.inf


def measure(request: Request, timeout: float) -> Measurement:
    """Run ``request`` in a fresh Python process (imports not timed) with a time limit."""
    t0 = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-c", WORKER, json.dumps(asdict(request))],
                              capture_output=True, text=True, timeout=timeout,
                              cwd=ROOT, env=_env())
    except subprocess.TimeoutExpired:
        return Measurement(request, "timeout", time.perf_counter() - t0)
    try:
        out = json.loads(done.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        return Measurement(request, "error", time.perf_counter() - t0,
                           error=f"worker died: {done.stderr.strip()[-200:]}")
    return Measurement(request, out["status"], out["seconds"], out.get("peak_mb"),
                       out.get("import_mb"), out.get("text", ""), out.get("error", ""))


def _env() -> dict[str, str]:
    import os

    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


# ---------------------------------------------------------------------- the search space
def _decimal(exponent: float, mantissa: int = 1) -> str:
    return f"{mantissa}e{round(exponent)}"


@st.composite
def parameter(draw: st.DrawFn, prm: object, digits_max: int) -> str:
    """A value of the declared parameter ``prm``: its edges, its typical range, and
    log-uniform across its domain."""
    dom = prm.domain
    lo = None if dom.lower is None else float(dom.lower)
    hi = None if dom.upper is None else float(dom.upper)
    if dom.integer:
        first = 1 if lo is None else (math.floor(lo) + 1 if dom.lower_open else math.ceil(lo))
        last = 10**6 if hi is None else math.floor(hi)
        choices = sorted({first, min(last, first + 1), min(last, 4), min(last, 40), last})
        return str(draw(st.sampled_from(choices)))
    name = prm.name
    if name == "eps":
        top = math.log10(hi) if hi is not None else 100.0
        kind = draw(st.sampled_from(("tiny", "small", "typical", "large", "edge")))
        if kind == "tiny":
            return _decimal(-draw(st.integers(20, 300)), draw(st.integers(1, 9)))
        if kind == "small":
            return _decimal(-draw(st.integers(3, 19)), draw(st.integers(1, 9)))
        if kind == "typical":
            return draw(st.sampled_from(("0.01", "0.1", "0.5", "1", "1.5", "2", "3.3",
                                         "10")))
        if kind == "large":
            return _decimal(draw(st.floats(1.0, max(1.0, top))), draw(st.integers(1, 9)))
        if hi is not None and dom.upper_open:
            return str(hi - 10.0 ** -draw(st.integers(2, 12)))
        return _decimal(top) if hi is not None else "1e100"
    if name == "delta":
        kind = draw(st.sampled_from(("tiny", "typical", "near-upper")))
        if kind == "tiny":
            return _decimal(-draw(st.integers(7, 300)))
        if kind == "typical":
            return draw(st.sampled_from(("1e-6", "0.001", "0.01", "0.1")))
        gap = draw(st.sampled_from((2, 4, 8, 12)))
        return str(float(dom.upper) - 10.0 ** -gap)
    # Delta and anything else on (0, inf): log-uniform over 12 decades
    return draw(st.sampled_from(("1e-6", "0.001", "0.5", "1", "3/2", "40", "1e6")))


@st.composite
def requests(draw: st.DrawFn, digits_max: int = 1000,
             mechanisms: tuple[str, ...] | None = None) -> Request:
    """A ``value`` request anywhere in a mechanism's declared domain."""
    from dpsym.mechanisms import MECHANISMS

    names = mechanisms or tuple(sorted(MECHANISMS))
    name = draw(st.sampled_from(names))
    cls = MECHANISMS[name]
    quantity = draw(st.sampled_from(cls.quantities()))
    cost = draw(st.sampled_from(("amplitude", "power", *(f"moment:{p}" for p in MOMENTS))))
    params = {prm.name: draw(parameter(prm, digits_max)) for prm in cls.params}
    digits = draw(st.sampled_from(tuple(d for d in DIGITS if d <= digits_max)))
    return Request(name, quantity, cost, params, digits)


def search(examples: int, timeout: float, seed_value: int, digits_max: int = 1000,
           mechanisms: tuple[str, ...] | None = None, log: bool = True
           ) -> list[Measurement]:
    """Draw ``examples`` requests (steered towards slow ones) and measure each."""
    found: list[Measurement] = []

    @settings(max_examples=examples, deadline=None, database=None, derandomize=False,
              phases=(Phase.generate, Phase.target),
              suppress_health_check=list(HealthCheck))
    @given(requests(digits_max, mechanisms))
    def probe(request: Request) -> None:
        result = measure(request, timeout)
        found.append(result)
        if log:
            print(f"{result.seconds:8.2f} s {result.status:8s} {request.command()}"
                  + (f"  [{result.error[:80]}]" if result.error else ""), flush=True)
        if result.status in ("ok", "timeout"):
            target(result.seconds / target_seconds(request.digits), label="time/target")

    seed(seed_value)(probe)()  # reproducible draws
    return found


# ---------------------------------------------------------------------- the report
def family(name: str) -> str:
    """The mechanism family a mechanism belongs to (for the README's limits)."""
    for key in ("staircase-md", "staircase", "laplace", "uniform", "gaussian"):
        if key in name:
            return {"staircase-md": "staircase (d-dim)"}.get(key, key)
    return name


def report(found: list[Measurement], worst: int = 25) -> str:
    """The Markdown table: the worst requests, then the worst time per family."""
    timed = [m for m in found if m.status in ("ok", "timeout")]
    timed.sort(key=lambda m: m.seconds / target_seconds(m.request.digits), reverse=True)
    lines = ["# Probe of `value`: the slowest requests found", "",
             f"{len(found)} requests drawn ({len(timed)} timed, "
             f"{sum(m.status == 'error' for m in found)} one-line errors, "
             f"{sum(m.status == 'rejected' for m in found)} outside a joint domain); "
             f"targets: <= {TARGETS[0][1]:g} s at <= {TARGETS[0][0]} digits, "
             f"<= {TARGETS[1][1]:g} s at <= {TARGETS[1][0]} digits. Wall time of `value` "
             "in a fresh process (derivations included, imports excluded); peak memory of "
             "that process.", "",
             "| seconds | target | status | peak MB | request |",
             "|---:|---:|---|---:|---|"]
    for m in timed[:worst]:
        peak = "-" if m.peak_mb is None else f"{m.peak_mb:.0f}"
        lines.append(f"| {m.seconds:.2f} | {target_seconds(m.request.digits):g} | "
                     f"{m.status} | {peak} | `{m.request.command()}` |")
    lines += ["", "## Worst time per mechanism family", "",
              "| family | worst at <= 40 digits (s) | worst at 1000 digits (s) | "
              "peak MB |", "|---|---:|---:|---:|"]
    families: dict[str, list[Measurement]] = {}
    for m in timed:
        families.setdefault(family(m.request.mechanism), []).append(m)
    for fam in sorted(families):
        rows = families[fam]
        low = [m.seconds for m in rows if m.request.digits <= 40]
        high = [m.seconds for m in rows if m.request.digits > 40]
        peak = max((m.peak_mb or 0) for m in rows)
        lines.append(f"| {fam} | {max(low) if low else float('nan'):.2f} | "
                     f"{max(high) if high else float('nan'):.2f} | {peak:.0f} |")
    errors = [m for m in found if m.status == "error"]
    if errors:
        lines += ["", "## One-line errors (domain limits, refusals)", ""]
        lines += [f"- `{m.request.command()}`: {m.error[:160]}" for m in errors[:20]]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--examples", type=int, default=150)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--digits-max", type=int, default=1000)
    parser.add_argument("--mechanisms", nargs="*", default=None)
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "results-probe.md"))
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    found = search(args.examples, args.timeout, args.seed, args.digits_max,
                   tuple(args.mechanisms) if args.mechanisms else None)
    out = Path(args.out)
    out.write_text(report(found) + f"\nProbe time: {time.perf_counter() - t0:.0f} s.\n",
                   encoding="utf-8")
    out.with_suffix(".json").write_text(json.dumps(
        [asdict(m) for m in found], indent=1), encoding="utf-8")
    over = [m for m in found if m.over_target()]
    print(f"{len(over)} of {len(found)} requests over their target; table in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
