"""Decisions offered as short steps: the verb, then each field, never more than 12 values.

Random and heuristic fights of every example are played; at each decision every
path of ``enc.options()`` is walked to its end.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from adnd_helpers import EXAMPLES, fighter, start

from fracas.core.action import Action
from fracas.core.decision import chosen_values
from fracas.core.encounter import Encounter
from fracas.core.errors import IllegalActionError
from fracas.core.policy import Policy, RandomPolicy
from fracas.core.rng import SeededRng
from fracas.rules.adnd.actions import Attack, Climb
from fracas.rules.adnd.policies import HeuristicPolicy
from fracas.rules.adnd.state import AdndUndergroundState
from fracas.scenario import load_scenario

MOST_VALUES = 12


def _walk(enc: Encounter[AdndUndergroundState], chosen: tuple[object, ...] = ()) -> list[Action]:
    """Every action reachable from ``chosen``, asserting the bound on every step."""
    found = enc.options(chosen)
    if found.action is not None:
        return [found.action]
    step = found.step
    assert step is not None, f"{chosen}: a step with nothing to choose"
    assert step.size <= MOST_VALUES, f"{chosen}: {step.name} offers {step.size} values"
    assert step.default in step.values
    out: list[Action] = []
    for value in step.values:
        out += _walk(enc, (*chosen, value))
    return out


def _play(path: Path, seed: int, policy: Policy, decisions: int = 400) -> int:
    """Play one fight, checking the steps at every decision; the number of decisions."""
    scenario = load_scenario(path)
    rs = scenario.ruleset
    enc = Encounter(rs, rs.initial_state(scenario.model), rng=SeededRng(seed))
    choices = SeededRng(seed + 1000)
    made = 0
    while enc.current_actor() is not None and made < decisions:
        reached = _walk(enc)
        assert reached, "a decision with no legal action"
        for action in reached:
            enc.check(action)
        assert len(set(reached)) == len(reached)
        assert set(reached) == set(enc.legal_actions())
        action = policy.choose(enc.request(choices))
        assert enc.options(chosen_values(rs, enc.state, action)).action == action
        enc.apply(action)
        made += 1
    return made


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_every_step_of_a_random_fight_offers_at_most_twelve_values(path: Path,
                                                                     seed: int) -> None:
    assert _play(path, seed, RandomPolicy()) > 0


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_every_step_of_a_heuristic_fight_offers_at_most_twelve_values(path: Path,
                                                                        seed: int) -> None:
    assert _play(path, seed, HeuristicPolicy()) > 0


def test_an_attack_is_chosen_as_verb_then_foe_then_weapon() -> None:
    enc = start([fighter("A", "x", weapons=[{"name": "sword", "damage": "1d8"},
                                            {"name": "bow", "damage": "1d6", "missile": True}]),
                 fighter("B", "y"), fighter("C", "y")])
    verbs = enc.options()
    assert verbs.step is not None and verbs.step.default == "attack"
    assert verbs.step.values == ["attack", "grapple", "wait"]
    foes = enc.options(["attack"])
    assert foes.step is not None and foes.step.name == "target"
    assert foes.step.values == ["B", "C"]
    weapons = enc.options(["attack", "C"])
    assert weapons.step is not None and weapons.step.name == "weapon"
    assert weapons.step.values == ["sword", "bow"] and weapons.step.default == "sword"
    assert str(enc.options(["attack", "C", "bow"]).action) == "A attack target=C weapon=bow"


def test_a_foe_no_weapon_can_reach_is_refused_at_the_target_step() -> None:
    enc = start([fighter("A", "x"), fighter("B", "y", terrain={"kind": "ledge", "alt_ft": 30}),
                 fighter("C", "y")])
    foes = enc.options(["attack"]).step
    assert foes is not None and foes.values == ["C"]
    with pytest.raises(IllegalActionError) as info:
        enc.options(["attack", "B"])
    assert info.value.rule == "reach"


def test_unknown_values_are_refused_naming_the_rule() -> None:
    enc = start([fighter("A", "x", terrain={"kind": "wall", "alt_ft": 10}), fighter("B", "y")])
    with pytest.raises(IllegalActionError) as info:
        enc.check(Climb("A", "sideways"))  # type: ignore[arg-type]
    assert info.value.rule == "sheer surfaces"
    with pytest.raises(IllegalActionError) as info:
        enc.check(Attack("A", "Nobody", "sword"))
    assert info.value.rule == "targets"
    with pytest.raises(IllegalActionError) as info:
        enc.check(Attack("A", "B", "halberd"))
    assert info.value.rule == "weapons"


def test_the_dm_is_offered_to_let_the_round_run_first() -> None:
    enc = start([fighter("A", "x"), fighter("B", "y")], proceed=False)
    step = enc.options().step
    assert step is not None and step.default == "proceed"
    saves = enc.options(["call_save", "A"]).step
    assert saves is not None and saves.name == "category" and len(saves.values) == 5
