"""The search's budget from a scenario (``search:``) and the command line (``--search-*``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fracas.ai import SearchPolicy
from fracas.ai.search import DEFAULT_TURN_MS
from fracas.core.encounter import Encounter
from fracas.core.errors import ScenarioError
from fracas.core.policy import DecisionRequest
from fracas.core.rng import SeededRng
from fracas.scenario import load_scenario, parse_scenario
from fracas.scenario.seats import with_policies, with_search
from fracas_cli import run_fracas

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
#: One example of each rule set, and a side of it to play by search.
SEATS = [
    ("age_of_dragons/breath_duel.yaml", "red"),
    ("adnd/wall_duel.yaml", "east"),
    ("battlesystem/chasm_bridge.yaml", "goblins"),
    ("one_ring/ambush.yaml", "company"),
]
WALL = EXAMPLES / "adnd" / "wall_duel.yaml"


def _search_seat(path: str, side: str, **budget: float | None) -> SearchPolicy:
    loaded = with_search(with_policies(load_scenario(EXAMPLES / path), [f"{side}=search"]),
                         **budget)
    rules = loaded.ruleset
    state = rules.initial_state(loaded.model)
    name = next(s.name for s in rules.standings(state) if s.side == side)
    policy = rules.policy_for(state, name)
    assert isinstance(policy, SearchPolicy)
    return policy


@pytest.mark.parametrize(("path", "side"), SEATS)
def test_every_rule_set_hands_the_scenario_budget_to_its_search_seats(path: str,
                                                                      side: str) -> None:
    budget = _search_seat(path, side, rollouts=5, ms=None).budget
    assert (budget.rollouts, budget.ms) == (5, None)
    timed = _search_seat(path, side, ms=40.0).budget
    assert (timed.rollouts, timed.ms, timed.turn_ms) == (None, 40.0, 800.0)


@pytest.mark.parametrize(("path", "side"), SEATS)
def test_without_a_block_the_search_thinks_one_cpu_second_a_turn(path: str, side: str) -> None:
    budget = _search_seat(path, side).budget
    assert (budget.rollouts, budget.turn_ms, budget.clock, budget.horizon) == \
        (None, DEFAULT_TURN_MS, "cpu", 400)
    assert DEFAULT_TURN_MS == 1000.0 and budget.ms is not None and budget.ms <= budget.turn_ms


def test_the_file_block_sets_every_field_and_the_gm_search_seat_gets_it_too() -> None:
    text = (EXAMPLES / "one_ring" / "ambush.yaml").read_text(encoding="utf-8")
    text += ("\nsearch: {rollouts: 9, ms: 50, turn_ms: 400, horizon: 30, clock: cpu}\n"
             "gm_policy: search\n")
    loaded = parse_scenario(text, "ambush.yaml")
    rules = loaded.ruleset
    policy = rules.policy_for(rules.initial_state(loaded.model), "gm")
    assert isinstance(policy, SearchPolicy)
    b = policy.budget
    assert (b.rollouts, b.ms, b.turn_ms, b.horizon, b.clock) == (9, 50.0, 400.0, 30, "cpu")
    assert policy.side == "enemies"


def test_a_search_seat_spends_no_more_rollouts_than_its_budget() -> None:
    policy = _search_seat("adnd/wall_duel.yaml", "east", rollouts=6)
    loaded = load_scenario(WALL)
    rules = loaded.ruleset
    enc = Encounter(rules, rules.initial_state(loaded.model), rng=SeededRng(3), keep_log=False)
    while enc.current_actor() not in (None, "Dorn"):  # Dorn fights for the east
        actor = str(enc.current_actor())
        heuristic = rules.policy("heuristic", actor, {})
        enc.apply(heuristic.choose(DecisionRequest(actor, enc.state, rules, SeededRng(1))))
    assert enc.current_actor() == "Dorn"
    policy.choose(DecisionRequest("Dorn", enc.state, rules, SeededRng(2)))
    assert 0 < policy.last_rollouts <= 6


@pytest.mark.parametrize(("block", "words"), [
    ("{rollouts: 0}", "search.rollouts: Input should be greater than or equal to 1"),
    ("{turn_ms: 500}", "search: turn_ms caps the time of a turn: give ms"),
    ("{clock: cpu}", "search: clock says how ms is counted: give ms too"),
    ("{rollouts: 4, budget: 3}", "search.budget: unknown field 'budget'"),
])
def test_a_bad_block_names_the_file_line_and_field(block: str, words: str) -> None:
    text = WALL.read_text(encoding="utf-8") + f"search: {block}\n"
    line = text.count("\n")
    with pytest.raises(ScenarioError) as err:
        parse_scenario(text, "wall.yaml")
    assert f"wall.yaml:{line}:" in str(err.value) and words in str(err.value)


def test_the_command_line_replaces_the_files_kind_of_budget() -> None:
    text = WALL.read_text(encoding="utf-8") + "search: {ms: 300, turn_ms: 900, horizon: 50}\n"
    loaded = parse_scenario(text, "wall.yaml")
    counted = with_search(loaded, rollouts=12)
    assert counted.data["search"] == {"rollouts": 12, "horizon": 50}
    timed = with_search(parse_scenario(WALL.read_text(encoding="utf-8") +
                                       "search: {rollouts: 64}\n", "wall.yaml"), ms=200.0)
    assert timed.data["search"] == {"ms": 200.0}
    assert with_search(loaded) is loaded  # nothing given: the file's block stands


def test_simulate_takes_the_budget_and_a_seeded_run_replays(
        capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", str(WALL), "-n", "3", "--json", "--workers", "1", "--seed", "5",
            "--policy", "east=search", "--search-rollouts", "4"]
    code, out, _ = run_fracas(args, capsys)
    assert code == 0
    first = json.loads(out)
    code, out, _ = run_fracas(args, capsys)
    assert code == 0 and json.loads(out)["sides"] == first["sides"]
    assert first["runs"] == 3


@pytest.mark.parametrize(("extra", "words"), [
    (["--search-rollouts", "0"], "Invalid value for '--search-rollouts'"),
    (["--search-ms", "fast"], "Invalid value for '--search-ms'"),
])
def test_simulate_refuses_a_bad_budget_plainly(extra: list[str], words: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_fracas(["simulate", str(WALL), "-n", "2", *extra], capsys, flat=True)
    assert code == 2 and words in out + err
    assert "Traceback" not in out + err


def test_a_budget_with_a_log_instead_of_a_scenario_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "fight.jsonl"
    log.write_text("", encoding="utf-8")
    code, _, err = run_fracas(["simulate", "--from", str(log), "--search-rollouts", "4"],
                              capsys, flat=True)
    assert code == 2 and "work with a SCENARIO file, not --from LOG" in err
    assert "Traceback" not in err
