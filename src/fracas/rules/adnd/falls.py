"""Falling: losing one's hold, dragging a foe along, hanging on, and hitting the bottom.

A fall that may drag a foe waits for the faller's decision (grab or plummet);
the rest happens at once.  Falling damage is the usual d6 per ten feet, at
most 20d6.
"""

from __future__ import annotations

from fracas.core.rng import Rng
from fracas.core.ruleset import Emit
from fracas.rules.adnd import rules, terrain
from fracas.rules.adnd.checks import (
    at_least,
    climbing_check,
    dexterity_check,
    roll_d20,
    roll_sum,
)
from fracas.rules.adnd.events import (
    AttackRolled,
    FallBegan,
    Grabbed,
    GrappleEnded,
    Landed,
    Regained,
    Slain,
    Unconscious,
    WeaponDropped,
    Wounded,
)
from fracas.rules.adnd.state import AdndUndergroundState

__all__ = ["begin_fall", "body_drops", "grab", "knock_out", "land", "regain"]


def begin_fall(state: AdndUndergroundState, name: str, rng: Rng, emit: Emit) -> None:
    """``name`` loses his hold or footing.

    If he was fighting a foe at close quarters he gets one chance to grab him
    (his decision comes next); otherwise he falls at once.  A grapple he was in
    ends as the fall begins (the grapple still lets him grab his foe).
    """
    choices = terrain.drag_choices(state, name)
    _separate(state, name, emit)
    if choices:
        emit(FallBegan(name, choices))
    else:
        land(state, name, rng, emit)


#: A sum every roll reaches: every sum alike (see :func:`.checks.roll_sum`).
_ANY = -(1 << 30)


def land(state: AdndUndergroundState, name: str, rng: Rng, emit: Emit) -> None:
    """``name`` falls to the bottom, taking 1d6 per ten feet (at most 20d6).

    From a wall he lands at its foot and fights on; from a ledge or bridge he
    drops out of the fight.  Grappled fallers separate; anyone hanging from him
    falls too.
    """
    f = state.fighters[name]
    p = state.profile(name)
    feet = f.alt
    hangers = [h for h in state.setup.order if state.fighters[h].hanging_on == name]
    count = rules.fall_dice(feet)
    out = p.kind in ("ledge", "bridge")
    if count:
        # Over the edge of a ledge or bridge he is out of the fight whatever he takes,
        # and a fighter out of the fight is keyed without his hit points: the faces of
        # that fall are all alike.  Landing at the foot of a wall, every face counts.
        # Landing at the foot of a wall only the sum counts, and every sum that slays him
        # does the same (see checks.roll_sum).
        alike = ((1, 2, 3, 4, 5, 6),) if out else None
        amount = roll_sum(rng, emit, name, "falling damage", count, 6,
                          _ANY if out else f.hp, alike)
        emit(Wounded(name, amount, "fall"))
    _separate(state, name, emit)
    emit(Landed(name, feet, out))
    if state.fighters[name].hp <= 0:
        emit(Slain(name, "fall"))
    for hanger in hangers:
        land(state, hanger, rng, emit)


def _separate(state: AdndUndergroundState, name: str, emit: Emit) -> None:
    f = state.fighters[name]
    if f.holding is not None:
        emit(GrappleEnded(name, f.holding))
    if f.held_by is not None:
        emit(GrappleEnded(f.held_by, name))


def body_drops(state: AdndUndergroundState, name: str, rng: Rng, emit: Emit) -> None:
    """A slain fighter lets go of everything: holds end, a dead climber's body drops.

    Whoever hung from him falls.
    """
    f = state.fighters[name]
    p = state.profile(name)
    hangers = [h for h in state.setup.order if state.fighters[h].hanging_on == name]
    _separate(state, name, emit)
    if terrain.on_sheer_surface(p, f) or f.hanging_on is not None:
        emit(Landed(name, f.alt, p.kind in ("ledge", "bridge")))
    for hanger in hangers:
        land(state, hanger, rng, emit)


def grab(state: AdndUndergroundState, faller: str, target: str, rng: Rng, emit: Emit) -> None:
    """The falling fighter drops his weapon and grabs at ``target``.

    The roll is THAC0 against AC 10 less the target's Dexterity part (none for a
    target clinging to a wall: he has lost it), with no magic.  A hit makes the
    target check (climbing on a wall, Dexterity on a ledge or bridge): success
    leaves the faller hanging from him; failure sends both down.  A miss: the faller falls alone.
    """
    f = state.fighters[faller]
    if f.wielding != "fist":
        emit(WeaponDropped(faller, f.wielding))
    pf, pt = state.profile(faller), state.profile(target)
    # A climber has already lost his Dexterity part to the wall.
    dex_ac = 0 if terrain.clinging(pt, state.fighters[target]) else pt.dex_ac
    needed = rules.grab_number(pf.thac0, dex_ac)
    total = roll_d20(rng, emit, faller, "grab", classes=at_least(20, needed))
    hit = total >= needed
    emit(AttackRolled(faller, target, "grab", total, needed, hit))
    if not hit:
        land(state, faller, rng, emit)
        return
    if pt.kind == "wall":
        kept = climbing_check(state, target, 0, rng, emit)
    else:
        kept = dexterity_check(state, target, 0, rng, emit)
    if kept:
        emit(Grabbed(faller, target))
    else:
        land(state, faller, rng, emit)
        land(state, target, rng, emit)


def regain(state: AdndUndergroundState, name: str, rng: Rng, emit: Emit) -> None:
    """A hanging fighter tries a climbing check at -20% to regain his own place."""
    if climbing_check(state, name, rules.HANGING_PENALTY, rng, emit, "hanging"):
        emit(Regained(name))


def knock_out(state: AdndUndergroundState, name: str, rng: Rng, emit: Emit) -> None:
    """Loss of consciousness threatens a fall like a wound does.

    On a ledge or bridge the victim checks Dexterity (our ruling: the usual feet
    to the edge, no push) or goes over; a climber, or one hanging from a foe,
    simply lets go (he cannot grab anyone).  Holds he had end, and whoever hung
    from him falls (our ruling, as for a slain holder).
    """
    f = state.fighters[name]
    p = state.profile(name)
    emit(Unconscious(name))
    _separate(state, name, emit)
    falls = f.hanging_on is not None or terrain.on_sheer_surface(p, f)
    if not falls and p.kind in ("ledge", "bridge"):
        falls = not dexterity_check(state, name, 0, rng, emit)
    if falls:
        land(state, name, rng, emit)
        return
    for hanger in [h for h in state.setup.order if state.fighters[h].hanging_on == name]:
        land(state, hanger, rng, emit)
