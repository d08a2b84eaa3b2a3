"""``--precision``: rounds until every reported interval is narrow enough, the same
answer whatever the workers; sweeps compared fight by fight on aligned dice."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from fracas.scenario import load_scenario
from fracas.sim.executors import InlineExecutor
from fracas.sim.runner import next_round, simulate_many, spec_from_scenario
from fracas.sim.stats import (
    ChunkSummary,
    half_width,
    joint_outcomes,
    paired_difference,
    unpaired_difference,
    wilson_interval,
)
from fracas.sim.streams import AlignedRng
from fracas.sim.sweep import parse_variation, sweep

ROOT = Path(__file__).parents[2]
CLAW = str(ROOT / "examples" / "age_of_dragons" / "claw_duel.yaml")
DUEL = str(Path(__file__).parent / "data" / "toy_duel.yaml")
CliRun = Callable[[list[str]], tuple[int, str, str]]
TIMING = ("seconds", "fights_per_second", "workers", "executor")


def test_newcombe_unpaired_difference_matches_his_published_example() -> None:
    diff, (low, high) = unpaired_difference(56, 70, 48, 80)
    assert diff == pytest.approx(0.2)
    assert (low, high) == pytest.approx((0.0524, 0.3339), abs=1e-4)


def test_paired_difference_without_correlation_is_the_unpaired_one() -> None:
    # A 2x2 table with phi = 0 (the outcomes independent): the same interval.
    paired = paired_difference(both=25, only_first=25, only_second=25, neither=25)
    unpaired = unpaired_difference(50, 100, 50, 100)
    assert paired[1] == pytest.approx(unpaired[1])


def test_paired_difference_narrows_as_outcomes_agree() -> None:
    loose = paired_difference(30, 20, 10, 40)
    tight = paired_difference(45, 10, 0, 45)
    assert loose[0] == pytest.approx(tight[0]) == pytest.approx(0.1)
    assert tight[1][1] - tight[1][0] < loose[1][1] - loose[1][0]
    same = paired_difference(50, 0, 0, 50)
    assert same == (0.0, pytest.approx((-0.0, 0.0), abs=0.04))


def test_joint_outcomes_pair_fights_by_position() -> None:
    a, b = ChunkSummary(fights=3), ChunkSummary(fights=3)
    for winner in ("red", None, "blue"):
        a.note(winner, True)
    for winner in ("red", "red", None):
        b.note(winner, winner is not None)
    assert joint_outcomes(a, b) == {("red", "red"): 1, ("(draw)", "red"): 1,
                                    ("blue", "(unfinished)"): 1}


def test_next_round_aims_at_the_precision_and_respects_the_cap() -> None:
    assert next_round(1000, 0.02, 0.01, 10**6) == 4400
    assert next_round(1000, 0.0101, 0.01, 10**6) == 1200  # at least 100 more, by hundreds
    assert next_round(1000, 1.0, 0.001, 10**9) == 16_000  # at most sixteen times
    assert next_round(1000, 0.02, 0.01, 2000) == 2000


def test_precision_plays_until_every_interval_is_within_it() -> None:
    spec = spec_from_scenario(load_scenario(DUEL))
    with InlineExecutor() as ex:
        result = simulate_many([spec], 100, 3, ex, precision=0.04, max_runs=50_000)[0]
        widest, _ = result.precision()
        assert widest <= 0.04 < result.runs and result.runs > 100
        for label, rate, interval in result.rates():
            assert half_width(rate, interval) <= 0.04, label
        # The rounds continue the fight indices: the same as asking for that many fights.
        fixed = simulate_many([spec], result.runs, 3, ex)[0]
    assert fixed.summary.wins == result.summary.wins
    assert fixed.summary.rounds == result.summary.rounds


def test_precision_stops_at_the_cap_and_says_so(cli: CliRun) -> None:
    code, out, _ = cli(["simulate", DUEL, "--precision", "0.001", "--max-fights", "300",
                        "-n", "100", "-w", "1", "--json"])
    assert code == 0
    report = json.loads(out)
    assert report["runs"] == 300
    assert report["precision"]["asked"] == 0.001 and report["precision"]["reached"] is False
    code, out, _ = cli(["simulate", DUEL, "--precision", "0.001", "--max-fights", "300",
                        "-n", "100", "-w", "1"])
    assert "NOT reached" in out and "300 fights" in out


def test_precision_gives_the_same_answer_on_one_and_two_workers(cli: CliRun) -> None:
    reports = []
    for workers in ("1", "2"):
        code, out, _ = cli(["simulate", DUEL, "--precision", "0.03", "-n", "200", "--seed",
                            "9", "-w", workers, "--json"])
        assert code == 0
        reports.append({k: v for k, v in json.loads(out).items() if k not in TIMING})
    assert reports[0] == reports[1]
    assert reports[0]["precision"]["reached"] is True and reports[0]["runs"] > 200


def test_the_plain_report_says_how_precise_it_is(cli: CliRun) -> None:
    code, out, _ = cli(["simulate", DUEL, "-n", "400", "-w", "1"])
    assert code == 0 and "precision: every rate above is within +-" in out


def test_aligned_rolls_share_their_dice_whatever_the_pool_sizes_before() -> None:
    a, b = AlignedRng(11), AlignedRng(11)
    assert a.dice(7, 6) == b.dice(8, 6)[:7]
    assert [a.die(6) for _ in range(20)] == [b.die(6) for _ in range(20)]
    faces = AlignedRng(3).dice(60_000, 6)
    for face in range(1, 7):  # fair: each face about a sixth
        assert abs(faces.count(face) / 60_000 - 1 / 6) < 0.01


def test_a_sweep_pairs_its_variants_and_narrows_the_difference() -> None:
    scenario = load_scenario(CLAW)
    vary = [parse_variation("combatants.Ash.soma=7,8")]
    with InlineExecutor() as ex:
        result = sweep(scenario, vary, 1500, 0, ex)
        independent = [simulate_many([replace(sim.spec, aligned=False)], 1500, 100 + k, ex)[0]
                       for k, (_, sim) in enumerate(result.variants)]
    found = result.variants[1][1].difference("red")
    assert found is not None
    diff, (low, high), paired = found
    assert paired and low <= diff <= high
    base, other = independent[0].summary, independent[1].summary
    _, (ilow, ihigh) = unpaired_difference(other.wins["red"], 1500, base.wins["red"], 1500)
    assert (ihigh - ilow) / (high - low) > 1.25
    assert result.variants[0][1].difference("red") is None


def test_sweep_json_gives_each_variants_paired_difference(cli: CliRun) -> None:
    code, out, _ = cli(["sweep", CLAW, "--vary", "combatants.Ash.soma=7,9", "-n", "200",
                        "-w", "1", "--json"])
    assert code == 0
    report = json.loads(out)
    assert report["dice"] == "aligned"
    first, second = report["variants"]
    assert "difference_from_first" not in first
    red = second["difference_from_first"]["red"]
    assert red["paired"] is True
    assert red["win_rate"] == pytest.approx(second["sides"]["red"]["win_rate"]
                                            - first["sides"]["red"]["win_rate"])


def test_sweep_precision_counts_the_differences(cli: CliRun) -> None:
    code, out, _ = cli(["sweep", CLAW, "--vary", "combatants.Ash.soma=7,9", "-n", "200",
                        "--precision", "0.05", "-w", "1", "--json"])
    assert code == 0
    report = json.loads(out)
    assert report["runs"] > 200
    for variant in report["variants"]:
        assert variant["precision"]["reached"] is True
        assert variant["precision"]["half_width"] <= 0.05


def test_wilson_half_width_is_the_wider_side() -> None:
    low, high = wilson_interval(1, 100)
    assert half_width(0.01, (low, high)) == pytest.approx(high - 0.01)


def test_the_batch_path_keeps_the_same_fight_outcomes_as_the_engine() -> None:
    from fracas.sim.batch import run_chunk_batch
    from fracas.sim.fights import run_chunk

    spec = spec_from_scenario(load_scenario(CLAW))
    engine, batch = run_chunk(spec, 4, 100, 400), run_chunk_batch(spec, 4, 100, 400)
    assert len(engine.fight_outcomes()) == 300
    assert engine.fight_outcomes() == batch.fight_outcomes()


def test_fights_with_the_search_ai_report_progress_fight_by_fight() -> None:
    from fracas.scenario.seats import with_policies, with_search

    scenario = with_search(with_policies(load_scenario(CLAW), ["blue=search"]), rollouts=2)
    ticks: list[int] = []
    with InlineExecutor() as ex:
        simulate_many([spec_from_scenario(scenario)], 3, 0, ex, ticks.append)
    assert ticks == [1, 1, 1]
