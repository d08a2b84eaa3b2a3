"""Builders for BATTLESYSTEM test battles: small maps, units with sensible defaults."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from fracas.core.action import Action
from fracas.core.events import Event
from fracas.rules.battlesystem import Battlesystem, BattlesystemScenario
from fracas.rules.battlesystem.state import BattlesystemState, Unit


class Battle:
    """A state built from a scenario dict, with an ``emit`` that applies and records events."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.ruleset = Battlesystem()
        self.model = BattlesystemScenario.model_validate(data)
        self.state: BattlesystemState = self.ruleset.initial_state(self.model)
        self.log: list[Event] = []

    def emit(self, event: Event) -> None:
        self.ruleset.apply_event(self.state, event)
        self.log.append(event)

    def unit(self, name: str) -> Unit:
        """The unit ``name``, to read or to set up by hand: what the state worked out from
        where units stand is forgotten, as the fold forgets it when a unit changes."""
        self.state.readings.forget()
        return self.state.units[name]

    def check(self, action: Action, phase: str) -> None:
        """Check ``action`` as the next order of ``phase`` (its actor's turn in that phase)."""
        self.state.phase = phase
        self.state.queue = [action.actor]
        self.ruleset.check(self.state, action)

    def of(self, cls: type) -> list[Any]:
        return [e for e in self.log if isinstance(e, cls)]


def area(name: str, width: float = 10, length: float = 10, **more: Any) -> dict[str, Any]:
    """An area, lit unless ``lit=False`` is given (so darkness stays out of unrelated tests)."""
    return {"name": name, "width": width, "length": length, "lit": True, **more}


def unit(name: str, side: str, where: str, figures: int = 4, **more: Any) -> dict[str, Any]:
    base = {"name": name, "side": side, "area": where, "figures": figures, "hd": 1,
            "policy": "heuristic"}
    base.update(more)
    return base


def scenario(areas: list[dict[str, Any]], units: list[dict[str, Any]],
             links: list[tuple[str, str] | tuple[str, str, bool]] | None = None,
             sides: list[dict[str, Any]] | None = None, **more: Any) -> dict[str, Any]:
    first = areas[0]["name"]
    return {
        "ruleset": "battlesystem",
        "areas": areas,
        "links": [{"a": lk[0], "b": lk[1], "bend": bool(lk[2]) if len(lk) > 2 else False}
                  for lk in (links or [])],
        "sides": sides or [{"name": "red", "retreat": first}, {"name": "blue",
                                                                 "retreat": areas[-1]["name"]}],
        "units": units,
        **more,
    }


def crowd(units: int = 16, sizes: int = 4) -> dict[str, Any]:
    """``units`` units of two armies in three areas, of mixed sizes (2 to ``sizes`` + 1
    figures) and formations, one area a narrow passage where columns squeeze: many units
    of one area reaching (or not) many others, marching in and out one by one (some in
    contact with two figures, some with more)."""
    areas = [{"name": "west", "kind": "cavern", "width": 20, "length": 20, "lit": True},
             {"name": "gap", "kind": "tunnel", "width": 0.75, "length": 40, "lit": False},
             {"name": "east", "kind": "cavern", "width": 20, "length": 20, "lit": True}]
    members = [{"name": f"U{i}", "side": ("west", "east")[i % 2],
                "area": "gap" if i in (0, 5) else ("west", "east")[i % 2],
                "figures": 2 + i % sizes, "ac": 5, "thac0": 19 - i % 3, "damage": 1 + i % 2,
                "movement": 6 + 3 * (i % 2), "morale": 12, "frontage": 1 + i % 3,
                "formation": "column" if i in (0, 5) else ("closed", "column", "open")[i % 3]}
               for i in range(units)]
    return {"ruleset": "battlesystem", "name": "crowd", "max_turns": 12, "areas": areas,
            "links": [{"a": "west", "b": "gap"}, {"a": "gap", "b": "east"}],
            "sides": [{"name": "west", "retreat": "west"}, {"name": "east", "retreat": "east"}],
            "units": members}


def halls(n: int) -> dict[str, Any]:
    """The growth benchmark's battle of ``n`` units: two halls, half an army in each."""
    benchmarks = str(Path(__file__).resolve().parents[3] / "benchmarks")
    sys.path.insert(0, benchmarks)
    try:
        import growth
    finally:
        sys.path.remove(benchmarks)
    data: dict[str, Any] = growth.scenario("battlesystem", n)
    return data


class Kit:
    """The builders, handed to tests by the ``kit`` fixture."""

    area = staticmethod(area)
    unit = staticmethod(unit)
    scenario = staticmethod(scenario)
    crowd = staticmethod(crowd)
    halls = staticmethod(halls)

    @staticmethod
    def battle(*args: Any, **kwargs: Any) -> Battle:
        return Battle(scenario(*args, **kwargs))


@pytest.fixture
def kit() -> type[Kit]:
    """Builders for small test battles."""
    return Kit
