"""A minimal rule set used to test the core: strike a foe for 1d6 or wait."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from pydantic import BaseModel, ConfigDict

from fracas.core.decision import Menu, Partial, Span
from fracas.core.errors import IllegalActionError
from fracas.core.events import DiceRolled, Event, FightEnded, event_type
from fracas.core.rng import Rng
from fracas.core.ruleset import Action, Emit, Outcome, Ruleset, Standing, register_ruleset
from fracas.scenario import ScenarioBase


class ToyFighter(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    side: str
    hp: int


class ToyScenario(ScenarioBase):
    fighters: list[ToyFighter]
    max_rounds: int = 50


@dataclass(frozen=True, slots=True)
class Strike(Action):
    verb: ClassVar[str] = "strike"
    actor: str
    target: str


@dataclass(frozen=True, slots=True)
class Wait(Action):
    verb: ClassVar[str] = "wait"
    actor: str


@event_type
@dataclass(frozen=True, slots=True)
class Wounded(Event):
    kind: ClassVar[str] = "toy.wounded"
    target: str
    amount: int
    hidden: bool = False


@event_type
@dataclass(frozen=True, slots=True)
class TurnPassed(Event):
    kind: ClassVar[str] = "toy.turn"
    hidden: bool = False


@dataclass
class ToyState:
    names: list[str]
    sides: dict[str, str]
    hp: dict[str, int]
    turn: int = 0
    round: int = 1
    max_rounds: int = 50
    result: tuple[str | None, str] | None = None
    last_roll: tuple[int, ...] = field(default=())


@register_ruleset
class Toy(Ruleset[ToyState]):
    name = "toy"
    scenario_model = ToyScenario
    actions = (Strike, Wait)

    def initial_state(self, scenario: ToyScenario) -> ToyState:  # type: ignore[override]
        return ToyState([f.name for f in scenario.fighters],
                        {f.name: f.side for f in scenario.fighters},
                        {f.name: f.hp for f in scenario.fighters}, max_rounds=scenario.max_rounds)

    def clone_state(self, state: ToyState) -> ToyState:
        return dataclasses.replace(state, names=list(state.names), sides=dict(state.sides),
                                   hp=dict(state.hp))

    def apply_event(self, state: ToyState, event: Event) -> None:
        if isinstance(event, Wounded):
            state.hp[event.target] -= event.amount
        elif isinstance(event, DiceRolled):
            state.last_roll = event.faces
        elif isinstance(event, TurnPassed):
            state.turn += 1
            if state.turn >= len(state.names):
                state.turn = 0
                state.round += 1
        elif isinstance(event, FightEnded):
            state.result = (event.winner, event.reason)

    def current_actor(self, state: ToyState) -> str | None:
        return None if state.result else state.names[state.turn]

    def why_not(self, state: ToyState, partial: Partial) -> IllegalActionError | None:
        if partial.actor != state.names[state.turn]:
            return partial.refuse("turn order", f"it is not {partial.actor}'s turn")
        if "target" in partial:
            target = partial["target"]
            if target not in state.hp:
                return partial.refuse("targets", f"no combatant {target}")
            if state.hp[target] <= 0:
                return partial.refuse("targets", f"{target} is already down")
        return None

    def step(self, state: ToyState, partial: Partial, field: str) -> Menu | Span | None:
        me = partial.actor
        return Menu([n for n in state.names if state.sides[n] != state.sides[me]])

    def resolve(self, state: ToyState, action: Action, rng: Rng, emit: Emit) -> None:
        if isinstance(action, Strike):
            faces = tuple(rng.dice(1, 6))
            emit(DiceRolled(action.actor, "damage", 6, faces))
            emit(Wounded(action.target, faces[0]))
        emit(TurnPassed())

    def advance(self, state: ToyState, rng: Rng, emit: Emit) -> None:
        if state.result:
            return
        alive = {state.sides[n] for n in state.names if state.hp[n] > 0}
        if len(alive) <= 1:
            emit(FightEnded(next(iter(alive), None), "one side left"))
        elif state.round > state.max_rounds:
            emit(FightEnded(None, "round limit"))
        while not state.result and state.hp[state.names[state.turn]] <= 0:
            emit(TurnPassed())

    def outcome(self, state: ToyState) -> Outcome | None:
        if state.result is None:
            return None
        return Outcome(state.result[0], state.result[1], state.round)

    def standings(self, state: ToyState) -> Sequence[Standing]:
        return [Standing(n, state.sides[n], "ok" if state.hp[n] > 0 else "down", state.hp[n], 0)
                for n in state.names]
