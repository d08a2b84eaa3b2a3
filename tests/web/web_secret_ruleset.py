"""A toy rule set with a secret GM roll and a view that hides enemy health (for access tests)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fracas.core.events import DiceRolled
from fracas.core.rng import Rng
from fracas.core.ruleset import Action, Emit, Standing, register_ruleset
from toy_ruleset import Strike, Toy, ToyState


@register_ruleset
class SecretToy(Toy):
    """Like the toy, but every strike starts with a hidden GM 'ambush' roll."""

    name = "toy_secret"

    def resolve(self, state: ToyState, action: Action, rng: Rng, emit: Emit) -> None:
        if isinstance(action, Strike):
            emit(DiceRolled("gm", "secret ambush check", 20, tuple(rng.dice(1, 20)),
                            hidden=True))
        super().resolve(state, action, rng, emit)

    def view(self, state: ToyState, side: str | None = None) -> dict[str, Any]:
        combatants = []
        for name in state.names:
            mine = side is None or state.sides[name] == side
            entry: dict[str, Any] = {"name": name, "side": state.sides[name]}
            entry["hp"] = state.hp[name] if mine else "?"
            combatants.append(entry)
        return {"round": state.round, "combatants": combatants}

    def table(self, state: ToyState) -> tuple[list[str], list[list[str]]]:
        return ["name", "side", "hp"], [[n, state.sides[n], str(state.hp[n])]
                                        for n in state.names]

    def standings(self, state: ToyState) -> Sequence[Standing]:
        return super().standings(state)
