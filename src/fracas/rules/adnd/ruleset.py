"""The AD&D underground skirmish rule set: the plug-in the engine drives."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, ClassVar

from fracas.core.action import Action
from fracas.core.decision import Menu, Partial, Span
from fracas.core.errors import IllegalActionError
from fracas.core.events import DiceRolled, Event, FightEnded
from fracas.core.policy import HumanPolicy, Policy
from fracas.core.rng import Rng
from fracas.core.ruleset import GM, Emit, Outcome, Ruleset, Standing
from fracas.rules.adnd import combat, falls, water
from fracas.rules.adnd import terrain as t
from fracas.rules.adnd.fold import apply_event
from fracas.rules.adnd.legality import current_actor, step, verb_label, why_not
from fracas.rules.adnd.mechanics import nature_rating
from fracas.rules.adnd.model import AdndScenario, CombatantSpec
from fracas.rules.adnd.narrate import describe, table_of, view_of
from fracas.rules.adnd.state import (
    ACTIONS,
    AdndState,
    Attack,
    Boulder,
    BreakFree,
    CallSave,
    Climb,
    Climbed,
    Fighter,
    FrontRank,
    GmDone,
    Grab,
    Grapple,
    GrappleEnded,
    KnockOut,
    Plummet,
    Profile,
    Regain,
    Release,
    RoundBegan,
    Secure,
    Secured,
    Setup,
    Turn,
    Turned,
    TurnEnded,
    TurnOrder,
    Weapon,
)

__all__ = ["AdndUnderground"]


def _profile(c: CombatantSpec, top: float) -> Profile:
    weapons = tuple(Weapon.parse(w.name, w.damage, w.length_ft, w.magic, w.hands, w.missile)
                    for w in c.weapons)
    terrain = c.terrain
    behind = terrain.behind
    if behind is None:
        behind = "wall" if terrain.kind == "ledge" else "open"
    return Profile(
        name=c.name, side=c.side, level=c.level, hp_max=c.hp, thac0=c.thac0, ac=c.ac,
        shield_ac=c.shield_ac, dex_ac=c.dex_ac, dexterity=c.dexterity,
        constitution=c.constitution, saves=c.saves.model_dump(),
        climbing=c.climbing if c.climbing is not None else nature_rating(c.nature),
        at_home_in_water=c.swimmer or c.aquatic, height_ft=c.height_ft,
        frontage_ft=c.frontage_ft, weapons=weapons, two_weapons=c.two_weapons,
        can_hurl=c.can_hurl, flanking=c.flanking,
        top_ft=terrain.top_ft if terrain.top_ft is not None else max(top, terrain.alt_ft),
        kind=terrain.kind, edge_ft=terrain.edge_ft, behind=behind, depth_ft=terrain.depth_ft,
        across_gap=terrain.across_gap, has_melee=any(not w.missile for w in weapons))


class AdndUnderground(Ruleset[AdndState]):
    """AD&D skirmishes underground: walls, ledges and bridges, falls, water and bottlenecks.

    Each round every side rolls d10 for initiative (lowest acts first, ties
    rolled again), the DM may make one ruling, then the combatants act in side
    order.  See ``docs/rules/adnd.md`` for every rule and where it lives.
    """

    name: ClassVar[str] = "adnd"
    title: ClassVar[str] = "AD&D underground skirmish"
    scenario_model = AdndScenario
    actions: ClassVar[Sequence[type[Action]]] = ACTIONS

    # -- setting up --------------------------------------------------------
    def initial_state(self, scenario: AdndScenario) -> AdndState:
        """The starting state: profiles are built once and shared by every copy."""
        top = max(c.terrain.alt_ft for c in scenario.combatants)
        profiles = {c.name: _profile(c, top) for c in scenario.combatants}
        policies: dict[str, str | tuple[str, ...]] = {
            c.name: c.policy if isinstance(c.policy, str) else tuple(c.policy)
            for c in scenario.combatants}
        gm = scenario.gm_policy
        policies[GM] = gm if isinstance(gm, str) else tuple(gm)
        sides = tuple(dict.fromkeys(c.side for c in scenario.combatants))
        setup = Setup(profiles, tuple(profiles), sides,
                      scenario.bottleneck.width_ft if scenario.bottleneck else None,
                      scenario.max_rounds, scenario.climb_step_ft, policies)
        fighters = {
            c.name: Fighter(c.name, c.hp, c.terrain.alt_ft, c.terrain.facing_wall, c.boulders,
                            next((w.name for w in c.weapons if not w.missile), "fist"))
            for c in scenario.combatants}
        return AdndState(setup, fighters)

    def clone_state(self, state: AdndState) -> AdndState:
        """A copy of the changing parts; the frozen setup is shared."""
        return state.clone()

    def apply_event(self, state: AdndState, event: Event) -> None:
        """Fold one event into the state (never rolls dice)."""
        apply_event(state, event)

    # -- decisions ---------------------------------------------------------
    def current_actor(self, state: AdndState) -> str | None:
        """A falling fighter first, then the DM at the start of a round, then the queue."""
        return current_actor(state)

    def why_not(self, state: AdndState, partial: Partial) -> IllegalActionError | None:
        """The rule that forbids the (partial) action, or ``None``; see :mod:`.legality`."""
        return why_not(state, partial)

    def step(self, state: AdndState, partial: Partial, field: str) -> Menu | Span | None:
        """The candidate values of ``field``: foes, weapons in hand, up or down, a save."""
        return step(state, partial, field)

    def verb_label(self, action: type[Action]) -> str:
        """The words a person reads for a verb."""
        return verb_label(action)

    def default_verb(self, state: AdndState, verbs: Sequence[str]) -> str:
        """The DM lets the round run; a fighter attacks, or does the first thing he can."""
        for usual in ("proceed", "attack", "grab", "regain", "break_free"):
            if usual in verbs:
                return usual
        return verbs[0]

    def resolve(self, state: AdndState, action: Action, rng: Rng, emit: Emit) -> None:
        """Carry out a legal action; a combatant's action ends his turn."""
        actor = action.actor
        if actor == GM:
            self._resolve_gm(state, action, rng, emit)
            return
        if isinstance(action, Grab):
            falls.grab(state, actor, action.target, rng, emit)
            return
        if isinstance(action, Plummet):
            falls.land(state, actor, rng, emit)
            return
        if isinstance(action, Attack):
            self._attack(state, action, rng, emit)
        elif isinstance(action, Boulder):
            combat.boulder(state, actor, action.target, rng, emit)
        elif isinstance(action, Climb):
            step = state.setup.climb_step_ft
            alt = state.fighters[actor].alt + (step if action.direction == "up" else -step)
            emit(Climbed(actor, max(0.0, alt)))
        elif isinstance(action, Turn):
            emit(Turned(actor, not state.fighters[actor].facing_wall))
        elif isinstance(action, Grapple):
            water.grapple(state, actor, action.target, rng, emit)
        elif isinstance(action, BreakFree):
            water.break_free(state, actor, rng, emit)
        elif isinstance(action, Release):
            holding = state.fighters[actor].holding
            if holding is not None:
                emit(GrappleEnded(actor, holding))
        elif isinstance(action, Regain):
            falls.regain(state, actor, rng, emit)
        emit(TurnEnded(actor))

    def _resolve_gm(self, state: AdndState, action: Action, rng: Rng, emit: Emit) -> None:
        if isinstance(action, Secure):
            emit(Secured(action.target, True))
        elif isinstance(action, CallSave):
            water.saving_throw(state, action.target, action.category, rng, emit, hidden=True)
        elif isinstance(action, KnockOut):
            falls.knock_out(state, action.target, rng, emit)
        emit(GmDone())

    def _attack(self, state: AdndState, action: Attack, rng: Rng, emit: Emit) -> None:
        """One attack; a two-weapon fighter not clinging to a wall strikes with both."""
        actor, target = action.actor, action.target
        weapons = t.usable_weapons(state, actor)
        weapon = next(w for w in weapons if w.name == action.weapon)
        combat.attack(state, actor, target, weapon, rng, emit)
        p, f = state.profile(actor), state.fighters[actor]
        if weapon.missile or not p.two_weapons or t.clinging(p, f):
            return
        second = next((w for w in weapons if not w.missile and w.name != weapon.name), None)
        ft = state.fighters[target]
        if second is None or not ft.up or state.falling == target or ft.hanging_on is not None:
            return
        if t.melee_allowed(state, actor, target, second) is None:
            combat.attack(state, actor, target, second, rng, emit)

    def advance(self, state: AdndState, rng: Rng, emit: Emit) -> None:
        """Skip those who cannot act, close rounds (breath clocks), open rounds (initiative)."""
        while state.result is None and state.falling is None:
            if self._decided(state, emit):
                return
            if state.round == 0:
                self._start_round(state, rng, emit)
                continue
            if state.phase == "gm":
                return
            if state.turn < len(state.queue):
                name = state.queue[state.turn]
                if state.fighters[name].up:
                    return
                emit(TurnEnded(name))
                continue
            for name in state.setup.order:
                f = state.fighters[name]
                if f.up and f.under:
                    water.breath_round(state, name, rng, emit)
            if self._decided(state, emit):
                return
            if state.round >= state.setup.max_rounds:
                emit(FightEnded(None, "round limit"))
                return
            self._start_round(state, rng, emit)

    @staticmethod
    def _decided(state: AdndState, emit: Emit) -> bool:
        standing = {state.profile(n).side for n, f in state.fighters.items() if f.up}
        if len(standing) > 1:
            return False
        winner = next(iter(standing), None)
        emit(FightEnded(winner, "the last side standing" if winner else "nobody is left"))
        return True

    @staticmethod
    def _start_round(state: AdndState, rng: Rng, emit: Emit) -> None:
        """Form the bottleneck's front ranks and roll side initiative on d10 (low goes first)."""
        emit(RoundBegan(state.round + 1))
        setup = state.setup
        if setup.bottleneck_ft is not None:
            for side in setup.sides:
                emit(FrontRank(side, front_rank(state, side, setup.bottleneck_ft)))
        while True:
            rolls = {}
            for side in setup.sides:
                face = rng.die(10)
                emit(DiceRolled(side, "initiative", 10, (face,)))
                rolls[side] = face
            if len(set(rolls.values())) == len(rolls):
                break
        sides = tuple(sorted(setup.sides, key=rolls.__getitem__))
        names = tuple(n for side in sides for n in setup.order
                      if setup.profiles[n].side == side and state.fighters[n].up)
        emit(TurnOrder(sides, names))

    # -- results -----------------------------------------------------------
    def outcome(self, state: AdndState) -> Outcome | None:
        """Who won once the fight is over."""
        if state.result is None:
            return None
        return Outcome(state.result[0], state.result[1], state.round)

    def standings(self, state: AdndState) -> Sequence[Standing]:
        """Side, status and hit points of everyone, in scenario order."""
        return [Standing(n, state.profile(n).side, f.status, float(max(f.hp, 0)),
                         float(state.profile(n).hp_max)) for n, f in state.fighters.items()]

    def view(self, state: AdndState, side: str | None = None) -> dict[str, Any]:
        """A JSON-ready picture; a side does not see its foes' hit points or breath."""
        return view_of(state, side)

    def table(self, state: AdndState) -> tuple[list[str], list[list[str]]]:
        """Columns and rows: health, terrain, height and conditions of everyone."""
        return table_of(state)

    def describe_event(self, event: Event, state: AdndState) -> str | None:
        """One readable line for this rule set's events."""
        return describe(event, state)

    def odds(self, question: str) -> dict[int, Fraction]:
        """Exact odds of this rule set's rolls; see :mod:`fracas.rules.adnd.odds`."""
        from fracas.rules.adnd.odds import answer

        return answer(question)

    # -- policies ----------------------------------------------------------
    def policy(self, name: str, actor: str, options: Mapping[str, Any]) -> Policy:
        """``heuristic`` (the default AI), ``search``, ``human``, ``random`` or ``scripted``."""
        from fracas.rules.adnd.policies import HeuristicPolicy

        if name == "heuristic":
            return HeuristicPolicy()
        if name == "human":
            return HumanPolicy()
        if name == "search":
            from fracas.ai import search_policy

            return search_policy(self, actor, options)
        return super().policy(name, actor, options)

    def policy_for(self, state: AdndState, actor: str) -> Policy:
        """The policy the scenario chose for ``actor`` (a list of action texts is a script)."""
        spec = state.setup.policies.get(actor, "heuristic")
        if isinstance(spec, tuple):
            return self.policy("scripted", actor, {"script": spec})
        return self.policy(spec, actor, {})


def front_rank(state: AdndState, side: str, width_ft: float) -> tuple[str, ...]:
    """Who of ``side`` fits the bottleneck: standing fighters in scenario order, each taking
    his frontage, while the total fits the width."""
    used = 0.0
    names = []
    for name in state.setup.order:
        p = state.profile(name)
        if p.side != side or not state.fighters[name].up:
            continue
        if used + p.frontage_ft > width_ft:
            break
        used += p.frontage_ft
        names.append(name)
    return tuple(names)
