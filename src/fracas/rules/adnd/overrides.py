"""AD&D underground: what the DM may change by hand (see :mod:`fracas.core.overrides`).

Gauges: hit points and boulders in hand.  Conditions: dead and unconscious.  A fighter
the DM lays low (hit points to 0, or made dead or unconscious) lets go of everything as a
slain fighter does (:func:`.falls.body_drops`: holds end, a climber's body drops, whoever
hung from him falls).  A newcomer is made like a fighter of the fight, where that fighter
stands, and joins the next round's initiative; a removed fighter leaves every record of the
fight; a delayed turn moves to the end of the round's queue.  The rulings are in
``docs/rules/adnd.md``.
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
    Condition,
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
from fracas.rules.adnd import falls
from fracas.rules.adnd.events import Slain
from fracas.rules.adnd.scenario import CombatantSpec, _profile
from fracas.rules.adnd.state import AdndUndergroundState, Fighter

__all__ = ["OVERRIDES", "AdndOverrides"]

#: The most boulders an adjust may put in a fighter's hands (the scenario's own bound).
MAX_BOULDERS = 100
#: The ways out of the fight the DM may set or clear.
OUT = ("dead", "unconscious")


class AdndOverrides(OverrideRules[AdndUndergroundState]):
    """The DM's overrides of an AD&D underground fight."""

    gm_title = "the DM"
    name_sep = "-"
    name_pattern = (r"[A-Za-z0-9_\-]+", "letters, digits, '-' and '_' (as in the scenario)")

    def targets(self, state: AdndUndergroundState) -> Sequence[str]:
        return state.setup.order

    def gauges(self, state: AdndUndergroundState, target: str) -> Mapping[str, Gauge]:
        f = state.fighters[target]
        return {"hp": Gauge("hit points", f.hp, 0, state.profile(target).hp_max, health=True),
                "boulders": Gauge("boulders", f.boulders, 0, MAX_BOULDERS)}

    def conditions(self, state: AdndUndergroundState, target: str,
                   ) -> Mapping[str, tuple[str, bool]]:
        status = state.fighters[target].status
        return {out: (out, status == out) for out in OUT}

    def models(self, state: AdndUndergroundState) -> Sequence[str]:
        return state.setup.order

    def taken(self, state: AdndUndergroundState) -> set[str]:
        return {*state.setup.profiles, *state.setup.sides, GM}

    typed_in = True

    def newcomer(self, state: AdndUndergroundState, entry: Mapping[str, Any]) -> str:
        return str(checked_entry(CombatantSpec, entry).name)

    def template(self, state: AdndUndergroundState) -> Mapping[str, Any]:
        model = state.profile(state.setup.order[0])
        return {"name": fresh_name(model.name, self.taken(state), "-"), "side": model.side,
                "level": model.level, "hp": model.hp_max, "thac0": model.thac0,
                "ac": model.ac}

    def delayable(self, state: AdndUndergroundState) -> Sequence[str]:
        if state.phase != "turns" or state.falling is not None or \
                state.turn >= len(state.queue) - 1:
            return ()
        return (state.queue[state.turn],)

    # -- the fold ------------------------------------------------------------------------
    def fold_adjusted(self, state: AdndUndergroundState, event: GaugeAdjusted) -> None:
        setattr(state.fighters[event.target], event.what, event.after)
        state.changed.append(event.target)

    def fold_condition(self, state: AdndUndergroundState, event: ConditionChanged) -> None:
        f = state.fighters[event.target]
        f.status = event.condition if event.on else "ok"
        state.changed.append(event.target)

    def fold_added(self, state: AdndUndergroundState, event: CombatantAdded) -> None:
        setup, name, like = state.setup, event.name, event.like
        profile = dataclasses.replace(setup.profiles[like], name=name)
        state.setup = dataclasses.replace(
            setup, profiles={**setup.profiles, name: profile}, order=(*setup.order, name),
            policies={**setup.policies, name: setup.policies[like]})
        model = state.fighters[like]
        state.changed += ("", name)
        state.fighters[name] = Fighter(
            name, profile.hp_max, model.alt, model.facing_wall, model.boulders,
            next((w.name for w in profile.weapons if not w.missile), "fist"))

    def fold_entered(self, state: AdndUndergroundState, event: CombatantEntered) -> None:
        spec = CombatantSpec.model_validate(json.loads(event.spec))
        setup = state.setup
        top = max((p.top_ft for p in setup.profiles.values()), default=0.0)
        profile = _profile(spec, top)
        policy = spec.policy if isinstance(spec.policy, str) else tuple(spec.policy)
        state.setup = dataclasses.replace(
            setup, profiles={**setup.profiles, spec.name: profile},
            order=(*setup.order, spec.name), policies={**setup.policies, spec.name: policy},
            sides=setup.sides if spec.side in setup.sides else (*setup.sides, spec.side))
        state.changed += ("", spec.name)
        state.fighters[spec.name] = Fighter(
            spec.name, spec.hp, spec.terrain.alt_ft, spec.terrain.facing_wall, spec.boulders,
            next((w.name for w in spec.weapons if not w.missile), "fist"))

    def fold_removed(self, state: AdndUndergroundState, event: CombatantRemoved) -> None:
        setup, name = state.setup, event.target
        del state.fighters[name]
        state.setup = dataclasses.replace(
            setup, profiles={k: v for k, v in setup.profiles.items() if k != name},
            order=tuple(n for n in setup.order if n != name),
            policies={k: v for k, v in setup.policies.items() if k != name})
        if name in state.queue:
            at = state.queue.index(name)
            state.queue = tuple(n for n in state.queue if n != name)
            if at < state.turn:
                state.turn -= 1
        if state.falling == name:
            state.falling, state.grab_choices = None, ()
        elif name in state.grab_choices:
            state.grab_choices = tuple(n for n in state.grab_choices if n != name)
        state.front = {side: tuple(n for n in names if n != name)
                       for side, names in state.front.items()}
        state.changed += ("", *state.fighters)  # everyone, and the front ranks
        for f in state.fighters.values():
            if name in (f.holding, f.held_by):  # the hold ends with nobody in it
                f.holding = f.held_by = None
                f.under = False
                f.breath_free = f.con_checks = 0
            if f.hanging_on == name:
                f.hanging_on = None  # clings on where he is

    def fold_delayed(self, state: AdndUndergroundState, event: TurnDelayed) -> None:
        state.queue = (*(n for n in state.queue if n != event.target), event.target)

    def after(self, state: AdndUndergroundState, action: Action, rng: Rng,
              emit: Callable[[Event], None]) -> None:
        if isinstance(action, Adjust):
            f = state.fighters[action.target]
            if action.what == "hp" and f.hp <= 0 and f.up:
                emit(Slain(action.target, "the DM's ruling"))
                falls.body_drops(state, action.target, rng, emit)
        elif isinstance(action, Condition) and action.on:
            falls.body_drops(state, action.target, rng, emit)

    def describe_delay(self, state: AdndUndergroundState, target: str) -> str:
        return f"{target} acts last this round"


#: The AD&D underground overrides (the plug-in class offers them as ``overrides``).
OVERRIDES: Overrides[AdndUndergroundState] = Overrides(AdndOverrides())
