"""Orders are offered as short steps (issue 10): few values a step, one authority on legality."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from fracas.core.action import Action
from fracas.core.decision import chosen_values
from fracas.core.encounter import Encounter
from fracas.core.errors import IllegalActionError
from fracas.core.policy import DecisionRequest, Policy, RandomPolicy
from fracas.core.rng import SeededRng
from fracas.rules.battlesystem import legality
from fracas.rules.battlesystem.actions import Charge, Fire, Form, Hold, Move, Pass
from fracas.rules.battlesystem.policies import HeuristicPolicy
from fracas.scenario import load_scenario, start_encounter

EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" / "battlesystem")
                  .glob("*.yaml"))
MAX_VALUES = 12


def _walk(enc: Encounter[Any], chosen: tuple[Any, ...] = ()) -> list[Action]:
    """Every action reachable through ``enc.options``, checking each step's size."""
    found = enc.options(chosen)
    if found.action is not None:
        return [found.action]
    step = found.step
    assert step is not None
    assert step.size <= MAX_VALUES, f"{step.name} offers {step.size} values after {chosen}"
    out: list[Action] = []
    for value in step.values:
        out += _walk(enc, (*chosen, value))
    return out


def _play(path: Path, seed: int, policy: Policy) -> int:
    enc = start_encounter(load_scenario(path), seed)
    rng = SeededRng(seed).spawn("policy")
    decisions = 0
    while (actor := enc.current_actor()) is not None:
        reached = _walk(enc)
        assert reached, f"{actor} must decide but no order is offered"
        for action in reached:
            enc.check(action)
        assert len(set(reached)) == len(reached)
        chosen = policy.choose(DecisionRequest(actor, enc.state, enc.ruleset, rng))
        assert enc.options(chosen_values(enc.ruleset, enc.state, chosen)).action == chosen
        assert chosen in reached
        enc.apply(chosen)
        decisions += 1
    assert enc.outcome() is not None
    return decisions


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
@pytest.mark.parametrize("policy", [RandomPolicy(), HeuristicPolicy()],
                         ids=["random", "heuristic"])
def test_every_step_of_every_decision_is_short_legal_and_reaches_the_policys_choice(
        path: Path, policy: Policy) -> None:
    for seed in range(6):
        assert _play(path, seed, policy) > 0


def _two_rooms(kit: Any, **more: Any) -> Any:
    return kit.battle([kit.area("a"), kit.area("b"), kit.area("c")],
                      [kit.unit("x", "red", "a", 4, **more), kit.unit("y", "blue", "c", 4)],
                      links=[("a", "b"), ("b", "c")])


def _encounter(b: Any) -> Encounter[Any]:
    return Encounter(b.ruleset, b.state, rng=SeededRng(0))


def test_a_move_order_is_asked_as_verb_then_destination(kit: Any) -> None:
    enc = _encounter(_two_rooms(kit, movement=30))
    verbs = enc.options().step
    assert verbs is not None and verbs.default == "hold"
    assert {"move", "charge", "hold", "form"} <= set(verbs.values)
    where = enc.options(("move",)).step
    assert where is not None and where.name == "to" and where.values == ["b", "c"]
    assert enc.options(("move", "c")).action == Move("x", "c")


def test_only_open_formations_ask_which_way_they_spread(kit: Any) -> None:
    enc = _encounter(_two_rooms(kit))
    formations = enc.options(("form",)).step
    assert formations is not None and formations.values == ["open", "column", "skirmish"]
    assert enc.options(("form", "column")).action == Form("x", "column")
    axis = enc.options(("form", "open")).step
    assert axis is not None and axis.values == ["width", "length"]
    with pytest.raises(IllegalActionError) as refused:
        enc.check(Form("x", "column", "length"))
    assert "axis does not apply" in refused.value.reason


def test_a_charge_beyond_this_turns_movement_is_refused_at_the_target_step(kit: Any) -> None:
    enc = _encounter(_two_rooms(kit, movement=1))
    with pytest.raises(IllegalActionError) as refused:
        enc.options(("charge", "y"))
    assert refused.value.rule == "charge"
    assert "charge" not in enc.options().step.values  # type: ignore[union-attr]


def test_orders_of_the_wrong_phase_or_actor_are_refused_by_the_one_authority(kit: Any) -> None:
    b = _two_rooms(kit, missile={"range": 30})
    enc = _encounter(b)
    for action, rule in [(Fire("x", "y"), "turn sequence"), (Pass("x"), "turn sequence"),
                         (Charge("x", "x"), "targets"), (Move("x", "a"), "movement")]:
        with pytest.raises(IllegalActionError) as refused:
            enc.check(action)
        assert refused.value.rule == rule
    enc.check(Hold("x"))


def test_the_heuristic_builds_its_order_and_confirms_it(kit: Any) -> None:
    b = _two_rooms(kit)
    enc = _encounter(b)
    request = DecisionRequest("x", enc.state, b.ruleset, SeededRng(0))
    order = HeuristicPolicy().choose(request)
    assert order == Move("x", "c")
    assert request.vetted(order)
    assert legality.allows(enc.state, order)  # the quick yes agrees


def _big_map(kit: Any) -> Any:
    names = [f"hall-{i:02d}" for i in range(16)]
    return kit.battle([kit.area(n, width=20, length=2) for n in names],
                      [kit.unit("x", "red", "hall-00", 2, movement=60),
                       *(kit.unit(f"goblins-{i:02d}", "blue", names[i % 4 + 12], 1)
                         for i in range(15))],
                      links=list(pairwise(names)))


def test_long_lists_of_areas_and_units_are_offered_in_groups_of_at_most_twelve(kit: Any) -> None:
    b = _big_map(kit)
    enc = _encounter(b)
    groups = enc.options(("move",)).step
    assert groups is not None and groups.name == "group"
    assert groups.values == ["hall-01", "hall-09"]
    assert groups.label("hall-01") == "hall-01 to hall-08"
    areas = enc.options(("move", "hall-09")).step
    assert areas is not None and areas.values == [f"hall-{i:02d}" for i in range(9, 16)]
    chosen = enc.options(("move", "hall-09", "hall-12")).action
    assert chosen == Move("x", "hall-12", group="hall-09")
    assert str(chosen) == "x move group=hall-09 to=hall-12"
    reached = _walk(enc)
    assert {type(a) for a in reached} >= {Move, Charge, Hold, Form}
    for action in reached:
        enc.check(action)
    assert len([a for a in reached if isinstance(a, Charge)]) == 15


def test_a_typed_order_need_not_name_its_group_but_a_wrong_group_is_refused(kit: Any) -> None:
    b = _big_map(kit)
    enc = _encounter(b)
    typed = b.ruleset.parse_action("x move to=hall-12")
    enc.check(typed)
    assert enc.options(chosen_values(b.ruleset, enc.state, typed)).action == typed
    with pytest.raises(IllegalActionError) as refused:
        enc.check(Move("x", "hall-12", group="hall-01"))
    assert refused.value.rule == "orders"
    order = HeuristicPolicy().choose(DecisionRequest("x", enc.state, b.ruleset, SeededRng(0)))
    assert enc.options(chosen_values(b.ruleset, enc.state, order)).action == order


def test_with_twelve_or_fewer_the_group_is_not_asked_and_must_stay_empty(kit: Any) -> None:
    enc = _encounter(_two_rooms(kit))
    with pytest.raises(IllegalActionError) as refused:
        enc.check(Move("x", "c", group="b"))
    assert "group does not apply" in refused.value.reason
