"""'fracas play': the g key opens a GM override at any prompt, asked step by step.

Driven like ``test_play_steps.py``: scripted answers through the real command, the saved
log read back.  The claw duel with Ember seated as a person (seed 1).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fracas.cli.app import app
from fracas.core.errors import LogFormatError

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "age_of_dragons"


@pytest.fixture
def duel(tmp_path: Path) -> Path:
    text = (EXAMPLES / "claw_duel.yaml").read_text()
    path = tmp_path / "duel.yaml"
    path.write_text(text.replace("policy: claw_all}", "policy: human}", 1))
    return path


def play(args: list[str], answers: str) -> str:
    result = CliRunner().invoke(app, ["play", *args], input=answers)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return " ".join(result.output.split())


def decisions(log: Path) -> list[str]:
    rows = [json.loads(line) for line in log.read_text().splitlines()[1:]]
    return [r["action"] for r in rows if r["type"] == "decision"]


def test_g_walks_an_override_step_by_step(duel: Path, tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    # g, Enter (adjust), Ash, pr, -3: then the decision on screen starts again; roll; quit
    out = play([str(duel), "--seed", "1", "--save", str(log)], "g\n\nAsh\npr\n-3\n\n\nq\n")
    assert "g GM override" in out  # the prompt's hint names the key
    for trail in ("GM override: verb?", "GM override: adjust > target?",
                  "GM override: adjust > Ash > what?",
                  "GM override: adjust > Ash > Physical Resilience > by?"):
        assert trail in out
    assert "The GM wounds Ash: Physical Resilience 20 → 17" in out
    assert decisions(log) == ["gm adjust target=Ash what=pr by=-3", "Ember roll"]


def test_a_stray_word_in_an_override_names_the_step_not_the_players_verbs(
        duel: Path, tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    # g, adjust, Ash, pr, then 'abc' where a number is asked, then -3
    out = play([str(duel), "--seed", "1", "--save", str(log)], "g\n\nAsh\npr\nabc\n-3\nq\n")
    assert "'abc' is not a by offered here: choose a number from" in out
    assert "unknown action" not in out and "knows: attack" not in out
    assert decisions(log) == ["gm adjust target=Ash what=pr by=-3"]


def test_an_override_verb_not_offered_now_says_why(duel: Path, tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    # Ember ends its turn; Ash, last in the round, has no one to be delayed behind
    out = play([str(duel), "--seed", "1", "--human", "Ash", "--save", str(log)],
               "end\ng\ndelay\nc\nq\n")
    assert "no turn can be delayed now" in out
    assert "needs target=" not in out
    assert decisions(log) == ["Ember end"]


def test_g_takes_a_typed_override_and_a_typed_name(duel: Path, tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    play([str(duel), "--seed", "1", "--save", str(log)],
         "g\ncondition target=Ash condition=stunned\ng\nadd\nAsh\nThe Hatchling\nq\n")
    assert decisions(log) == ["gm condition target=Ash condition=stunned",
                              "gm add like=Ash name='The Hatchling'"]


def test_an_override_is_refused_with_its_rule_and_cancel_keeps_the_decision(
        duel: Path, tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    out = play([str(duel), "--seed", "1", "--save", str(log)],
               "g\nadjust target=Ash what=pr by=5\nc\n\n\nq\n")
    assert "Physical Resilience must stay from -20 to 20" in out
    assert "override cancelled" in out
    assert decisions(log) == ["Ember roll"]


def test_u_undoes_an_override_and_the_log_replays(duel: Path, tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    play([str(duel), "--seed", "1", "--save", str(log)],
         "g\nremove target=Ash\n")  # Ash removed: Ember's side wins at once
    assert decisions(log) == ["gm remove target=Ash"]
    undone = tmp_path / "undone.jsonl"
    play([str(duel), "--seed", "1", "--save", str(undone)], "g\nadjust target=Ash what=pr by=-1"
         "\nu\n\n\nq\n")
    assert decisions(undone) == ["Ember roll"]
    replayed = CliRunner().invoke(app, ["replay", str(log)])
    assert replayed.exit_code == 0 and "The GM takes Ash out of the fight" in replayed.output


def test_play_from_a_log_with_overrides_and_edited_dice_refused(duel: Path,
                                                                tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    play([str(duel), "--seed", "1", "--save", str(log)], "g\nadjust target=Ash what=pr by=-3"
         "\n\n\nattack\nAsh\n\n\n\nq\n")  # roll, then attack Ash with the defaults
    out = play(["--from", str(log), "--human", "Ember", "--save", str(tmp_path / "b.jsonl")],
               "g\nadjust target=Ember what=pr by=-2\nq\n")
    assert "The GM wounds Ember: Physical Resilience 20 → 18" in out
    assert decisions(tmp_path / "b.jsonl")[:2] == ["gm adjust target=Ash what=pr by=-3",
                                                   "Ember roll"]
    rows = log.read_text().splitlines()
    for i, line in enumerate(rows):
        data = json.loads(line)
        if data.get("type") == "dice":
            data["faces"] = [1 if f > 3 else 6 for f in data["faces"]]
            rows[i] = json.dumps(data)
            break
    edited = tmp_path / "edited.jsonl"
    edited.write_text("\n".join(rows) + "\n")
    refused = CliRunner().invoke(app, ["replay", str(edited)])
    assert isinstance(refused.exception, LogFormatError)
    assert "do not replay by the rules" in str(refused.exception)
    # An override's own event edited (Ash left at 20) is refused too.
    forged = log.read_text().replace('"after": 17', '"after": 20')
    (tmp_path / "forged.jsonl").write_text(forged)
    refused = CliRunner().invoke(app, ["replay", str(tmp_path / "forged.jsonl")])
    assert isinstance(refused.exception, LogFormatError)
    assert "the log says type=gm.adjusted" in str(refused.exception)


def test_a_whole_override_typed_at_a_decision_prompt(duel: Path, tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    play([str(duel), "--seed", "1", "--save", str(log)],
         "gm condition target=Ash condition=stunned\n\n\nq\n")
    assert decisions(log) == ["gm condition target=Ash condition=stunned", "Ember roll"]


def test_g_types_a_whole_combatant_in(duel: Path, tmp_path: Path) -> None:
    log = tmp_path / "fight.jsonl"
    out = play([str(duel), "--seed", "1", "--save", str(log)],
               "g\nenter\n{name: Wolf, side: blue, soma: x, pr: 12}\n"
               "{name: Wolf, side: blue, soma: 6, pr: 12}\nq\n")
    assert "soma: Input should be a valid integer" in out
    assert "The GM brings Wolf into the fight (typed in)" in out
    assert decisions(log) == ["gm enter spec='{name: Wolf, side: blue, soma: 6, pr: 12}'"]
