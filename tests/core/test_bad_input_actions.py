"""Typed action text: messages in the words a person types; any text raises only project errors."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.shipped import SCENARIOS

from fracas.core.action import Action
from fracas.core.codec import parse_fields
from fracas.core.errors import (
    ActionSyntaxError,
    FracasError,
    IllegalActionError,
    MissingFieldsError,
)
from fracas.scenario import load_scenario, parse_scenario, start_encounter

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@dataclass(frozen=True, slots=True)
class Push(Action):
    verb: ClassVar[str] = "push"
    actor: str
    target: str
    steps: int
    loud: bool = False

    def __post_init__(self) -> None:
        if self.steps > 10:
            raise ValueError("at most 10 steps")


def test_a_missing_field_is_named_as_typed() -> None:
    with pytest.raises(ActionSyntaxError, match=r"^'push' needs target=\.\.\. steps=\.\.\.$"):
        parse_fields(Push, [], {"actor": "ann"})


def _two_blade_units(east_in: str) -> str:
    """A BATTLESYSTEM fight: west's blades in the middle cavern, east's in ``east_in``."""
    unit = ("figures: 6, hd: 2, ac: 4, thac0: 17, damage: 2, movement: 12, morale: 14, "
            "save: 11, formation: closed, frontage: 3")
    return (
        "ruleset: battlesystem\n"
        "areas:\n"
        "  - {name: middle, kind: cavern, width: 8, length: 8, ceiling: 20}\n"
        "  - {name: east-hall, kind: cavern, width: 8, length: 6, ceiling: 20}\n"
        "links: [{a: middle, b: east-hall}]\n"
        "sides: [{name: west, retreat: middle}, {name: east, retreat: east-hall}]\n"
        "units:\n"
        f"  - {{name: west-blades, side: west, area: middle, {unit}}}\n"
        f"  - {{name: east-blades, side: east, area: {east_in}, {unit}}}\n")


def test_a_verb_refused_now_is_answered_with_its_rule_not_its_missing_fields() -> None:
    enc = start_encounter(parse_scenario(_two_blade_units("middle"), "<melee>"), 1)
    with pytest.raises(MissingFieldsError) as caught:
        enc.ruleset.parse_action("west-blades form")
    assert (caught.value.actor, caught.value.verb) == ("west-blades", "form")
    refusal = enc.refusal_behind(caught.value)
    assert isinstance(refusal, IllegalActionError) and refusal.rule == "melee: formations"
    assert str(refusal).startswith("illegal action 'west-blades form': a unit locked in melee")


def test_a_verb_typed_out_of_turn_is_answered_with_the_turn_order() -> None:
    enc = start_encounter(parse_scenario(_two_blade_units("east-hall"), "<apart>"), 1)
    assert enc.current_actor() == "west-blades"
    with pytest.raises(MissingFieldsError) as caught:
        enc.ruleset.parse_action("east-blades move")
    refusal = enc.refusal_behind(caught.value)
    assert isinstance(refusal, IllegalActionError) and refusal.rule == "turn order"
    assert "it is west-blades' decision now" in str(refusal)


def test_an_allowed_verb_keeps_the_message_naming_its_missing_fields() -> None:
    enc = start_encounter(parse_scenario(_two_blade_units("east-hall"), "<apart>"), 1)
    with pytest.raises(MissingFieldsError) as caught:
        enc.ruleset.parse_action("west-blades form")
    assert enc.refusal_behind(caught.value) is caught.value
    assert str(caught.value) == "'form' needs formation=..."
    other = ActionSyntaxError("cannot read it")
    assert enc.refusal_behind(other) is other


def test_an_unknown_field_lists_the_fields_there_are() -> None:
    expected = r"^unknown field 'far' for 'push'; its fields: target=, steps=, loud=$"
    with pytest.raises(ActionSyntaxError, match=expected):
        parse_fields(Push, ["target=bob", "far=1"], {"actor": "ann"})


def test_a_value_error_in_an_action_is_a_syntax_error_not_a_crash() -> None:
    with pytest.raises(ActionSyntaxError, match="at most 10 steps"):
        parse_fields(Push, ["target=bob", "steps=11"], {"actor": "ann"})



WORDS = st.sampled_from(["", "-1", "0", "7", "99999999999999999999", "x", "1.5", "é", "a,b", ",",
                         "none", "yes", "gm", "nan", "'a b'", "\"", "=", "[", "close", "human"])


@pytest.mark.parametrize("path", SCENARIOS, ids=[f"{p.parent.name}/{p.stem}" for p in SCENARIOS])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_action_text_raises_only_project_errors(path: Path, data: st.DataObject) -> None:
    enc = start_encounter(load_scenario(path), 1)
    verbs = sorted(a.verb for a in enc.ruleset.actions)
    names = [s.name for s in enc.ruleset.standings(enc.state)] + ["gm"]
    legal = [str(a) for a in enc.legal_actions()]
    actor = data.draw(st.sampled_from([enc.current_actor() or "gm", *names]))
    verb = data.draw(st.sampled_from([*verbs, "junk"]))
    pairs = data.draw(st.lists(st.tuples(
        st.sampled_from(["target", "dice", "to", "range", "weapon", "x", "spheres", "units",
                         "mode", "stance", "amount", ""]),
        st.one_of(WORDS, st.sampled_from(names), st.integers(-5, 40).map(str))), max_size=4))
    text = " ".join([actor, verb, *(f"{k}={v}" for k, v in pairs)])
    if legal and data.draw(st.booleans()):
        text = data.draw(st.sampled_from(legal)) + " " + " ".join(f"{k}={v}" for k, v in pairs)
    try:
        action = enc.ruleset.parse_action(text)
        enc.check(action)
    except FracasError:
        pass


@pytest.mark.parametrize(("typed", "full"), [
    ("roll", "'Left Twin' roll"),
    ("Left Twin roll", "'Left Twin' roll"),
    ("'Left Twin' roll", "'Left Twin' roll"),
    ("Brutus roll", "Brutus roll"),
    ("  roll  ", "'Left Twin' roll"),
])
def test_typed_text_gets_its_actor_quoted(typed: str, full: str) -> None:
    from fracas.core.codec import with_actor

    assert with_actor(typed, "Left Twin", ["Left Twin", "Right Twin", "Brutus", "gm"]) == full
