"""The encounter: decisions, events, undo/redo, replay and saved logs (on the toy rule set)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.core.encounter import Encounter
from fracas.core.errors import (
    ActionSyntaxError,
    FightOverError,
    IllegalActionError,
    LogFormatError,
    NothingToUndoError,
    ScriptExhaustedError,
)
from fracas.core.events import DecisionMade, DiceRolled, FightEnded, encode_event
from fracas.core.policy import RandomPolicy, ScriptedPolicy
from fracas.core.rng import ScriptedRng, SeededRng
from fracas.scenario import parse_scenario, start_encounter
from fracas.testing import ConformanceError, check_ruleset
from toy_ruleset import Strike, Wait, Wounded

TOY = """
ruleset: toy
fighters:
  - {name: a, side: red, hp: 6}
  - {name: b, side: blue, hp: 6}
"""


def toy(faces: list[int] | None = None) -> Encounter:  # type: ignore[type-arg]
    scenario = parse_scenario(TOY, "toy.yaml")
    enc = start_encounter(scenario, seed=1)
    if faces is not None:
        enc.rng = ScriptedRng(faces)
    return enc


def test_apply_records_the_decision_then_its_dice_and_results() -> None:
    enc = toy([4])
    events = enc.apply(Strike("a", "b"))
    assert isinstance(events[0], DecisionMade) and events[0].action == Strike("a", "b")
    assert isinstance(events[1], DiceRolled) and events[1].faces == (4,)
    assert Wounded("b", 4) in events
    assert enc.state.hp["b"] == 2
    assert enc.current_actor() == "b"


def test_acting_out_of_turn_names_the_rule() -> None:
    enc = toy([4])
    with pytest.raises(IllegalActionError, match=r"turn order"):
        enc.apply(Strike("b", "a"))
    assert not enc.log or not any(isinstance(e, DecisionMade) for e in enc.log)


def test_undo_takes_back_the_decision_and_redo_restores_the_same_dice() -> None:
    enc = toy([4, 2])
    enc.apply(Strike("a", "b"))
    enc.apply(Strike("b", "a"))
    assert enc.state.hp == {"a": 4, "b": 2}
    enc.undo()
    assert enc.state.hp == {"a": 6, "b": 2} and enc.current_actor() == "b"
    enc.redo()
    assert enc.state.hp == {"a": 4, "b": 2}
    enc.undo()
    enc.undo()
    assert enc.state.hp == {"a": 6, "b": 6}
    with pytest.raises(NothingToUndoError):
        enc.undo()


def test_a_new_decision_after_undo_clears_redo() -> None:
    enc = toy([4, 1])
    enc.apply(Strike("a", "b"))
    enc.undo()
    enc.apply(Wait("a"))
    assert not enc.can_redo
    with pytest.raises(NothingToUndoError):
        enc.redo()


def test_replay_rebuilds_the_state_without_dice() -> None:
    enc = toy([6, 6])
    enc.apply(Strike("a", "b"))
    replayed = Encounter.replay(enc.ruleset, enc.initial_state, enc.log, rng=ScriptedRng([]))
    assert replayed.state == enc.state
    assert replayed.outcome() == enc.outcome()


def test_fight_over_refuses_more_actions() -> None:
    enc = toy([6])
    enc.apply(Strike("a", "b"))
    assert enc.outcome() is not None and enc.outcome().winner == "red"  # type: ignore[union-attr]
    assert enc.current_actor() is None and list(enc.legal_actions()) == []
    assert isinstance(enc.log[-1], FightEnded)
    with pytest.raises(FightOverError):
        enc.apply(Wait("b"))


def test_saved_log_loads_back_identically(tmp_path: Path) -> None:
    enc = toy([3, 5, 2])
    for action in (Strike("a", "b"), Strike("b", "a"), Wait("a")):
        enc.apply(action)
    path = tmp_path / "fight.jsonl"
    enc.save(path)
    loaded = Encounter.load(path)
    assert loaded.state == enc.state
    assert [encode_event(e) for e in loaded.log] == [encode_event(e) for e in enc.log]


def test_a_corrupt_log_names_file_and_line(tmp_path: Path) -> None:
    enc = toy([3])
    enc.apply(Strike("a", "b"))
    path = tmp_path / "fight.jsonl"
    enc.save(path)
    lines = path.read_text().splitlines()
    lines[2] = '{"type": "no such event"}'
    path.write_text("\n".join(lines))
    with pytest.raises(LogFormatError, match=r"fight.jsonl:3: unknown event type"):
        Encounter.load(path)
    path.write_text("not json\n")
    with pytest.raises(LogFormatError, match=r"fight.jsonl:1: not JSON"):
        Encounter.load(path)


def test_action_text_round_trips_and_bad_text_is_a_clear_error() -> None:
    enc = toy()
    assert enc.ruleset.parse_action(str(Strike("a", "b"))) == Strike("a", "b")
    assert str(Strike("Left Twin", "b")) == "'Left Twin' strike target=b"
    assert enc.ruleset.parse_action("'Left Twin' strike target=b") == Strike("Left Twin", "b")
    with pytest.raises(ActionSyntaxError, match="unknown action 'punch'"):
        enc.ruleset.parse_action("a punch target=b")
    with pytest.raises(ActionSyntaxError, match="key=value"):
        enc.ruleset.parse_action("a strike b")
    with pytest.raises(ActionSyntaxError, match="unknown field"):
        enc.ruleset.parse_action("a strike target=b force=3")


def test_play_with_policies_reaches_an_outcome() -> None:
    enc = toy()
    outcome = enc.play(lambda actor: RandomPolicy(), SeededRng(2))
    assert outcome is not None and enc.is_over


def test_scripted_policy_plays_its_list_then_says_so() -> None:
    enc = toy([1, 1])
    policy = ScriptedPolicy([Strike("a", "b"), Strike("b", "a")])
    with pytest.raises(ScriptExhaustedError, match="ran out after 2 actions"):
        enc.play(lambda actor: policy, SeededRng(0))


def test_conformance_kit_passes_on_the_toy_rule_set(tmp_path: Path) -> None:
    path = tmp_path / "toy.yaml"
    path.write_text(TOY)
    report = check_ruleset("toy", path, seeds=range(4))
    assert report.fights == 4 and report.decisions > 0


def test_conformance_kit_catches_state_that_is_not_a_fold_of_the_log(tmp_path: Path) -> None:
    import toy_ruleset

    class Cheat(toy_ruleset.Toy):
        name = "toy_cheat"
        seen = 0

        def apply_event(self, state, event):  # type: ignore[no-untyped-def]
            super().apply_event(state, event)
            if isinstance(event, DiceRolled):  # hidden memory outside the log
                Cheat.seen += 1
                state.hp[state.names[0]] += Cheat.seen % 2

    from fracas.core.ruleset import register_ruleset
    register_ruleset(Cheat)
    path = tmp_path / "cheat.yaml"
    path.write_text(TOY.replace("ruleset: toy", "ruleset: toy_cheat"))
    with pytest.raises(ConformanceError):
        check_ruleset("toy_cheat", path, seeds=range(3))


def test_is_legal_answers_without_raising() -> None:
    enc = toy([6])
    assert enc.is_legal(Strike("a", "b")) and not enc.is_legal(Strike("b", "a"))
    enc.apply(Strike("a", "b"))
    assert not enc.is_legal(Wait("b"))  # the fight is over
