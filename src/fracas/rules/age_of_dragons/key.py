"""The state key of Age of Dragons: what the exact solver merges positions by.

Kept apart from :mod:`.state` because it reads the seed's numbers in :mod:`.rules`
(which reads the state's module).
"""

from __future__ import annotations

from collections.abc import Hashable

from fracas.rules.age_of_dragons import rules
from fracas.rules.age_of_dragons.state import AgeOfDragonsState, Pending, Turn, _items

__all__ = ["state_key"]


#: Per set of task thresholds: the lowest face any spot or expend can take, and the faces
#: at which an expend tells two dice apart (see :func:`_reading`).
_READINGS: dict[tuple[int, ...], tuple[int, tuple[int, ...]]] = {}


def _reading(state: AgeOfDragonsState) -> tuple[int, tuple[int, ...]]:
    """(the lowest face a spot or an expend can take, the expend's cuts, lowest first).

    An expend reads a die only as a hit (the attack threshold), a six (a called shot's
    effect) or against a task's threshold; a spot reads every spot threshold.  Worked out
    once per set of task thresholds from ``rules``, which holds the seed's numbers.
    """
    tasks = state.tasks
    marks = tuple(sorted({task.threshold for task in tasks.values()})) if tasks else ()
    found = _READINGS.get(marks)
    if found is None:
        cuts = tuple(sorted({rules.ATTACK_THRESHOLD, 6, *marks}))
        found = _READINGS[marks] = (min(*rules.SPOT_THRESHOLDS.values(), cuts[0]), cuts)
    return found


def _rerolls(state: AgeOfDragonsState, actor: str) -> bool:
    """Whether ``actor`` has a reroll ability (a reroll step of its own to take)."""
    fighter = state.fighters.get(actor)
    return fighter is not None and bool(fighter.profile.rerolls)


def _dice_key(state: AgeOfDragonsState, turn: Turn) -> tuple[int, ...]:
    """The dice still in play, by what the rest of the turn can read of them, sorted.

    A die a spot can still take (not spotted, in a spot step of a pool with Soma) is
    kept as its face: the spot thresholds tell every face from 3 up apart.  A die only
    an expend can take (spotted already, or past the spot step) is kept as ``10 +`` the
    lowest face of its expend class (:func:`_reading`): 4 and 5 are both a hit and no
    six.  A die no spot or expend can take (a 1 or a 2; a spotted 3) is left out, as is
    an expended die: no rule, and no policy, reads its face or its spot again.  In the
    reroll step of a combatant with a reroll ability, every die stays as its face (``10 +``
    it once spotted): a reroll may take any of them.
    """
    pool, spotted, expended = turn.pool, turn.spotted, turn.expended
    step = turn.step
    if step == "reroll" and _rerolls(state, turn.actor):
        return tuple(sorted([face + 10 * seen for face, seen, gone
                             in zip(pool, spotted, expended, strict=True) if not gone]))
    lowest, cuts = _reading(state)
    can_spot = step != "expend" and "soma" in turn.spheres
    kept: list[int] = []
    for face, seen, gone in zip(pool, spotted, expended, strict=True):
        if gone or face < lowest:
            continue
        if can_spot and not seen:
            kept.append(face)
            continue
        read = 0
        for cut in cuts:
            if face < cut:
                break
            read = cut
        if read:
            kept.append(10 + read)
    kept.sort()
    return tuple(kept)


def _called(pending: Pending) -> Hashable:
    """What a pending attack's sixes do: the called shot and its effect (``rules.called_effect``).

    Sixes are read only by a called shot's effect, so a plain attack's (or a shot's,
    a grapple's) are left out, and a called shot's count only as far as its effect.
    """
    called = pending.called
    if called is None:
        return None
    return called, rules.called_effect(called, pending.sixes)


def state_key(state: AgeOfDragonsState) -> Hashable:
    """Everything that shapes the rest of the fight, without the round counter.

    Merged explicitly (``tests/odds/test_keys.py`` and the conformance kit check it):
    the round (the limit is declared, ``AgeOfDragons.round_limit``); the dice no rule
    can take or read again (:func:`_dice_key`); the reroll step of a combatant with no
    reroll ability, which offers what its spot step offers; and the sixes of a pending
    attack beyond what its called shot does with them (:func:`_called`).
    """
    turn, pending = state.turn, state.pending
    ranges = state.ranges
    if turn is None:
        turned = None
    else:
        step = turn.step
        if step == "reroll" and not _rerolls(state, turn.actor):
            step = "spot"
        turned = (turn.actor, step, turn.spheres,
                  _dice_key(state, turn) if turn.pool else (),
                  _items(turn.aims) if turn.aims else (),
                  _items(turn.rerolls_used) if turn.rerolls_used else ())
    return (
        tuple([(f.pr, f.pd, f.altitude, _items(f.resources) if f.resources else (), f.dead,
                f.stunned, f.wing, f.tail, tuple(f.limbs), f.falling_rounds,
                f.fell_this_round, f.chose_fall) for f in state.fighters.values()]),
        tuple(sorted(ranges.items())) if len(ranges) > 1 else tuple(ranges.items()),
        tuple(sorted(state.grapples)) if state.grapples else (),
        state.order, state.turn_index,
        turned,
        None if pending is None else (pending.attacker, pending.kind,
                                      tuple(pending.defenders), pending.hits, pending.tn,
                                      pending.damage_bonus, _called(pending)),
        state.result,
    )
