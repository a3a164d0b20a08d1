r"""Mutation testing of the claim registry: can every check fail?

A claim with a ``formula`` (:class:`~dpsym.claims.registry.Claim`) exposes the statement its
check decides as sympy objects: expressions, relations (a placeholder symbol for the side
the check computes, e.g. ``Ge(L, 1 - 2*delta)`` for ":math:`\lim \ge 1 - 2\delta`") and
limit points (keys starting with ``"limit"``). :func:`mutants` perturbs one part at a time:

* ``scale``: a constant of the formula (or the whole expression) times :math:`1 \pm 10^{-3}`;
* ``sign``: one term of a sum (or the whole expression) negated;
* ``exponent``: a numeric exponent moved by :math:`\pm 1`;
* ``relation``: an inequality replaced by its complement (:math:`\ge` by :math:`<`, ...);
* ``limit``: a limit point moved (:math:`0 \to 10^{-3}`, :math:`\infty \to 10^3`,
  :math:`a \to a - 10^{-3}`).

:func:`mutate_claim` runs the claim's own check on each mutant; the mutant is *killed*
when the check rejects it (the verdict field the claim asserts -- ``printed`` for a claim
that holds, ``corrected`` for one that holds as corrected -- is false, or the check
raises). A claim registered as failing has no mutants (a false statement's perturbations
are not expected to hold), and a claim without a formula says why it has none
(``Claim.no_mutants``).

An inequality that is not sharp stays true when its bound moves by :math:`10^{-3}` in the
weaker direction (or, with slack, in either): such a surviving mutant of a relation is an
*equivalent* mutant, reported separately with the claim's ``slack`` -- the located extreme
that shows the slack -- and not counted in the score. A mutant that flips the relation must
still be killed. Likewise a statement monotone in an entry (``Claim.weaker``: a noise scale,
a threshold) stays true when the entry moves the weaker way; such a surviving mutant is
equivalent only if its value moved that way (a certified sign of the change at a probe
point, :func:`moved`); and a rate (an O or Theta, ``Claim.weaker`` value 0) is the same
statement times any positive constant (:func:`rescaled`).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import sympy as sp

from dpsym.claims import registry
from dpsym.claims.decide import certified_sign
from dpsym.claims.registry import FAILS, Claim
from dpsym.symbolic.tidy import simplified

SCALE_UP, SCALE_DOWN = sp.Rational(1001, 1000), sp.Rational(999, 1000)
_COMPLEMENT = {sp.GreaterThan: sp.StrictLessThan, sp.StrictGreaterThan: sp.LessThan,
               sp.LessThan: sp.StrictGreaterThan, sp.StrictLessThan: sp.GreaterThan}
#: At most this many mutants per operator and formula entry (keeps the run short).
PER_OPERATOR = 6
#: At most this many mutants per claim, taken in turn from every (entry, operator) group so
#: that each entry and each operator is exercised (every relation's flip is kept).
PER_CLAIM = 14


@dataclass(frozen=True)
class Mutant:
    """One perturbed statement: the entry ``key`` of the formula changed by ``operator``."""

    key: str
    operator: str
    description: str
    formula: dict


@dataclass(frozen=True)
class MutantResult:
    """A mutant and whether the claim's check rejected it."""

    claim: str
    mutant: Mutant
    killed: bool
    detail: str
    seconds: float
    equivalent: str | None = None


def _nodes(expr: sp.Basic) -> Iterator[sp.Basic]:
    """The subexpressions of ``expr`` in preorder, except the bounds of its sums and products
    (a sum over k < n runs over integers: a bound moved by 1e-3 is not a statement)."""
    yield expr
    if isinstance(expr, (sp.Sum, sp.Product)):
        yield from _nodes(expr.function)
        return
    for arg in expr.args:
        yield from _nodes(arg)


def _replace(expr: sp.Basic, mapping: dict) -> sp.Basic:
    """``expr.xreplace(mapping)`` outside the bounds of its sums and products."""
    if expr in mapping:
        return mapping[expr]
    if isinstance(expr, (sp.Sum, sp.Product)):
        return type(expr)(_replace(expr.function, mapping), *expr.limits)
    if not expr.args:
        return expr
    new_args = [_replace(arg, mapping) for arg in expr.args]
    return expr.func(*new_args) if new_args != list(expr.args) else expr


def _numbers(expr: sp.Basic) -> list[sp.Number]:
    seen: list[sp.Number] = []
    for node in _nodes(expr):
        if isinstance(node, sp.Number) and node != 0 and node not in seen \
                and node.is_finite:
            seen.append(node)
    return seen


#: A mutant's description, printed only for the mutants kept (printing a large expression
#: costs more than building it).
Describe = Callable[[], str]


def _expr_mutants(expr: sp.Basic) -> Iterator[tuple[str, Describe, sp.Basic]]:
    """(operator, description, mutated expression) for one expression or relation."""
    if isinstance(expr, sp.core.relational.Relational):
        cls = _COMPLEMENT.get(type(expr))
        if cls is not None:
            flipped = cls(expr.lhs, expr.rhs)
            yield "relation", functools.partial("{} -> {}".format, expr, flipped), flipped
        rel = type(expr)
        for side, build in ((expr.rhs, lambda new, o=expr.lhs: rel(o, new)),
                            (expr.lhs, lambda new, o=expr.rhs: rel(new, o))):
            if isinstance(side, sp.Symbol) and side.name.startswith("_"):
                continue  # the placeholder of the computed side
            for op, desc, new in _expr_mutants(side):
                yield op, desc, build(new)
        return
    count = 0
    for fac in (SCALE_UP, SCALE_DOWN):
        yield "scale", functools.partial("({}) * {}".format, expr, fac), expr * fac
    for num in _numbers(expr):
        if count >= 2 * PER_OPERATOR:
            break
        for fac in (SCALE_UP, SCALE_DOWN):
            count += 1
            yield ("scale", functools.partial("constant {} -> {}".format, num, num * fac),
                   _replace(expr, {num: num * fac}))
    yield "sign", functools.partial("-({})".format, expr), -expr
    count = 0
    for node in _nodes(expr):
        if isinstance(node, sp.Add):
            for term in node.args:
                if count >= PER_OPERATOR:
                    break
                count += 1
                yield ("sign", functools.partial("term {} -> {}".format, term, -term),
                       _replace(expr, {node: node - 2 * term}))
    count = 0
    for node in _nodes(expr):
        if isinstance(node, sp.Pow) and node.exp.is_Number and count < PER_OPERATOR:
            for step in (1, -1):
                new_exp = node.exp + step
                if new_exp == 0:
                    continue
                count += 1
                yield ("exponent",
                       functools.partial("{} -> {}**({})".format, node, node.base, new_exp),
                       _replace(expr, {node: sp.Pow(node.base, new_exp, evaluate=False)}))


def _limit_mutants(point: sp.Basic) -> Iterator[tuple[str, Describe, sp.Basic]]:
    if point == sp.oo:
        new = sp.Integer(1000)
    elif point == -sp.oo:
        new = sp.Integer(-1000)
    elif point == 0:
        new = sp.Rational(1, 1000)
    else:
        new = point - sp.Rational(1, 1000)
    yield "limit", functools.partial("limit point {} -> {}".format, point, new), new


def moved(old: sp.Basic, new: sp.Basic) -> int | None:
    """The certified sign of ``new - old`` at a probe point in general position (every
    symbol a distinct positive rational), or None."""
    diff = sp.sympify(new) - sp.sympify(old)
    probe = dict(zip(sorted(diff.free_symbols, key=str),
                     (sp.Rational(p, p + 4) for p in (3, 5, 7, 11, 13, 17, 19, 23)),
                     strict=False))
    return certified_sign(diff, probe)


def rescaled(old: sp.Basic, new: sp.Basic) -> bool:
    """Whether ``new`` is ``old`` times a positive constant (the same rate, O or Theta)."""
    ratio = simplified(sp.sympify(new) / sp.sympify(old))
    return bool(ratio.is_number and ratio.is_positive)


def mutants(formula: dict, limit: int | None = PER_CLAIM) -> list[Mutant]:
    """The mutants of ``formula`` (one entry changed at a time, duplicates removed): at most
    ``limit`` of them, taken in turn from each (entry, operator) group, every flipped
    relation included (``None``: all of them). Computed once per formula and limit."""
    return list(_mutants(tuple((k, v, type(v)) for k, v in formula.items()), limit))


@functools.lru_cache(maxsize=1024)
def _mutants(items: tuple[tuple[str, Any, type], ...], limit: int | None
             ) -> tuple[Mutant, ...]:
    """:func:`mutants` of the formula of the (key, value, type of the value) ``items`` (the
    type keeps 0 and 0.0 apart)."""
    formula = {key: value for key, value, _ in items}
    found: list[tuple[str, str, Describe, sp.Basic]] = []
    seen: set[tuple[str, sp.Basic]] = set()  # structural equality, as srepr
    for key, value in formula.items():
        value = sp.sympify(value)
        gen = _limit_mutants(value) if key.startswith("limit") else _expr_mutants(value)
        for op, desc, new in gen:
            if new == value or (key, new) in seen:
                continue
            seen.add((key, new))
            found.append((key, op, desc, new))
    keep = list(range(len(found)))
    if limit is not None and len(found) > limit:
        groups: dict[tuple[str, str], list[int]] = {}
        for i, (key, op, _, _) in enumerate(found):
            groups.setdefault((key, op), []).append(i)
        chosen = {i for i, m in enumerate(found) if m[1] == "relation"}
        queues = list(groups.values())
        while len(chosen) < limit and any(queues):
            for queue in queues:
                while queue and queue[0] in chosen:
                    queue.pop(0)
                if queue and len(chosen) < limit:
                    chosen.add(queue.pop(0))
        keep = sorted(chosen)
    return tuple(Mutant(key, op, f"{key}: {desc()}", {**formula, key: new})
                 for key, op, desc, new in (found[i] for i in keep))


def mutate_claim(entry: Claim, progress: Callable[[MutantResult], None] | None = None,
                 limit: int | None = None) -> list[MutantResult]:
    """Run ``entry``'s check on each mutant of its formula (the first ``limit`` of them).

    Returns an empty list for a claim without a formula or registered as failing.
    """
    if entry.formula is None or entry.status == FAILS:
        return []
    results = []
    for mut in mutants(entry.formula)[:limit]:
        start = time.perf_counter()
        try:
            verdict = entry.run(mut.formula)
            held = bool(getattr(verdict, entry.decides))
            detail = verdict.detail
        except Exception as exc:  # a check that cannot evaluate the mutant rejects it
            held, detail = False, f"rejected with {type(exc).__name__}: {exc}"
        equiv = None
        if held and entry.slack and isinstance(entry.formula[mut.key],
                                               sp.core.relational.Relational) \
                and mut.operator != "relation":
            equiv = entry.slack
        elif held and mut.key in entry.weaker and (
                rescaled(entry.formula[mut.key], mut.formula[mut.key])
                if entry.weaker[mut.key] == 0 else
                moved(entry.formula[mut.key], mut.formula[mut.key]) == entry.weaker[mut.key]):
            equiv = entry.slack
        res = MutantResult(entry.id, mut, not held, detail[:300],
                           time.perf_counter() - start, equiv)
        results.append(res)
        if progress is not None:
            progress(res)
    return results


def no_mutant_reason(entry: Claim) -> str | None:
    """Why ``entry`` has no mutants (``None`` if it has)."""
    if entry.status == FAILS:
        return "registered as failing: its check already rejects the printed statement"
    if entry.formula is None:
        return entry.no_mutants or "no formula: the check does not take its statement as input"
    return None


def mutation_report(ids: Iterable[str] | None = None,
                    progress: Callable[[MutantResult], None] | None = None
                    ) -> dict[str, Any]:
    """Mutate the claims ``ids`` (default: all) and summarise per source.

    Returns
    -------
    dict
        ``{"sources": {prefix: {"mutants", "killed", "score"}}, "claims": [{"id",
        "mutants", "killed", "survivors", "reason"}], "mutants", "killed", "equivalent",
        "survivors", "with_mutants", "total", "coverage"}`` (``coverage``: the fraction of
        the claims that have mutants).
    """
    reg = registry.REGISTRY
    selected = [reg[i] for i in ids] if ids is not None else list(reg.values())
    sources: dict[str, dict[str, Any]] = {}  # (JSON records)
    rows: list[dict[str, Any]] = []
    for entry in selected:
        res = mutate_claim(entry, progress)
        killed = sum(r.killed for r in res)
        equiv = [r for r in res if not r.killed and r.equivalent]
        prefix = entry.id.split(".", 1)[0]
        src = sources.setdefault(prefix, {"mutants": 0, "killed": 0, "equivalent": 0})
        src["mutants"] += len(res)
        src["killed"] += killed
        src["equivalent"] += len(equiv)
        rows.append({"id": entry.id, "mutants": len(res), "killed": killed,
                     "equivalent": [r.mutant.description for r in equiv],
                     "survivors": [r.mutant.description for r in res
                                   if not r.killed and not r.equivalent],
                     "slack": entry.slack if equiv else None,
                     "reason": no_mutant_reason(entry)})
    for src in sources.values():
        live = src["mutants"] - src["equivalent"]
        src["score"] = (src["killed"] / live) if live else None
    with_mutants = sum(1 for r in rows if r["mutants"])
    return {"mutants": sum(s["mutants"] for s in sources.values()),
            "killed": sum(s["killed"] for s in sources.values()),
            "equivalent": sum(s["equivalent"] for s in sources.values()),
            "survivors": sum(len(r["survivors"]) for r in rows),
            "with_mutants": with_mutants, "total": len(rows),
            "coverage": with_mutants / len(rows) if rows else None,
            "sources": sources, "claims": rows}


__all__ = ["PER_CLAIM", "PER_OPERATOR", "Mutant", "MutantResult", "moved", "mutants",
           "mutate_claim", "mutation_report", "no_mutant_reason", "rescaled"]
