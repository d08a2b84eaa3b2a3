"""The Monte Carlo runner: seeded fights, compact summaries, same results on any worker count."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from fracas.core.encounter import Encounter
from fracas.core.policy import DecisionRequest, RandomPolicy
from fracas.core.rng import SeededRng, derive_seed
from fracas.core.ruleset import Action
from fracas.scenario import load_scenario, start_encounter
from fracas.sim import (
    FightSpec,
    InlineExecutor,
    LocalExecutor,
    SimulationError,
    run_chunk,
    simulate,
    spec_from_log,
    spec_from_scenario,
)
from fracas.sim.runner import chunk_ranges
from shipped import EXAMPLES
from toy_ruleset import Strike, Toy

DATA = Path(__file__).parent / "data"
CliRun = Callable[[list[str]], tuple[int, str, str]]


@pytest.fixture(scope="module")
def duel_spec() -> FightSpec:
    return spec_from_scenario(load_scenario(DATA / "toy_duel.yaml"))


def test_same_seed_gives_identical_json_with_one_and_two_workers(duel_spec: FightSpec) -> None:
    with LocalExecutor(1) as one:
        a = simulate(duel_spec, 3000, seed=11, executor=one)
    with LocalExecutor(2) as two:
        b = simulate(duel_spec, 3000, seed=11, executor=two)
    assert json.dumps(a.to_json(timing=False)) == json.dumps(b.to_json(timing=False))
    assert a.workers == 1 and b.workers == 2


def test_another_seed_gives_other_fights(duel_spec: FightSpec) -> None:
    a = simulate(duel_spec, 500, seed=1, executor=InlineExecutor())
    b = simulate(duel_spec, 500, seed=2, executor=InlineExecutor())
    assert a.summary != b.summary


def test_fight_i_is_the_fight_fracas_run_plays_with_its_fight_seed(
    duel_spec: FightSpec, cli: CliRun
) -> None:
    fight_seed = derive_seed(42, 7)
    code, out, _ = cli(["run", str(DATA / "toy_duel.yaml"), "--seed", str(fight_seed),
                        "--json"])
    assert code == 0
    outcome = json.loads(out.splitlines()[-1])
    summary = run_chunk(duel_spec, 42, 7, 8)
    assert summary.fights == 1
    if outcome["winner"] is None:
        assert summary.draws == 1
    else:
        assert summary.wins[outcome["winner"]] == 1
    assert summary.rounds == {outcome["rounds"]: 1}


class _StrikeNobody:
    def choose(self, request: DecisionRequest) -> Action:
        return Strike(request.actor, "Nobody")


def test_a_failing_fight_names_its_seed_and_how_to_replay_it(
    duel_spec: FightSpec, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Toy, "policy_for", lambda self, state, actor: _StrikeNobody())
    pattern = (r"fight 3 of the run \(fight seed \d+\) failed: IllegalActionError: .*"
               r"no combatant Nobody.*fracas run .*toy_duel.yaml --seed \d+")
    with pytest.raises(SimulationError, match=pattern):
        run_chunk(duel_spec, 0, 3, 4)


def test_summaries_do_not_depend_on_how_the_fights_are_chunked(duel_spec: FightSpec) -> None:
    whole = run_chunk(duel_spec, 5, 0, 400)
    parts = run_chunk(duel_spec, 5, 0, 123)
    parts.merge(run_chunk(duel_spec, 5, 123, 400))
    assert whole == parts


def test_chunks_cover_every_fight_once() -> None:
    ranges = chunk_ranges(10_001, workers=2)
    assert ranges[0][0] == 0 and ranges[-1][1] == 10_001
    assert all(a[1] == b[0] for a, b in itertools.pairwise(ranges))
    assert chunk_ranges(0, 4) == []
    assert chunk_ranges(5, 1, chunk_size=2) == [(0, 2), (2, 4), (4, 5)]


def test_report_has_every_key_the_issue_names(duel_spec: FightSpec) -> None:
    report = simulate(duel_spec, 400, seed=3, executor=InlineExecutor()).to_json()
    assert {"runs", "seed", "sides", "draws", "rounds", "combatants", "seconds"} <= set(report)
    assert report["runs"] == 400 and report["seed"] == 3
    for side in ("red", "blue"):
        info = report["sides"][side]
        low, high = info["ci95"]
        assert low <= info["win_rate"] <= high
        assert info["win_rate"] == info["wins"] / 400
    assert {"mean", "median", "histogram"} <= set(report["rounds"])
    for name in ("Ash", "Birch"):
        assert {"survival_rate", "mean_health_left"} <= set(report["combatants"][name])
    wins = sum(info["wins"] for info in report["sides"].values())
    assert wins + report["draws"] + report["unfinished"] == 400
    assert sum(report["rounds"]["histogram"].values()) == 400 - report["unfinished"]


def test_toy_duel_has_draws_at_the_round_limit(duel_spec: FightSpec) -> None:
    report = simulate(duel_spec, 2000, seed=3, executor=InlineExecutor()).to_json()
    assert report["draws"] > 0
    assert max(int(r) for r in report["rounds"]["histogram"]) == 7  # limit 6, ends in round 7


def test_fights_past_the_decision_limit_count_as_unfinished() -> None:
    # Oak (9 health) cannot fall to one 1d6 strike, so no fight ends in one decision.
    scenario = load_scenario(DATA / "toy_skirmish.yaml")
    spec = spec_from_scenario(scenario, max_decisions=1)
    report = simulate(spec, 50, seed=0, executor=InlineExecutor()).to_json()
    assert report["unfinished"] == 50
    assert report["rounds"]["histogram"] == {}


def _saved_fight(tmp_path: Path) -> Path:
    scenario = load_scenario(DATA / "toy_skirmish.yaml")
    enc = start_encounter(scenario, 4)
    enc.play(lambda actor: RandomPolicy(), SeededRng(9))
    path = tmp_path / "fight.jsonl"
    enc.save(path)
    return path


def test_continuations_start_from_the_saved_round(tmp_path: Path) -> None:
    path = _saved_fight(tmp_path)
    spec = spec_from_log(path, from_round=3)
    enc = Encounter.load(path)
    ruleset = enc.ruleset
    cut = Encounter.replay(ruleset, enc.initial_state, [])
    from fracas.core.events import decode_event

    for data in spec.events:
        cut.emit(decode_event(dict(data), ruleset))
    assert ruleset.round_number(cut.state) == 3
    assert cut.current_actor() is not None
    start_health = {s.name: s.health for s in ruleset.standings(cut.state)}
    result = simulate(spec, 300, seed=1, executor=InlineExecutor())
    report = result.to_json()
    assert report["continued_from_log"] is True
    assert min(int(r) for r in report["rounds"]["histogram"]) >= 3
    for name, info in report["combatants"].items():
        # toy damage only ever lowers health
        assert max(float(h) for h in info["health_histogram"]) <= start_health[name]


def test_a_finished_fight_cannot_be_continued(tmp_path: Path) -> None:
    path = _saved_fight(tmp_path)
    with pytest.raises(SimulationError, match="already over"):
        spec_from_log(path)


def test_memory_stays_flat_as_runs_grow(duel_spec: FightSpec) -> None:
    def peak(runs: int) -> int:
        tracemalloc.start()
        simulate(duel_spec, runs, seed=0, executor=InlineExecutor())
        _, top = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        return top

    peak(100)  # warm caches
    small, large = peak(300), peak(3000)
    assert large < small * 1.5 + 64_000


def test_the_simulator_imports_without_dask_or_matplotlib() -> None:
    code = ("import sys, fracas.sim, fracas.odds; "
            "print(sorted(m for m in ('distributed', 'dask', 'matplotlib') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"


def test_a_plural_side_wins_in_the_plural() -> None:
    """Rates are read aloud: 'dwarves win', 'orcs win', never 'orcs wins'."""
    spec = spec_from_scenario(load_scenario(EXAMPLES / "adnd" / "bottleneck.yaml"))
    labels = [label for label, _, _ in simulate(spec, 4, seed=0, executor=InlineExecutor()).rates()]
    assert "dwarves win" in labels and "orcs win" in labels
    assert not any(label.endswith("s wins") for label in labels)
