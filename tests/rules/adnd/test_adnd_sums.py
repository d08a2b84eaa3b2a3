"""Damage dice read by their sum: the exact duel solver branches on the sums, not the faces.

A blow's damage dice and a fall's dice are read by the rules only through their sum (and
every sum that slays the one struck does the same), so the exact solver is shown one die
of ``sides ** count`` faces split by sum (:func:`fracas.rules.adnd.checks.roll_sum`).
These tests hold that to the rules: the classes weigh exactly what the sums weigh, a
seeded or scripted fight rolls what it always rolled, and whole duels solved both ways
(sums, and every face told apart) give the same fractions.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from functools import partial
from typing import Any

import pytest
import yaml
from adnd_helpers import EXAMPLES
from test_adnd_exact import _check_every_class, _Recorder

from fracas.core.policy import DecisionRequest, scenario_policies
from fracas.core.rng import ScriptedRng, SeededRng
from fracas.odds import solve_from_state
from fracas.rules.adnd import AdndScenario, AdndUnderground, checks
from fracas.rules.adnd.checks import joint_faces, roll_dice, roll_sum, sum_classes
from fracas.rules.adnd.resolve import felled_from

RS = AdndUnderground()


@pytest.mark.parametrize(("count", "sides"), [(2, 4), (2, 8), (2, 6), (3, 6), (3, 4)])
@pytest.mark.parametrize("alike_from", [None, 2, 5, 9, -(1 << 30)])
def test_each_class_of_the_joint_die_weighs_what_its_sums_weigh(
        count: int, sides: int, alike_from: int | None) -> None:
    ways = Counter(sum(faces) for faces in itertools.product(range(1, sides + 1), repeat=count))
    classes = sum_classes(count, sides, alike_from)
    assert sorted(f for c in classes for f in c) == list(range(1, sides**count + 1))
    seen = set()
    for group in classes:
        sums = {sum(joint_faces(f, count, sides)) for f in group}
        if alike_from is not None and min(sums) >= alike_from:
            assert sums == {s for s in ways if s >= alike_from}  # every slaying sum, one class
        else:
            assert len(sums) == 1  # any other sum alone
        assert len(group) == sum(ways[s] for s in sums)  # the chance of those sums, exactly
        seen |= sums
    assert seen == set(ways)


def test_the_joint_die_stands_for_every_way_the_dice_fall_once() -> None:
    got = [joint_faces(f, 2, 4) for f in range(1, 17)]
    assert sorted(got) == list(itertools.product(range(1, 5), repeat=2))


def test_a_blow_fells_from_the_sum_that_takes_him_to_zero() -> None:
    from adnd_helpers import fighter, start

    enc = start([fighter("A", "x"), fighter("B", "y", hp=6), fighter("C", "y", hp=1)])
    assert felled_from(enc.state, "B", 1) == 5  # 2d4+1: a sum of 5 deals 6
    assert felled_from(enc.state, "B", -3) == 9
    assert felled_from(enc.state, "C", -5) <= 2  # at 1 hit point every blow (at least 1) fells


@pytest.mark.parametrize("seed", range(30))
def test_seeded_and_scripted_dice_roll_what_they_rolled_before(seed: int) -> None:
    noted: list[Any] = []
    assert roll_sum(SeededRng(seed), noted.append, "A", "damage", 2, 4, 5) == \
        sum(SeededRng(seed).dice(2, 4))
    assert roll_sum(SeededRng(seed), noted.append, "A", "damage", 1, 8, 3,
                    ((1, 2), (3, 4, 5, 6, 7, 8))) == SeededRng(seed).die(8)
    assert roll_sum(ScriptedRng([3, 4]), noted.append, "A", "damage", 2, 4, 5) == \
        roll_dice(ScriptedRng([3, 4]), noted.append, "A", "damage", 2, 4) == 7


def test_the_solver_is_asked_for_one_die_split_by_sum() -> None:
    recorder = _Recorder(4)
    noted: list[Any] = []
    total = roll_sum(recorder, noted.append, "A", "damage", 2, 4, 6)
    (kind, asked, faces), = recorder.rolls
    assert (kind, asked[:2]) == ("pool", (1, 16))
    assert [len(c) for c in asked[2]] == [1, 2, 3, 4, 6]  # sums 2, 3, 4, 5 and 6-8
    assert noted[0].faces == joint_faces(faces[0], 2, 4) and total == sum(noted[0].faces)


def test_the_examples_roll_their_sword_boulder_and_falling_dice_by_sum() -> None:
    """Every face of a class of the joint dice leads to the same fight (the swap check of
    ``test_adnd_exact``), on the fights of the examples that roll two dice or more."""
    joint = 0
    for path in EXAMPLES:
        state = RS.initial_state(AdndScenario.model_validate(yaml.safe_load(path.read_text())))
        policies = scenario_policies(RS, state)
        rng = SeededRng(5)
        RS.advance(state, rng, partial(RS.apply_event, state))
        for step in range(120):
            actor = RS.current_actor(state)
            if actor is None:
                break
            action = policies(actor).choose(DecisionRequest(actor, state, RS, SeededRng(step)))
            _check_every_class(state, action, seed=31 * step)
            recorder = _Recorder(31 * step)
            from test_adnd_exact import _resolve

            state = _resolve(state, action, recorder)
            joint += sum(1 for kind, asked, _ in recorder.rolls
                         if kind == "pool" and asked[0] == 1 and asked[1] in (16, 36, 64))
    assert joint > 0


# -- whole duels, solved by sums and with every face told apart -----------------------------
_SMALL_BRIDGE = {
    "ruleset": "adnd", "max_rounds": 3,
    "combatants": [
        {"name": "Aldric", "side": "paladin", "level": 6, "hp": 9, "thac0": 15, "ac": 2,
         "shield_ac": 1, "dexterity": 12, "climbing": 40,
         "weapons": [{"name": "broad_sword", "damage": "2d4", "length_ft": 3.5, "magic": 1}],
         "terrain": {"kind": "bridge", "alt_ft": 60, "edge_ft": 1, "behind": "open"}},
        {"name": "Vesk", "side": "assassins", "level": 6, "hp": 7, "thac0": 18, "ac": 4,
         "dex_ac": 3, "dexterity": 16, "climbing": 85, "two_weapons": True,
         "weapons": [{"name": "dagger", "damage": "1d4", "length_ft": 1.2, "magic": 2},
                     {"name": "stiletto", "damage": "1d3", "length_ft": 0.8}],
         "terrain": {"kind": "bridge", "alt_ft": 60, "edge_ft": 1.5, "behind": "open"}},
    ],
}

_SMALL_CLIFF = {
    "ruleset": "adnd", "max_rounds": 3, "climb_step_ft": 5,
    "combatants": [
        {"name": "Corvin", "side": "climber", "level": 6, "hp": 9, "thac0": 15, "ac": 5,
         "dex_ac": 2, "dexterity": 16, "climbing": 70,
         "weapons": [{"name": "short_sword", "damage": "1d6", "length_ft": 2.0}],
         "terrain": {"kind": "wall", "alt_ft": 25, "top_ft": 30}},
        {"name": "Hask", "side": "sentry", "level": 4, "hp": 7, "thac0": 18, "ac": 5,
         "dexterity": 12, "boulders": 2,
         "weapons": [{"name": "spear", "damage": "2d3", "length_ft": 6}],
         "terrain": {"kind": "ledge", "alt_ft": 30, "edge_ft": 2, "behind": "open"}},
    ],
}


@pytest.mark.parametrize("data", [_SMALL_BRIDGE, _SMALL_CLIFF], ids=["bridge", "cliff"])
def test_a_duel_solved_by_sums_gives_the_fractions_of_every_face_told_apart(
        data: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    state = RS.initial_state(AdndScenario.model_validate(data))
    by_sum = solve_from_state(RS, state, exact=True)
    monkeypatch.setattr(checks, "JOINT_MOST", 1)  # no joint die: every face its own outcome
    by_face = solve_from_state(RS, state, exact=True)
    assert by_sum.exact is not None and by_sum.exact == by_face.exact
    assert by_sum.states == by_face.states
    assert by_sum.leaves < by_face.leaves
    assert sum(by_sum.exact.values(), Fraction(0)) == 1
