"""BATTLESYSTEM: what the GM may change by hand (see :mod:`fracas.core.overrides`).

Gauges: a unit's figures, its wounded figures and its morale.  A unit the GM leaves with
no figure is destroyed, by the rule that destroys a unit in battle.  Conditions: routing
and torches lit.  A newcomer is a unit made like one of the battle, at full strength,
where that unit stands; it acts from the next phase.  A removed unit leaves the battle
(status ``removed``: off the field, as a unit that fled, so a removed leader leaves his
army out of command); a delayed unit moves to the end of the phase's order.  The rulings
are in ``docs/rules/battlesystem.md``.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from fracas.core.action import GM, Action
from fracas.core.events import Event
from fracas.core.overrides import (
    Adjust,
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
from fracas.rules.battlesystem.events import UnitLeft
from fracas.rules.battlesystem.scenario import UnitModel, _unit
from fracas.rules.battlesystem.state import BattlesystemState, Unit

__all__ = ["OVERRIDES", "BattlesystemOverrides"]

#: A unit's status once the GM has taken it out of the battle.
REMOVED = "removed"
#: The morale scores an adjust may set (the scenario's own bounds).
MORALE = (2, 20)


class BattlesystemOverrides(OverrideRules[BattlesystemState]):
    """The GM's overrides of a BATTLESYSTEM battle."""

    def targets(self, state: BattlesystemState) -> Sequence[str]:
        return tuple(n for n, u in state.units.items() if u.status != REMOVED)

    def gauges(self, state: BattlesystemState, target: str) -> Mapping[str, Gauge]:
        u = state.units[target]
        return {"figures": Gauge("figures", u.figures, 0, u.stats.start_figures, health=True),
                "wounded": Gauge("wounded figures", u.wounded, 0, u.figures),
                "morale": Gauge("morale", u.stats.morale, *MORALE)}

    def conditions(self, state: BattlesystemState, target: str,
                   ) -> Mapping[str, tuple[str, bool]]:
        u = state.units[target]
        out = {"lit": ("carrying lit torches", u.lit)}
        if u.on_field:
            out["routing"] = ("routing", u.status == "routing")
        return out

    def models(self, state: BattlesystemState) -> Sequence[str]:
        return tuple(state.units)

    def taken(self, state: BattlesystemState) -> set[str]:
        return {*state.units, *state.board.areas, *(s.name for s in state.sides), GM}

    typed_in = True

    def newcomer(self, state: BattlesystemState, entry: Mapping[str, Any]) -> str:
        model = checked_entry(UnitModel, entry)
        sides = [s.name for s in state.sides]
        if model.side not in sides:
            raise ValueError(f"side: {model.side!r} is not an army of this battle "
                             f"({', '.join(sides)})")
        if model.area not in state.board.areas or model.area in state.gone:
            raise ValueError(f"area: {model.area!r} is not an area of this battle one can "
                             "stand in")
        return str(model.name)

    def template(self, state: BattlesystemState) -> Mapping[str, Any]:
        model = next(iter(state.units.values()))
        return {"name": fresh_name(model.name, self.taken(state), "-"), "side": model.side,
                "area": model.area, "figures": model.stats.start_figures}

    def delayable(self, state: BattlesystemState) -> Sequence[str]:
        queue = state.queue
        if len(queue) < 2 or queue[0] == GM or state.phase not in ("move", "missile"):
            return ()
        return (queue[0],)

    # -- the fold ------------------------------------------------------------------------
    def fold_adjusted(self, state: BattlesystemState, event: GaugeAdjusted) -> None:
        u = state.units[event.target]
        if event.what == "figures":
            u.figures = event.after
            u.wounded = min(u.wounded, u.figures)  # no more wounded figures than figures
        elif event.what == "wounded":
            u.wounded = event.after
        else:
            u.stats = dataclasses.replace(u.stats, morale=event.after)

    def fold_condition(self, state: BattlesystemState, event: ConditionChanged) -> None:
        u = state.units[event.target]
        if event.condition == "lit":
            u.lit = event.on
        else:
            u.status = "routing" if event.on else "ok"

    name_sep = "-"

    def fold_added(self, state: BattlesystemState, event: CombatantAdded) -> None:
        model = state.units[event.like]
        stats = dataclasses.replace(model.stats, name=event.name)
        state.units[event.name] = Unit(stats, model.area, stats.start_figures, model.formation,
                                       rear=model.rear, axis=model.axis,
                                       altitude=model.altitude, lit=model.lit)
        state.policies = {**state.policies, event.name: state.policies[event.like]}

    def fold_entered(self, state: BattlesystemState, event: CombatantEntered) -> None:
        model = UnitModel.model_validate(json.loads(event.spec))
        state.units[model.name] = _unit(model)
        policy = model.policy if isinstance(model.policy, str) else tuple(model.policy)
        state.policies = {**state.policies, model.name: policy}

    def fold_removed(self, state: BattlesystemState, event: CombatantRemoved) -> None:
        state.units[event.target].status = REMOVED
        state.queue = [n for n in state.queue if n != event.target]

    def fold_delayed(self, state: BattlesystemState, event: TurnDelayed) -> None:
        state.queue = [*(n for n in state.queue if n != event.target), event.target]

    def after(self, state: BattlesystemState, action: Action, rng: Rng,
              emit: Callable[[Event], None]) -> None:
        if isinstance(action, Adjust):
            u = state.units[action.target]
            if u.figures == 0 and u.on_field:
                emit(UnitLeft(u.name, "destroyed"))  # the game's rule: no figure left

    def describe_delay(self, state: BattlesystemState, target: str) -> str:
        return f"{target} acts last in this {state.phase} phase"


#: The BATTLESYSTEM overrides (the plug-in class offers them as ``overrides``).
OVERRIDES: Overrides[BattlesystemState] = Overrides(BattlesystemOverrides())
