"""Decisions as short steps: every step of every example offers a handful of values, every
action the steps reach is legal, and the policies' picks are reachable through the steps."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fracas.core.action import Action
from fracas.core.decision import Options, chosen_values
from fracas.core.encounter import Encounter
from fracas.core.policy import DecisionRequest, Policy, RandomPolicy, scenario_policies
from fracas.core.rng import SeededRng
from fracas.rules.one_ring import OneRing
from fracas.scenario import load_scenario, start_encounter
from fracas.testing import check_ruleset

EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" / "one_ring").glob("*.yaml"))
MAX_STEP = 12


def _walk(enc: Encounter[Any], found: Options, reached: list[Action]) -> None:
    """Every branch of the decision tree: sizes bounded, every leaf a legal action."""
    step = found.step
    if step is None:
        assert found.action is not None, f"the steps {found.chosen} end in no action"
        enc.check(found.action)
        reached.append(found.action)
        return
    assert 0 < step.size <= MAX_STEP, f"{step.name} after {found.chosen}: {step.size} values"
    for value in step.values:
        _walk(enc, enc.options((*found.chosen, value)), reached)


def _play(path: Path, seed: int, policy: str) -> int:
    enc = start_encounter(load_scenario(path), seed)
    ruleset = enc.ruleset
    assert isinstance(ruleset, OneRing)
    heuristic = scenario_policies(ruleset, enc.state)
    rng = SeededRng(seed).spawn("policy")
    decisions = 0
    while enc.current_actor() is not None and decisions < 2000:
        reached: list[Action] = []
        _walk(enc, enc.options(), reached)
        assert reached
        actor = enc.current_actor()
        assert actor is not None
        chooser: Policy = RandomPolicy() if policy == "random" else heuristic(actor)
        request = DecisionRequest(actor, enc.state, ruleset, rng)
        action = chooser.choose(request)
        values = chosen_values(ruleset, enc.state, action)
        assert enc.options(values).action == action, f"{action} not reachable via {values}"
        assert action in reached
        enc.apply(action)
        decisions += 1
    assert enc.outcome() is not None
    return decisions


@pytest.mark.slow
@pytest.mark.parametrize("policy", ["random", "heuristic"])
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_step_offers_at_most_twelve_legal_values(path: Path, policy: str) -> None:
    for seed in range(6):
        assert _play(path, seed, policy) > 0


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_one_fight_of_each_example_walks_its_steps(path: Path) -> None:
    assert _play(path, 11, "random") > 0


@pytest.mark.slow
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_conformance_kit_passes_on_more_seeds(path: Path) -> None:
    report = check_ruleset("one_ring", path, seeds=range(3, 8))
    assert report.fights == 5


HELD_BACK = """\
ruleset: one_ring
name: Reinforcements in the trees
volleys: 1
heroes:
  - {name: Hirgon, strength: 6, heart: 4, wits: 4, endurance: 26, hope: 10,
     armour: mail_shirt, shield: shield, weapons: [sword, bow],
     proficiencies: {swords: 3, bows: 2}}
  - {name: Lothril, strength: 4, heart: 5, wits: 6, endurance: 22, hope: 12,
     armour: leather_shirt, weapons: [great_bow, dagger], proficiencies: {bows: 3, swords: 1},
     skills: {scan: 2}}
  - {name: Beran, strength: 7, heart: 3, wits: 3, endurance: 28, hope: 8,
     armour: leather_corslet, weapons: [great_axe], proficiencies: {axes: 3}}
  - {name: Merry, strength: 4, heart: 6, wits: 5, endurance: 20, hope: 14,
     armour: leather_shirt, weapons: [short_sword], proficiencies: {swords: 2}}
adversaries:
  - {name: orc, kind: orc_soldier, count: 2}
  - {name: reserve, kind: orc_archer, count: 2, eligible: false}
"""


@pytest.mark.slow
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_held_back_foes_keep_the_steps_short_and_legal(tmp_path: Path, policy: str) -> None:
    path = tmp_path / "held_back.yaml"
    path.write_text(HELD_BACK)
    for seed in range(4):
        assert _play(path, seed, policy) > 0
    report = check_ruleset("one_ring", path, seeds=range(2))
    assert report.fights == 2
