"""Helpers for The One Ring tests: build small fights and drive them with scripted dice."""

from __future__ import annotations

from collections.abc import Iterable
from types import SimpleNamespace
from typing import Any

import pytest

from fracas.core.encounter import Encounter
from fracas.core.events import Event
from fracas.core.rng import ScriptedRng
from fracas.rules.one_ring import OneRing, OneRingState
from fracas.rules.one_ring.scenario import OneRingScenario


def hero(name: str, **kw: Any) -> dict[str, Any]:
    """A plain hero: Strength 5 (TN 15), Parry 16, a sword at proficiency 2."""
    data: dict[str, Any] = {"name": name, "strength": 5, "heart": 4, "wits": 4,
                            "endurance": 20, "hope": 10, "weapons": ["sword"],
                            "proficiencies": {"swords": 2}}
    data.update(kw)
    return data


def foe(name: str, **kw: Any) -> dict[str, Any]:
    """A plain adversary: Parry 1, Armour 2, a blade at rating 2 (Damage 4, Injury 14)."""
    data: dict[str, Any] = {
        "name": name, "attribute_level": 4, "endurance": 12, "might": 1, "hate": 3,
        "parry": 1, "armour": 2,
        "weapons": [{"name": "blade", "category": "swords", "rating": 2, "damage": 4,
                     "injury": 14}]}
    data.update(kw)
    return data


class Fight:
    """An encounter plus shortcuts for scripted play."""

    def __init__(self, heroes: list[dict[str, Any]], foes: list[dict[str, Any]],
                 **scenario: Any) -> None:
        data = {"ruleset": "one_ring", "heroes": heroes, "adversaries": foes, "volleys": 0}
        data.update(scenario)
        self.ruleset = OneRing()
        self.model = OneRingScenario.model_validate(data)
        self.enc: Encounter[OneRingState] = Encounter(
            self.ruleset, self.ruleset.initial_state(self.model), rng=ScriptedRng([]))

    @property
    def state(self) -> OneRingState:
        return self.enc.state

    def do(self, text: str, dice: Iterable[int] = ()) -> list[Event]:
        """Apply one action (text form) with exactly these dice; every face must be used."""
        rng = ScriptedRng(dice)
        events = self.enc.apply(self.ruleset.parse_action(text), rng=rng)
        assert rng.remaining == 0, f"{rng.remaining} scripted faces were not used"
        return events

    def legal(self) -> list[str]:
        return [str(a) for a in self.enc.legal_actions()]

    def stances(self, **chosen: str) -> None:
        """Every hero in turn takes the given stance."""
        for name, stance in chosen.items():
            self.do(f"{name} stance stance={stance}")

    def events(self, cls: type[Event]) -> list[Any]:
        return [e for e in self.enc.log if isinstance(e, cls)]


@pytest.fixture
def tor() -> SimpleNamespace:
    """``tor.Fight``, ``tor.hero`` and ``tor.foe`` for building fights."""
    return SimpleNamespace(Fight=Fight, hero=hero, foe=foe)
