r"""What every layer speaks: exact numbers read from text, names typed by a user,
parameters with their domains, and costs.

Modules: :mod:`~dpsym.core.expressions` (a safe grammar of exact real expressions),
:mod:`~dpsym.core.names` (forgiving name resolution), :mod:`~dpsym.core.params`
(parameters, domains, the :math:`\varepsilon`/:math:`\delta`/:math:`\Delta` catalogue),
:mod:`~dpsym.core.costs` (cost functions of the noise).
"""
