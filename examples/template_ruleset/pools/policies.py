"""The rule set's own AI: attack the most wounded foe, keeping one die back when hurt."""

from typing import Any

from fracas.core.action import Action
from fracas.core.policy import DecisionRequest
from pools.actions import Attack, Guard
from pools.state import PoolsState


def policy_choice(state: PoolsState, actor: str) -> str:
    """The policy the scenario chose for ``actor``."""
    return state.policies[actor]


def search_settings(state: PoolsState) -> dict[str, Any]:
    """The scenario's ``search:`` block: the budget of its ``search`` seats."""
    return dict(state.search)


class Heuristic:
    """Finishes the weakest foe; a wounded fighter keeps one die back as guard."""

    def choose(self, request: DecisionRequest) -> Action:
        state, me = request.state, request.state.fighters[request.actor]
        foes = state.foes(me.name)
        if not foes:
            return Guard(me.name)
        target = min(foes, key=lambda f: (f.wounds, f.name))
        dice = me.dice - 1 if me.wounds <= 2 and me.dice > 1 else me.dice
        action = Attack(me.name, target.name, dice)
        return action if request.is_legal(action) else Guard(me.name)
