r"""The ``dpsym`` command.

.. code-block:: text

   dpsym list    [--json]
   dpsym value   MECHANISM [QUANTITY] [--eps E] [--delta D] [--sensitivity S] [--NAME VALUE]
                 [--cost C] [--digits N] [--method auto|ball|mpmath] [--json]
   dpsym series  MECHANISM [QUANTITY] --cost C --regime R --order K [--dim D] [--json]
                 [--latex]
   dpsym formula MECHANISM [QUANTITY] --cost C [--dim D] [--json] [--latex]
   dpsym compare --eps E [--delta D] [--cost C] [--sensitivity S] [--digits N]
                 [--dim D] [--lp [--grid N]] [--format table|md|latex|csv|json] [--json]
   dpsym audit   MECHANISM --eps E [--delta D] [noise options] [--sensitivity S]
                 [--digits N] [--json]
   dpsym sweep   MECHANISM [QUANTITY] --param NAME=VALUES [--param ...] [--cost C]
                 [--digits N] [--format csv|json] [--out FILE] [--workers K]
                 [--timeout SECONDS] [--memory SIZE] [--json]
   dpsym check   [CLAIM ...] [--list] [--mutate] [--json]
   dpsym renyi   MECHANISM --order A [--eps E] [--delta D] [--sensitivity S] [--cost C]
                 [--digits N] [--formula | --series R --terms K] [--json]
   dpsym compose MECHANISM --count K (--eps-target E2 | --delta-target D2) [--eps E]
                 [--delta D] [--sensitivity S] [--cost C] [--and NAME:COUNT[:p=v,...]]
                 [--interval H] [--digits N] [--json]
   dpsym derive  [--out DIR] [--verbose]

   every command but list also takes [--timeout SECONDS] [--memory SIZE]
   value, series, formula, audit, sweep, renyi and compose take --noise FILE instead of
   MECHANISM, and compare takes --noise FILE to rank that noise too

``--noise FILE`` is a noise declared in a TOML or JSON file
(:func:`dpsym.mechanisms.declared.load_noise`, ``docs/noise.md``): it is registered for the
command (:func:`dpsym.cli.parser.parse_args`) and its parameters are options (``--NAME
VALUE``). ``MECHANISM`` is a mechanism or a lower bound from ``dpsym list`` (the registries
:data:`dpsym.mechanisms.MECHANISMS` and :data:`dpsym.bounds.BOUNDS`, looked up by
:func:`~dpsym.cli.options.get_entry`). ``QUANTITY`` defaults to ``cost``; the optimal free
parameter of a family and its derived parameters are quantities too (``gamma`` for the
staircase, ``r`` for the discrete staircase, ``A`` and ``B`` for the truncated Laplacian,
...). ``--cost`` is one of ``amplitude``, ``power`` or ``moment:P`` and defaults to
``amplitude``.

The options of ``value``, ``series`` and ``formula`` are built from the declared
parameters of the named entry (:attr:`dpsym.mechanisms.base.Mechanism.params`):

* ``value`` takes every parameter: ``--eps`` sets ``eps``, ``--delta`` sets ``delta``
  and ``--sensitivity`` sets ``Delta`` (default 1); any other parameter ``NAME`` (``dim``,
  ``grid``) is set with ``--NAME VALUE``.
* ``series`` and ``formula`` are symbolic in the continuous parameters and take only the
  discrete parameters the expression depends on (integer parameters other than
  ``Delta``): ``--dim D`` for ``staircase-md``, ``independent-staircase``, ``laplace-md``,
  ..., (the class of that dimension) and ``--grid N`` for ``lp-bound``.

A parameter the command does not use for that entry is refused with a one-line error.
Numbers are handed to the engine as the strings typed and parsed there exactly, in the
package's one grammar (:func:`dpsym.core.params.parse_exact`: decimals, fractions ``p/q``
such as ``--eps 1/3``, exact expressions such as ``--eps 'log(3)'``). Integer options
(``--digits``, ``--order``, ``--dim``, ``--grid``, ``--workers``) take ASCII digits only.
An option that takes a value is given at most once: a repeated one is refused, never
silently replaced.

**Budgets.** Every command that computes (all but ``list``, and any command added later:
the parser adds the options to each) takes ``--timeout SECONDS``, a wall-time budget in
[0.001, 10^6] seconds (default :data:`~dpsym.runtime.budget.DEFAULT_TIMEOUT`, 3600), and ``--memory
SIZE``, a memory budget (``512M``, ``2G``; units K, M, G, T, powers of 1024; at least
64M; default none): what the computation may allocate beyond the loaded program. The
command then runs in a forked child process (:func:`dpsym.runtime.budget.run_with_budget`),
killed with its process group at the deadline or stopped by a refused allocation; the
exit status is 3 and standard error has one line ``dpsym: error: time budget of N s
exceeded while computing <what>`` (or ``memory budget of ...``). For ``sweep`` the
budgets are **per point** (:func:`dpsym.reports.sweep.sweep`): a point over its budget is a row
with the error ``exceeded the time budget of N s``, the other points complete, and the
sweep as a whole has no budget.

``sweep`` checks every option, ``--out`` included, before it evaluates a point, and
writes ``--out`` as :mod:`~dpsym.cli.output` describes (through symbolic links, into
devices and FIFOs, a regular file replaced atomically, the umask honoured). A point that
fails, or exceeds ``--timeout``, is a row with an ``error``; Ctrl-C stops the workers at
once (exit status 130).

``compare`` answers "which mechanism should I use?": every registered mechanism that is
(eps, delta)-DP at the given parameters (decided from its ``guarantee``: ``eps``
mechanisms for any delta >= 0 and eps > 0, ``eps,delta`` ones when eps and delta lie in
their declared domains, ``0,delta`` ones for any eps >= 0 and delta > 0), with its
certified optimal cost, sorted, and its ratio to the best, in two sections (real-valued and
integer-valued queries); the section's lower bound (``lower-bound``,
``discrete-lower-bound``; ``lp-bound`` with ``--lp``) on a separate line with the ratio
best / bound. ``--delta`` defaults to 0 (pure eps-DP). Multi-dimensional mechanisms (a
``dim`` parameter) are compared only, and alone, with ``--dim D``. An entry whose value
fails is listed as skipped, with the reason.

Exit status: 0 on success; 2 for every error caused by the input (a usage error, or any
:class:`~dpsym.errors.DpsymError`: a value outside its domain, an unsupported request, a
value that cannot be certified), reported as one line ``dpsym: error: <message>`` on
standard error; 3 when a computation exceeds its time or memory budget, reported the same
way; 70 for an internal error (any other exception: a bug), reported as one
line ``dpsym: internal error, please report: <type>: <message>``; the traceback is
printed only when the environment variable ``DPSYM_DEBUG`` is ``1``
(:func:`~dpsym.cli.app.main` also takes ``debug=True``).

The package: :mod:`~dpsym.cli.parser` (the argument parser),
:mod:`~dpsym.cli.options` (registries, parameter options, error messages),
:mod:`~dpsym.cli.commands` (the handlers, which print), :mod:`~dpsym.cli.output` (output
files) and :mod:`~dpsym.cli.app` (:func:`main`). The command formats only: the
computations are the engine's, and the comparison is :mod:`dpsym.reports.selection`'s.
"""

from __future__ import annotations

from dpsym.cli.app import EXIT_INTERNAL, main
from dpsym.cli.options import CliError, UsageError, get_entry, param_names, specialise
from dpsym.cli.parser import ArgumentParser, build_parser, parse_args
from dpsym.reports.printing import expression_text, format_table, latex_text, parse_expression

__all__ = ["EXIT_INTERNAL", "ArgumentParser", "CliError", "UsageError", "build_parser",
           "expression_text", "format_table", "get_entry", "latex_text", "main",
           "param_names", "parse_args", "parse_expression", "specialise"]
