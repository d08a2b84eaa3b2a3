"""The BATTLESYSTEM underground rule set: turn sequence, orders and the event fold.

Each turn runs these phases (core, ours): the GM's phase (prepared cave-ins,
gas and explosive spells), movement (every unit in good order gives one order,
armies in scenario order), missiles, melee, morale (with routing moves and
their chain reactions) and the end phase (gas spreads and ages).  The fight
ends when one army has no unit in good order, or at the turn limit.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from fracas.core.action import Action
from fracas.core.decision import Menu, Partial, Span
from fracas.core.errors import IllegalActionError
from fracas.core.events import DecisionMade, Event, FightEnded
from fracas.core.policy import HumanPolicy, Policy
from fracas.core.rng import Rng
from fracas.core.ruleset import GM, Emit, Outcome, Ruleset, Standing
from fracas.rules.battlesystem import hazards, orders
from fracas.rules.battlesystem.combat import melee_phase, morale_phase
from fracas.rules.battlesystem.events import (
    AltitudeChanged,
    CaveIn,
    CeilingCollapsed,
    Charge,
    Damaged,
    FeatureCollapsed,
    Fire,
    Fly,
    Form,
    FormationChanged,
    FragileChecked,
    GasEnded,
    GasMoved,
    GasReleased,
    GmEffectUsed,
    Hold,
    Move,
    ObstacleMarked,
    ObstacleSprung,
    Pass,
    PhaseStarted,
    ReleaseGas,
    Routed,
    StrikeFeature,
    Torches,
    TorchesChanged,
    TurnSkipped,
    TurnStarted,
    UnitLeft,
    UnitMoved,
)
from fracas.rules.battlesystem.model import BattlesystemScenario
from fracas.rules.battlesystem.rout import rout_phase
from fracas.rules.battlesystem.setup import build_state
from fracas.rules.battlesystem.state import BsState, Gas

__all__ = ["Battlesystem"]


class Battlesystem(Ruleset[BsState]):
    """BATTLESYSTEM mass combat underground (compact core plus the seed's options)."""

    name = "battlesystem"
    title = "BATTLESYSTEM underground mass combat"
    scenario_model = BattlesystemScenario
    actions = (Move, Charge, Hold, Form, Torches, Fly, Fire, Pass, CaveIn, ReleaseGas,
               StrikeFeature)

    # -- setting up ----------------------------------------------------------------
    def initial_state(self, scenario: Any) -> BsState:
        """The starting state for a validated :class:`BattlesystemScenario`."""
        return build_state(scenario)

    def clone_state(self, state: BsState) -> BsState:
        """A copy sharing the fixed battlefield; units, features and gas are copied."""
        return dataclasses.replace(
            state,
            units={k: dataclasses.replace(u) for k, u in state.units.items()},
            features={k: dataclasses.replace(f) for k, f in state.features.items()},
            gases=[dataclasses.replace(g) for g in state.gases],
            gm_used=set(state.gm_used), caved=set(state.caved), gone=set(state.gone),
            known_obstacles=set(state.known_obstacles), queue=list(state.queue),
        )

    # -- the fold ------------------------------------------------------------------
    def apply_event(self, state: BsState, event: Event) -> None:
        """Change the state by one event (never rolls dice)."""
        handler = _APPLY.get(type(event))
        if handler is not None:
            handler(state, event)

    # -- decisions -----------------------------------------------------------------
    def current_actor(self, state: BsState) -> str | None:
        """The GM or the unit whose order is next; ``None`` once the battle is over."""
        if state.result is not None or not state.queue:
            return None
        return state.queue[0]

    def why_not(self, state: BsState, partial: Partial) -> IllegalActionError | None:
        """Why the order being put together cannot be given now (see :mod:`.orders`)."""
        return orders.why_not(state, partial)

    def step(self, state: BsState, partial: Partial, field: str) -> Menu | Span | None:
        """The candidates for the next field of an order (see :mod:`.orders`)."""
        return orders.step(state, partial, field)

    def verb_label(self, action: type[Action]) -> str:
        """The words a person reads for an order."""
        return orders.VERB_LABELS.get(action.verb, action.verb)

    def default_verb(self, state: BsState, verbs: Sequence[str]) -> str:
        """Hold (or, for the GM, pass) is preselected."""
        return next((v for v in ("hold", "pass") if v in verbs), verbs[0])

    def resolve(self, state: BsState, action: Action, rng: Rng, emit: Emit) -> None:
        """Carry out an order."""
        orders.carry_out(state, action, rng, emit)

    def advance(self, state: BsState, rng: Rng, emit: Emit) -> None:
        """Run the automatic phases until someone must decide or the battle ends."""
        while state.result is None:
            if state.queue:
                head = state.queue[0]
                if head == GM or orders.can_act(state, state.units[head], state.phase):
                    return
                emit(TurnSkipped(head))
                continue
            self._next_phase(state, rng, emit)

    def _next_phase(self, state: BsState, rng: Rng, emit: Emit) -> None:
        phase = state.phase
        if phase in ("setup", "end"):
            if _finish(state, emit, limit=phase == "end"):
                return
            emit(TurnStarted(state.turn + 1))
            gm = (GM,) if orders.gm_has_effects(state) else ()
            emit(PhaseStarted("gm", gm))
        elif phase == "gm":
            emit(PhaseStarted("move", tuple(u.name for u in state.units.values()
                                            if orders.can_act(state, u, "move"))))
        elif phase == "move":
            emit(PhaseStarted("missile", tuple(u.name for u in state.units.values()
                                               if orders.can_act(state, u, "missile"))))
        elif phase == "missile":
            emit(PhaseStarted("melee", ()))
            melee_phase(state, rng, emit)
        elif phase == "melee":
            emit(PhaseStarted("morale", ()))
            morale_phase(state, rng, emit)
            rout_phase(state, rng, emit)
        else:
            emit(PhaseStarted("end", ()))
            hazards.end_of_turn_gas(state, rng, emit)
        if state.phase != "end":
            _finish(state, emit, limit=False)

    def outcome(self, state: BsState) -> Outcome | None:
        """The winning army once the battle is over."""
        if state.result is None:
            return None
        return Outcome(state.result[0], state.result[1], state.turn)

    # -- reading -------------------------------------------------------------------
    def standings(self, state: BsState) -> Sequence[Standing]:
        """Each unit: side, status and figures left of those it started with."""
        return [Standing(u.name, u.side, u.status, float(u.figures),
                         float(u.stats.start_figures)) for u in state.units.values()]

    def round_number(self, state: BsState) -> int:
        """The current turn."""
        return state.turn

    def view(self, state: BsState, side: str | None = None) -> dict[str, Any]:
        """A JSON-ready picture; a side sees only enemies some unit of its own can see."""
        from fracas.rules.battlesystem.render import view

        return view(state, side)

    def table(self, state: BsState) -> tuple[list[str], list[list[str]]]:
        """Units with their area, formation, figures, status, altitude and light."""
        from fracas.rules.battlesystem.render import table

        return table(state)

    def describe_event(self, event: Event, state: BsState) -> str | None:
        """One readable account per event; a new turn prints the map."""
        from fracas.rules.battlesystem.render import describe

        return describe(event, state)

    def odds(self, question: str) -> dict[int, Fraction]:
        """Exact odds of this rule set's own rolls (see :mod:`.odds` for the syntax)."""
        from fracas.rules.battlesystem.odds import answer

        return dict(answer(question))

    # -- policies ------------------------------------------------------------------
    def policy(self, name: str, actor: str, options: Mapping[str, Any]) -> Policy:
        """``heuristic`` (the default AI), ``search``, ``human``, or the core's ``random`` and
        ``scripted``."""
        if name == "heuristic":
            from fracas.rules.battlesystem.policy import HeuristicPolicy

            return HeuristicPolicy()
        if name == "human":
            return HumanPolicy()
        if name == "search":
            from fracas.ai import search_policy

            return search_policy(self, actor, options)
        return super().policy(name, actor, options)

    def policy_for(self, state: BsState, actor: str) -> Policy:
        """The policy the scenario chose for ``actor`` (a unit or the GM)."""
        spec = state.policies.get(actor, "heuristic")
        if isinstance(spec, tuple):
            return self.policy("scripted", actor, {"script": spec})
        return self.policy(spec, actor, {})


# -- the fold, event by event --------------------------------------------------

def _decision(state: BsState, e: DecisionMade) -> None:
    if state.queue and state.queue[0] == e.actor:
        state.queue.pop(0)


def _moved(state: BsState, e: UnitMoved) -> None:
    unit = state.units[e.unit]
    unit.area, unit.rear, unit.progress, unit.goal = e.area, e.rear, e.progress, e.goal
    unit.charging = e.charging


def _apply_damage(state: BsState, e: Damaged) -> None:
    unit = state.units[e.unit]
    unit.lost_this_turn += unit.figures - e.figures
    unit.figures, unit.wounded = e.figures, e.wounded


def _turn(state: BsState, e: TurnStarted) -> None:
    state.turn = e.turn
    for unit in state.units.values():
        unit.lost_this_turn = 0
        unit.charging = False


def _phase(state: BsState, e: PhaseStarted) -> None:
    state.phase = e.phase
    state.queue = list(e.queue)


def _skipped(state: BsState, e: TurnSkipped) -> None:
    if state.queue and state.queue[0] == e.unit:
        state.queue.pop(0)


def _formation(state: BsState, e: FormationChanged) -> None:
    unit = state.units[e.unit]
    unit.formation, unit.axis = e.formation, e.axis


def _torches(state: BsState, e: TorchesChanged) -> None:
    state.units[e.unit].lit = e.lit


def _altitude(state: BsState, e: AltitudeChanged) -> None:
    state.units[e.unit].altitude = e.altitude


def _routed(state: BsState, e: Routed) -> None:
    state.units[e.unit].status = "routing"


def _left(state: BsState, e: UnitLeft) -> None:
    state.units[e.unit].status = e.status


def _fragile(state: BsState, e: FragileChecked) -> None:
    state.features[e.feature].chance = e.base_after


def _collapsed(state: BsState, e: FeatureCollapsed) -> None:
    feature = state.features[e.feature]
    feature.collapsed = True
    if feature.kind in hazards.FLOORS:
        state.gone.add(e.area)


def _caved(state: BsState, e: CeilingCollapsed) -> None:
    state.caved.add(e.area)


def _gm_used(state: BsState, e: GmEffectUsed) -> None:
    state.gm_used.add(e.effect)


def _obstacle(state: BsState, e: ObstacleSprung | ObstacleMarked) -> None:
    state.known_obstacles.add((e.side, e.area))


def _gas(state: BsState, e: GasReleased) -> None:
    if e.turns > 0:
        state.gases.append(Gas(state.next_gas, e.area, e.diameter, e.dice, e.turns, e.carried))
    state.next_gas += 1


def _gas_moved(state: BsState, e: GasMoved) -> None:
    for gas in state.gases:
        if gas.id == e.gas:
            gas.area, gas.turns_left = e.area, e.turns_left


def _gas_ended(state: BsState, e: GasEnded) -> None:
    state.gases = [g for g in state.gases if g.id != e.gas]


def _ended(state: BsState, e: FightEnded) -> None:
    state.result = (e.winner, e.reason)
    state.queue = []


_APPLY: dict[type, Callable[[BsState, Any], None]] = {
    DecisionMade: _decision, UnitMoved: _moved, Damaged: _apply_damage,
    TurnStarted: _turn, PhaseStarted: _phase, TurnSkipped: _skipped,
    FormationChanged: _formation, TorchesChanged: _torches, AltitudeChanged: _altitude,
    Routed: _routed, UnitLeft: _left, FragileChecked: _fragile, FeatureCollapsed: _collapsed,
    CeilingCollapsed: _caved, GmEffectUsed: _gm_used, ObstacleSprung: _obstacle,
    ObstacleMarked: _obstacle,
    GasReleased: _gas, GasMoved: _gas_moved, GasEnded: _gas_ended, FightEnded: _ended,
}


def _finish(state: BsState, emit: Emit, limit: bool) -> bool:
    """End the battle when an army has no unit in good order, or at the turn limit.

    At the limit the army with more figures in good order wins (ours); equal is a draw.
    """
    strength = {s.name: 0 for s in state.sides}
    for unit in state.units.values():
        if unit.status == "ok":
            strength[unit.side] += unit.figures
    standing = [name for name, figures in strength.items() if figures > 0]
    if len(standing) <= 1:
        emit(FightEnded(standing[0] if standing else None, "the other army is broken"))
        return True
    if limit and state.turn >= state.max_turns:
        ranked = sorted(strength.items(), key=lambda kv: -kv[1])
        winner = ranked[0][0] if ranked[0][1] > ranked[1][1] else None
        emit(FightEnded(winner, "turn limit reached"))
        return True
    return False
