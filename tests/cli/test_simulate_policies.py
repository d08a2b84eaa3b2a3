"""simulate/sweep --policy WHO=POLICY: a side, a seat or the GM played by another policy."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fracas.core.errors import ScenarioError
from fracas.scenario import load_scenario
from fracas.scenario.seats import seats, with_policies
from fracas_cli import run_fracas

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DUEL = EXAMPLES / "age_of_dragons" / "claw_duel.yaml"


def test_a_side_sets_every_seat_of_it_and_a_seat_wins_over_its_side() -> None:
    loaded = load_scenario(EXAMPLES / "one_ring" / "company_vs_orcs.yaml")
    table = seats(loaded)
    side_of = {s.name: s.side for s in loaded.ruleset.standings(
        loaded.ruleset.initial_state(loaded.model))}
    side = next(side_of[n] for n in table.paths if n in side_of)
    members = [n for n in table.paths if side_of.get(n) == side]
    changed = seats(with_policies(loaded, [f"{side}=random", f"{members[0]}=heuristic"]))
    assert changed.policies[members[0]] == "heuristic"
    assert all(changed.policies[n] == "random" for n in members[1:])
    others = [n for n in table.paths if n not in members]
    assert all(changed.policies[n] == table.policies[n] for n in others)


@pytest.mark.parametrize(("text", "words"), [
    ("red", "takes WHO=POLICY"),
    ("nobody=random", "no side or seat called 'nobody' (sides: red, blue; seats: Ember, Ash)"),
    ("red=wizard", "has no policy called 'wizard' (it has heuristic, claw_all, search, "
                   "random, human, scripted)"),
    ("Ash=human", "cannot play a human policy"),
])
def test_bad_assignments_are_plain_errors(text: str, words: str) -> None:
    with pytest.raises(ScenarioError) as err:
        with_policies(load_scenario(DUEL), [text])
    assert words in str(err.value)


def test_simulate_moves_the_odds_when_one_side_plays_randomly(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_fracas(["simulate", str(DUEL), "-n", "300", "--json",
                               "--workers", "1", "--policy", "red=random"], capsys)
    assert code == 0
    report = json.loads(out)
    assert report["sides"]["blue"]["win_rate"] > 0.6  # claw_all beats a random red dragon


def test_simulate_refuses_a_bad_policy_with_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_fracas(["simulate", str(DUEL), "-n", "10", "--policy", "red=x"], capsys,
                              flat=True)
    assert code == 2 and "red=x: rule set age_of_dragons has no policy called 'x'" in err
    assert "Traceback" not in err


def test_sweep_takes_policies_too(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_fracas(["sweep", str(DUEL), "--vary", "combatants.Ash.soma=8,9", "-n",
                               "100", "--json", "--workers", "1",
                               "--policy", "blue=random"], capsys)
    assert code == 0 and json.loads(out)
