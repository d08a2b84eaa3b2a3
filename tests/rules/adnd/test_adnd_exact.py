"""What the exact duel solver may merge in an AD&D fight, each merge pinned by the rules.

* Faces a roll site puts in one class (``roll_pool``) give the same fight after the
  resolution: the same state key, whichever face of the class was rolled.
* The state key leaves out the hit points of a fighter out of the fight and the round
  (declared with the round limit, the only rule that reads it), and keeps everything
  else a rule or the heuristic reads.
* Side initiative orders the sides uniformly: the solver branches on that order.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from functools import partial
from typing import Any

import pytest
import yaml
from adnd_helpers import EXAMPLES, fighter, start
from hypothesis import HealthCheck, given, settings
from test_adnd_properties import scenarios

from fracas.core.events import DecisionMade, DiceRolled, Event
from fracas.core.loop import resolve_decision
from fracas.core.policy import DecisionRequest, RandomPolicy, scenario_policies
from fracas.core.rng import ScriptedRng, SeededRng
from fracas.rules.adnd import AdndScenario, AdndUnderground, AdndUndergroundState
from fracas.rules.adnd.actions import Wait
from fracas.rules.adnd.checks import at_least, at_most, roll_d20
from fracas.rules.adnd.resolve import damage_classes, deal_damage, initiative
from fracas.rules.adnd.state import state_key

RS = AdndUnderground()

Roll = tuple[str, Any, Any]  # (kind, what was asked, what came up)


class _Recorder:
    """Rolls from a seeded stream (or replays ``script``), remembering every roll.

    It has ``dice_in_classes``, as the exact solver's Rng has: roll sites name their
    classes to it, and initiative branches on the order of the sides.
    """

    def __init__(self, seed: int, script: Sequence[Roll] | None = None) -> None:
        self.seeded = SeededRng(seed)
        self.script = list(script) if script is not None else None
        self.rolls: list[Roll] = []

    def _next(self, kind: str, asked: Any, fresh: Any) -> Any:
        if self.script is not None:
            at = len(self.rolls)
            assert at < len(self.script), "the replay asked for more rolls than the original"
            was_kind, was_asked, value = self.script[at]
            assert (was_kind, was_asked) == (kind, asked), "the replay rolled something else"
        else:
            value = fresh()
        self.rolls.append((kind, asked, value))
        return value

    def die(self, sides: int) -> int:
        value: int = self._next("die", sides, lambda: self.seeded.die(sides))
        return value

    def dice(self, count: int, sides: int) -> list[int]:
        return list(self._next("dice", (count, sides), lambda: self.seeded.dice(count, sides)))

    def dice_in_classes(self, count: int, sides: int, classes: Any) -> list[int]:
        asked = (count, sides, tuple(tuple(c) for c in classes))
        return list(self._next("pool", asked, lambda: self.seeded.dice(count, sides)))

    def choice_index(self, n: int) -> int:
        value: int = self._next("choice", n, lambda: self.seeded.choice_index(n))
        return value


def _resolve(state: AdndUndergroundState, action: Any, rng: Any) -> AdndUndergroundState:
    after = RS.clone_state(state)
    RS.apply_event(after, DecisionMade(action.actor, action))
    resolve_decision(RS, after, action, rng, lambda e: RS.apply_event(after, e))
    return after


def _class_swaps(rolls: Sequence[Roll]) -> list[list[Roll]]:
    """Every roll list made by moving one die of a classed pool to another face of its class."""
    out = []
    for i, (kind, asked, faces) in enumerate(rolls):
        if kind != "pool":
            continue
        for j, face in enumerate(faces):
            group = next(c for c in asked[2] if face in c)
            for other in {group[0], group[-1]} - {face}:
                swapped = list(faces)
                swapped[j] = other
                out.append([*rolls[:i], (kind, asked, swapped), *rolls[i + 1:]])
    return out


def _check_every_class(state: AdndUndergroundState, action: Any, seed: int) -> int:
    recorder = _Recorder(seed)
    key = state_key(_resolve(state, action, recorder))
    swaps = _class_swaps(recorder.rolls)
    for script in swaps:
        replay = _Recorder(0, script)
        assert state_key(_resolve(state, action, replay)) == key, (action, script)
        assert len(replay.rolls) == len(script)
    return len(swaps)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(scenarios())
def test_faces_of_one_class_give_the_same_fight_in_random_scenarios(data: dict[str, Any]) -> None:
    state = RS.initial_state(AdndScenario.model_validate(data))
    rng = SeededRng(3)
    RS.advance(state, rng, lambda e: RS.apply_event(state, e))
    policy = RandomPolicy()
    for step in range(60):
        actor = RS.current_actor(state)
        if actor is None:
            break
        action = policy.choose(DecisionRequest(actor, state, RS, SeededRng(step)))
        _check_every_class(state, action, seed=step)
        state = _resolve(state, action, SeededRng(100 + step))


@pytest.mark.parametrize("seed", range(4))
def test_faces_of_one_class_give_the_same_fight_in_the_examples(seed: int) -> None:
    swaps = 0
    for path in EXAMPLES:
        state = RS.initial_state(AdndScenario.model_validate(yaml.safe_load(path.read_text())))
        policies = scenario_policies(RS, state)
        rng = SeededRng(seed)
        RS.advance(state, rng, partial(RS.apply_event, state))
        for step in range(150):
            actor = RS.current_actor(state)
            if actor is None:
                break
            action = policies(actor).choose(DecisionRequest(actor, state, RS, SeededRng(step)))
            swaps += _check_every_class(state, action, seed=1000 * seed + step)
            state = _resolve(state, action, SeededRng(7 * seed + step))
    assert swaps > 0, swaps


# -- the classes of single rolls ----------------------------------------------------------
def test_a_d20_against_a_number_is_read_as_under_it_or_at_least_it() -> None:
    assert at_least(20, 14) == (tuple(range(1, 14)), tuple(range(14, 21)))
    assert at_most(20, 14) == (tuple(range(1, 15)), tuple(range(15, 21)))
    assert at_least(20, 1) == at_least(20, 21) == (tuple(range(1, 21)),)  # always / never


def test_a_classed_d20_draws_what_a_plain_d20_draws_from_seeded_and_scripted_dice() -> None:
    events: list[Event] = []
    for seed in range(20):
        assert roll_d20(SeededRng(seed), events.append, "A", "attack",
                        classes=at_least(20, 11)) == SeededRng(seed).die(20)
    assert roll_d20(ScriptedRng([17]), events.append, "A", "attack", classes=at_least(20, 5)) == 17


def test_damage_that_fells_the_target_is_one_class_and_every_lesser_amount_its_own() -> None:
    enc = start([fighter("A", "x"), fighter("B", "y", hp=4)])
    # 1d6+1 against 4 hp: faces 3-6 fell him, 1 and 2 leave 2 and 1 hp
    assert damage_classes(enc.state, "B", 1, 6, 1) == ((1,), (2,), (3, 4, 5, 6))
    assert damage_classes(enc.state, "B", 1, 6, -4) is None  # only a 6 fells him
    assert damage_classes(enc.state, "B", 2, 4, 2) == ((1, 2, 3, 4),)  # 2d4+2 always fells
    assert damage_classes(enc.state, "B", 2, 4, 0) is None  # a sum: every face counts


def test_felling_blows_of_different_sizes_leave_the_same_fight() -> None:
    enc = start([fighter("A", "x"), fighter("B", "y", hp=4, terrain={"kind": "bridge",
                                                                      "alt_ft": 30})])
    keys = set()
    for amount in (4, 5, 9):
        state = RS.clone_state(enc.state)
        deal_damage(state, "B", amount, "melee", True, False, ScriptedRng([]),
                    partial(RS.apply_event, state))
        assert not state.fighters["B"].up
        keys.add(state_key(state))
    assert len(keys) == 1


# -- the state key ------------------------------------------------------------------------
def test_the_key_leaves_out_what_is_left_of_a_fighter_out_of_the_fight() -> None:
    enc = start([fighter("A", "x"), fighter("B", "y"), fighter("C", "y")])
    one, two = RS.clone_state(enc.state), RS.clone_state(enc.state)
    for state, hp in ((one, -3), (two, -8)):
        state.fighters["C"].hp = hp
        state.fighters["C"].status = "dead"
    two.fighters["C"].alt = 0.0
    assert state_key(one) == state_key(two)
    one.fighters["C"].status = "fallen"
    assert state_key(one) == state_key(two)


def test_the_key_leaves_the_round_to_the_declared_round_limit() -> None:
    enc = start([fighter("A", "x"), fighter("B", "y")], max_rounds=3)
    later = RS.clone_state(enc.state)
    later.round = 3
    assert state_key(later) == state_key(enc.state)
    assert RS.round_limit(later) == 3  # the solver solves the merged rounds one by one
    # the same position: in round 1 the fight goes on, in the last round it is a draw
    ends = []
    for state in (enc.state, later):
        for name in ("A", "B"):
            state = _resolve(state, Wait(name), ScriptedRng([], fallback=SeededRng(1)))
        ends.append(state.result)
    assert ends == [None, (None, "round limit")]


def test_the_key_tells_apart_what_the_rules_read() -> None:
    enc = start([fighter("A", "x", terrain={"kind": "wall", "alt_ft": 10, "top_ft": 40}),
                 fighter("B", "y")])
    base = state_key(enc.state)
    changes: list[tuple[str, str, Any]] = [
        ("A", "hp", 7), ("A", "alt", 20.0), ("A", "facing_wall", False), ("A", "secure", True),
        ("A", "wielding", "fist"), ("A", "hanging_on", "B"), ("B", "boulders", 1)]
    for name, field, value in changes:
        state = RS.clone_state(enc.state)
        assert getattr(state.fighters[name], field) != value
        setattr(state.fighters[name], field, value)
        assert state_key(state) != base, field
    state = RS.clone_state(enc.state)
    state.turn = 1
    assert state_key(state) != base


# -- initiative ---------------------------------------------------------------------------
def test_d10_initiative_with_every_tie_rolled_again_orders_the_sides_uniformly() -> None:
    """Each side rolls the same die and ties are rolled again: every order is as likely."""
    for n in (2, 3):
        orders: Counter[tuple[int, ...]] = Counter()
        for faces in itertools.product(range(1, 11), repeat=n):
            if len(set(faces)) == n:
                orders[tuple(sorted(range(n), key=faces.__getitem__))] += 1
        assert len(orders) == len(list(itertools.permutations(range(n))))
        assert len(set(orders.values())) == 1


def test_the_exact_solver_branches_on_the_order_of_the_sides_each_once() -> None:
    sides = ("a", "b", "c")
    seen: Counter[tuple[str, ...]] = Counter()
    weights: dict[tuple[str, ...], Fraction] = {}
    for first, second in itertools.product((1, 2, 3), (1, 2)):
        events: list[Event] = []
        rng = _Recorder(0, [("die", 3, first), ("die", 2, second)])
        order = initiative(sides, rng, events.append)
        seen[order] += 1
        weights[order] = Fraction(1, 3) * Fraction(1, 2)
        shown = {e.actor: e.faces[0] for e in events if isinstance(e, DiceRolled)}
        assert tuple(sorted(sides, key=shown.__getitem__)) == order  # low goes first
    assert set(seen) == set(itertools.permutations(sides)) and set(seen.values()) == {1}
    assert sum(weights.values()) == 1


def test_seeded_initiative_rolls_d10s_as_before() -> None:
    events: list[Event] = []
    assert initiative(("a", "b"), ScriptedRng([4, 4, 9, 2]), events.append) == ("b", "a")
    assert [e.faces for e in events if isinstance(e, DiceRolled)] == [(4,), (4,), (9,), (2,)]
