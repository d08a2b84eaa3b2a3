"""Heuristic turns played one after another, for a play that keeps no log and tells nobody.

The heuristic (:class:`.policies.HeuristicPolicy`) decides as a pure function of the
state and draws no dice.  Where the play loop keeps no log and has no listener (the
simulator's workers, the search's rollouts) :func:`heuristic_turns` takes the decisions of
every seat on the heuristic, one after another, without going back to the loop between
them: the same policy picks the same action, the same check judges what it did not vouch
for, and the rules' own :func:`.resolve.resolve` and :func:`.resolve.advance` play it
with a quiet emitter (:class:`.events.Quiet`: the fold, to which the roll sites hand no
reports).  The fight is the engine's, decision for decision, state for state and die for
die; only the loop's per-decision bookkeeping and the reports nobody reads are left out.
``tests/rules/adnd/test_adnd_lean.py`` holds the two ways to the same fights.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fracas.core.events import Event
from fracas.core.policy import DecisionRequest
from fracas.core.rng import Rng
from fracas.rules.adnd.events import Quiet
from fracas.rules.adnd.policies import HeuristicPolicy
from fracas.rules.adnd.state import AdndUndergroundState

__all__ = ["heuristic_turns"]

_new = object.__new__


class _NoDraws:
    """The policy stream a lean decision is handed: the heuristic draws nothing from it."""

    def die(self, sides: int) -> int:
        raise AssertionError("the heuristic draws no dice")

    def dice(self, count: int, sides: int) -> list[int]:
        raise AssertionError("the heuristic draws no dice")

    def choice_index(self, n: int) -> int:
        raise AssertionError("the heuristic draws no dice")


_NO_DRAWS = _NoDraws()


def heuristic_turns(ruleset: Any, state: AdndUndergroundState, actor: str,
                    pick: Callable[[str], Any], rng: Rng, emit: Callable[[Event], None],
                    budget: int) -> int:
    """Take ``actor``'s decision and those after it while the seat deciding is on the
    heuristic, at most ``budget`` of them, as the play loop would; the number taken (0:
    ``actor`` is not on the heuristic, the loop plays him).

    ``emit`` (the loop's fold) is not called: the turns fold through a quiet emitter
    made from the same ``ruleset.apply_event``.
    """
    policy = pick(actor)
    if type(policy) is not HeuristicPolicy:
        return 0
    quiet = Quiet(ruleset.apply_event, state)  # the fold, the reports left out
    current_actor, allows = ruleset.current_actor, ruleset.allows  # the loop's own hooks
    play, advance = ruleset.resolve, ruleset.advance
    # One request asked again and again (the loop makes one a decision, alike but for
    # the actor; the heuristic reads no more of it than the state, the actor and vouch).
    request = _new(DecisionRequest)
    request.state, request.ruleset, request.rng, request._legal = state, ruleset, _NO_DRAWS, None
    taken = 0
    while taken < budget:
        _ask(request, actor)
        action = policy.choose(request)
        if action is not request._vetted and not allows(state, action):
            ruleset.check(state, action)  # what the loop asks of an action not vouched for
        taken += 1
        play(state, action, rng, quiet)
        advance(state, rng, quiet)
        found = current_actor(state)
        if found is None:
            return taken
        actor = found
        policy = pick(actor)
        if type(policy) is not HeuristicPolicy:
            return taken
    return taken


def _ask(request: DecisionRequest, actor: str) -> None:
    """The request made ready for ``actor``'s decision: nothing vouched for yet.

    (A function of its own, so that the caller's type checker does not read ``_vetted``
    as the ``None`` set here once the policy has set it: the compiled build would trust
    that.)
    """
    request.actor, request._vetted = actor, None
