"""The heuristics' decisions played in one loop, for a play that keeps no log and tells nobody.

When the play loop keeps no log and has no listener (the simulator's workers, the search's
rollouts), nobody reads a decision's request or its events, only the state they leave.
:func:`heuristic_turns` then plays every decision in a row whose actor's policy is one of
this rule set's heuristics: it asks the heuristic for its wish
(:meth:`~fracas.rules.one_ring.policies.HeroHeuristic.wish`, legal by construction, as
``choose`` hands it to the loop) and carries it out with the engine's own
:func:`~fracas.rules.one_ring.resolve.resolve` and
:func:`~fracas.rules.one_ring.resolve.advance`, with an emitter that applies each event
and leaves unmade the events no state reads (:class:`~fracas.rules.one_ring.events.Quiet`:
the dice and the roll readings); the rules make the changes of the events a fight makes
most directly (:mod:`~fracas.rules.one_ring.changes`).  The first decision of another
policy, or one the heuristic has no wish for, is handed back to the engine.
``tests/rules/one_ring/test_one_ring_lean.py`` holds the two ways to the same fights on the
examples and on random scenarios: the same states, outcomes and dice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fracas.core.events import Event
from fracas.core.rng import Rng
from fracas.rules.one_ring.events import Quiet
from fracas.rules.one_ring.fold import apply_event
from fracas.rules.one_ring.legality import current_actor
from fracas.rules.one_ring.policies import HeroHeuristic, LoremasterHeuristic
from fracas.rules.one_ring.resolve import advance, resolve
from fracas.rules.one_ring.state import OneRingState

__all__ = ["heuristic_turns"]


_HEURISTICS = (HeroHeuristic, LoremasterHeuristic)


def heuristic_turns(state: OneRingState, actor: str, pick: Callable[[str], Any], rng: Rng,
                    emit: Callable[[Event], None], budget: int) -> int:
    """Play decisions, starting with ``actor``'s, while each actor's policy (``pick``) is a
    heuristic of this rule set with a wish, at most ``budget`` of them, changing ``state``
    as the engine would; returns how many were taken (0: none, the engine plays it).

    ``emit`` (the engine's, applying an event without logging it) is not used: the
    decisions emit through a :class:`~fracas.rules.one_ring.events.Quiet` fold of ``state``.
    """
    policy = pick(actor)
    if type(policy) not in _HEURISTICS:
        return 0
    quiet = Quiet(apply_event, state)
    taken = 0
    while taken < budget:
        wish = policy.wish(state, actor)
        if wish is None:
            return taken
        resolve(state, wish, rng, quiet)
        advance(state, rng, quiet)
        taken += 1
        found = current_actor(state)
        if found is None:
            return taken
        actor = found
        policy = pick(actor)
        if type(policy) not in _HEURISTICS:
            return taken
    return taken
