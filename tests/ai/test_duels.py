"""The duels the search is measured on: the AD&D one is a shipped example, kept equal."""

from __future__ import annotations

from pathlib import Path

from fracas.ai.duels import DUELS
from fracas.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]


def test_the_adnd_duel_is_the_ledge_sentry_example() -> None:
    example = load_scenario(ROOT / "examples/adnd/ledge_sentry.yaml")
    assert DUELS["adnd"].scenario().model == example.model


def test_every_duel_has_two_sides() -> None:
    for duel in DUELS.values():
        scenario = duel.scenario()
        rules = scenario.ruleset
        sides = {s.side for s in rules.standings(rules.initial_state(scenario.model))}
        assert len(sides) == 2, duel.name
