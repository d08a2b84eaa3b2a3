"""Builders for Age of Dragons rule tests: a fight from a few dicts, actions with exact dice.

Tests import this module after putting its folder on ``sys.path`` (pytest runs in
importlib mode, so test folders are not packages).
"""

from __future__ import annotations

from typing import Any

from fracas.core.encounter import Encounter
from fracas.core.events import Event
from fracas.core.rng import ScriptedRng
from fracas.core.ruleset import Action
from fracas.rules.age_of_dragons import AgeOfDragons
from fracas.rules.age_of_dragons.actions import RollPool
from fracas.rules.age_of_dragons.state import RANGES, AgeOfDragonsState, Fighter, pair

RULESET = AgeOfDragons()


def dragon(name: str, side: str, **kw: Any) -> dict[str, Any]:
    """A flying dragon at normal altitude: Soma 6, Sophis 4, Pneuma 4, PD 0, PR 20."""
    base: dict[str, Any] = {"name": name, "side": side, "soma": 6, "sophis": 4, "pneuma": 4,
                            "pd": 0, "pr": 20, "altitude": "normal"}
    base.update(kw)
    return base


def scenario_state(combatants: list[dict[str, Any]], **extra: Any) -> AgeOfDragonsState:
    """The initial state of a scenario; the first combatant's side is the aggressor."""
    data: dict[str, Any] = {"ruleset": "age_of_dragons", "combatants": combatants,
                            "aggressor": combatants[0]["side"], "default_range": "close"}
    data.update(extra)
    model = RULESET.scenario_model.model_validate(data)
    return RULESET.initial_state(model)


def start(combatants: list[dict[str, Any]], *faces: int,
          **extra: Any) -> Encounter[AgeOfDragonsState]:
    """An encounter at the first decision; ``faces`` feed any start-up rolls (initiative).

    Defaults: the first combatant's side is the aggressor and every pair starts at close
    quarters; pass ``aggressor=None`` for a contested initiative roll.
    """
    rng = ScriptedRng(faces)
    enc = Encounter(RULESET, scenario_state(combatants, **extra), rng=rng)
    if rng.remaining:
        raise AssertionError(f"{rng.remaining} scripted faces were not used")
    return enc


def act(enc: Encounter[AgeOfDragonsState], action: Action | str, *faces: int) -> list[Event]:
    """Apply ``action`` with exactly ``faces`` (every face must be used, none more)."""
    if isinstance(action, str):
        action = RULESET.parse_action(action)
    rng = ScriptedRng(faces)
    events = enc.apply(action, rng=rng)
    if rng.remaining:
        raise AssertionError(f"{rng.remaining} scripted faces were not used")
    return events


def roll(enc: Encounter[AgeOfDragonsState], *faces: int,
         spheres: tuple[str, ...] = ("soma",)) -> list[Event]:
    """The current actor rolls the pool nominated for ``spheres`` showing exactly ``faces``."""
    actor = enc.current_actor()
    if actor is None:
        raise AssertionError("the fight is over")
    return act(enc, RollPool(actor, spheres), *faces)


def end(enc: Encounter[AgeOfDragonsState], *faces: int) -> list[Event]:
    """The current actor ends its turn; ``faces`` feed what follows (the end phase, a stun).

    A flyer's turn stays open after its last usable die while it may still choose to fall,
    so tests end such turns explicitly.
    """
    from fracas.rules.age_of_dragons.actions import EndTurn

    actor = enc.current_actor()
    if actor is None:
        raise AssertionError("the fight is over")
    return act(enc, EndTurn(actor), *faces)


def fight(combatants: list[dict[str, Any]], *faces: int, spheres: tuple[str, ...] = ("soma",),
          **extra: Any) -> Encounter[AgeOfDragonsState]:
    """A fight whose first actor has just rolled ``faces`` on the pool of ``spheres``."""
    enc = start(combatants, **extra)
    roll(enc, *faces, spheres=spheres)
    return enc


def of(events: list[Event], cls: type) -> list[Any]:
    """The events of one type."""
    return [e for e in events if isinstance(e, cls)]


def who(enc: Encounter[AgeOfDragonsState], name: str) -> Fighter:
    """A combatant's live condition."""
    return enc.state.fighters[name]


def band(enc: Encounter[AgeOfDragonsState], a: str, b: str) -> str:
    """The range band between two names, by name."""
    return RANGES[enc.state.ranges[pair(a, b)]]


#: A GM task any die satisfies: it keeps a turn open so a refused action can be checked
#: (a turn with nothing left to do ends by itself, unless a flyer may still choose to fall).
HOLD = [{"name": "hold", "difficulty": 1, "threshold": 1}]


def refused(enc: Encounter[AgeOfDragonsState], action: Action) -> str:
    """The rule named when ``action`` is refused (fails the test if it is allowed)."""
    from fracas.core.errors import IllegalActionError

    try:
        enc.check(action)
    except IllegalActionError as err:
        return err.rule
    raise AssertionError(f"{action} was allowed")


def pd_choices(enc: Encounter[AgeOfDragonsState]) -> list[int]:
    """The Physical Defence amounts the defender may choose now."""
    from fracas.rules.age_of_dragons.actions import Defend

    return [a.pd for a in enc.legal_actions() if isinstance(a, Defend)]
