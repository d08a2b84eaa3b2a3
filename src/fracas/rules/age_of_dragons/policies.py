"""Age of Dragons policies: a sensible heuristic and the fixed ``claw_all``.

The heuristic closes to melee (matching altitude, then range), aims and evades with
its spare spots, bites or claws for the most damage a defender cannot stop, goes for
the neck when it has two sixes to spare, grapples a weaker flyer to drag it down,
breaks out when a grapple goes against it, chooses to fall when that brings it down
toward its foe without a crash landing (otherwise it ends a turn it has no use for),
and spends just enough Physical Defence to turn an attack aside.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from fracas.core.action import Action
from fracas.core.errors import ActionSyntaxError
from fracas.core.policy import (
    DecisionRequest,
    HumanPolicy,
    Policy,
    RandomPolicy,
    ScriptedPolicy,
)
from fracas.core.ruleset import GM, Ruleset
from fracas.rules.age_of_dragons import actions, rules
from fracas.rules.age_of_dragons.legality import fall_is_a_choice
from fracas.rules.age_of_dragons.rules import (
    ATTACK_THRESHOLD,
    MELEE_LEVEL,
)
from fracas.rules.age_of_dragons.state import (
    CLOSE,
    NORMAL,
    AgeOfDragonsState,
    Fighter,
    pair,
)

__all__ = ["ClawAllPolicy", "HeuristicPolicy", "make_policy", "policy_for"]


def _melee_target(state: AgeOfDragonsState, me: str) -> str | None:
    """The first living enemy in melee reach, preferring those still able to actions."""
    found = [f for f in rules.enemies(state, me) if rules.in_melee_reach(state, me, f.name)]
    found.sort(key=lambda f: not f.active)
    return found[0].name if found else None


class ClawAllPolicy:
    """Roll Soma, expend every 4+ die on a claw at the first foe in reach; never spot or defend."""

    def choose(self, request: DecisionRequest) -> Action:
        state: AgeOfDragonsState = request.state
        me = request.actor
        if state.pending is not None:
            return actions.Defend(me, 0)
        turn = state.turn
        if turn is not None and turn.step == "pool":
            return actions.RollPool(me, ("soma",))
        hits = len(rules.qualifying_dice(turn, ATTACK_THRESHOLD)) if turn else 0
        target = _melee_target(state, me) if hits else None
        if target is not None and rules.can_claw(state.fighters[me]):
            return actions.Attack(me, target, hits)
        return actions.EndTurn(me)


class HeuristicPolicy:
    """A sensible default for non-human combatants (see the module docstring)."""

    def choose(self, request: DecisionRequest) -> Action:
        state: AgeOfDragonsState = request.state
        me = request.actor
        if state.pending is not None:
            return actions.Defend(me, self._defence(state, me))
        for action in self._wishes(state, me):
            if request.is_legal(action):
                return action
        return actions.EndTurn(me)

    # -- defence ----------------------------------------------------------------
    @staticmethod
    def _defence(state: AgeOfDragonsState, me: str) -> int:
        pending = state.pending
        have = rules.available_pd(state, me)
        if pending is None or have == 0:
            return 0
        needed = pending.hits - pending.tn  # spend this much and the margin is 0
        if needed <= 0:
            return 0
        if needed <= have:
            return needed
        return have if pending.kind in ("attack", "shoot") else 0

    # -- the turn ------------------------------------------------------------------
    def _wishes(self, state: AgeOfDragonsState, me: str) -> Iterator[Action]:
        turn = state.turn
        if turn is None:
            return
        fighter = state.fighters[me]
        target = self._target(state, me)
        if turn.step == "pool":
            yield actions.RollPool(me, self._spheres(state, fighter, target))
            return
        if turn.step == "reroll":
            low = sorted((face, i) for i, face in enumerate(turn.pool) if face < ATTACK_THRESHOLD)
            for _, i in low[:1]:
                for ability in fighter.profile.rerolls:
                    yield actions.Reroll(me, i, ability.name)
        if turn.step in ("reroll", "spot") and target is not None:
            yield from self._spots(state, fighter, target)
        yield from self._expends(state, fighter, target)
        if target is not None and self._fall_helps(state, fighter, target):
            yield actions.DeclareFall(me)

    @staticmethod
    def _fall_helps(state: AgeOfDragonsState, fighter: Fighter, target: str) -> bool:
        """Falling is a free level down: worth it while above the foe's melee height.

        One level never drops below the foe, and from above it a flyer is at least at
        normal altitude, so the fall never ends in a crash landing.
        """
        return fall_is_a_choice(state, fighter.name) and \
            MELEE_LEVEL[fighter.altitude] > MELEE_LEVEL[state.fighters[target].altitude]

    @staticmethod
    def _target(state: AgeOfDragonsState, me: str) -> str | None:
        foes = [f for f in rules.enemies(state, me) if f.active] or list(rules.enemies(state, me))
        if not foes:
            return None
        held = set(rules.partners(state, me))
        foes.sort(key=lambda f: (f.name not in held, state.ranges[pair(me, f.name)],
                                 abs(f.altitude - state.fighters[me].altitude), f.pr))
        return foes[0].name

    @staticmethod
    def _spheres(state: AgeOfDragonsState, fighter: Fighter, target: str | None) -> tuple[str, ...]:
        if target is not None and not rules.in_melee_reach(state, fighter.name, target):
            for weapon in fighter.profile.ranged:
                if weapon.sphere != "soma" and fighter.profile.rating(weapon.sphere) > 0:
                    return tuple(s for s in ("soma", "sophis", "pneuma")
                                 if s in ("soma", weapon.sphere))
        return ("soma",)

    @staticmethod
    def _spots(state: AgeOfDragonsState, fighter: Fighter, target: str) -> Iterator[Action]:
        me = fighter.name
        foe = state.fighters[target]
        mine, theirs = MELEE_LEVEL[fighter.altitude], MELEE_LEVEL[foe.altitude]
        if mine > theirs:
            yield actions.Spot(me, "lose_altitude")
        elif mine < theirs:
            yield actions.Spot(me, "gain_altitude" if fighter.airborne else "take_off")
        if state.ranges[pair(me, target)] > CLOSE:
            yield actions.Spot(me, "alter_range", target, True)
        if state.spot_consumes_dice:
            return  # spare dice are worth more as hits
        if foe.pd - (state.turn.aims.get(target, 0) if state.turn else 0) > 0:
            yield actions.Spot(me, "aim", target)
        yield actions.Spot(me, "evade")

    @staticmethod
    def _expends(state: AgeOfDragonsState, fighter: Fighter,
                 target: str | None) -> Iterator[Action]:
        turn = state.turn
        if turn is None:
            return
        me = fighter.name
        dice = rules.qualifying_dice(turn, ATTACK_THRESHOLD)
        hits = len(dice)
        if hits == 0:
            return
        held_by = [p for p in rules.partners(state, me)
                   if state.fighters[p].profile.side != fighter.profile.side]
        if held_by and (fighter.airborne or fighter.pr < max(state.fighters[p].pr
                                                             for p in held_by)):
            yield actions.BreakOut(me, hits)
        if target is None:
            return
        foe = state.fighters[target]
        pd = rules.available_pd(state, target)
        sixes = sum(1 for i in dice if turn.pool[i] == 6)
        if foe.airborne and foe.altitude >= NORMAL and fighter.pr >= foe.pr + 5 and \
                hits > pd and not rules.is_locked(state, target):
            yield actions.Grapple(me, target, hits)
        if sixes >= 2 and hits - pd - 9 >= 1:
            yield actions.Attack(me, target, hits, "claw", "neck")
        if hits - pd - 3 >= 1:
            yield actions.Attack(me, target, hits, "bite")
        if hits - pd >= 1:
            yield actions.Attack(me, target, hits)
        for weapon in fighter.profile.ranged:
            if hits - pd + weapon.damage_bonus >= 1:
                yield actions.Shoot(me, target, hits, weapon.name)


def make_policy(ruleset: Ruleset[Any], name: str, actor: str,
                options: Mapping[str, Any]) -> Policy:
    """The policy called ``name`` for ``actor`` (``options``: a script of typed actions)."""
    if name == "heuristic":
        return HeuristicPolicy()
    if name == "claw_all":
        return ClawAllPolicy()
    if name == "search":
        from fracas.ai import search_policy

        return search_policy(ruleset, actor, options)
    if name == "human":
        return HumanPolicy()
    if name == "random":
        return RandomPolicy()
    if name == "scripted":
        return ScriptedPolicy([ruleset.parse_action(t) for t in options.get("script", ())])
    raise ActionSyntaxError(f"age_of_dragons has no policy called {name!r}")


def policy_for(ruleset: Ruleset[Any], state: AgeOfDragonsState, actor: str) -> Policy:
    """The policy the scenario names for ``actor`` (the heuristic for the GM)."""
    if actor == GM or actor not in state.fighters:
        return HeuristicPolicy()
    profile = state.fighters[actor].profile
    return ruleset.policy(profile.policy, actor, {"script": profile.script})
