"""Orders: who gives which in each phase and why an order is refused.

A decision is put together step by step (see :mod:`fracas.core.decision`): the
verb, then each field of the order.  :func:`why_not` is the one authority on
legality: it judges a partial order as soon as a field is chosen, and the
whole-order check derives from it.  :func:`step` offers the candidates for the
next field (areas, enemy units, formations, altitudes, the GM's prepared
effects); the core keeps only those ``why_not`` accepts.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from fracas.core.action import Action
from fracas.core.decision import Menu, Partial, Span
from fracas.core.errors import IllegalActionError
from fracas.core.presentation import possessive
from fracas.core.ruleset import GM
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
from fracas.rules.battlesystem.movement import (
    engaged,
    foes_in_reach,
    in_reach,
    may_take_formation,
)
from fracas.rules.battlesystem.rules import (
    ALTITUDES,
    FORMATIONS,
    WITHDRAW_MIN_MOVE,
    allowed_altitudes,
    can_melee,
    movement_allowance,
)
from fracas.rules.battlesystem.state import BattlesystemState, Unit, blind, can_see, room_for

__all__ = ["GROUP_SIZE", "NAMED", "VERB_LABELS", "allows", "can_act", "candidates", "foes_in_reach",
           "gm_effects", "gm_has_effects", "groups", "step", "targets_in_range", "why_not"]

UNIT_PHASES: dict[type[Action], str] = {Move: "move", Charge: "move", Form: "move",
                                        Torches: "move", Fly: "move", Withdraw: "move",
                                        Attack: "move", Fire: "missile"}
GM_ORDERS: tuple[type[Action], ...] = (Pass, CaveIn, ReleaseGas, StrikeFeature)
SPREADING = ("open", "skirmish")
AXES = ("width", "length")

#: What a person reads for each verb in the first step.
VERB_LABELS: dict[str, str] = {
    "move": "march toward an area", "charge": "charge an enemy unit", "hold": "hold",
    "form": "change formation", "torches": "light or put out torches",
    "fly": "change altitude", "fire": "shoot missiles", "pass": "no effect this turn",
    "cave_in": "bring down a ceiling", "release_gas": "release a gas",
    "strike": "strike a fragile formation",
    "withdraw": "withdraw from the melee", "attack": "hold and strike one foe in contact",
}


# -- the GM's prepared effects ------------------------------------------------------

def gm_effects(state: BattlesystemState, kind: type[Action]) -> list[str]:
    """The areas (or features) of the prepared GM effects of ``kind`` still available.

    Worked out once per kind until the fold changes what is used or fallen (the state's
    readings); the list is shared between callers: read it, never change it.
    """
    known = state.readings.gm.get(kind)
    if known is None:
        known = state.readings.gm[kind] = _gm_effects(state, kind)
    return known


def _gm_effects(state: BattlesystemState, kind: type[Action]) -> list[str]:
    out: list[str] = []
    used = state.gm_used
    if kind is CaveIn:
        caves = state.gm_cave_ins
        out = [area for (area, _m, _t), key in zip(caves, _keys("cave", len(caves)), strict=True)
               if key not in used and area not in state.caved]
    elif kind is ReleaseGas:
        gases = state.gm_gases
        out = [gas[0] for gas, key in zip(gases, _keys("gas", len(gases)), strict=True)
               if key not in used]
    elif kind is StrikeFeature:
        strikes = state.gm_strikes
        out = [feature for (feature, _t), key in zip(strikes, _keys("strike", len(strikes)),
                                                      strict=True)
               if key not in used and not state.features[feature].collapsed]
    return list(dict.fromkeys(out)) if len(out) > 1 else out


@cache
def _keys(prefix: str, count: int) -> tuple[str, ...]:
    """The names the GM's prepared effects of one kind go by once used (``cave:0``...)."""
    return tuple(f"{prefix}:{i}" for i in range(count))


def gm_has_effects(state: BattlesystemState) -> bool:
    """Whether any prepared GM effect is still available (the GM then gets a phase).

    Worked out once until the fold changes what is used or fallen (the state's readings).
    """
    if not (state.gm_cave_ins or state.gm_gases or state.gm_strikes):
        return False  # none was prepared
    readings = state.readings
    known = readings.gm_any
    if known is None:
        known = readings.gm_any = any(gm_effects(state, kind)
                                      for kind in (CaveIn, ReleaseGas, StrikeFeature))
    return known


def targets_in_range(state: BattlesystemState, unit: Unit) -> list[Unit]:
    """Enemy units this unit could shoot: seen, in range and not locked in melee.

    Worked out once per unit until a unit or the turn changes (the state's readings);
    the list is shared between callers: read it, never change it.
    """
    reach = unit.stats.missile_range
    if reach <= 0:
        return []
    readings = state.readings
    known = readings.targets.get(unit.name)
    if known is None:
        distances = state.board.distances(unit.area)
        known = readings.targets[unit.name] = [
            e for e in state.units.values()
            if e.on_field and e.side != unit.side and distances.get(e.area, reach + 1) <= reach
            and not engaged(state, e) and can_see(state, unit, e)]
    return known


def can_act(state: BattlesystemState, unit: Unit, phase: str) -> bool:
    """Whether ``unit`` orders in ``phase``: in good order (and able to shoot, for missiles)."""
    if unit.status != "ok":
        return False
    if phase == "missile":
        # A unit without missiles has no target: it is not asked whether it is engaged.
        return unit.stats.missile_range > 0 and not engaged(state, unit) and \
            bool(targets_in_range(state, unit))
    return phase == "move"


# -- the quick yes --------------------------------------------------------------------

def allows(state: BattlesystemState, action: Action) -> bool:
    """A quick yes for whole orders: ``True`` only when the full check
    (:func:`fracas.core.decision.check`) accepts ``action``; ``False`` means "judge it in
    full".

    A unit holding and the GM passing are judged here outright, and so is choosing whom
    to strike; every other order whose fields are of their declared types, with no group
    named (and an order to form along the width), is judged by :func:`why_not` on the
    whole order, without the check's walk over the fields.
    ``tests/rules/battlesystem/test_battlesystem_quick_check.py`` holds it to the full
    check."""
    if state.result is not None or not state.queue or state.queue[0] != action.actor:
        return False
    kind = type(action)
    if kind is Hold:
        return action.actor != GM and action.actor in state.units
    if kind is Pass:
        return action.actor == GM and state.phase == "gm"
    if kind is Attack and state.phase == "move" and not action.group:  # type: ignore[attr-defined]
        unit = state.units.get(action.actor)
        target = state.units.get(action.target)  # type: ignore[attr-defined]
        return unit is not None and target is not None and target.side != unit.side and \
            target.on_field and target.area == unit.area and in_reach(state, unit, target) \
            and len(foes_in_reach(state, unit)) > 1  # ruling 25
    named = _QUICK.get(kind)
    if named is None or getattr(action, "group", "") != "" or (
            kind is Form and action.axis != "width"):  # type: ignore[attr-defined]
        return False
    if kind is Torches:
        if type(action.lit) is not bool:  # type: ignore[attr-defined]
            return False
    elif not isinstance(getattr(action, named), str):
        return False
    return why_not(state, Partial.of(action)) is None


#: The orders :func:`allows` judges by :func:`why_not`, with the field that must be text
#: (a torches order's ``lit`` must be a yes or no).
_QUICK: dict[type[Action], str] = {
    Move: "to", Charge: "target", Fire: "target", Withdraw: "to", Fly: "altitude",
    Form: "formation", Torches: "lit", CaveIn: "area", ReleaseGas: "area",
    StrikeFeature: "feature",
}


# -- why not: the one authority -----------------------------------------------------

Refusal = IllegalActionError | None


def why_not(state: BattlesystemState, p: Partial) -> Refusal:
    """Why the (partial) order ``p`` cannot be given now, naming the rule; ``None`` if it can."""
    actor = state.queue[0] if state.result is None and state.queue else None
    if actor is None or p.actor != actor:
        return p.refuse("turn sequence", f"it is not {possessive(p.actor)} turn")
    if p.actor == GM:
        if state.phase != "gm" or p.kind not in GM_ORDERS:
            return p.refuse("turn sequence", "the GM acts in the GM phase only")
        return _gm_why_not(state, p)
    unit = state.units.get(p.actor)
    if unit is None:
        return p.refuse("turn sequence", f"there is no unit {p.actor}")
    if p.kind in GM_ORDERS:
        return p.refuse("turn sequence", "only the GM gives that order")
    wanted = UNIT_PHASES.get(p.kind)
    if wanted is not None and wanted != state.phase:
        return p.refuse("turn sequence", f"that order belongs to the {wanted} phase")
    judge = _JUDGES.get(p.kind)
    refusal = judge(state, unit, p) if judge is not None else None
    return refusal or (_group_why_not(state, p) if p.kind in NAMED else None)


def _gm_why_not(state: BattlesystemState, p: Partial) -> Refusal:
    if p.kind is Pass:
        return None
    name = "feature" if p.kind is StrikeFeature else "area"
    available = gm_effects(state, p.kind)
    if not available or (name in p and p[name] not in available):
        return p.refuse("GM prepared effects",
                        "that effect was not prepared in the scenario or is used up")
    return _group_why_not(state, p)


def _move(state: BattlesystemState, unit: Unit, p: Partial) -> Refusal:
    if engaged(state, unit):
        return p.refuse("melee", "a unit locked in melee cannot march away")
    if "to" not in p:
        return None
    to = p["to"]
    if to not in state.board.areas or to == unit.area:
        return p.refuse("movement", f"{to!r} is not another area of the map")
    if not state.board.path(unit.area, to, frozenset(state.gone)):
        return p.refuse("movement", f"no open way leads to {to}")
    return None


def _enemy(state: BattlesystemState, unit: Unit, p: Partial,
           name: object) -> Unit | IllegalActionError:
    target = state.units.get(name) if isinstance(name, str) else None
    # A unit the side cannot see is refused as one that does not exist: a refusal must
    # not tell the side where a hidden unit is.
    if target is None or not target.on_field or target.side == unit.side or not _side_sees(
            state, unit.side, target):
        return p.refuse("targets", f"{name!r} is not an enemy unit on the field")
    return target


def _charge(state: BattlesystemState, unit: Unit, p: Partial) -> Refusal:
    if engaged(state, unit):
        return p.refuse("charge", "the unit is already in contact")
    if "target" not in p:
        return None
    target = _enemy(state, unit, p, p["target"])
    if isinstance(target, IllegalActionError):
        return target
    if target.area == unit.area:
        return p.refuse("charge", "the unit is already in contact")
    if not can_see(state, unit, target):
        return p.refuse("darkness: charge", "a unit cannot charge what it cannot see")
    reach = movement_allowance(unit.stats.movement, blind(state, unit))
    distance = state.board.distances(unit.area, frozenset(state.gone)).get(target.area)
    if distance is None or distance > reach:
        return p.refuse("charge", "the target is beyond this turn's movement")
    return None


#: Ruling 22: what a unit in melee may do about its formation.
MELEE_FORMATION = ("a unit locked in melee keeps its formation; only a column may deploy "
                   "into closed order")


def _form(state: BattlesystemState, unit: Unit, p: Partial) -> Refusal:
    in_melee = engaged(state, unit)
    if in_melee and unit.formation != "column":
        return p.refuse("melee: formations", MELEE_FORMATION)
    if "formation" not in p:
        return None
    formation = p["formation"]
    if formation not in FORMATIONS:
        return p.refuse("formations", "formation is closed, open, column or skirmish")
    if in_melee and formation != "closed":
        return p.refuse("melee: formations", MELEE_FORMATION)
    if "axis" in p:
        axes: tuple[object, ...] = (p["axis"],)
        if p["axis"] not in AXES:
            return p.refuse("formations", "open formations spread along width or length")
    else:
        axes = AXES if formation in SPREADING else ("width",)
    if all(formation == unit.formation and axis == unit.axis for axis in axes):
        return p.refuse("formations", "the unit already stands that way")
    if not any(may_take_formation(state, unit, formation, str(axis)) for axis in axes
               if not (formation == unit.formation and axis == unit.axis)):
        return p.refuse("frontage", "there is no room here for that formation")
    return None


def _torches(state: BattlesystemState, unit: Unit, p: Partial) -> Refusal:
    if not unit.stats.lights:
        return p.refuse("light sources", "the unit has no lights")
    if "lit" in p and (not isinstance(p["lit"], bool) or p["lit"] == unit.lit):
        return p.refuse("light sources", "the torches already stand that way")
    return None


def _fly(state: BattlesystemState, unit: Unit, p: Partial) -> Refusal:
    if not unit.stats.flyer:
        return p.refuse("flight", "the unit cannot fly")
    foes = foes_in_reach(state, unit)
    if foes and movement_allowance(unit.stats.movement, blind(state, unit)) < WITHDRAW_MIN_MOVE:
        return p.refuse("melee: withdrawal", WITHDRAW_SLOW)
    if "altitude" not in p:
        return None
    altitude = p["altitude"]
    allowed = allowed_altitudes(state.board.areas[unit.area].ceiling)
    if altitude not in allowed:
        return p.refuse("flight: ceiling bands",
                        f"the ceiling here allows only {', '.join(allowed)}")
    if abs(ALTITUDES.index(altitude) - ALTITUDES.index(unit.altitude)) != 1:
        return p.refuse("flight", "a flyer changes altitude one band a turn")
    if foes:
        # Ruling 24: a flyer in melee changes band only to fly out of contact altogether.
        if any(can_melee(str(altitude), e.altitude) for e in foes):
            return p.refuse("melee: withdrawal", "a flyer locked in melee may change band "
                            "only to fly out of reach of every foe it fights")
        if any(e.area == unit.area and e.side != unit.side and e.on_field
               and can_melee(str(altitude), e.altitude) and _side_sees(state, unit.side, e)
               for e in state.units.values()):
            return p.refuse("melee: withdrawal", WITHDRAW_INTO)
    return None


def _side_sees(state: BattlesystemState, side: str, target: Unit) -> bool:
    """Whether some unit of ``side`` on the field sees ``target``."""
    return any(can_see(state, own, target) for own in state.units.values()
               if own.side == side and own.on_field)


#: Ruling 23: the refusals of a withdrawal (an enemy the side does not see blocks nothing:
#: the unit backs into it, and the refusal would tell what the side cannot see).
WITHDRAW_SLOW = (f"a withdrawal needs at least {WITHDRAW_MIN_MOVE:g} inches of movement "
                 "this turn")
WITHDRAW_INTO = "a withdrawal may not end in contact with another enemy unit"


def _withdraw(state: BattlesystemState, unit: Unit, p: Partial) -> Refusal:
    if not engaged(state, unit):
        return p.refuse("melee: withdrawal", "only a unit locked in melee withdraws")
    if movement_allowance(unit.stats.movement, blind(state, unit)) < WITHDRAW_MIN_MOVE:
        return p.refuse("melee: withdrawal", WITHDRAW_SLOW)
    if "to" not in p:
        return None
    to = p["to"]
    if not isinstance(to, str) or state.board.link(unit.area, to) is None:
        return p.refuse("melee: withdrawal", f"{to!r} is not a neighbouring area")
    if to in state.gone:
        return p.refuse("movement", f"no open way leads to {to}")
    if any(e.area == to and e.side != unit.side and e.on_field and _side_sees(state, unit.side, e)
           for e in state.units.values()):
        return p.refuse("melee: withdrawal", WITHDRAW_INTO)
    if not room_for(state, unit, to):
        return p.refuse("frontage", f"there is no room for the unit in {to}")
    return None


def _strike(state: BattlesystemState, unit: Unit, p: Partial) -> Refusal:
    if len(foes_in_reach(state, unit)) < 2:
        return p.refuse("melee: choosing whom to strike",
                        "only a unit in contact with several enemy units chooses whom to strike")
    if "target" not in p:
        return None
    name = p["target"]
    target = state.units.get(name) if isinstance(name, str) else None
    if target is not None and target.side != unit.side and target.on_field and in_reach(
            state, unit, target) and target.area == unit.area:
        return None
    found = _enemy(state, unit, p, name)
    if isinstance(found, IllegalActionError):
        return found
    return p.refuse("melee: choosing whom to strike",
                    "a unit strikes only an enemy unit in contact with it")


def _fire(state: BattlesystemState, unit: Unit, p: Partial) -> Refusal:
    if unit.stats.missile_range <= 0:
        return p.refuse("missiles", "the unit has no missile weapons")
    if engaged(state, unit):
        return p.refuse("missiles", "no shooting out of a melee")
    if "target" not in p:
        return None
    target = _enemy(state, unit, p, p["target"])
    if isinstance(target, IllegalActionError):
        return target
    if engaged(state, target):
        return p.refuse("missiles", "no shooting into a melee")
    if not can_see(state, unit, target):
        return p.refuse("darkness: missiles", "a unit cannot fire at what it cannot see")
    distance = state.board.distances(unit.area).get(target.area)
    if distance is None or distance > unit.stats.missile_range:
        return p.refuse("missiles", "the target is out of range")
    return None


_JUDGES: dict[type[Action], Callable[[BattlesystemState, Unit, Partial], Refusal]] = {
    Move: _move, Charge: _charge, Form: _form, Torches: _torches, Fly: _fly, Fire: _fire,
    Withdraw: _withdraw, Attack: _strike,
}


# -- step: the candidates for the next field ----------------------------------------

#: Most values one step offers; longer lists are split into groups of at most this many.
GROUP_SIZE = 12

#: The field naming an area, unit or feature, for the orders that carry a ``group``.
NAMED: dict[type[Action], str] = {Move: "to", Charge: "target", Fire: "target",
                                  CaveIn: "area", ReleaseGas: "area", StrikeFeature: "feature",
                                  Withdraw: "to", Attack: "target"}


def candidates(state: BattlesystemState, p: Partial) -> list[str]:
    """What the named field of ``p`` may be, before ``why_not`` (areas, units, features)."""
    if p.kind in (CaveIn, ReleaseGas, StrikeFeature):
        return gm_effects(state, p.kind)
    unit = state.units.get(p.actor)
    if unit is None:
        return []
    if p.kind is Move:
        distances = state.board.distances(unit.area, frozenset(state.gone))
        return [a for a in state.board.order if a != unit.area and a in distances]
    if p.kind is Charge:
        return [e.name for e in state.units.values() if e.on_field and e.side != unit.side]
    if p.kind is Fire:
        return [e.name for e in targets_in_range(state, unit)]
    if p.kind is Withdraw:
        return [lk.to for lk in state.board.links[unit.area]]
    if p.kind is Attack:
        return [e.name for e in foes_in_reach(state, unit)]
    return []


def groups(values: list[str]) -> dict[str, list[str]]:
    """``values`` split into even runs of at most :data:`GROUP_SIZE`, by first member.

    Empty when they fit one step (nothing to group).
    """
    if len(values) <= GROUP_SIZE:
        return {}
    count = -(-len(values) // GROUP_SIZE)
    size = -(-len(values) // count)
    return {values[i]: values[i:i + size] for i in range(0, len(values), size)}


def _group_why_not(state: BattlesystemState, p: Partial) -> Refusal:
    group = p.get("group", "")
    if not group:
        return None
    chunks = groups(candidates(state, p))
    if not chunks:
        return p.refuse("orders", f"group does not apply: there are at most {GROUP_SIZE} "
                        "to choose from")
    if group not in chunks:
        return p.refuse("orders", f"{group!r} names no group of this choice")
    named = NAMED[p.kind]
    if named in p and p[named] not in chunks[group]:
        return p.refuse("orders", f"{p[named]!r} is not in the group {group!r}")
    return None


def step(state: BattlesystemState, p: Partial, name: str) -> Menu | Span | None:
    """The values to offer for field ``name`` of ``p`` (``why_not`` then drops refused ones)."""
    named = NAMED.get(p.kind)
    if named is not None:
        values = candidates(state, p)
        chunks = groups(values)
        if name == "group":
            if not chunks:
                return None
            return Menu.of(list(chunks), label=lambda g: f"{g} to {chunks[g][-1]}")
        if p.get("group"):
            values = chunks.get(p["group"], [])
        return Menu.of(values, label=_label(state, p))
    unit = state.units.get(p.actor)
    if unit is None:
        return Menu(())
    if p.kind is Form:
        if name == "formation":
            return Menu.of(FORMATIONS)
        if p.get("formation") not in SPREADING:
            return None
        return Menu.of(AXES, label=lambda a: f"spread along the {a}")
    if p.kind is Torches:
        return Menu.of([not unit.lit], label=lambda lit: "light them" if lit else "put them out")
    if p.kind is Fly:
        return Menu.of(ALTITUDES)
    return None


def _label(state: BattlesystemState, p: Partial) -> Callable[[str], str]:
    unit = state.units.get(p.actor)
    if p.kind is Move and unit is not None:
        distances = state.board.distances(unit.area, frozenset(state.gone))
        return lambda a: f"{a} ({distances[a]:g} in)"
    if p.kind is Withdraw:
        return lambda a: f"back into {a}"
    if p.kind in (Charge, Fire, Attack):
        def foe(name: str) -> str:
            e = state.units[name]
            return f"{name} ({e.figures} figures in {e.area})"
        return foe
    return str
