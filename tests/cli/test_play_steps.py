"""'fracas play' asks each human decision step by step: what, whom, how many dice, how.

Scripted answers go through the real command; the saved log says which actions were
taken (values, not labels, which the rule set may reword).  Seed 1 of the claw duel
gives Ember, the human, a first pool with four dice of 4+ (dice 1 to 4).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.cli.app import app

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "age_of_dragons"


@pytest.fixture
def duel(tmp_path: Path) -> Path:
    text = (EXAMPLES / "claw_duel.yaml").read_text()
    path = tmp_path / "duel.yaml"
    path.write_text(text.replace("policy: claw_all}", "policy: human}", 1))
    return path


def play(scenario: Path, answers: str, log: Path | None = None) -> str:
    """Run 'fracas play' on ``answers``; the output with its whitespace squeezed."""
    extra = ["--save", str(log)] if log is not None else []
    result = CliRunner().invoke(app, ["play", str(scenario), "--seed", "1", *extra],
                                input=answers)
    assert result.exit_code == 0, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    return " ".join(result.output.split())


def decisions(log: Path, actor: str = "Ember") -> list[str]:
    """The actions ``actor`` took, as the saved log holds them."""
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    return [r["action"] for r in rows if r["type"] == "decision" and r["actor"] == actor]


def test_a_whole_turn_chosen_step_by_step(duel: Path, tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    # Enter: roll (the default verb), Enter: soma; then attack Ash with 3 dice, a bite
    # called at the head, each value by its name or number.
    out = play(duel, "\n\nattack\nAsh\n3\nbite\nhead\nq\n", log)
    assert decisions(log) == ["Ember roll",
                              "Ember attack target=Ash dice=3 style=bite called=head"]
    for trail in ("Ember: verb?", "Ember: roll > spheres?", "Ember: attack > target?",
                  "Ember: attack > Ash > dice?", "Ember: attack > Ash > 3 dice > style?",
                  "Ember: attack > Ash > 3 dice > bite > called?"):
        assert trail in out
    assert "a number from 1 to 4" in out  # the dice are a range, not a list


def test_enter_takes_every_default(duel: Path, tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    out = play(duel, "\n\nattack\n\n\n\n\nq\n", log)
    dice = re.search(r"dice \[(\d+)\]:", out)
    assert dice is not None
    # style and called shot keep their usual values (claw, none): the action leaves them out
    assert decisions(log) == ["Ember roll", f"Ember attack target=Ash dice={dice[1]}"]


def test_numbers_pick_list_entries_and_range_values(duel: Path, tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    out = play(duel, "1\n1\nattack\n1\n2\n2\n1\nq\n", log)
    style = re.search(r"style\? (?:\* )?1\. \S+ (?:\* )?2\. (\w+)", out)
    assert style is not None, out
    assert decisions(log)[1] == f"Ember attack target=Ash dice=2 style={style[1]}"


def test_b_steps_back_one_choice(duel: Path, tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    # at the style step: back to dice, back to target; choose again with 1 die
    out = play(duel, "\n\nattack\nAsh\n3\nb\nb\nAsh\n1\ntail\n\nq\n", log)
    assert decisions(log)[1] == "Ember attack target=Ash dice=1 style=tail"
    assert out.count("Ember: attack > target?") == 2
    assert out.count("Ember: attack > Ash > dice?") == 3  # twice by b, once by Ash


def test_b_at_the_first_step_only_says_so(duel: Path, tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    out = play(duel, "b\n\n\nq\n", log)
    assert "this is the first choice: nothing to step back to" in out
    assert decisions(log) == ["Ember roll"]


def test_u_undoes_the_last_whole_decision_even_midway(duel: Path, tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    # roll, start an attack, undo (the roll goes, the half-made attack with it); then end
    out = play(duel, "\n\nattack\nAsh\nu\nend\nq\n", log)
    assert "after undo" in out
    assert decisions(log) == ["Ember end"]


def test_r_redoes_with_the_same_dice(duel: Path, tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    out = play(duel, "\n\nu\nr\nq\n", log)
    pools = re.findall(r"Ember rolls \d+ Soma dice: ([0-9 ]+?) (?:\(|Ember|round)", out)
    assert len(pools) == 2 and pools[0] == pools[1]
    assert decisions(log) == ["Ember roll"]


def test_a_typed_whole_action_works_at_any_step(duel: Path, tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    play(duel, "\n\nattack\nattack target=Ash dice=2 style=tail\nq\n", log)
    assert decisions(log) == ["Ember roll", "Ember attack target=Ash dice=2 style=tail"]


def test_field_equals_value_answers_the_step_on_screen(duel: Path, tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    play(duel, "\n\nverb=attack\ntarget=Ash\ndice=1\nstyle=wing\ncalled=tail\nq\n", log)
    assert decisions(log)[1] == "Ember attack target=Ash dice=1 style=wing called=tail"


@pytest.mark.parametrize(("answers", "says"), [
    ("9", "dice: choose a number from 1 to 4"),
    ("0", "dice: choose a number from 1 to 4"),
    ("dice=7", "dice: choose a number from 1 to 4"),
    ("three", "'three' is not a dice offered here: choose a number from 1 to 4"),
    ("4\nfire", "'fire' is not a style offered here: choose 1 to"),
    ("4\n99", "style: choose 1 to"),
    ("4\nclaw\n-2", "called: choose 1 to"),
    ("attack target=Ash dice=9", "rule:"),  # a typed action says which rule refuses it
])
def test_bad_answers_at_a_step_lose_nothing(duel: Path, tmp_path: Path,
                                            answers: str, says: str) -> None:
    log = tmp_path / "fight.jsonl"
    # after the bad answer, Enter takes the defaults still on offer: the choices stand
    out = play(duel, f"\n\nattack\nAsh\n{answers}\n\n\n\n\nq\n", log)
    assert says in out
    assert decisions(log)[1].startswith("Ember attack target=Ash dice=")


def test_end_of_input_midway_saves_what_was_decided(duel: Path, tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    out = play(duel, "\n\nattack\nAsh\n", log)
    assert "input ended: stopping the fight here" in out and "log saved" in out
    assert decisions(log) == ["Ember roll"]
    replayed = CliRunner().invoke(app, ["replay", str(log)])
    assert replayed.exit_code == 0, replayed.output


def test_t_shows_the_table_and_the_step_again(duel: Path) -> None:
    out = play(duel, "t\nq\n")
    assert out.count("Ember: verb?") == 2 and out.count("┏") >= 3


def test_a_lets_the_ai_choose_the_whole_decision(duel: Path, tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    play(duel, "\n\nattack\na\nq\n", log)
    chosen = decisions(log)
    assert len(chosen) == 2 and chosen[0] == "Ember roll"


def test_help_lists_the_commands(duel: Path) -> None:
    out = play(duel, "?\nq\n")
    for command in ("b back one choice", "u undo your last decision", "r redo",
                    "t table", "a let the AI choose", "q quit"):
        assert command in out


def test_a_name_with_a_space_is_a_target_value(tmp_path: Path) -> None:
    text = (EXAMPLES / "grapple_brawl.yaml").read_text()
    path = tmp_path / "twins.yaml"
    brutus = "{name: Brutus, side: red, soma: 10, pd: 2, pr: 34, altitude: flying_high"
    assert brutus in text
    path.write_text(text.replace(brutus, brutus + ", policy: human", 1))
    log = tmp_path / "fight.jsonl"
    # the twins act first (blue is the aggressor); Brutus rolls, then grapples a twin
    out = play(path, "\n\ngrapple\nRight Twin\n1\nq\n", log)
    assert "Brutus: grapple > Right Twin > dice?" in out
    assert decisions(log, "Brutus") == ["Brutus roll",
                                        "Brutus grapple target='Right Twin' dice=1"]


def test_u_before_any_human_decision_leaves_the_ai_moves(tmp_path: Path) -> None:
    text = (EXAMPLES / "grapple_brawl.yaml").read_text()
    path = tmp_path / "twins.yaml"
    brutus = "{name: Brutus, side: red, soma: 10, pd: 2, pr: 34, altitude: flying_high"
    path.write_text(text.replace(brutus, brutus + ", policy: human", 1))
    log = tmp_path / "fight.jsonl"
    out = play(path, "u\nq\n", log)  # the twins have moved; Brutus has not decided yet
    assert "nothing to undo: no decision of a person has been made yet" in out
    assert "after undo" not in out
    assert decisions(log, "Left Twin")  # the AI's moves stand


def test_field_equals_value_goes_back_to_an_earlier_step(duel: Path, tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    # at the called-shot step: dice=2 changes the dice and asks the style again
    out = play(duel, "\n\nattack\nAsh\n3\nbite\ndice=2\ntail\n\nq\n", log)
    assert "Ember: attack > Ash > 2 dice > style?" in out
    assert decisions(log)[1] == "Ember attack target=Ash dice=2 style=tail"


@pytest.mark.parametrize(("answer", "says"), [
    ("called=head", "choose style first (called comes later)"),
    ("dice=9", "dice: choose a number from 1 to 4"),
    ("wings=2", "'wings' is not asked now; style: choose 1 to"),
    ("=", "'' is not asked now"),
])
def test_field_equals_value_out_of_place(duel: Path, tmp_path: Path,
                                         answer: str, says: str) -> None:
    log = tmp_path / "fight.jsonl"
    out = play(duel, f"\n\nattack\nAsh\n3\n{answer}\n\n\nq\n", log)
    assert says in out
    assert decisions(log)[1] == "Ember attack target=Ash dice=3"  # the choices stood


def test_a_lone_verb_later_on_starts_the_decision_over_with_it(duel: Path,
                                                               tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    out = play(duel, "\n\nspot\ngrapple\nAsh\n1\nq\n", log)
    assert "Ember: spot > effect?" in out and "Ember: grapple > target?" in out
    assert decisions(log) == ["Ember roll", "Ember grapple target=Ash dice=1"]


def test_a_lone_verb_not_offered_now_names_the_rule(duel: Path, tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    out = play(duel, "\n\nattack\nroll\n\n\n\n\nq\n", log)  # Ember has rolled already
    assert "illegal action 'Ember roll'" in out and "rule:" in out
    assert decisions(log)[1].startswith("Ember attack target=Ash")  # the attack went on


def test_r_restores_everything_u_took_back(duel: Path, tmp_path: Path) -> None:
    straight, undone = tmp_path / "straight.jsonl", tmp_path / "undone.jsonl"
    play(duel, "\n\nend\nq\n", straight)  # Ember ends the turn, Ash (AI) plays its turn
    out = play(duel, "\n\nend\nu\nr\nq\n", undone)  # u takes back Ash's turn and the end
    assert "after undo" in out
    assert decisions(undone, "Ash") and decisions(undone, "Ash") == decisions(straight, "Ash")
    assert undone.read_text() == straight.read_text()
