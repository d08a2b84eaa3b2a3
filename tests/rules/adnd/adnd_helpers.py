"""Builders for AD&D underground tests: a scenario from a few dicts, an encounter at round 1."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fracas.core.encounter import Encounter
from fracas.core.events import Event
from fracas.core.rng import ScriptedRng, SeededRng
from fracas.core.ruleset import Action
from fracas.rules.adnd import AdndScenario, AdndUnderground, AdndUndergroundState
from fracas.rules.adnd.actions import Proceed

EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" / "adnd").glob("*.yaml"))


def fighter(name: str, side: str, **kw: Any) -> dict[str, Any]:
    """A plain fighter: 20 hp, THAC0 15, AC 5, a sword; override anything."""
    base: dict[str, Any] = {"name": name, "side": side, "hp": 20, "thac0": 15, "ac": 5,
                            "weapons": [{"name": "sword", "damage": "1d8", "length_ft": 3.5}]}
    base.update(kw)
    return base


def start(combatants: list[dict[str, Any]], init: tuple[int, ...] | None = None,
          proceed: bool = True, **extra: Any) -> Encounter[AdndUndergroundState]:
    """An encounter at round 1 after the DM proceeds; by default the sides act in listed order."""
    model = AdndScenario.model_validate({"ruleset": "adnd", "combatants": combatants, **extra})
    ruleset = AdndUnderground()
    sides = list(dict.fromkeys(c["side"] for c in combatants))
    faces = init if init is not None else tuple(range(1, len(sides) + 1))
    enc = Encounter(ruleset, ruleset.initial_state(model), rng=ScriptedRng(faces))
    if proceed:
        enc.apply(Proceed("gm"), rng=ScriptedRng([]))
    return enc


def act(enc: Encounter[AdndUndergroundState], action: Action | str, *faces: int) -> list[Event]:
    """Apply ``action`` with exactly ``faces`` (later rounds' initiative comes from a seed)."""
    if isinstance(action, str):
        action = enc.ruleset.parse_action(action)
    rng = ScriptedRng(faces, fallback=SeededRng(7))
    events = enc.apply(action, rng=rng)
    if rng.remaining:
        raise AssertionError(f"{rng.remaining} scripted faces were not used")
    return events


def of(events: list[Event], cls: type) -> list[Any]:
    """The events of one type."""
    return [e for e in events if isinstance(e, cls)]
