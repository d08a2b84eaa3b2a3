"""The heuristic's decisions played without a decision request, where nobody reads the log.

:class:`.policies.HeuristicPolicy` decides as a pure function of the state (it draws no
dice of its own), and when the play loop keeps no log and tells nobody
(:data:`fracas.core.loop.LeanTurns`: the simulator's workers, the search's rollouts) a
decision is only its fold, its orders carried out and the automatic phases after it.
:func:`heuristic_turns` takes the decisions of units and the GM on the heuristic that
way, one after the other: the order the heuristic wishes (:meth:`.HeuristicPolicy.wish`),
accepted by the quick yes (:func:`.legality.allows`, held to the full check by its own
test), then the very steps of the engine's decision step
(:func:`fracas.core.loop.take_decision` with no log: :func:`.fold.take_turn`,
:func:`.resolve.carry_out`, :func:`.resolve.advance`).  An actor on another policy, or an
order the quick yes cannot judge outright, is left to the engine, which plays it through
a request.  ``tests/rules/battlesystem/test_battlesystem_lean.py`` holds both ways to the
same fights: the same states, outcomes and dice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fracas.core.events import Event
from fracas.core.rng import Rng
from fracas.rules.battlesystem.fold import take_turn
from fracas.rules.battlesystem.legality import allows
from fracas.rules.battlesystem.policies import HeuristicPolicy
from fracas.rules.battlesystem.resolve import advance, carry_out
from fracas.rules.battlesystem.state import BattlesystemState

__all__ = ["heuristic_turns"]


def heuristic_turns(state: BattlesystemState, actor: str, pick: Callable[[str], Any], rng: Rng,
                    emit: Callable[[Event], None], budget: int) -> int:
    """Play ``actor``'s decision and the ones after it while each is the heuristic's and
    the quick yes accepts its order, at most ``budget`` of them, as the engine would.

    ``pick(name)`` is an actor's policy; ``emit`` applies an event (no log kept).  Returns
    how many decisions were taken, 0 when the first is left to the engine.
    """
    taken = 0
    while taken < budget:
        policy = pick(actor)
        if type(policy) is not HeuristicPolicy:
            return taken
        wanted = policy.wish(state, actor)
        if not allows(state, wanted):
            return taken  # judged in full by the engine, through a request
        take_turn(state, actor, wanted)
        carry_out(state, wanted, rng, emit)
        advance(state, rng, emit)
        taken += 1
        if state.result is not None or not state.queue:
            return taken
        actor = state.queue[0]
    return taken
