"""Applying events to the state: the only place an AD&D underground state changes."""

from __future__ import annotations

from collections.abc import Callable

from fracas.core.events import Event, FightEnded
from fracas.core.loop import fold_by_type
from fracas.rules.adnd import overrides
from fracas.rules.adnd.events import (
    BoulderSpent,
    Breath,
    Climbed,
    FallBegan,
    FrontRank,
    GmDone,
    Grabbed,
    GrappleBegan,
    GrappleEnded,
    Landed,
    Regained,
    RoundBegan,
    Secured,
    Slain,
    Turned,
    TurnEnded,
    TurnOrder,
    Unconscious,
    WeaponDropped,
    Wielded,
    Wounded,
)
from fracas.rules.adnd.state import AdndUndergroundState

__all__ = ["apply_event"]


def _round(s: AdndUndergroundState, e: RoundBegan) -> None:
    s.round = e.round


def _front(s: AdndUndergroundState, e: FrontRank) -> None:
    if s.front.get(e.side) != e.names:
        s.changed.append("")
    s.front[e.side] = e.names


def _order(s: AdndUndergroundState, e: TurnOrder) -> None:
    s.queue = e.names
    s.turn = 0
    s.phase = "gm"


def _gm_done(s: AdndUndergroundState, e: GmDone) -> None:
    s.phase = "turns"


def _turn_ended(s: AdndUndergroundState, e: TurnEnded) -> None:
    s.turn += 1


def _wounded(s: AdndUndergroundState, e: Wounded) -> None:
    s.fighters[e.target].hp -= e.amount
    s.changed.append(e.target)


def _slain(s: AdndUndergroundState, e: Slain) -> None:
    s.fighters[e.name].status = "drowned" if e.cause == "drowned" else "dead"
    s.changed.append(e.name)


def _unconscious(s: AdndUndergroundState, e: Unconscious) -> None:
    s.fighters[e.name].status = "unconscious"
    s.changed.append(e.name)


def _climbed(s: AdndUndergroundState, e: Climbed) -> None:
    f = s.fighters[e.name]
    f.alt = e.alt
    f.secure = False
    s.changed.append(e.name)


def _turned(s: AdndUndergroundState, e: Turned) -> None:
    s.fighters[e.name].facing_wall = e.facing_wall
    s.changed.append(e.name)


def _secured(s: AdndUndergroundState, e: Secured) -> None:
    s.fighters[e.name].secure = e.secure
    s.changed.append(e.name)


def _boulder(s: AdndUndergroundState, e: BoulderSpent) -> None:
    s.fighters[e.name].boulders -= 1
    s.changed.append(e.name)


def _wielded(s: AdndUndergroundState, e: Wielded) -> None:
    s.fighters[e.name].wielding = e.weapon
    s.changed.append(e.name)


def _dropped(s: AdndUndergroundState, e: WeaponDropped) -> None:
    f = s.fighters[e.name]
    f.dropped = (*f.dropped, e.weapon)
    f.wielding = "fist"
    s.changed.append(e.name)


def _fall_began(s: AdndUndergroundState, e: FallBegan) -> None:
    s.falling = e.name
    s.grab_choices = e.choices


def _grabbed(s: AdndUndergroundState, e: Grabbed) -> None:
    s.falling = None
    s.grab_choices = ()
    faller = s.fighters[e.faller]
    faller.hanging_on = e.holder
    faller.alt = s.fighters[e.holder].alt
    s.changed.append(e.faller)


def _landed(s: AdndUndergroundState, e: Landed) -> None:
    f = s.fighters[e.name]
    f.alt = 0.0
    f.hanging_on = None
    f.secure = False
    if s.falling == e.name:
        s.falling = None
        s.grab_choices = ()
    if e.out and f.status == "ok":
        f.status = "fallen"
    s.changed.append(e.name)


def _regained(s: AdndUndergroundState, e: Regained) -> None:
    s.fighters[e.name].hanging_on = None
    s.changed.append(e.name)


def _grapple_began(s: AdndUndergroundState, e: GrappleBegan) -> None:
    holder, victim = s.fighters[e.holder], s.fighters[e.victim]
    holder.holding = e.victim
    victim.held_by = e.holder
    holder.under = victim.under = e.under
    s.changed += (e.holder, e.victim)


def _grapple_ended(s: AdndUndergroundState, e: GrappleEnded) -> None:
    for f in (s.fighters[e.holder], s.fighters[e.victim]):
        f.holding = f.held_by = None
        f.under = False
        f.breath_free = f.con_checks = 0
    s.changed += (e.holder, e.victim)


def _breath(s: AdndUndergroundState, e: Breath) -> None:
    f = s.fighters[e.name]
    f.breath_free = e.free
    f.con_checks = e.checks
    s.changed.append(e.name)


def _ended(s: AdndUndergroundState, e: FightEnded) -> None:
    s.result = (e.winner, e.reason)


#: The fold: events that only report (rolls, checks) change nothing.
apply_event: Callable[[AdndUndergroundState, Event], None] = fold_by_type({
    RoundBegan: _round, FrontRank: _front, TurnOrder: _order, GmDone: _gm_done,
    TurnEnded: _turn_ended, Wounded: _wounded, Slain: _slain,
    Climbed: _climbed, Turned: _turned, Secured: _secured, BoulderSpent: _boulder,
    Wielded: _wielded, WeaponDropped: _dropped, FallBegan: _fall_began,
    Grabbed: _grabbed, Landed: _landed, Regained: _regained,
    GrappleBegan: _grapple_began, GrappleEnded: _grapple_ended, Breath: _breath,
    FightEnded: _ended, Unconscious: _unconscious,
    **overrides.OVERRIDES.fold_handlers(),  # the DM's overrides (core.overrides)
})
