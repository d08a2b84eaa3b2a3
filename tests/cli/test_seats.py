"""Any seat, any time: --human seats a person, play --from resumes, run/simulate and humans."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from tests.shipped import SCENARIOS

from fracas.core.policy import scenario_policies
from fracas.core.rng import SeededRng
from fracas.scenario import load_scenario, start_encounter
from fracas.scenario.seats import computer_seats, seats, with_humans
from fracas_cli import run_fracas

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DUEL = EXAMPLES / "age_of_dragons" / "claw_duel.yaml"


@pytest.fixture
def human_duel(tmp_path: Path) -> Path:
    path = tmp_path / "human.yaml"
    path.write_text(DUEL.read_text().replace("altitude: normal, policy: claw_all}\n  - {name: Ash",
                                             "altitude: normal, policy: human}\n  - {name: Ash"))
    return path


def test_every_example_names_its_seats() -> None:
    for path in SCENARIOS:
        found = seats(load_scenario(path))
        assert found.paths, path
        assert all(p in ("heuristic", "random", "claw_all", "human") or isinstance(p, list)
                   for p in found.policies.values()), path


@pytest.mark.parametrize(("example", "name"), [
    ("age_of_dragons/claw_duel.yaml", "Ash"), ("adnd/bridge_duel.yaml", "gm"),
    ("one_ring/ambush.yaml", "Hirgon"), ("battlesystem/chasm_bridge.yaml", "gm"),
    ("battlesystem/chasm_bridge.yaml", "lancers"),
])
def test_a_seat_of_every_rule_set_can_be_taken_by_a_person(example: str, name: str) -> None:
    loaded = with_humans(load_scenario(EXAMPLES / example), [name])
    assert seats(loaded).humans == [name]
    enc = start_encounter(loaded)
    assert type(enc.ruleset.policy_for(enc.state, name)).__name__ == "HumanPolicy"


def test_play_human_seats_a_person(capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    code, out, err = run_fracas(["play", str(DUEL), "--human", "Ember"], capsys)
    assert code == 0, err
    assert "Ember" in out and "nobody is played by a person" not in out


def test_play_human_with_an_unknown_name_lists_the_seats(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_fracas(["play", str(DUEL), "--human", "Nobody"], capsys, flat=True)
    assert code == 2 and "'Nobody' has no seat of its own" in err
    assert "(seats: Ember, Ash)" in err and "Traceback" not in out + err


def test_play_without_a_person_says_how_to_take_a_seat(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code, out, _ = run_fracas(["play", str(DUEL)], capsys)
    assert code == 0 and "seat yourself with --human NAME; seats: Ember, Ash" in " ".join(
        out.split())


def test_run_refuses_a_human_seat_when_it_loads_the_file(
        human_duel: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_fracas(["run", str(human_duel)], capsys, flat=True)
    assert code == 2 and out == ""
    assert "Ember is played by a human (policy: human)" in err and "fracas play" in err


def test_simulate_plays_a_human_seat_with_the_default_policy_and_says_so(
        human_duel: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_fracas(["simulate", str(human_duel), "-n", "20", "-w", "1"], capsys)
    assert code == 0
    assert "played by the default policy (heuristic) instead of a person: Ember" in out
    code, out, _ = run_fracas(["simulate", str(human_duel), "-n", "20", "-w", "1", "--json"],
                              capsys)
    assert code == 0 and json.loads(out)["played_by_default_policy"] == ["Ember"]


def test_computer_seats_leave_other_policies_alone(human_duel: Path) -> None:
    loaded, humans = computer_seats(load_scenario(human_duel))
    assert humans == ["Ember"]
    assert seats(loaded).policies == {"Ember": "heuristic", "Ash": "claw_all"}


def _partial_log(tmp_path: Path, decisions: int) -> Path:
    enc = start_encounter(load_scenario(DUEL), 3)
    pick = scenario_policies(enc.ruleset, enc.state)
    rng = SeededRng(3).spawn("policy")
    for _ in range(decisions):
        request = enc.request(rng)
        enc.apply(pick(request.actor).choose(request))
    path = tmp_path / "partial.jsonl"
    enc.save(path)
    return path


def test_play_from_a_log_resumes_the_fight(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    log = _partial_log(tmp_path, 3)
    events = len(log.read_text().splitlines()) - 1
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    out_log = tmp_path / "more.jsonl"
    code, out, err = run_fracas(["play", "--from", str(log), "--save", str(out_log)], capsys)
    assert code == 0, err
    assert f"resuming {log} after {events} events" in " ".join(out.split())
    saved = out_log.read_text().splitlines()
    assert saved[:events + 1] == log.read_text().splitlines()
    assert len(saved) > events + 1  # the computer played on from where the log stopped


def test_play_from_a_finished_fight_says_so(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "done.jsonl"
    assert run_fracas(["run", str(DUEL), "--save", str(log)], capsys)[0] == 0
    code, _, err = run_fracas(["play", "--from", str(log)], capsys, flat=True)
    assert code == 2 and "the fight is already over" in err


def test_play_needs_a_scenario_or_a_log(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_fracas(["play"], capsys, flat=True)
    assert code == 2 and "give either a SCENARIO file or --from LOG" in err


@pytest.mark.slow
def test_odds_duel_plays_a_human_seat_with_the_default_policy(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The small duel: with the heuristic in one seat the full one is too large to solve.
    small = Path(__file__).resolve().parents[1] / "odds" / "data" / "claw_duel_small.yaml"
    path = tmp_path / "human.yaml"
    path.write_text(small.read_text().replace("policy: claw_all", "policy: human", 1))
    code, out, _ = run_fracas(["odds", "duel", str(path)], capsys)
    assert code == 0 and "played by the default policy (heuristic) instead of a person: " \
        "Ember" in " ".join(out.split())
    code, out, _ = run_fracas(["odds", "duel", str(path), "--json"], capsys)
    assert code == 0 and json.loads(out)["played_by_default_policy"] == ["Ember"]


def test_simulate_from_a_log_with_a_human_seat_says_who_the_default_policy_played(
        human_duel: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "half.jsonl"
    enc = start_encounter(load_scenario(human_duel), 2)
    enc.save(log)
    code, out, err = run_fracas(["simulate", "--from", str(log), "-n", "10", "-w", "1"], capsys)
    assert code == 0, err
    assert "played by the default policy (heuristic) instead of a person: Ember" in out
