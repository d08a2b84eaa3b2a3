"""Orders: which are legal in each phase, why an order is refused, and carrying them out."""

from __future__ import annotations

from fracas.core.action import Action
from fracas.core.errors import IllegalActionError
from fracas.core.rng import Rng
from fracas.core.ruleset import GM, Emit
from fracas.rules.battlesystem import hazards
from fracas.rules.battlesystem.combat import fire
from fracas.rules.battlesystem.events import (
    AltitudeChanged,
    CaveIn,
    Charge,
    Fire,
    Fly,
    Form,
    FormationChanged,
    GmEffectUsed,
    Hold,
    Move,
    Pass,
    ReleaseGas,
    StrikeFeature,
    Torches,
    TorchesChanged,
)
from fracas.rules.battlesystem.movement import engaged, march, may_take_formation
from fracas.rules.battlesystem.rules import (
    ALTITUDES,
    FORMATIONS,
    allowed_altitudes,
    movement_allowance,
)
from fracas.rules.battlesystem.state import BsState, Unit, blind, can_see

__all__ = ["can_act", "carry_out", "check_order", "gm_options", "legal_orders"]

UNIT_PHASES = {Move: "move", Charge: "move", Form: "move", Torches: "move", Fly: "move",
               Fire: "missile"}


def gm_options(state: BsState) -> list[Action]:
    """The prepared GM effects still available (each may be used once)."""
    options: list[Action] = []
    for i, (area, _material, _turn) in enumerate(state.gm_cave_ins):
        if f"cave:{i}" not in state.gm_used and area not in state.caved:
            options.append(CaveIn(GM, area))
    for i, gas in enumerate(state.gm_gases):
        if f"gas:{i}" not in state.gm_used:
            options.append(ReleaseGas(GM, gas[0]))
    for i, (feature, _turn) in enumerate(state.gm_strikes):
        if f"strike:{i}" not in state.gm_used and not state.features[feature].collapsed:
            options.append(StrikeFeature(GM, feature))
    return list(dict.fromkeys(options))


def targets_in_range(state: BsState, unit: Unit) -> list[Unit]:
    """Enemy units this unit could shoot: seen, in range and not locked in melee."""
    reach = unit.stats.missile_range
    if reach <= 0:
        return []
    distances = state.board.distances(unit.area)
    return [e for e in state.units.values()
            if e.on_field and e.side != unit.side and distances.get(e.area, reach + 1) <= reach
            and not engaged(state, e) and can_see(state, unit, e)]


def can_act(state: BsState, unit: Unit, phase: str) -> bool:
    """Whether ``unit`` orders in ``phase``: in good order (and able to shoot, for missiles)."""
    if unit.status != "ok":
        return False
    if phase == "missile":
        return not engaged(state, unit) and bool(targets_in_range(state, unit))
    return phase == "move"


def _candidates(state: BsState, unit: Unit, phase: str) -> list[Action]:
    me = unit.name
    if phase == "missile":
        return [Hold(me), *(Fire(me, e.name) for e in targets_in_range(state, unit))]
    out: list[Action] = [Hold(me)]
    if unit.stats.lights:
        out.append(Torches(me, not unit.lit))
    for formation in FORMATIONS:
        for axis in ("width", "length") if formation in ("open", "skirmish") else ("width",):
            out.append(Form(me, formation, axis))
    if unit.stats.flyer:
        out.extend(Fly(me, a) for a in ALTITUDES)
    out.extend(Move(me, a) for a in state.board.order if a != unit.area)
    out.extend(Charge(me, e.name) for e in state.units.values()
               if e.on_field and e.side != unit.side)
    return out


def legal_orders(state: BsState, actor: str, phase: str) -> list[Action]:
    """Every order ``actor`` may give in ``phase``."""
    if actor == GM:
        return [Pass(GM), *gm_options(state)]
    legal = []
    for action in _candidates(state, state.units[actor], phase):
        try:
            check_order(state, action, phase)
        except IllegalActionError:
            continue
        legal.append(action)
    return legal


def _refuse(action: Action, rule: str, reason: str) -> IllegalActionError:
    return IllegalActionError(action, rule=rule, reason=reason)


def check_order(state: BsState, action: Action, phase: str) -> None:
    """Raise :class:`IllegalActionError` naming the rule ``action`` breaks in ``phase``."""
    if action.actor == GM:
        if phase != "gm" or not isinstance(action, Pass | CaveIn | ReleaseGas | StrikeFeature):
            raise _refuse(action, "turn sequence", "the GM acts in the GM phase only")
        if not isinstance(action, Pass) and action not in gm_options(state):
            raise _refuse(action, "GM prepared effects",
                          "that effect was not prepared in the scenario or is used up")
        return
    unit = state.units.get(action.actor)
    if unit is None:
        raise _refuse(action, "turn sequence", f"there is no unit {action.actor}")
    wanted = UNIT_PHASES.get(type(action))
    if isinstance(action, Pass | CaveIn | ReleaseGas | StrikeFeature):
        raise _refuse(action, "turn sequence", "only the GM gives that order")
    if wanted is not None and wanted != phase:
        raise _refuse(action, "turn sequence", f"that order belongs to the {wanted} phase")
    if isinstance(action, Move):
        _check_move(state, unit, action)
    elif isinstance(action, Charge):
        _check_charge(state, unit, action)
    elif isinstance(action, Form):
        _check_form(state, unit, action)
    elif isinstance(action, Torches):
        if not unit.stats.lights or action.lit == unit.lit:
            raise _refuse(action, "light sources", "the unit has no lights to change that way")
    elif isinstance(action, Fly):
        _check_fly(state, unit, action)
    elif isinstance(action, Fire):
        _check_fire(state, unit, action)


def _check_move(state: BsState, unit: Unit, action: Move) -> None:
    if action.to not in state.board.areas or action.to == unit.area:
        raise _refuse(action, "movement", f"{action.to!r} is not another area of the map")
    if engaged(state, unit):
        raise _refuse(action, "melee", "a unit locked in melee cannot march away")
    if not state.board.path(unit.area, action.to, frozenset(state.gone)):
        raise _refuse(action, "movement", f"no open way leads to {action.to}")


def _enemy(state: BsState, unit: Unit, action: Action, name: str) -> Unit:
    target = state.units.get(name)
    if target is None or not target.on_field or target.side == unit.side:
        raise _refuse(action, "targets", f"{name!r} is not an enemy unit on the field")
    return target


def _check_charge(state: BsState, unit: Unit, action: Charge) -> None:
    target = _enemy(state, unit, action, action.target)
    if engaged(state, unit) or target.area == unit.area:
        raise _refuse(action, "charge", "the unit is already in contact")
    if not can_see(state, unit, target):
        raise _refuse(action, "darkness: charge", "a unit cannot charge what it cannot see")
    reach = movement_allowance(unit.stats.movement, blind(state, unit))
    if state.board.distances(unit.area, frozenset(state.gone)).get(target.area,
                                                                    reach + 1) > reach:
        raise _refuse(action, "charge", "the target is beyond this turn's movement")


def _check_form(state: BsState, unit: Unit, action: Form) -> None:
    if action.formation not in FORMATIONS or action.axis not in ("width", "length"):
        raise _refuse(action, "formations", "formation is closed, open, column or skirmish")
    if action.formation == unit.formation and action.axis == unit.axis:
        raise _refuse(action, "formations", "the unit already stands that way")
    if not may_take_formation(state, unit, action.formation, action.axis):
        raise _refuse(action, "frontage", "there is no room here for that formation")


def _check_fly(state: BsState, unit: Unit, action: Fly) -> None:
    if not unit.stats.flyer:
        raise _refuse(action, "flight", "the unit cannot fly")
    allowed = allowed_altitudes(state.board.areas[unit.area].ceiling)
    if action.altitude not in allowed:
        raise _refuse(action, "flight: ceiling bands",
                      f"the ceiling here allows only {', '.join(allowed)}")
    if abs(ALTITUDES.index(action.altitude) - ALTITUDES.index(unit.altitude)) != 1:
        raise _refuse(action, "flight", "a flyer changes altitude one band a turn")


def _check_fire(state: BsState, unit: Unit, action: Fire) -> None:
    target = _enemy(state, unit, action, action.target)
    if unit.stats.missile_range <= 0:
        raise _refuse(action, "missiles", "the unit has no missile weapons")
    if engaged(state, unit) or engaged(state, target):
        raise _refuse(action, "missiles", "no shooting out of or into a melee")
    if not can_see(state, unit, target):
        raise _refuse(action, "darkness: missiles", "a unit cannot fire at what it cannot see")
    distance = state.board.distances(unit.area).get(target.area)
    if distance is None or distance > unit.stats.missile_range:
        raise _refuse(action, "missiles", "the target is out of range")


def carry_out(state: BsState, action: Action, rng: Rng, emit: Emit) -> None:
    """Resolve a legal order."""
    if isinstance(action, CaveIn):
        i = next(i for i, c in enumerate(state.gm_cave_ins)
                 if c[0] == action.area and f"cave:{i}" not in state.gm_used)
        emit(GmEffectUsed(f"cave:{i}"))
        hazards.cave_in(state, action.area, state.gm_cave_ins[i][1], rng, emit)
    elif isinstance(action, ReleaseGas):
        i = next(i for i, g in enumerate(state.gm_gases)
                 if g[0] == action.area and f"gas:{i}" not in state.gm_used)
        emit(GmEffectUsed(f"gas:{i}"))
        _area, diameter, turns, dice, _turn = state.gm_gases[i]
        hazards.release_gas(state, action.area, diameter, dice, turns, emit)
    elif isinstance(action, StrikeFeature):
        i = next(i for i, s in enumerate(state.gm_strikes)
                 if s[0] == action.feature and f"strike:{i}" not in state.gm_used)
        emit(GmEffectUsed(f"strike:{i}"))
        hazards.stress_feature(state, action.feature, False, True, rng, emit)
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
        emit(AltitudeChanged(action.actor, action.altitude))
    elif isinstance(action, Fire):
        fire(state, state.units[action.actor], state.units[action.target], rng, emit)
