"""The One Ring: what the Loremaster may change by hand (see :mod:`fracas.core.overrides`).

Gauges: a hero's Endurance, Hope and Wounds; an adversary's Endurance, Hate (or
Resolve) and Wounds.  An adjust that leaves a combatant at 0 Endurance or past its
Wounds takes it out by the game's own rule (:func:`.combat.check_out`).  Conditions:
knocked back, unconscious and dying for a hero, dead for an adversary.  A newcomer is
made like a combatant of the fight and enters at the next round; a removed combatant
leaves every record of the fight; a delayed turn moves to the end of the current
phase's order (a held stance is chosen after the others).  The rulings are in
``docs/rules/one_ring.md``.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from fracas.core.action import Action
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
from fracas.rules.one_ring.catalogue import catalogue
from fracas.rules.one_ring.combat import check_out
from fracas.rules.one_ring.scenario import AdversarySpec, HeroSpec, _foe_cards, _hero_card
from fracas.rules.one_ring.state import (
    OPEN,
    STANCES,
    FoeState,
    HeroState,
    OneRingState,
)

__all__ = ["OVERRIDES", "OneRingOverrides"]

#: The most Wounds an adjust may give (a hero with two is dying).
MAX_WOUNDS = 9
#: Hero conditions that are a way of being out of the fight (the hero's status).
HERO_OUT = ("unconscious", "dying")


class OneRingOverrides(OverrideRules[OneRingState]):
    """The Loremaster's overrides of a One Ring fight."""

    gm_title = "the Loremaster"

    def targets(self, state: OneRingState) -> Sequence[str]:
        return (*state.roster.hero_order, *state.roster.foe_order)

    def gauges(self, state: OneRingState, target: str) -> Mapping[str, Gauge]:
        h = state.heroes.get(target)
        if h is not None:
            card = state.roster.heroes[target]
            return {"endurance": Gauge("Endurance", h.endurance, 0, card.endurance_max,
                                       health=True),
                    "hope": Gauge("Hope", h.hope, 0, card.hope_max),
                    "wounds": Gauge("Wounds", h.wounds, 0, MAX_WOUNDS)}
        f = state.foes[target]
        foe = state.roster.foes[target]
        return {"endurance": Gauge("Endurance", f.endurance, 0, foe.endurance_max, health=True),
                "hate": Gauge(foe.hate_label.capitalize(), f.hate, 0, foe.hate_max),
                "wounds": Gauge("Wounds", f.wounds, 0, MAX_WOUNDS)}

    def conditions(self, state: OneRingState, target: str) -> Mapping[str, tuple[str, bool]]:
        h = state.heroes.get(target)
        if h is not None:
            out = {"knocked_back": ("knocked back", h.knocked_back)}
            for status in HERO_OUT:
                out[status] = (status, h.status == status)
            return out
        return {"dead": ("dead", state.foes[target].status == "dead")}

    def models(self, state: OneRingState) -> Sequence[str]:
        return self.targets(state)

    typed_in = True

    def newcomer(self, state: OneRingState, entry: Mapping[str, Any]) -> str:
        spec = _entry_spec(entry)
        if isinstance(spec, AdversarySpec) and spec.count != 1:
            raise ValueError("count: bring one adversary in at a time")
        return str(spec.name)

    def template(self, state: OneRingState) -> Mapping[str, Any]:
        known = catalogue().adversaries
        first = next(iter(state.roster.foes.values()), None)
        kind = first.kind if first is not None and first.kind in known else next(iter(known))
        like = first.name if first is not None else kind
        return {"name": fresh_name(like, self.taken(state)), "kind": kind}

    def delayable(self, state: OneRingState) -> Sequence[str]:
        if state.pending is not None or state.phase not in ("volley", "stance", "action") or \
                state.cursor >= len(state.order) - 1:
            return ()
        name = state.order[state.cursor]
        h = state.heroes.get(name)
        if h is not None:
            if h.status != "ok" or h.main_done or h.secondary_used:
                return ()
            return (name,)
        f = state.foes[name]
        full = state.roster.foes[name].might if state.phase == "action" else 1
        return (name,) if f.status == "ok" and f.attacks_left >= full else ()

    # -- the fold ------------------------------------------------------------------------
    def fold_adjusted(self, state: OneRingState, event: GaugeAdjusted) -> None:
        c: HeroState | FoeState = state.heroes.get(event.target) or state.foes[event.target]
        setattr(c, event.what, event.after)

    def fold_condition(self, state: OneRingState, event: ConditionChanged) -> None:
        name, condition = event.target, event.condition
        if condition == "knocked_back":
            state.heroes[name].knocked_back = event.on
            return
        c: HeroState | FoeState = state.heroes.get(name) or state.foes[name]
        if event.on:
            c.status = condition
            state.board.remove(name)
        else:
            c.status = "ok"
            if isinstance(c, HeroState) and c.stance not in STANCES:
                c.stance = OPEN  # back before choosing any stance: Open until the next round

    def fold_added(self, state: OneRingState, event: CombatantAdded) -> None:
        roster, name, like = state.roster, event.name, event.like
        if like in roster.heroes:
            card = dataclasses.replace(roster.heroes[like], name=name)
            state.roster = dataclasses.replace(
                roster, heroes={**roster.heroes, name: card},
                hero_order=(*roster.hero_order, name))
            model = state.heroes[like]
            wielded = next((w.name for w in card.weapons if not w.ranged),
                           card.weapons[0].name if card.weapons else None)
            state.heroes[name] = HeroState(
                card.endurance_max, card.hope_max, wielded=wielded,
                stance=model.stance if model.stance in STANCES else OPEN)
        else:
            foe = dataclasses.replace(roster.foes[like], name=name)
            state.roster = dataclasses.replace(roster, foes={**roster.foes, name: foe},
                                               foe_order=(*roster.foe_order, name))
            state.foes[name] = FoeState(foe.endurance_max, foe.hate_max, eligible=True)

    def fold_entered(self, state: OneRingState, event: CombatantEntered) -> None:
        spec, roster = _entry_spec(json.loads(event.spec)), state.roster
        if isinstance(spec, HeroSpec):
            card = _hero_card(spec)
            state.roster = dataclasses.replace(
                roster, heroes={**roster.heroes, card.name: card},
                hero_order=(*roster.hero_order, card.name))
            wielded = next((w.name for w in card.weapons if not w.ranged),
                           card.weapons[0].name if card.weapons else None)
            state.heroes[card.name] = HeroState(card.endurance_max, card.hope_max,
                                                wounds=spec.wounds, wielded=wielded,
                                                stance=OPEN)
        else:
            foe = _foe_cards(spec)[0]
            state.roster = dataclasses.replace(roster, foes={**roster.foes, foe.name: foe},
                                               foe_order=(*roster.foe_order, foe.name))
            state.foes[foe.name] = FoeState(foe.endurance_max, foe.hate_max, eligible=True)

    def fold_removed(self, state: OneRingState, event: CombatantRemoved) -> None:
        roster, name = state.roster, event.target
        if name in state.heroes:
            del state.heroes[name]
            state.roster = dataclasses.replace(
                roster, heroes={k: v for k, v in roster.heroes.items() if k != name},
                hero_order=tuple(n for n in roster.hero_order if n != name))
        else:
            del state.foes[name]
            state.roster = dataclasses.replace(
                roster, foes={k: v for k, v in roster.foes.items() if k != name},
                foe_order=tuple(n for n in roster.foe_order if n != name))
        for h in state.heroes.values():
            if name in h.located:  # a comrade located earlier is gone
                h.located = tuple(n for n in h.located if n != name)
        if name in state.order:
            at = state.order.index(name)
            state.order = tuple(n for n in state.order if n != name)
            if at < state.cursor:
                state.cursor -= 1
        board = state.board
        board.remove(name)
        board.eligible = board.eligible - {name}
        board.large = board.large - {name}
        board.links = {k: v for k, v in board.links.items() if k != name}
        p = state.pending
        if p is not None and name in (p.attacker, p.target, p.decider):
            state.pending = None  # the blow has nobody to land on (or to strike it)

    def fold_delayed(self, state: OneRingState, event: TurnDelayed) -> None:
        state.order = (*(n for n in state.order if n != event.target), event.target)

    def after(self, state: OneRingState, action: Action, rng: Rng,
              emit: Callable[[Event], None]) -> None:
        if isinstance(action, Adjust):
            c: HeroState | FoeState = state.heroes.get(action.target) or \
                state.foes[action.target]
            if c.status == "ok":
                check_out(state, action.target, emit)  # the game's rule: 0 Endurance, Wounds

    def describe_delay(self, state: OneRingState, target: str) -> str:
        phase = {"stance": "chooses a stance", "volley": "shoots"}.get(state.phase, "acts")
        return f"{target} {phase} after the others this {'round' if state.round else 'volley'}"


def _entry_spec(entry: Mapping[str, Any]) -> HeroSpec | AdversarySpec:
    """A typed-in combatant: a hero when the entry has attributes (``strength``...), else an
    adversary (a catalogue ``kind`` or full statistics), as the scenario writes them."""
    hero = any(key in entry for key in ("strength", "heart", "wits"))
    return checked_entry(HeroSpec if hero else AdversarySpec, entry)  # type: ignore[no-any-return]


#: The One Ring overrides (the plug-in class offers them as ``overrides``).
OVERRIDES: Overrides[OneRingState] = Overrides(OneRingOverrides())
