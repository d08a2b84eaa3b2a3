"""Policies that think ahead: a Monte Carlo search over the step-by-step decisions.

:class:`SearchPolicy` plays any rule set through the core's decision steps; a rule set
offers it under the name ``search`` with :func:`search_policy`.  :mod:`fracas.ai.match`
plays seat-swapped fights of one policy against another.
"""

from fracas.ai.search import (
    SearchBudget,
    SearchPolicy,
    SearchTuning,
    evaluate,
    search_policy,
    side_of,
)

__all__ = ["SearchBudget", "SearchPolicy", "SearchTuning", "evaluate", "search_policy",
           "side_of"]
