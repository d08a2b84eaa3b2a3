"""A search policy: Monte Carlo search over the whole moves the engine's steps offer.

The candidates are whole legal actions found through the decision's steps (the
heuristic's own choice first, then the moves that change one of its steps:
:mod:`~fracas.ai.search.tree`).  Each is played out on private copies of the state with
the rule set's heuristic for every actor, on dice shared by every candidate and keyed
per decision (:mod:`~fracas.ai.search.rollouts`); the moves race, rollout against
rollout, and one replaces the heuristic's only when its lead clears a margin of paired
standard errors (:mod:`~fracas.ai.search.race`).  The budget, rollouts or milliseconds
of CPU time a decision and a turn, is :mod:`~fracas.ai.search.budget`'s;
:class:`SearchPolicy` (:mod:`~fracas.ai.search.policy`) ties them together.

The search reads the state its :class:`~fracas.core.policy.DecisionRequest` carries,
which is what every policy (the heuristic included) sees.
"""

from fracas.ai.search.budget import DEFAULT_TURN_MS, SearchBudget
from fracas.ai.search.policy import SearchPolicy, SearchTuning, search_policy
from fracas.ai.search.race import paired
from fracas.ai.search.rollouts import evaluate, play_on, side_of

__all__ = [
    "DEFAULT_TURN_MS",
    "SearchBudget",
    "SearchPolicy",
    "SearchTuning",
    "evaluate",
    "paired",
    "play_on",
    "search_policy",
    "side_of",
]
