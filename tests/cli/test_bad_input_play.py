"""Junk at the 'fracas play' prompt: a plain line and the same step again; end of input saves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.cli.app import app

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GOOD = (EXAMPLES / "age_of_dragons" / "claw_duel.yaml").read_text()


@pytest.fixture
def human(tmp_path: Path) -> Path:
    path = tmp_path / "human.yaml"
    path.write_text(GOOD.replace("policy: claw_all}", "policy: human}", 1))
    return path


def play(scenario: Path, answers: str, *extra: str) -> str:
    result = CliRunner().invoke(app, ["play", str(scenario), "--seed", "1", *extra],
                                input=answers)
    assert result.exit_code == 0, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return " ".join(result.output.split())


@pytest.mark.parametrize(("answer", "says"), [
    # Ember's first step offers three verbs (roll, fall, end)
    ("²", "'²' is not a verb offered here: choose 1 to 3"),  # isdigit() is True for '²'
    ("-1", "verb: choose 1 to 3"),
    ("0", "verb: choose 1 to 3"),
    ("99999999999999999999999", "verb: choose 1 to 3"),
    ("Ash", "'Ash' is not a verb offered here: choose 1 to 3"),
    ("Ash roll", "it is Ember's decision now, not Ash's"),
    ("'Ash' roll", "it is Ember's decision now, not Ash's"),
    ("attack", "'Ember attack': roll a dice pool first (rule: turn steps)"),  # not offered
    ("roll extra=1", "unknown field 'extra' for 'roll'; its fields: spheres="),
    ("attack target=Ash dice=3", "roll a dice pool first"),
    ("verb=dance", "'dance' is not a verb offered here"),
    ("'oops", "cannot read"),
    ("b", "this is the first choice: nothing to step back to"),
    ("u", "nothing to undo"),
    ("r", "nothing to redo"),
])
def test_junk_answers_get_a_plain_message(human: Path, answer: str, says: str) -> None:
    output = play(human, f"{answer}\nq\n")
    assert says in output and "Traceback" not in output
    assert output.count("Ember: verb?") == 1  # the step is not shown again, only asked


def test_end_of_input_stops_the_fight_and_keeps_the_log(human: Path, tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    output = play(human, "1\n1\nattack\n", "--save", str(log))  # then the input ends
    assert "input ended" in output and "log saved" in output
    kinds = [json.loads(line)["type"] for line in log.read_text().splitlines()]
    assert kinds[0] == "header" and "decision" in kinds


@pytest.mark.parametrize(("typed", "then"), [
    ("roll", "\n"),                    # the verb by its name, then Enter for the spheres
    ("Left Twin roll", ""),            # a whole action, the actor named or not
    ("'Left Twin' roll", ""),
    ("roll spheres=soma", ""),
])
def test_typed_actions_work_for_a_name_with_a_space(typed: str, then: str,
                                                    tmp_path: Path) -> None:
    text = (EXAMPLES / "age_of_dragons" / "grapple_brawl.yaml").read_text()
    path = tmp_path / "twins.yaml"
    twin = "{name: Left Twin, side: blue, soma: 7, pd: 2, pr: 16, altitude: flying_high"
    assert twin in text
    path.write_text(text.replace(twin, twin + ", policy: human", 1))
    output = play(path, f"{typed}\n{then}q\n")
    assert "Left Twin decides" in output and "not a verb" not in output
    assert "Left Twin rolls" in output.split("Left Twin decides")[1]
