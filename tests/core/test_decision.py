"""The step-by-step decisions of the core (fracas.core.decision) on a small tree.

The tree: ``hit`` (target, then a number of dice 1-4, then ``aimed`` only for the
archer), ``rest`` (no fields).  Bo is out of reach, so choosing Bo is a dead end
that the steps must not offer although ``why_not`` accepts the target alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from fracas.core.action import Action
from fracas.core.decision import (
    Menu,
    Partial,
    Span,
    chosen_values,
    has_options,
    iter_legal,
    options,
)
from fracas.core.decision import check as check_action
from fracas.core.errors import IllegalActionError
from fracas.core.policy import DecisionRequest, RandomPolicy
from fracas.core.rng import SeededRng


@dataclass(frozen=True, slots=True)
class Hit(Action):
    verb: ClassVar[str] = "hit"
    actor: str
    target: str
    dice: int
    aimed: bool = False


@dataclass(frozen=True, slots=True)
class Rest(Action):
    verb: ClassVar[str] = "rest"
    actor: str


@dataclass
class World:
    actor: str = "Ann"
    foes: tuple[str, ...] = ("Al", "Bo", "Cy")
    far: frozenset[str] = frozenset({"Bo"})
    dice: int = 4
    archer: bool = False
    calls: int = 0


class Tree:
    actions = (Hit, Rest)
    name = "tree"

    def why_not(self, state: World, p: Partial) -> IllegalActionError | None:
        state.calls += 1
        if p.actor != state.actor:
            return p.refuse("turn order", f"it is not {p.actor}'s turn")
        if p.kind is Hit:
            if state.dice == 0:
                return p.refuse("dice", "no dice left")
            if "target" in p and p["target"] not in state.foes:
                return p.refuse("targets", f"no foe {p['target']}")
            if "dice" in p:
                if not 1 <= p["dice"] <= state.dice:
                    return p.refuse("dice", f"1 to {state.dice} dice")
                if p["target"] in state.far:
                    return p.refuse("reach", f"{p['target']} is out of reach")
        return None

    def step(self, state: World, p: Partial, field: str) -> Menu | Span | None:
        if field == "target":
            return Menu(state.foes, lambda n: f"{n}!")
        if field == "dice":
            return Span(1, 9, 2)
        if field == "aimed":
            return Menu((False, True), {False: "loose", True: "aimed"}) if state.archer else None
        return None

    def verb_label(self, action: type[Action]) -> str:
        return action.verb.upper()

    def default_verb(self, state: World, verbs: list[str]) -> str:
        return verbs[-1]


TREE: Any = Tree()


def test_the_first_step_is_the_verb_with_labels_and_default() -> None:
    found = options(TREE, World(), "Ann")
    assert found.step is not None and found.step.name == "verb"
    assert found.step.values == ["hit", "rest"]
    assert found.step.label("hit") == "HIT" and found.step.default == "rest"
    assert found.action is None


def test_a_value_that_cannot_complete_is_not_offered() -> None:
    step = options(TREE, World(), "Ann", ["hit"]).step
    assert step is not None and step.values == ["Al", "Cy"]
    assert [c.label for c in step.choices] == ["Al!", "Cy!"]


def test_a_span_is_trimmed_to_what_completes_and_counts_as_one() -> None:
    step = options(TREE, World(dice=3), "Ann", ["hit", "Al"]).step
    assert step is not None and step.span is not None
    assert (step.span.low, step.span.high, step.default) == (1, 3, 2)
    assert step.size == 1 and step.values == [1, 2, 3]


def test_a_field_not_asked_keeps_its_default_and_the_action_is_whole() -> None:
    found = options(TREE, World(), "Ann", ["hit", "Cy", 3])
    assert found.action == Hit("Ann", "Cy", 3) and found.step is None
    assert found.fields == ("verb", "target", "dice")
    archer = options(TREE, World(archer=True), "Ann", ["hit", "Cy", 3])
    assert archer.step is not None and archer.step.name == "aimed"
    assert options(TREE, World(archer=True), "Ann", ["hit", "Cy", 3, True]).action == \
        Hit("Ann", "Cy", 3, True)


def test_a_refused_choice_names_the_rule() -> None:
    with pytest.raises(IllegalActionError) as err:
        options(TREE, World(dice=2), "Ann", ["hit", "Al", 3])
    assert err.value.rule == "dice" and "1 to 2 dice" in str(err.value)
    with pytest.raises(IllegalActionError) as err:
        options(TREE, World(), "Ann", ["hit", "Bo"])
    assert "no choice of the remaining fields" in err.value.reason
    with pytest.raises(IllegalActionError) as err:
        options(TREE, World(), "Ann", ["dance"])
    assert "unknown verb 'dance'" in str(err.value)
    with pytest.raises(IllegalActionError):
        options(TREE, World(), "Ann", ["rest", 1])


def test_check_judges_the_whole_action_and_the_fields_not_asked() -> None:
    check_action(TREE, World(), Hit("Ann", "Al", 4))
    with pytest.raises(IllegalActionError) as err:
        check_action(TREE, World(), Hit("Ann", "Bo", 1))
    assert err.value.rule == "reach" and "Ann hit" in str(err.value)
    with pytest.raises(IllegalActionError) as err:
        check_action(TREE, World(), Hit("Ann", "Al", 1, aimed=True))
    assert "aimed does not apply" in err.value.reason
    check_action(TREE, World(archer=True), Hit("Ann", "Al", 1, aimed=True))
    with pytest.raises(IllegalActionError) as err:
        check_action(TREE, World(), Rest("Bea"))
    assert err.value.rule == "turn order"


def test_legal_actions_are_lazy_and_every_one_is_reachable_by_its_values() -> None:
    world = World(dice=2)
    legal = list(iter_legal(TREE, world, "Ann"))
    assert legal == [Hit("Ann", "Al", 1), Hit("Ann", "Al", 2), Hit("Ann", "Cy", 1),
                     Hit("Ann", "Cy", 2), Rest("Ann")]
    for action in legal:
        assert options(TREE, world, "Ann", chosen_values(TREE, world, action)).action == action
    first = World(dice=4)
    next(iter_legal(TREE, first, "Ann"))
    assert first.calls <= 4  # the first action needs no listing of the rest


def test_has_options_stops_at_the_first_and_honours_skip() -> None:
    assert has_options(TREE, World(), "Ann")
    assert not has_options(TREE, World(dice=0), "Ann", frozenset({"rest"}))
    assert has_options(TREE, World(dice=0), "Ann")
    assert not has_options(TREE, World(foes=("Bo",)), "Ann", frozenset({"rest"}))


class _Ruleset(Tree):
    """Enough of a rule set for a DecisionRequest."""

    def check(self, state: World, action: Action) -> None:
        check_action(self, state, action)


def test_the_random_policy_picks_per_step_and_its_pick_is_vetted() -> None:
    world = World()
    counts: dict[str, int] = {"hit": 0, "rest": 0}
    rng = SeededRng(5)
    for _ in range(400):
        request = DecisionRequest("Ann", world, _Ruleset(), rng)  # type: ignore[arg-type]
        action = RandomPolicy().choose(request)
        check_action(TREE, world, action)
        assert request.vetted(action)
        counts[action.verb] += 1
    # Uniform over the two verbs (not over the eight whole actions: rest would be 1 in 9).
    assert 150 < counts["rest"] < 250


def test_is_legal_marks_only_a_legal_action_as_vetted() -> None:
    request = DecisionRequest("Ann", World(), _Ruleset(), SeededRng(1))  # type: ignore[arg-type]
    bad, good = Hit("Ann", "Bo", 1), Hit("Ann", "Al", 1)
    assert not request.is_legal(bad) and not request.vetted(bad)
    assert request.is_legal(good) and request.vetted(good)
    assert not request.vetted(Hit("Ann", "Al", 1))  # another object: check it again
