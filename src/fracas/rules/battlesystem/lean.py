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

import dataclasses
import operator
from collections.abc import Callable, Hashable
from functools import partial
from typing import Any

from fracas.core.events import Event
from fracas.core.rng import Rng
from fracas.rules.battlesystem.fold import apply_event, take_turn
from fracas.rules.battlesystem.legality import allows
from fracas.rules.battlesystem.policies import HeuristicPolicy
from fracas.rules.battlesystem.resolve import advance, carry_out
from fracas.rules.battlesystem.state import (
    BattlesystemState,
    Feature,
    Gas,
    Unit,
    clone,
    copy_into,
)

__all__ = ["heuristic_turns"]


def heuristic_turns(state: BattlesystemState, actor: str, pick: Callable[[str], Any], rng: Rng,
                    emit: Callable[[Event], None], budget: int) -> int:
    """Play ``actor``'s decision and the ones after it while each is the heuristic's and
    the quick yes accepts its order, at most ``budget`` of them, as the engine would.

    ``pick(name)`` is an actor's policy.  ``emit`` (the engine's, applying an event without
    logging it) is not used: the decisions emit through the fold bound to ``state``
    (:func:`.fold.apply_event`), so the events whose fold changes nothing are left unmade
    (:func:`.fold.folds_only`).  Returns how many decisions were taken, 0 when the first is
    left to the engine.  At the first decision of a fight in its first turn, the opening
    that draws no die is taken at once where a fight from the same state played it before
    (see :func:`_opening`).
    """
    emit = partial(apply_event, state)
    readings = state.readings
    if not readings.opened:
        readings.opened = True
        # (a fight under way -- a search's rollout -- has played its opening long since)
        taken = _opening(state, actor, pick, rng, emit, budget) if state.turn <= 1 else 0
        if taken:
            return taken
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


# -- the opening: the decisions before the first die, the same in every fight --------------

#: Openings played before, by the state they start from: the state they end in, how many
#: decisions they took and who decided them.
_OPENINGS: dict[Hashable, tuple[BattlesystemState, int, tuple[str, ...]]] = {}
#: Most openings kept before starting again.
_KEPT = 64


class _Watch:
    """The dice, telling whether any was drawn."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng
        self.drawn = False

    def __getattr__(self, name: str) -> Any:
        self.drawn = True
        return getattr(self.rng, name)


def _opening(state: BattlesystemState, actor: str, pick: Callable[[str], Any], rng: Rng,
             emit: Callable[[Event], None], budget: int) -> int:
    """The decisions from ``state`` up to the first that draws a die, at once.

    Until a die is drawn, a fight on the heuristic is a pure function of its state: every
    fight from an equal state plays the same decisions into the same state.  The first
    fight from a state plays them one by one as :func:`heuristic_turns` would, watching
    the dice, and keeps a copy of the state before the first decision that draws one;
    a later fight from an equal state (its every field alike), whose deciders are all on
    the heuristic, becomes that copy.  Returns the decisions taken (0: none).
    """
    try:
        known = _OPENINGS.get(_key(state))
    except TypeError:  # a field holding what cannot be a key (a scenario's search block)
        return 0
    if known is not None:
        end, taken, deciders = known
        if end.board is not state.board or end.sides is not state.sides or \
                taken > budget or any(type(pick(name)) is not HeuristicPolicy
                                      for name in deciders):
            return 0
        copy_into(state, end)
        return taken
    watch = _Watch(rng)
    start, end = clone(state), clone(state)
    taken, played = 0, []
    while taken < budget:
        policy = pick(actor)
        if type(policy) is not HeuristicPolicy:
            break
        wanted = policy.wish(state, actor)
        if not allows(state, wanted):
            break
        take_turn(state, actor, wanted)
        carry_out(state, wanted, watch, emit)  # the dice, watched
        advance(state, watch, emit)
        taken += 1
        played.append(actor)
        if watch.drawn:
            break
        end = clone(state)
        if state.result is not None or not state.queue:
            break
        actor = state.queue[0]
    opening = taken - 1 if watch.drawn else taken
    if opening > 0:
        if len(_OPENINGS) >= _KEPT:
            _OPENINGS.clear()
        _OPENINGS[_key(start)] = (end, opening, tuple(played[:opening]))
    return taken


def _key(state: BattlesystemState) -> Hashable:
    """Every field of ``state`` as one hashable value; equal keys are equal states.

    The battlefield, the armies and each unit's statistics, which a scenario's fights
    share and never change, go by identity (an opening kept holds them, so no other
    object takes their place).  :data:`KEYED` names the fields in the order they come
    (a test holds it to the state's fields)."""
    return (id(state.board), id(state.sides),
            tuple([(id(u.stats), _unit_values(u)) for u in state.units.values()]),
            tuple(map(_feature_values, state.features.values())), state.max_turns,
            state.gm_cave_ins, state.gm_gases, state.gm_strikes,
            tuple(state.policies.items()), state.search, frozenset(state.gm_used),
            tuple(map(_gas_values, state.gases)), state.next_gas, frozenset(state.caved),
            frozenset(state.gone), frozenset(state.known_obstacles), state.turn, state.phase,
            tuple(state.queue), state.result)


#: The fields :func:`_key` reads, in its order.
KEYED = ("board", "sides", "units", "features", "max_turns", "gm_cave_ins", "gm_gases",
         "gm_strikes", "policies", "search", "gm_used", "gases", "next_gas", "caved", "gone",
         "known_obstacles", "turn", "phase", "queue", "result")
#: A unit's fields but its statistics (see :func:`_key`).
_unit_values = operator.attrgetter(*(f.name for f in dataclasses.fields(Unit)
                                     if f.name != "stats"))
_feature_values = operator.attrgetter(*(f.name for f in dataclasses.fields(Feature)))
_gas_values = operator.attrgetter(*(f.name for f in dataclasses.fields(Gas)))
