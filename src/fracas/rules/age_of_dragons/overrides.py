"""Age of Dragons: what the GM may change by hand (see :mod:`fracas.core.overrides`).

Gauges: Physical Resilience (``pr``), Physical Defence (``pd``) and each resource the
combatant's reroll abilities spend.  Conditions: stunned, dead, and each body part
mauled or ripped.  A newcomer is made like a combatant in the fight; a removed
combatant leaves every record of the fight; a delayed turn moves to the end of the
initiative order.  The rulings are in ``docs/rules/age_of_dragons.md``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from fracas.core.action import Action
from fracas.core.events import Event
from fracas.core.overrides import (
    CombatantAdded,
    CombatantEntered,
    CombatantRemoved,
    ConditionChanged,
    Gauge,
    GaugeAdjusted,
    OverrideRules,
    Overrides,
    TurnDelayed,
    checked_entry,
    fresh_name,
)
from fracas.core.rng import Rng
from fracas.rules.age_of_dragons import events
from fracas.rules.age_of_dragons.scenario import CombatantSpec, _profile
from fracas.rules.age_of_dragons.state import (
    ALTITUDES,
    CLOSE,
    GROUNDED,
    LIMBS,
    LONG,
    MAULED,
    OK,
    RIPPED,
    AgeOfDragonsState,
    Fighter,
    pair,
)

__all__ = ["OVERRIDES", "AgeOfDragonsOverrides"]

#: The highest Physical Defence an adjust may set (evades can push it higher).
MAX_PD = 20
#: The highest amount of a resource an adjust may set (the scenario's own bound).
MAX_RESOURCE = 1000
#: The body parts, as the conditions name them.
PARTS: tuple[str, ...] = ("wing", "tail", *LIMBS)
_SEVERITY = {"mauled": MAULED, "ripped": RIPPED}


def _part(fighter: Fighter, part: str) -> int:
    if part == "wing":
        return fighter.wing
    if part == "tail":
        return fighter.tail
    return fighter.limbs[LIMBS.index(part)]


def _set_part(fighter: Fighter, part: str, severity: int) -> None:
    if part == "wing":
        fighter.wing = severity
    elif part == "tail":
        fighter.tail = severity
    else:
        fighter.limbs[LIMBS.index(part)] = severity


class AgeOfDragonsOverrides(OverrideRules[AgeOfDragonsState]):
    """The GM's overrides of an Age of Dragons fight."""

    def targets(self, state: AgeOfDragonsState) -> Sequence[str]:
        return tuple(state.fighters)

    def gauges(self, state: AgeOfDragonsState, target: str) -> Mapping[str, Gauge]:
        f = state.fighters[target]
        out = {"pr": Gauge("Physical Resilience", f.pr, -f.profile.pr_max, f.profile.pr_max,
                           health=True),
               "pd": Gauge("Physical Defence", f.pd, 0, MAX_PD)}
        for name in sorted(f.resources):
            out[name] = Gauge(name.replace("_", " "), f.resources[name], 0, MAX_RESOURCE)
        return out

    def conditions(self, state: AgeOfDragonsState, target: str,
                   ) -> Mapping[str, tuple[str, bool]]:
        f = state.fighters[target]
        out = {"stunned": ("stunned", f.stunned), "dead": ("dead", f.dead)}
        for part in PARTS:
            now = _part(f, part)
            words = part.replace("_", " ")
            for severity, level in _SEVERITY.items():
                out[f"{part}_{severity}"] = (f"{words} {severity}", now == level)
        return out

    def models(self, state: AgeOfDragonsState) -> Sequence[str]:
        return tuple(state.fighters)

    def taken(self, state: AgeOfDragonsState) -> set[str]:
        return {*state.fighters, *state.landmarks, "gm"}

    typed_in = True

    def newcomer(self, state: AgeOfDragonsState, entry: Mapping[str, Any]) -> str:
        return str(checked_entry(CombatantSpec, entry).name)

    def template(self, state: AgeOfDragonsState) -> Mapping[str, Any]:
        model = next(iter(state.fighters.values())).profile
        return {"name": fresh_name(model.name, self.taken(state)), "side": model.side,
                "soma": model.soma, "pr": model.pr_max, "pd": model.passive_pd,
                "flies": model.flies}

    def delayable(self, state: AgeOfDragonsState) -> Sequence[str]:
        turn = state.turn
        if turn is None or state.pending is not None or turn.step != "pool" or \
                state.turn_index >= len(state.order) - 1:
            return ()  # a turn is held before its pool is rolled, when someone acts after
        return (turn.actor,)

    # -- the fold ------------------------------------------------------------------------
    def fold_adjusted(self, state: AgeOfDragonsState, event: GaugeAdjusted) -> None:
        f = state.fighters[event.target]
        if event.what == "pr":
            f.pr = event.after
        elif event.what == "pd":
            f.pd = event.after
        else:
            f.resources[event.what] = event.after
        state.may_end = True

    def fold_condition(self, state: AgeOfDragonsState, event: ConditionChanged) -> None:
        f = state.fighters[event.target]
        if event.condition == "stunned":
            f.stunned = event.on
        elif event.condition == "dead":
            f.dead = event.on
        else:
            part, _, severity = event.condition.rpartition("_")
            _set_part(f, part, _SEVERITY[severity] if event.on else OK)
        state.may_end = True

    def fold_added(self, state: AgeOfDragonsState, event: CombatantAdded) -> None:
        model = state.fighters[event.like]
        profile = replace(model.profile, name=event.name)
        altitude = model.altitude if profile.flies else GROUNDED
        state.fighters[event.name] = Fighter(profile, profile.pr_max, profile.passive_pd,
                                             altitude, dict(model.resources))
        ranges = state.ranges
        for key, band in list(ranges.items()):
            if event.like in key:
                other = key[1] if key[0] == event.like else key[0]
                ranges[pair(event.name, other)] = band
        ranges[pair(event.name, event.like)] = CLOSE
        if state.order:
            state.order = (*state.order, event.name)
        state.may_end = True

    def fold_entered(self, state: AgeOfDragonsState, event: CombatantEntered) -> None:
        spec = CombatantSpec.model_validate(json.loads(event.spec))
        state.fighters[spec.name] = Fighter(_profile(spec), spec.pr, spec.pd,
                                            ALTITUDES.index(spec.altitude),
                                            dict(spec.resources))
        for other in (*state.fighters, *state.landmarks):
            if other != spec.name:
                state.ranges[pair(spec.name, other)] = LONG  # enters at the edge of the fight
        if state.order:
            state.order = (*state.order, spec.name)
        state.may_end = True

    def fold_removed(self, state: AgeOfDragonsState, event: CombatantRemoved) -> None:
        name = event.target
        del state.fighters[name]
        state.ranges = {k: v for k, v in state.ranges.items() if name not in k}
        state.grapples = {k for k in state.grapples if name not in k}
        if name in state.order:
            at = state.order.index(name)
            state.order = tuple(n for n in state.order if n != name)
            if at < state.turn_index:
                state.turn_index -= 1
        if state.turn is not None and state.turn.actor == name:
            state.turn = None  # nobody is left to finish the turn: the next one starts
            state.spot_run = None
        pending = state.pending
        if pending is not None:
            if pending.attacker == name:
                state.pending = None
            elif name in pending.defenders:
                pending.defenders.remove(name)
                if not pending.defenders:
                    state.pending = None
        state.may_end = True

    def fold_delayed(self, state: AgeOfDragonsState, event: TurnDelayed) -> None:
        state.order = (*(n for n in state.order if n != event.target), event.target)
        state.turn = None
        state.spot_run = None

    def after(self, state: AgeOfDragonsState, action: Action, rng: Rng,
              emit: Callable[[Event], None]) -> None:
        turn = state.turn
        if turn is None or state.pending is not None or state.result is not None:
            return
        f = state.fighters.get(turn.actor)
        if f is not None and not f.active:  # laid low in its own turn: it cannot act on
            emit(events.TurnLost(turn.actor, "dead" if f.dead else "dying"))
            emit(events.TurnEnded(turn.actor))

    def describe_delay(self, state: AgeOfDragonsState, target: str) -> str:
        return f"{target} will act last in the round, from now on"


#: The Age of Dragons overrides (the plug-in class offers them as ``overrides``).
OVERRIDES: Overrides[AgeOfDragonsState] = Overrides(AgeOfDragonsOverrides())
