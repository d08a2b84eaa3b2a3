"""Carrying out orders and running the turn's automatic phases (rolls -> events).

Each turn runs these phases (core, ours): the GM's phase (prepared cave-ins,
gas and explosive spells), movement (every unit in good order gives one order,
armies in scenario order), missiles, melee, morale (with routing moves and
their chain reactions) and the end phase (gas spreads and ages).  The fight
ends when one army has no unit in good order, or at the turn limit.
"""

from __future__ import annotations

from fracas.core.action import Action
from fracas.core.events import FightEnded
from fracas.core.rng import Rng
from fracas.core.ruleset import GM, Emit
from fracas.rules.battlesystem import legality
from fracas.rules.battlesystem.actions import (
    Attack,
    CaveIn,
    Charge,
    Fire,
    Fly,
    Form,
    Hold,
    Move,
    Pass,
    ReleaseGas,
    StrikeFeature,
    Torches,
    Withdraw,
)
from fracas.rules.battlesystem.combat import fire, melee_phase, morale_phase, withdraw
from fracas.rules.battlesystem.events import (
    AltitudeChanged,
    FormationChanged,
    GmEffectUsed,
    PhaseStarted,
    TargetChosen,
    TorchesChanged,
    TurnSkipped,
    TurnStarted,
    interned,
)
from fracas.rules.battlesystem.hazards import (
    cave_in,
    end_of_turn_gas,
    release_gas,
    stress_feature,
)
from fracas.rules.battlesystem.movement import march
from fracas.rules.battlesystem.rout import rout_phase
from fracas.rules.battlesystem.state import BattlesystemState

# The events a battle makes most, each distinct one made once (see events.interned).
_phase_started = interned(PhaseStarted)
_turn_started = interned(TurnStarted)
_target_chosen = interned(TargetChosen)
#: The phases nobody orders in, and the GM's (made once).
_MELEE, _MORALE, _END = (PhaseStarted(p, ()) for p in ("melee", "morale", "end"))
_GM_PHASE, _NO_GM_PHASE = PhaseStarted("gm", (GM,)), PhaseStarted("gm", ())

__all__ = ["advance", "carry_out", "contested", "cut_off"]


def carry_out(state: BattlesystemState, action: Action, rng: Rng, emit: Emit) -> None:
    """Resolve a legal order."""
    kind = type(action)
    if kind is Hold or kind is Pass:  # the commonest orders change nothing
        return
    if kind is Attack:
        emit(_target_chosen(action.actor, action.target))  # type: ignore[attr-defined]
        return
    if isinstance(action, CaveIn):
        i = next(i for i, c in enumerate(state.gm_cave_ins)
                 if c[0] == action.area and f"cave:{i}" not in state.gm_used)
        emit(GmEffectUsed(f"cave:{i}"))
        cave_in(state, action.area, state.gm_cave_ins[i][1], rng, emit)
    elif isinstance(action, ReleaseGas):
        i = next(i for i, g in enumerate(state.gm_gases)
                 if g[0] == action.area and f"gas:{i}" not in state.gm_used)
        emit(GmEffectUsed(f"gas:{i}"))
        _area, diameter, turns, dice, _turn = state.gm_gases[i]
        release_gas(state, action.area, diameter, dice, turns, emit)
    elif isinstance(action, StrikeFeature):
        i = next(i for i, s in enumerate(state.gm_strikes)
                 if s[0] == action.feature and f"strike:{i}" not in state.gm_used)
        emit(GmEffectUsed(f"strike:{i}"))
        stress_feature(state, action.feature, False, True, rng, emit)
    elif isinstance(action, Move):
        march(state, state.units[action.actor], action.to, rng, emit)
    elif isinstance(action, Charge):
        target = state.units[action.target]
        march(state, state.units[action.actor], target.area, rng, emit, charging=True)
    elif isinstance(action, Form):
        emit(FormationChanged(action.actor, action.formation, action.axis))
    elif isinstance(action, Torches):
        emit(TorchesChanged(action.actor, action.lit))
    elif isinstance(action, Fly):
        unit = state.units[action.actor]
        if legality.foes_in_reach(state, unit):  # ruling 24: climbing out of a melee
            withdraw(state, unit, None, action.altitude, rng, emit)
        else:
            emit(AltitudeChanged(action.actor, action.altitude))
    elif isinstance(action, Withdraw):
        withdraw(state, state.units[action.actor], action.to, None, rng, emit)
    elif isinstance(action, Attack):
        emit(_target_chosen(action.actor, action.target))
    elif isinstance(action, Fire):
        fire(state, state.units[action.actor], state.units[action.target], rng, emit)


def advance(state: BattlesystemState, rng: Rng, emit: Emit) -> None:
    """Run the automatic phases until someone must decide or the battle ends."""
    units = state.units
    can_act = legality.can_act
    while state.result is None:
        if state.queue:
            head = state.queue[0]
            if head == GM or can_act(state, units[head], state.phase):
                return
            emit(TurnSkipped(head))
            continue
        _next_phase(state, rng, emit)


def _next_phase(state: BattlesystemState, rng: Rng, emit: Emit) -> None:
    phase = state.phase
    if phase == "move":
        can_act = legality.can_act
        emit(_phase_started("missile", tuple([u.name for u in state.units.values()
                                            if can_act(state, u, "missile")])))
    elif phase == "missile":
        emit(_MELEE)
        melee_phase(state, rng, emit)
    elif phase == "melee":
        emit(_MORALE)
        morale_phase(state, rng, emit)
        rout_phase(state, rng, emit)
    elif phase == "gm":
        can_act = legality.can_act
        emit(_phase_started("move", tuple([u.name for u in state.units.values()
                                         if can_act(state, u, "move")])))
    elif phase == "setup" or phase == "end":
        if _finish(state, emit, limit=phase == "end"):
            return
        emit(_turn_started(state.turn + 1))
        emit(_GM_PHASE if legality.gm_has_effects(state) else _NO_GM_PHASE)
    else:  # after morale
        emit(_END)
        end_of_turn_gas(state, rng, emit)
        return
    # the end of a phase but the last: an army may be broken (kept with the state)
    contested = state.readings.contested
    if contested is None or not contested:
        _finish(state, emit, limit=False)


def _finish(state: BattlesystemState, emit: Emit, limit: bool) -> bool:
    """End the battle when an army has no unit in good order, at the turn limit, or
    (at the end of a turn) when the armies are cut off from each other.

    At the limit, or cut off, the army with more figures in good order wins (ours);
    equal is a draw.
    """
    reason = "the other army is broken"
    if contested(state):  # two armies or more stand (kept with the state, its readings)
        if not limit:
            return False
        if state.turn >= state.max_turns:
            reason = "turn limit reached"
        elif cut_off(state):
            reason = "the armies cannot reach each other"
        else:
            return False
    strength = {s.name: 0 for s in state.sides}
    for unit in state.units.values():
        if unit.status == "ok":
            strength[unit.side] += unit.figures
    standing = [name for name, figures in strength.items() if figures > 0]
    if len(standing) <= 1:
        emit(FightEnded(standing[0] if standing else None, reason))
        return True
    ranked = sorted(strength.items(), key=lambda kv: -kv[1])
    winner = ranked[0][0] if ranked[0][1] > ranked[1][1] else None
    emit(FightEnded(winner, reason))
    return True


def contested(state: BattlesystemState) -> bool:
    """Whether two armies or more still have figures in good order (then no army is
    broken).  Worked out once until a unit changes (the state's readings)."""
    readings = state.readings
    known = readings.contested
    if known is None:
        sides = {u.side for u in state.units.values() if u.status == "ok" and u.figures > 0}
        known = readings.contested = len(sides) > 1
    return known


def cut_off(state: BattlesystemState) -> bool:
    """True when no unit in good order can ever reach an enemy (ours).

    No open way leads from it to an enemy on the field (fallen ground blocks every
    path) and no enemy stands within its missile range.  The GM then calls the
    battle at the end of the turn and judges it as at the turn limit.  Worked out once
    until a unit moves, leaves or breaks, or ground falls (the state's readings).
    """
    readings = state.readings
    known = readings.cut_off
    if known is None:
        known = readings.cut_off = _cut_off(state)
    return known


def _cut_off(state: BattlesystemState) -> bool:
    gone = frozenset(state.gone)
    held: dict[str, set[str]] = {}  # the areas where each army has units on the field
    for e in state.units.values():
        if e.on_field:
            held.setdefault(e.side, set()).add(e.area)
    enemy_areas: dict[str, set[str]] = {}
    for unit in state.units.values():
        if unit.status != "ok":
            continue
        foes = enemy_areas.get(unit.side)
        if foes is None:
            foes = enemy_areas[unit.side] = set().union(
                *(areas for side, areas in held.items() if side != unit.side))
        if foes & state.board.distances(unit.area, gone).keys():
            return False
        reach = unit.stats.missile_range
        if reach > 0 and any(d <= reach for a, d in state.board.distances(unit.area).items()
                             if a in foes):
            return False
    return True
