"""'fracas play' shows the odds of the decision being built, marks a value that cannot
succeed, and prints the win chance from here on ``o`` (worked out in the background).

Seed 1 of the claw duel gives Ember, the human, a first pool with four dice of 4+.
"""

from __future__ import annotations

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


def play(scenario: Path, answers: str) -> str:
    result = CliRunner().invoke(app, ["play", str(scenario), "--seed", "1"], input=answers)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result.output


def test_the_odds_follow_the_decision_as_it_is_built(duel: Path) -> None:
    out = play(duel, "\nsoma\nattack\nAsh\n4\nbite\nq\n")
    # The roll: its dice and the chance of a hit, before it is made.
    assert "rolls 9d6 (Soma), each 4+ a hit" in out
    assert "at least one hit (4+): 99.8%" in out
    # The attack as it stands (the usual values for the steps not answered yet).
    assert "expends 4 hits already rolled (1 six)" in out
    assert "the attack lands on Ash (no PD left to spend): 100%" in out
    # A bite is TN +3: every called shot (TN +3 or more) is out of reach of 4 hits.
    called = out[out.index("called?"):]
    assert "neck (cannot succeed)" in " ".join(called.split())
    assert "no called shot (the attack lands on Ash" in " ".join(called.split())


def test_o_prints_the_win_chance_or_that_it_is_still_being_worked_out(duel: Path) -> None:
    out = " ".join(play(duel, "o\no\nq\n").split())
    assert "win chance from here: being worked out in the background" in out
    assert "o win chance from here" in " ".join(play(duel, "?\nq\n").split())


def test_the_win_chance_is_worked_out_in_the_background_and_printed() -> None:
    from rich.console import Console

    from fracas.cli.forecast import WinChanceWatch
    from fracas.scenario import load_scenario, start_encounter

    enc = start_encounter(load_scenario(EXAMPLES / "claw_duel.yaml"), seed=1)
    watch = WinChanceWatch(fights=40)
    console = Console(record=True, width=200)
    watch.start(enc)
    assert watch.thread is None  # nothing is worked out before it is asked for
    watch.report(console)  # the first ask starts it
    watch.wait()
    watch.report(console)
    text = console.export_text()
    assert "win chance from here" in text
    assert "won" in text and "of 40 fights played on from here" in text


def test_a_player_at_the_terminal_reads_no_odds_drawn_from_the_gms_secrets() -> None:
    scenario = EXAMPLES.parent / "one_ring" / "company_vs_orcs.yaml"
    result = CliRunner().invoke(app, ["play", str(scenario), "--seed", "2", "--human", "Hirgon"],
                                input="attack\nq\n")
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert "hit: 34.3%" in out and "a Piercing Blow" in out
    assert "a Wound (a Piercing Blow" not in out and "drops to 0 Endurance" not in out
