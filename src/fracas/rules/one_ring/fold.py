"""Applying events to a One Ring state.  Never rolls dice, never reads the clock."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fracas.core.events import DecisionMade, DiceRolled, Event, FightEnded, Note
from fracas.rules.one_ring import changes, events, overrides
from fracas.rules.one_ring.state import OneRingState

__all__ = ["apply_event"]



def _volleys_set(s: OneRingState, e: events.VolleysSet) -> None:
    s.volleys = e.count


def _phase(s: OneRingState, e: events.PhaseBegan) -> None:
    changes.begin_phase(s, e.phase, e.round, e.order, e.volley, e.regime)


def _turn_ended(s: OneRingState, e: events.TurnEnded) -> None:
    changes.end_turn(s, e.actor)


def _stance(s: OneRingState, e: events.StanceTaken) -> None:
    changes.take_stance(s, e.hero, e.stance, e.wielded)


def _engaged(s: OneRingState, e: events.Engaged) -> None:
    changes.engage(s, e.hero, e.foe)


def _introduced(s: OneRingState, e: events.Introduced) -> None:
    if e.foe:
        s.foes[e.foe].eligible = True
    s.board.introduce(e.foe)


def _stood_back(s: OneRingState, e: events.StoodBack) -> None:
    changes.stand_back(s, e.foe)


def _passed(s: OneRingState, e: events.HeroPassed) -> None:
    s.board.pass_hero(e.hero)


def _disengaged(s: OneRingState, e: events.Disengaged) -> None:
    s.board.disengage(e.name)


def _main(s: OneRingState, e: events.MainActionTaken) -> None:
    changes.spend_main(s, e.actor)


def _secondary(s: OneRingState, e: events.SecondaryTaken) -> None:
    s.heroes[e.hero].secondary_used = True


def _hope(s: OneRingState, e: events.HopeSpent) -> None:
    changes.spend_hope(s, e.hero)


def _bonus_used(s: OneRingState, e: events.BonusUsed) -> None:
    setattr(s.heroes[e.hero], e.bonus, False)


def _hit(s: OneRingState, e: events.HitPending) -> None:
    changes.hit_pending(s, e.attacker, e.target, e.hero_attacks, e.close, e.damage, e.injury,
                        e.rank, e.tengwars, e.decider)


def _special(s: OneRingState, e: events.SpecialChosen) -> None:
    changes.choose_special(s, e.special, e.amount)


def _knockback(s: OneRingState, e: events.KnockbackChosen) -> None:
    changes.choose_knockback(s, e.hero, e.accept)


def _endurance(s: OneRingState, e: events.EnduranceLost) -> None:
    changes.lose_endurance(s, e.target, e.amount)


def _wounded(s: OneRingState, e: events.Wounded) -> None:
    changes.wound(s, e.target)


def _resolved(s: OneRingState, e: events.HitResolved) -> None:
    changes.hit_resolved(s)


def _out(s: OneRingState, e: events.TakenOut) -> None:
    c = s.heroes.get(e.name) or s.foes[e.name]
    c.status = e.status
    s.board.remove(e.name)


def _hate(s: OneRingState, e: events.HateLost) -> None:
    f = s.foes[e.foe]
    f.hate = max(0, f.hate - e.amount)


def _task(s: OneRingState, e: events.TaskSucceeded) -> None:
    if e.task == "rally":
        for name, h in s.heroes.items():
            if name != e.hero and h.status == "ok":
                h.rallied = True
    elif e.task == "protect":
        s.heroes[e.companion].protected = True
    elif e.task == "prepare":
        s.heroes[e.hero].prepared = True


def _thrust_lost(s: OneRingState, e: events.ThrustLost) -> None:
    f = s.foes[e.foe]
    f.thrust_back = False
    f.attacks_left -= 1


def _recovered(s: OneRingState, e: events.Recovered) -> None:
    s.heroes[e.hero].knocked_back = False


def _gear(s: OneRingState, e: events.GearChanged) -> None:
    h = s.heroes[e.hero]
    h.wielded = e.wielded
    h.dropped = e.dropped


def _located(s: OneRingState, e: events.Located) -> None:
    h = s.heroes[e.hero]
    if e.other not in h.located:
        h.located = (*h.located, e.other)


def _carried(s: OneRingState, e: events.Carried) -> None:
    s.heroes[e.comrade].status = "safe"


def _ended(s: OneRingState, e: FightEnded) -> None:
    s.result = (e.winner, e.reason)
    s.phase = "over"


#: Events after which the standing combatants and the board's next step still hold
#: (every event but those taking someone out of the fight or to safety; an event of
#: another kind forgets them).
_KEEPS_READINGS: frozenset[type[Event]] = frozenset({
    DecisionMade, DiceRolled, Note, FightEnded,
    events.VolleysSet, events.PhaseBegan, events.TurnEnded, events.StanceTaken,
    events.Engaged, events.Introduced, events.StoodBack, events.HeroPassed,
    events.Disengaged, events.MainActionTaken, events.SecondaryTaken, events.HopeSpent,
    events.BonusUsed, events.RollRead, events.HitPending, events.SpecialChosen,
    events.KnockbackChosen, events.EnduranceLost, events.Wounded, events.HitResolved,
    events.HateLost, events.TaskSucceeded, events.ThrustLost, events.Recovered,
    events.GearChanged, events.Located,
})


def apply_event(state: OneRingState, event: Event) -> None:
    """Fold one event into ``state``.

    What was read from the state (the standing combatants, the next engagement step) is
    forgotten first, unless the event is one of this rule set's that changes no status
    and changes the board only through its methods (which forget the step themselves).
    One look-up finds what to do (:data:`_APPLY`, made from the fold table and
    :data:`_KEEPS_READINGS`).
    """
    handler = _APPLY.get(type(event))
    if handler is None:
        _forget(state, event)
    else:
        handler(state, event)


def _forget(state: OneRingState, event: Event) -> None:
    """Forget what was read from ``state`` (an event that changes nothing else)."""
    state.readings.standing = None
    state.board.readings.step = None


def _forgetting(handler: Callable[[OneRingState, Any], None]
                ) -> Callable[[OneRingState, Any], None]:
    """``handler``, after forgetting what was read from the state."""
    def apply(state: OneRingState, event: Event) -> None:
        state.readings.standing = None
        state.board.readings.step = None
        handler(state, event)
    return apply


def _keeping(state: OneRingState, event: Event) -> None:
    """An event that changes nothing and keeps what was read (a roll, a decision)."""


#: The fold proper: one handler per event class; events this rule set does not know change
#: nothing.
_FOLD: dict[type[Event], Callable[[OneRingState, Any], None]] = {
    events.VolleysSet: _volleys_set, events.PhaseBegan: _phase, events.TurnEnded: _turn_ended,
    events.StanceTaken: _stance, events.Engaged: _engaged, events.Introduced: _introduced,
    events.StoodBack: _stood_back,
    events.HeroPassed: _passed, events.Disengaged: _disengaged, events.MainActionTaken: _main,
    events.SecondaryTaken: _secondary, events.HopeSpent: _hope, events.BonusUsed: _bonus_used,
    events.HitPending: _hit, events.SpecialChosen: _special, events.KnockbackChosen: _knockback,
    events.EnduranceLost: _endurance, events.Wounded: _wounded, events.HitResolved: _resolved,
    events.TakenOut: _out, events.HateLost: _hate, events.TaskSucceeded: _task,
    events.ThrustLost: _thrust_lost, events.Recovered: _recovered, events.GearChanged: _gear,
    events.Located: _located, events.Carried: _carried, FightEnded: _ended,
    **overrides.OVERRIDES.fold_handlers(),  # the Loremaster's overrides (core.overrides)
}

#: What :func:`apply_event` does for each event class it knows: the fold's handler, after
#: forgetting the readings unless the class keeps them; nothing for a class that keeps
#: them and has no handler.  Any other class only forgets them.
_APPLY: dict[type[Event], Callable[[OneRingState, Any], None]] = {
    **{kind: _keeping for kind in _KEEPS_READINGS},
    **{kind: handler if kind in _KEEPS_READINGS else _forgetting(handler)
       for kind, handler in _FOLD.items()},
}
