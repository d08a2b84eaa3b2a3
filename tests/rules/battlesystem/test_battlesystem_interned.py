"""Interned events (:func:`fracas.rules.battlesystem.events.interned`) are the classes' own.

A battle hands out again an event equal to one made before (phases, blows, damage,
morale results).  An event handed out for a key it does not equal -- a field of another
type that compares equal (``1`` and ``True``), a field left out of the key -- would
change the log.  This test plays every example, by the heuristic and at random, with
the interning tables kept and with every event made afresh by its class, and holds the
two logs to the same encoded events.
(Checked once on a broken copy: every event keyed without its last field
failed here.)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fracas.core import events as core_events
from fracas.core.encounter import Encounter
from fracas.core.events import encode_event
from fracas.core.loop import play
from fracas.core.policy import RandomPolicy, scenario_policies
from fracas.core.rng import SeededRng
from fracas.rules.battlesystem import events
from fracas.scenario import load_scenario

EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" /
                   "battlesystem").glob("*.yaml"))


def _logs(path: Path) -> list[list[dict[str, Any]]]:
    scenario = load_scenario(path)
    ruleset = scenario.ruleset
    initial = ruleset.initial_state(scenario.model)
    logs = []
    for seed in range(6):
        for random_play in (False, True):
            enc: Encounter[Any] = Encounter(ruleset, initial, rng=SeededRng(seed),
                                            keep_log=True)
            policies = (lambda _actor: RandomPolicy()) if random_play else \
                scenario_policies(ruleset, enc.state)
            play(enc, policies, SeededRng(seed).spawn("policy"), max_decisions=2_000)
            logs.append([encode_event(e) for e in enc.log])
    return logs


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_interned_events_are_the_classes_own(path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    kept = _logs(path)
    monkeypatch.setattr(core_events, "INTERNING", False)  # every event made by its class
    for table in core_events.INTERN_TABLES:
        table.clear()
    assert _logs(path) == kept


def test_an_interned_event_is_made_once() -> None:
    struck = events.interned(events.Struck)
    first = struck("a", "b", "melee", 5, 3, 1, 2)
    assert struck("a", "b", "melee", 5, 3, 1, 2) is first
    assert first == events.Struck("a", "b", "melee", 5, 3, 1, 2)
    assert struck("a", "b", "melee", 5, 3, 2, 4) == events.Struck("a", "b", "melee", 5, 3, 2, 4)
